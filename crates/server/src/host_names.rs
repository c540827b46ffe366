//! `DIR/hosts.toml` (docs/phone.md): the names the user added so a phone
//! reaches the loopback UI server through a tunnel, Tailscale Serve or an
//! SSH forward. Each is an exact `Host` value (a name, or a name and port),
//! so the DNS-rebinding check stays exact: nothing but the names listed is
//! admitted, and no pattern is.
//!
//! ```toml
//! names = ["laptop.tail1234.ts.net", "localhost:9000"]
//! ```

use std::path::Path;

use serde::Deserialize;

const FILE: &str = "hosts.toml";

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct HostsFile {
    #[serde(default)]
    names: Vec<String>,
}

/// The names of `DIR/hosts.toml`, lowercased; a missing file adds none, an
/// unreadable one or a name that is not a plain host (and port) is logged
/// and left out.
pub fn load(data_dir: &Path) -> Vec<String> {
    let path = data_dir.join(FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
        Err(error) => {
            tracing::warn!(%error, path = %path.display(), "the added host names cannot be read");
            return Vec::new();
        }
    };
    let file: HostsFile = match toml::from_str(&text) {
        Ok(file) => file,
        Err(error) => {
            tracing::warn!(%error, path = %path.display(), "the added host names are not valid");
            return Vec::new();
        }
    };
    file.names
        .into_iter()
        .filter(|name| {
            let plain = valid(name);
            if !plain {
                tracing::warn!(name, "an added host name is not a plain host, left out");
            }
            plain
        })
        .map(|name| name.to_ascii_lowercase())
        .collect()
}

/// A host name with an optional port: letters, digits, `-` and `.`, no
/// wildcard, no scheme, no path.
fn valid(name: &str) -> bool {
    let (host, port) = match name.rsplit_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (name, None),
    };
    let host_ok = !host.is_empty()
        && host.len() <= 253
        && host.split('.').all(|label| {
            !label.is_empty()
                && !label.starts_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        });
    host_ok && port.is_none_or(|port| port.parse::<u16>().is_ok_and(|p| p > 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listed_plain_names_are_read_and_others_left_out() {
        let dir = tempfile::tempdir().unwrap();
        assert!(load(dir.path()).is_empty());
        std::fs::write(
            dir.path().join(FILE),
            r#"names = ["Laptop.tail1234.ts.net", "localhost:9000", "*.evil.example", "http://x.example", "a.example:0", "b.example/path"]"#,
        )
        .unwrap();
        assert_eq!(
            load(dir.path()),
            ["laptop.tail1234.ts.net", "localhost:9000"]
        );
        std::fs::write(dir.path().join(FILE), "names = 3").unwrap();
        assert!(load(dir.path()).is_empty());
    }
}
