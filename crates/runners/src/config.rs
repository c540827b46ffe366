//! `DIR/runners.toml`: the runners a user declared.
//!
//! ```toml
//! ssh_config = "/home/me/.ssh/switchboard_config"   # optional: `ssh -F`
//!
//! [runners.devbox]
//! ssh = "alice@devbox.example:22"    # any destination the system's ssh accepts
//! max_sessions = 8                    # optional
//! labels = ["gpu", "big"]             # optional
//!
//! [listener]                          # optional: pool runners connect in
//! address = "0.0.0.0"                 # default
//! port = 19521                        # default
//! cert = "/etc/switchboard/runner.pem"  # with `key`; without both, a
//! key = "/etc/switchboard/runner.key"   # self-signed pair is made and kept
//! ```
//!
//! A bad file never stops the server: a syntax error makes one `invalid`
//! entry named after the file, a bad runner table makes that runner
//! `invalid`, each with the line and column; the rest stay usable.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The name of the built-in runner: this machine.
pub const LOCAL: &str = "local";
/// The name `POST /sessions` takes for "place it where there is room".
pub const AUTO: &str = "auto";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SshRunner {
    pub name: String,
    /// The destination as written.
    pub destination: String,
    pub max_sessions: Option<u32>,
    pub labels: Vec<String>,
}

impl SshRunner {
    /// The destination as `ssh` takes it: `user@host:port`, which the issue's
    /// examples use, becomes the `ssh://` form (ssh reads a bare `host:port`
    /// as a host name with a colon); anything else goes as written, so
    /// `~/.ssh/config` aliases work.
    pub fn ssh_destination(&self) -> String {
        let d = self.destination.trim();
        if d.starts_with("ssh://") {
            return d.to_owned();
        }
        match d.rsplit_once(':') {
            Some((host, port))
                if !host.is_empty()
                    && !host.contains(':')
                    && !port.is_empty()
                    && port.bytes().all(|b| b.is_ascii_digit()) =>
            {
                format!("ssh://{host}:{port}")
            }
            _ => d.to_owned(),
        }
    }
}

/// The runner listener's port unless `[listener]` names another.
pub const LISTENER_PORT: u16 = 19521;

/// Where pool runners connect: the one listener that may bind beyond
/// loopback.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listener {
    pub address: IpAddr,
    pub port: u16,
    pub tls: ListenerTls,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListenerTls {
    /// PEM files the user provides (a certificate chain and its key).
    Files { cert: PathBuf, key: PathBuf },
    /// A pair made on first start under `DIR/runners/`, which runners pin
    /// by fingerprint.
    SelfSigned,
}

/// One declaration that cannot be used, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    pub name: String,
    pub reason: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunnersFile {
    pub path: PathBuf,
    pub present: bool,
    /// `ssh -F` for every runner, when set.
    pub ssh_config: Option<PathBuf>,
    pub runners: Vec<SshRunner>,
    pub invalid: Vec<Invalid>,
    /// `[listener]`, when present and usable.
    pub listener: Option<Listener>,
    /// Why `[listener]` cannot be used.
    pub listener_error: Option<String>,
}

impl RunnersFile {
    pub fn names(&self) -> Vec<&str> {
        std::iter::once(LOCAL)
            .chain(self.runners.iter().map(|r| r.name.as_str()))
            .chain(self.invalid.iter().map(|r| r.name.as_str()))
            .collect()
    }

    pub fn runner(&self, name: &str) -> Option<&SshRunner> {
        self.runners.iter().find(|r| r.name == name)
    }
}

pub fn runners_path(data_dir: &Path) -> PathBuf {
    data_dir.join("runners.toml")
}

