//! `DIR/email.toml`: the mail accounts, where their servers are and which
//! saved keys hold their passwords; and `emailInboundInboxId`, which picks
//! the account and mailbox to watch.
//!
//! ```toml
//! poll_seconds = 60            # when the server has no IDLE
//! ca_file = "/etc/ssl/my-ca.pem" # extra roots, for a self-signed server
//!
//! [[accounts]]
//! address = "agent@example.com"
//! imap = { host = "imap.example.com", port = 993, tls = "implicit", username = "agent@example.com", password_key = "MAIL_PASSWORD" }
//! smtp = { host = "smtp.example.com", port = 587, tls = "starttls", username = "agent@example.com", password_key = "MAIL_PASSWORD" }
//! ```

use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::MailError;

pub const CONFIG_FILE: &str = "email.toml";
pub const DEFAULT_MAILBOX: &str = "INBOX";
const DEFAULT_POLL_SECONDS: u64 = 60;

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub accounts: Vec<Account>,
    /// PEM certificates trusted besides the public roots.
    #[serde(default)]
    pub ca_file: Option<PathBuf>,
    #[serde(default = "default_poll_seconds")]
    pub poll_seconds: u64,
    /// Where email-triggered sessions work (absolute): each mail that
    /// starts one gets a folder of its own under it, with its attachments.
    #[serde(default)]
    pub folder: Option<PathBuf>,
    /// Where Switchboard's own reports go (docs/diagnostics.md); none
    /// keeps them on this machine.
    #[serde(default)]
    pub reports: Option<Reports>,
}

/// `[reports]`: the address feedback, crash mails and the weekly digest go
/// to, and the account that sends them (its address; the first account
/// when left out).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reports {
    pub to: String,
    #[serde(default)]
    pub from: Option<String>,
}

impl Config {
    /// The account reports are sent from and the address they go to, when
    /// `[reports]` names one.
    pub fn reports_route(&self) -> Option<(&Account, &str)> {
        let reports = self.reports.as_ref()?;
        let account = match &reports.from {
            Some(from) => self
                .accounts
                .iter()
                .find(|a| a.address.trim().eq_ignore_ascii_case(from.trim()))?,
            None => self.accounts.first()?,
        };
        Some((account, reports.to.trim()))
    }
}

