//! `DIR/push.toml` (docs/phone.md): what beyond the pushes that are always
//! sent (a session needing the user, alarms, alerts asked to be pushed) the
//! user chose to have pushed. A file rather than a setting: the settings
//! catalog is the spec's, and this choice is this server's own.

use std::path::Path;

use serde::Deserialize;

const FILE: &str = "push.toml";

/// The user's choices; a missing file chooses nothing extra.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choices {
    /// Each daily briefing, once posted, is pushed too.
    #[serde(default)]
    pub daily_briefing: bool,
}

impl Choices {
    /// Reads `DIR/push.toml`; a file that does not parse is an error naming
    /// the file and the reason, so a typo never silently chooses nothing.
    pub fn load(data_dir: &Path) -> Result<Choices, String> {
        let path = data_dir.join(FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Choices::default()),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_chooses_nothing_and_a_typo_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(Choices::load(dir.path()), Ok(Choices::default()));
        std::fs::write(dir.path().join(FILE), "daily_briefing = true\n").unwrap();
        assert_eq!(
            Choices::load(dir.path()),
            Ok(Choices {
                daily_briefing: true
            })
        );
        std::fs::write(dir.path().join(FILE), "daily_brefing = true\n").unwrap();
        let error = Choices::load(dir.path()).unwrap_err();
        assert!(error.contains("push.toml"), "{error}");
        assert!(error.contains("daily_brefing"), "{error}");
    }
}