/// Reads `DIR/runners.toml`; a missing file declares no runner but `local`.
pub fn load(data_dir: &Path) -> RunnersFile {
    let path = runners_path(data_dir);
    match std::fs::read_to_string(&path) {
        Ok(text) => parse(&path, &text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => RunnersFile {
            path,
            ..RunnersFile::default()
        },
        Err(e) => RunnersFile {
            invalid: vec![Invalid {
                name: "runners.toml".to_owned(),
                reason: format!("{} cannot be read: {e}", path.display()),
            }],
            path,
            present: true,
            ..RunnersFile::default()
        },
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[serde(default)]
    ssh_config: Option<PathBuf>,
    #[serde(default)]
    runners: BTreeMap<String, toml::Spanned<toml::Value>>,
    #[serde(default)]
    listener: Option<toml::Spanned<toml::Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DeclaredListener {
    #[serde(default)]
    address: Option<String>,
    #[serde(default)]
    port: Option<u16>,
    #[serde(default)]
    cert: Option<PathBuf>,
    #[serde(default)]
    key: Option<PathBuf>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Declared {
    ssh: String,
    #[serde(default)]
    max_sessions: Option<u32>,
    #[serde(default)]
    labels: Vec<String>,
}

pub fn parse(path: &Path, text: &str) -> RunnersFile {
    let mut file = RunnersFile {
        path: path.to_owned(),
        present: true,
        ..RunnersFile::default()
    };
    let raw: Raw = match toml::from_str(text) {
        Ok(raw) => raw,
        Err(e) => {
            file.invalid.push(Invalid {
                name: "runners.toml".to_owned(),
                reason: one_line(&e.to_string()),
            });
            return file;
        }
    };
    if let Some(spanned) = raw.listener {
        let (line, column) = line_column(text, spanned.span().start);
        match listener(spanned.into_inner()) {
            Ok(listener) => file.listener = Some(listener),
            Err(reason) => {
                file.listener_error = Some(format!(
                    "runners.toml line {line}, column {column}: {reason}"
                ));
            }
        }
    }
    file.ssh_config = raw.ssh_config;
    for (name, spanned) in raw.runners {
        let (line, column) = line_column(text, spanned.span().start);
        let invalid = |reason: String| Invalid {
            name: name.clone(),
            reason: format!("runners.toml line {line}, column {column}: {reason}"),
        };
        if name == LOCAL || name == AUTO {
            file.invalid.push(invalid(format!(
                "`{name}` is a built-in name; choose another"
            )));
            continue;
        }
        if !valid_name(&name) {
            file.invalid.push(invalid(
                "a runner's name is letters, digits, `-` and `_`".to_owned(),
            ));
            continue;
        }
        match spanned.into_inner().try_into::<Declared>() {
            Ok(declared) if declared.ssh.trim().is_empty() || declared.ssh.starts_with('-') => {
                file.invalid.push(invalid(
                    "`ssh` must name a destination (and may not start with `-`)".to_owned(),
                ));
            }
            Ok(declared) if declared.max_sessions == Some(0) => {
                file.invalid
                    .push(invalid("`max_sessions` must be at least 1".to_owned()));
            }
            Ok(declared) => file.runners.push(SshRunner {
                name,
                destination: declared.ssh,
                max_sessions: declared.max_sessions,
                labels: declared.labels,
            }),
            Err(e) => file.invalid.push(invalid(one_line(e.message()))),
        }
    }
    file
}

fn listener(value: toml::Value) -> Result<Listener, String> {
    let declared: DeclaredListener = value.try_into().map_err(|e| one_line(e.message()))?;
    let address = match declared.address.as_deref() {
        None => IpAddr::from([0, 0, 0, 0]),
        Some(text) => text
            .parse()
            .map_err(|_| format!("`address` must be an IP address, not `{text}`"))?,
    };
    let tls = match (declared.cert, declared.key) {
        (Some(cert), Some(key)) => ListenerTls::Files { cert, key },
        (None, None) => ListenerTls::SelfSigned,
        _ => return Err("`cert` and `key` go together".to_owned()),
    };
    Ok(Listener {
        address,
        port: declared.port.unwrap_or(LISTENER_PORT),
        tls,
    })
}

/// Whether `name` may name a runner: what a spool's folder, a socket's
/// file and a metric's label can all hold.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('|') && *l != "^")
        .collect::<Vec<_>>()
        .join(" ")
}

/// 1-based line and column of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> RunnersFile {
        parse(Path::new("/d/runners.toml"), text)
    }

    #[test]
    fn a_runner_is_read_with_its_limits_and_labels() {
        let file = parsed(
            "[runners.devbox]\nssh = \"alice@devbox.example:22\"\nmax_sessions = 8\nlabels = [\"gpu\"]\n",
        );
        assert!(file.invalid.is_empty(), "{:?}", file.invalid);
        let devbox = &file.runners[0];
        assert_eq!(devbox.name, "devbox");
        assert_eq!(devbox.max_sessions, Some(8));
        assert_eq!(devbox.labels, ["gpu"]);
        assert_eq!(devbox.ssh_destination(), "ssh://alice@devbox.example:22");
        assert_eq!(file.names(), ["local", "devbox"]);
    }

    #[test]
    fn aliases_and_uris_go_to_ssh_as_written() {
        let runner = |d: &str| SshRunner {
            name: "r".into(),
            destination: d.into(),
            max_sessions: None,
            labels: Vec::new(),
        };
        assert_eq!(runner("devbox").ssh_destination(), "devbox");
        assert_eq!(runner("ssh://h:2222").ssh_destination(), "ssh://h:2222");
        assert_eq!(runner("a@h").ssh_destination(), "a@h");
        assert_eq!(runner("fe80::1").ssh_destination(), "fe80::1");
    }

    #[test]
    fn a_bad_table_makes_that_runner_invalid_with_its_line_and_column() {
        let file =
            parsed("[runners.good]\nssh = \"g\"\n\n[runners.bad]\nssh = \"b\"\nmax_sesions = 2\n");
        assert_eq!(file.runners.len(), 1);
        assert_eq!(file.invalid.len(), 1);
        let bad = &file.invalid[0];
        assert_eq!(bad.name, "bad");
        assert!(bad.reason.contains("line 4"), "{}", bad.reason);
        assert!(bad.reason.contains("max_sesions"), "{}", bad.reason);
    }

    #[test]
    fn a_syntax_error_is_one_invalid_entry_that_names_the_place() {
        let file = parsed("[runners.devbox\nssh = 1\n");
        assert!(file.runners.is_empty());
        assert_eq!(file.invalid[0].name, "runners.toml");
        assert!(
            file.invalid[0].reason.contains("line 1"),
            "{}",
            file.invalid[0].reason
        );
    }

    #[test]
    fn the_listener_is_read_with_its_defaults_and_a_half_pair_is_refused() {
        let file = parsed("[listener]\n");
        assert_eq!(
            file.listener,
            Some(Listener {
                address: IpAddr::from([0, 0, 0, 0]),
                port: LISTENER_PORT,
                tls: ListenerTls::SelfSigned,
            })
        );
        let file = parsed(
            "[listener]\naddress = \"127.0.0.1\"\nport = 7000\ncert = \"c.pem\"\nkey = \"k.pem\"\n",
        );
        let listener = file
            .listener
            .unwrap_or_else(|| panic!("{:?}", file.listener_error));
        assert_eq!(listener.port, 7000);
        assert!(matches!(listener.tls, ListenerTls::Files { .. }));
        let file = parsed("[runners.a]\nssh = \"a\"\n\n[listener]\ncert = \"c.pem\"\n");
        assert!(file.listener.is_none());
        let error = file.listener_error.unwrap_or_default();
        assert!(
            error.contains("line 4") && error.contains("go together"),
            "{error}"
        );
        assert_eq!(file.runners.len(), 1);
        assert!(parsed("").listener.is_none());
    }

    #[test]
    fn built_in_names_and_option_like_destinations_are_refused() {
        let file = parsed(
            "[runners.local]\nssh = \"h\"\n[runners.evil]\nssh = \"-oProxyCommand=x\"\n[runners.zero]\nssh = \"h\"\nmax_sessions = 0\n",
        );
        assert!(file.runners.is_empty());
        assert_eq!(file.invalid.len(), 3, "{:?}", file.invalid);
    }
}