fn default_poll_seconds() -> u64 {
    DEFAULT_POLL_SECONDS
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Account {
    /// The address mail comes to and replies go from.
    pub address: String,
    pub imap: Server,
    pub smtp: Server,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Server {
    pub host: String,
    pub port: u16,
    pub tls: Tls,
    /// Required for IMAP; for SMTP, absent means no authentication.
    #[serde(default)]
    pub username: Option<String>,
    /// The saved key (`PUT /keys/<name>`) holding the password or app token.
    #[serde(default)]
    pub password_key: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tls {
    /// TLS from the first byte (IMAP 993, SMTP 465).
    Implicit,
    /// Plain text upgraded with STARTTLS (IMAP 143, SMTP 587); refused without it.
    Starttls,
    /// No TLS at all: only for a server on this machine.
    None,
}

impl Server {
    /// The login, when the server wants one: `(username, saved key name)`.
    pub fn login(&self) -> Option<(&str, &str)> {
        Some((self.username.as_deref()?, self.password_key.as_deref()?))
    }

    fn check(&self, what: &str) -> Result<(), String> {
        if self.host.trim().is_empty() {
            return Err(format!("{what}.host is empty"));
        }
        if self.tls == Tls::None && !is_loopback(&self.host) {
            return Err(format!(
                "{what}.tls = \"none\" is allowed only for a server on this machine (localhost, 127.0.0.1, ::1), not {}",
                self.host
            ));
        }
        match (&self.username, &self.password_key) {
            (Some(_), Some(key)) if key.trim().is_empty() => {
                Err(format!("{what}.password_key must name a saved key"))
            }
            (Some(_), Some(_)) | (None, None) => Ok(()),
            _ => Err(format!(
                "{what} needs both username and password_key, or neither"
            )),
        }
    }
}

fn is_loopback(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

impl Config {
    /// Reads `DIR/email.toml`; a missing file means email is not set up.
    pub fn load(data_dir: &Path) -> Result<Config, MailError> {
        let path = data_dir.join(CONFIG_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(MailError::NotConfigured(format!(
                    "write {} with one [[accounts]] entry (docs/email.md)",
                    path.display()
                )));
            }
            Err(e) => {
                return Err(MailError::BadConfig {
                    path: path.display().to_string(),
                    detail: e.to_string(),
                });
            }
        };
        Config::parse(&text).map_err(|detail| MailError::BadConfig {
            path: path.display().to_string(),
            detail,
        })
    }

    /// Reads and checks the file's text.
    pub fn parse(text: &str) -> Result<Config, String> {
        let config: Config = toml::from_str(text).map_err(|e| e.to_string())?;
        if config.accounts.is_empty() {
            return Err("at least one [[accounts]] entry is needed".to_owned());
        }
        if config.poll_seconds == 0 {
            return Err("poll_seconds must be at least 1".to_owned());
        }
        if config.folder.as_deref().is_some_and(|f| !f.is_absolute()) {
            return Err("folder must be an absolute path".to_owned());
        }
        for account in &config.accounts {
            let address = account.address.trim();
            if address.is_empty() || !address.contains('@') || address.contains('/') {
                return Err(format!("{:?} is not a mail address", account.address));
            }
            account.imap.check("imap")?;
            if account.imap.login().is_none() {
                return Err(format!(
                    "account {address}: imap needs username and password_key"
                ));
            }
            account.smtp.check("smtp")?;
        }
        if let Some(reports) = &config.reports {
            let to = reports.to.trim();
            if to.is_empty() || !to.contains('@') || to.contains(char::is_whitespace) {
                return Err(format!(
                    "[reports] to = {:?} is not a mail address",
                    reports.to
                ));
            }
            if config.reports_route().is_none() {
                return Err(format!(
                    "[reports] from = {:?} is none of the accounts' addresses",
                    reports.from.as_deref().unwrap_or("")
                ));
            }
        }
        Ok(config)
    }

    pub fn poll_interval(&self) -> Duration {
        Duration::from_secs(self.poll_seconds)
    }
}

/// The account and mailbox `emailInboundInboxId` names.
#[derive(Debug, Clone, PartialEq)]
pub struct Inbox {
    pub account: Account,
    pub mailbox: String,
}

/// Finds what `emailInboundInboxId` names: `address` (its INBOX) or
/// `address/Mailbox`, the address compared without regard to case. Empty
/// names the only account, when there is exactly one.
pub fn resolve_inbox(config: &Config, id: &str) -> Result<Inbox, MailError> {
    let unknown = |detail: String| MailError::UnknownInbox {
        id: id.to_owned(),
        detail,
    };
    let trimmed = id.trim();
    let (address, mailbox) = match trimmed.split_once('/') {
        Some((address, mailbox)) => (address.trim(), mailbox.trim()),
        None => (trimmed, DEFAULT_MAILBOX),
    };
    if mailbox.is_empty() {
        return Err(unknown("the mailbox after '/' is empty".to_owned()));
    }
    let account = if address.is_empty() {
        match config.accounts.as_slice() {
            [only] => only,
            _ => {
                return Err(unknown(
                    "email.toml has several accounts: name one by its address".to_owned(),
                ));
            }
        }
    } else {
        config
            .accounts
            .iter()
            .find(|a| a.address.trim().eq_ignore_ascii_case(address))
            .ok_or_else(|| {
                let known: Vec<&str> = config.accounts.iter().map(|a| a.address.as_str()).collect();
                unknown(format!(
                    "no account of email.toml has this address (it has {})",
                    known.join(", ")
                ))
            })?
    };
    Ok(Inbox {
        account: account.clone(),
        mailbox: mailbox.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: &str = r#"
        [[accounts]]
        address = "Agent@Example.com"
        imap = { host = "imap.example.com", port = 993, tls = "implicit", username = "agent", password_key = "MAIL_PW" }
        smtp = { host = "smtp.example.com", port = 587, tls = "starttls", username = "agent", password_key = "MAIL_PW" }
    "#;

    #[test]
    fn a_config_names_its_password_never_holds_it() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            Config::load(dir.path()),
            Err(MailError::NotConfigured(_))
        ));
        std::fs::write(dir.path().join(CONFIG_FILE), ONE).unwrap();
        let config = Config::load(dir.path()).unwrap();
        assert_eq!(config.poll_seconds, 60);
        assert_eq!(config.accounts[0].imap.login(), Some(("agent", "MAIL_PW")));
        let with_password = ONE.replace("password_key = \"MAIL_PW\" }", "password = \"x\" }");
        std::fs::write(dir.path().join(CONFIG_FILE), with_password).unwrap();
        assert!(matches!(
            Config::load(dir.path()),
            Err(MailError::BadConfig { .. })
        ));
    }

    #[test]
    fn plain_text_is_only_for_this_machine() {
        let remote = ONE.replace("tls = \"implicit\"", "tls = \"none\"");
        assert!(Config::parse(&remote).unwrap_err().contains("imap.tls"));
        for host in ["127.0.0.1", "localhost", "::1", "[::1]"] {
            let local = remote.replace("imap.example.com", host);
            assert!(Config::parse(&local).is_ok(), "{host}");
        }
        let smtp_half = ONE.replace(
            "tls = \"starttls\", username = \"agent\", password_key = \"MAIL_PW\"",
            "tls = \"starttls\", username = \"agent\"",
        );
        assert!(
            Config::parse(&smtp_half)
                .unwrap_err()
                .contains("smtp needs both")
        );
        let no_smtp_login = ONE.replace(
            "tls = \"starttls\", username = \"agent\", password_key = \"MAIL_PW\"",
            "tls = \"starttls\"",
        );
        assert!(Config::parse(&no_smtp_login).is_ok());
    }

    #[test]
    fn the_inbox_id_names_an_account_and_a_mailbox() {
        let mut config = Config::parse(ONE).unwrap();
        let inbox = resolve_inbox(&config, "agent@example.com").unwrap();
        assert_eq!(inbox.mailbox, "INBOX");
        let inbox = resolve_inbox(&config, "AGENT@example.com/Agents").unwrap();
        assert_eq!(
            (inbox.account.address.as_str(), inbox.mailbox.as_str()),
            ("Agent@Example.com", "Agents")
        );
        assert_eq!(resolve_inbox(&config, "").unwrap().mailbox, "INBOX");
        assert!(matches!(
            resolve_inbox(&config, "other@example.com"),
            Err(MailError::UnknownInbox { .. })
        ));
        assert!(resolve_inbox(&config, "agent@example.com/").is_err());
        let mut second = config.accounts[0].clone();
        second.address = "two@example.com".to_owned();
        config.accounts.push(second);
        assert!(resolve_inbox(&config, "").is_err());
        assert_eq!(
            resolve_inbox(&config, "two@example.com")
                .unwrap()
                .account
                .address,
            "two@example.com"
        );
    }
}
