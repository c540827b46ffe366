//! The data directory's permissions: the folder owner-only (0700), and the
//! files that hold credentials (`cli-token`, `secrets.key`) 0600, both
//! owned by the user running Switchboard.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

/// The files that hold credentials: the owner's token, the key that seals
/// saved keys.
const CREDENTIALS: [&str; 2] = ["cli-token", secrets::KEY_FILE];

#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DataDir {
    pub path: String,
    /// `false` until the first `switchboard serve` creates it.
    pub exists: bool,
    /// Its mode, as `0700`.
    pub mode: Option<String>,
    /// Owned by this user and closed to everyone else.
    pub owner_only: Option<bool>,
    pub files: Vec<DataFile>,
}

#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DataFile {
    pub name: String,
    pub present: bool,
    pub mode: Option<String>,
    pub owner_only: Option<bool>,
}

impl DataDir {
    pub(crate) fn warnings(&self) -> Vec<String> {
        let mut warnings = Vec::new();
        if self.owner_only == Some(false) {
            warnings.push(format!(
                "The data directory {} is open to others (mode {}, or not yours): `chmod 700` it, \
                 as its own user.",
                self.path,
                self.mode.as_deref().unwrap_or("unknown")
            ));
        }
        for file in &self.files {
            if file.owner_only == Some(false) {
                warnings.push(format!(
                    "{} in the data directory is open to others (mode {}, or not yours): \
                     `chmod 600` it.",
                    file.name,
                    file.mode.as_deref().unwrap_or("unknown")
                ));
            }
        }
        warnings
    }
}

pub(crate) fn examine(dir: &Path) -> DataDir {
    let metadata = std::fs::metadata(dir).ok();
    let files = CREDENTIALS
        .iter()
        .map(|name| {
            let metadata = std::fs::symlink_metadata(dir.join(name)).ok();
            DataFile {
                name: (*name).to_owned(),
                present: metadata.is_some(),
                mode: metadata.as_ref().map(|m| octal(m.mode())),
                owner_only: metadata.as_ref().map(|m| m.is_file() && private(m)),
            }
        })
        .collect();
    DataDir {
        path: dir.display().to_string(),
        exists: metadata.is_some(),
        mode: metadata.as_ref().map(|m| octal(m.mode())),
        owner_only: metadata.as_ref().map(|m| m.is_dir() && private(m)),
        files,
    }
}

/// A file mode as people write it: `0700`.
fn octal(mode: u32) -> String {
    format!("{:04o}", mode & 0o7777)
}

/// Owned by the user this process runs as, and nothing for group or others.
fn private(metadata: &std::fs::Metadata) -> bool {
    // SAFETY: geteuid cannot fail.
    let me = unsafe { libc::geteuid() };
    metadata.uid() == me && metadata.mode() & 0o077 == 0
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn chmod(path: &Path, mode: u32) {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn loose_modes_are_named() {
        let parent = tempfile::tempdir().unwrap();
        let dir = parent.path().join("data");
        let missing = examine(&dir);
        assert!(!missing.exists);
        assert_eq!(missing.owner_only, None);
        assert!(missing.warnings().is_empty());

        std::fs::create_dir(&dir).unwrap();
        chmod(&dir, 0o700);
        std::fs::write(dir.join("cli-token"), "t\n").unwrap();
        chmod(&dir.join("cli-token"), 0o600);
        let tight = examine(&dir);
        assert_eq!(tight.mode.as_deref(), Some("0700"));
        assert_eq!(tight.owner_only, Some(true));
        assert_eq!(tight.files[0].owner_only, Some(true));
        assert!(!tight.files[1].present);
        assert!(tight.warnings().is_empty());

        chmod(&dir, 0o755);
        chmod(&dir.join("cli-token"), 0o644);
        let loose = examine(&dir);
        assert_eq!(loose.mode.as_deref(), Some("0755"));
        assert_eq!(loose.owner_only, Some(false));
        assert_eq!(loose.files[0].mode.as_deref(), Some("0644"));
        let warnings = loose.warnings();
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].contains("chmod 700"));
        assert!(warnings[1].starts_with("cli-token"));
    }
}
