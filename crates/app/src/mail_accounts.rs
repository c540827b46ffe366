//! The mail client's accounts (docs/email.md, "Your own mail"): the ones
//! `DIR/email.toml` names, read-only here and listed as `toml:<address>`
//! while `mailclientUseAppWebmail` is on, and the ones the person adds
//! in the page, kept in `mailclient_accounts` with their password in the
//! owner's saved keys (`MAILCLIENT_<id>`), never shown again.
//!
//! `mailclient_arrivals` remembers the highest inbox UID the new-mail
//! checks have seen per account, `mailclient_known_senders` the senders the
//! person marked not-spam (`mail_arrivals.rs`), `mailclient_cleanup_kept`
//! the senders Email Cleanup keeps (`mail_cleanup.rs`).
//!
//! Each account's status (`pending` until the first login check, then
//! `ok` or `failing` with the server's words) lives in memory: a restart
//! checks every account again, so a stored status could only be stale.

use std::collections::HashMap;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use store::Db;
use store::rusqlite::{OptionalExtension, Row, params};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::mail_error::MailClientError;

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[
    store::Migration {
        feature: "mailclient_accounts",
        sql: "CREATE TABLE mailclient_accounts (
            id TEXT PRIMARY KEY,
            owner TEXT NOT NULL,
            name TEXT NOT NULL,
            address TEXT NOT NULL,
            username TEXT NOT NULL,
            imap_host TEXT NOT NULL,
            imap_port INTEGER NOT NULL,
            imap_tls TEXT NOT NULL,
            smtp_host TEXT NOT NULL,
            smtp_port INTEGER NOT NULL,
            smtp_tls TEXT NOT NULL,
            password_key TEXT NOT NULL,
            created_at TEXT NOT NULL
          ) STRICT;

          CREATE TABLE mailclient_arrivals (
            account TEXT PRIMARY KEY,
            uid_validity INTEGER,
            seen_uid INTEGER NOT NULL
          ) STRICT;

          CREATE TABLE mailclient_cleanup_kept (
            account TEXT NOT NULL,
            address TEXT NOT NULL,
            PRIMARY KEY (account, address)
          ) STRICT;

          CREATE TABLE mailclient_known_senders (
            account TEXT NOT NULL,
            address TEXT NOT NULL,
            PRIMARY KEY (account, address)
          ) STRICT;",
    },
    store::Migration {
        feature: "mailclient_catch_up",
        sql: "CREATE TABLE mailclient_catch_up (
            thread TEXT NOT NULL,
            asked TEXT NOT NULL,
            messages INTEGER NOT NULL,
            summary TEXT NOT NULL,
            PRIMARY KEY (thread, asked)
          ) STRICT;

          CREATE TABLE mailclient_label_summaries (
            thread TEXT PRIMARY KEY,
            newest_uid INTEGER NOT NULL
          ) STRICT;",
    },
];

/// The id prefix of an account `email.toml` names.
pub const TOML_PREFIX: &str = "toml:";
const MAX_NAME_CHARS: usize = 80;
const MAX_ADDRESS_CHARS: usize = 320;
const MAX_HOST_CHARS: usize = 253;

/// How a connection is secured: TLS from the first byte, STARTTLS, or
/// none (a server on this machine only, as `email.toml` allows).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MailTls {
    Tls,
    Starttls,
    None,
}

impl MailTls {
    fn as_str(self) -> &'static str {
        match self {
            MailTls::Tls => "tls",
            MailTls::Starttls => "starttls",
            MailTls::None => "none",
        }
    }

    fn parse(text: &str) -> MailTls {
        match text {
            "starttls" => MailTls::Starttls,
            "none" => MailTls::None,
            _ => MailTls::Tls,
        }
    }

    fn of(tls: mail::Tls) -> MailTls {
        match tls {
            mail::Tls::Implicit => MailTls::Tls,
            mail::Tls::Starttls => MailTls::Starttls,
            mail::Tls::None => MailTls::None,
        }
    }

    fn to_mail(self) -> mail::Tls {
        match self {
            MailTls::Tls => mail::Tls::Implicit,
            MailTls::Starttls => mail::Tls::Starttls,
            MailTls::None => mail::Tls::None,
        }
    }
}

/// Where one of an account's servers is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MailServer {
    pub host: String,
    pub port: u16,
    pub tls: MailTls,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MailStatus {
    Pending,
    Ok,
    Failing,
}

/// Where an account comes from: `email.toml` (read-only here) or the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MailAccountSource {
    Toml,
    Added,
}

/// An account as shown: never its password.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MailAccount {
    pub id: String,
    pub name: String,
    pub address: String,
    pub username: String,
    pub imap: MailServer,
    pub smtp: MailServer,
    pub status: MailStatus,
    /// The server's words when `failing`.
    pub failure: Option<String>,
    pub source: MailAccountSource,
}

/// An account to add, as the page sends it.
#[derive(Debug, Clone)]
pub struct NewMailAccount {
    pub name: String,
    pub address: String,
    pub username: String,
    pub password: String,
    pub imap: MailServer,
    pub smtp: MailServer,
}

/// What it takes to reach an account's servers.
#[derive(Debug, Clone)]
pub struct Reach {
    pub account: MailAccount,
    /// Both servers as the `mail` crate reads them.
    pub servers: mail::Account,
    pub imap_password: String,
    pub smtp_password: Option<String>,
    pub trust: mail::Trust,
    /// `email.toml`'s `ca_file`, trusted for SMTP as for IMAP.
    pub ca_pem: Option<Vec<u8>>,
}

impl Reach {
    pub fn login(&self) -> mailclient::Login {
        mailclient::Login {
            server: self.servers.imap.clone(),
            password: self.imap_password.clone(),
            trust: self.trust.clone(),
        }
    }
}

/// The accounts, their statuses and how to reach them.
pub struct MailAccounts {
    db: Arc<Db>,
    clock: Arc<dyn clock::Clock>,
    secrets: Arc<secrets::Secrets>,
    data_dir: PathBuf,
    statuses: Mutex<HashMap<String, (MailStatus, Option<String>)>>,
}

impl MailAccounts {
    pub fn new(
        db: Arc<Db>,
        clock: Arc<dyn clock::Clock>,
        secrets: Arc<secrets::Secrets>,
        data_dir: PathBuf,
    ) -> Self {
        MailAccounts {
            db,
            clock,
            secrets,
            data_dir,
            statuses: Mutex::default(),
        }
    }

    /// `email.toml`, or none when there is no such file or it cannot be
    /// read (the inbound email page says why).
    fn config(&self) -> Option<mail::Config> {
        mail::Config::load(&self.data_dir).ok()
    }

    /// Every account of `owner`: `email.toml`'s first (while `use_toml`),
    /// then the added ones, oldest first.
    pub fn list(&self, owner: &str, use_toml: bool) -> Result<Vec<MailAccount>, MailClientError> {
        let mut all: Vec<MailAccount> = match self.config() {
            Some(config) if use_toml => config.accounts.iter().map(toml_account).collect(),
            _ => Vec::new(),
        };
        all.extend(self.db.read(|tx| {
            let mut stmt = tx.prepare_cached(
                "SELECT id, name, address, username, imap_host, imap_port, imap_tls,
                        smtp_host, smtp_port, smtp_tls
                 FROM mailclient_accounts WHERE owner = ?1 ORDER BY created_at, id",
            )?;
            let rows = stmt.query_map(params![owner], added_account)?;
            rows.collect::<Result<Vec<_>, _>>()
                .map_err(MailClientError::from)
        })?);
        let statuses = lock(&self.statuses);
        for account in &mut all {
            if let Some((status, failure)) = statuses.get(&account.id) {
                account.status = *status;
                account.failure.clone_from(failure);
            }
        }
        Ok(all)
    }

    pub fn get(
        &self,
        owner: &str,
        id: &str,
        use_toml: bool,
    ) -> Result<MailAccount, MailClientError> {
        self.list(owner, use_toml)?
            .into_iter()
            .find(|a| a.id == id)
            .ok_or_else(|| MailClientError::NotFound(format!("No mail account is `{id}`.")))
    }

    /// Adds an account after checking every field; nothing is kept when a
    /// field is wrong.
    pub fn add(&self, owner: &str, new: NewMailAccount) -> Result<MailAccount, MailClientError> {
        let new = validate(new)?;
        let id = store::new_id();
        let key = format!("MAILCLIENT_{}", id.to_ascii_uppercase());
        self.secrets
            .save_key(owner, &key, &new.password)
            .map_err(|e| match e {
                secrets::SecretsError::InvalidValue => {
                    MailClientError::invalid("password", "must be 1 to 16384 bytes on one line")
                }
                other => other.into(),
            })?;
        let now = self.clock.timestamp();
        let inserted = self.db.write(|tx| {
            tx.execute(
                "INSERT INTO mailclient_accounts (id, owner, name, address, username,
                   imap_host, imap_port, imap_tls, smtp_host, smtp_port, smtp_tls,
                   password_key, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
                params![
                    id,
                    owner,
                    new.name,
                    new.address,
                    new.username,
                    new.imap.host,
                    new.imap.port,
                    new.imap.tls.as_str(),
                    new.smtp.host,
                    new.smtp.port,
                    new.smtp.tls.as_str(),
                    key,
                    now
                ],
            )
            .map_err(MailClientError::from)
        });
        if let Err(error) = inserted {
            let _ = self.secrets.delete_key(owner, &key);
            return Err(error);
        }
        self.get(owner, &id, false)
    }

    /// Removes an added account, its saved password and its synced mail.
    pub fn remove(&self, owner: &str, id: &str) -> Result<(), MailClientError> {
        if id.starts_with(TOML_PREFIX) {
            return Err(MailClientError::ReadOnly(
                "This account comes from email.toml: edit that file to remove it.".to_owned(),
            ));
        }
        let key: Option<String> = self.db.write(|tx| {
            let key = tx
                .query_row(
                    "SELECT password_key FROM mailclient_accounts WHERE owner = ?1 AND id = ?2",
                    params![owner, id],
                    |r| r.get(0),
                )
                .optional()?;
            tx.execute(
                "DELETE FROM mailclient_accounts WHERE owner = ?1 AND id = ?2",
                params![owner, id],
            )?;
            tx.execute(
                "DELETE FROM mailclient_folders WHERE account = ?1",
                params![id],
            )?;
            Ok::<_, MailClientError>(key)
        })?;
        let Some(key) = key else {
            return Err(MailClientError::NotFound(format!(
                "No mail account is `{id}`."
            )));
        };
        let _ = self.secrets.delete_key(owner, &key);
        lock(&self.statuses).remove(id);
        Ok(())
    }

    /// Records what the last login check found.
    pub fn set_status(&self, id: &str, status: MailStatus, failure: Option<String>) {
        lock(&self.statuses).insert(id.to_owned(), (status, failure));
    }

    /// The servers and passwords of account `id`.
    pub fn reach(&self, owner: &str, id: &str, use_toml: bool) -> Result<Reach, MailClientError> {
        let account = self.get(owner, id, use_toml)?;
        let config = self.config();
        let ca_pem = match config.as_ref().and_then(|c| c.ca_file.as_ref()) {
            Some(path) => Some(std::fs::read(path).map_err(|e| {
                MailClientError::Unreachable(format!("{} cannot be read: {e}", path.display()))
            })?),
            None => None,
        };
        let trust = mail::Trust::load(config.as_ref().unwrap_or(&mail::Config {
            accounts: Vec::new(),
            ca_file: None,
            poll_seconds: 60,
            folder: None,
            reports: None,
        }))?;
        let reveal = |key: &str| {
            self.secrets.reveal(owner, key).map_err(|e| {
                MailClientError::Unreachable(format!("the saved key {key} cannot be read: {e}"))
            })
        };
        let (servers, imap_password, smtp_password) = if let Some(address) =
            id.strip_prefix(TOML_PREFIX)
        {
            let servers = config
                .and_then(|c| c.accounts.into_iter().find(|a| a.address == address))
                .ok_or_else(|| MailClientError::NotFound(format!("No mail account is `{id}`.")))?;
            let imap_key = servers.imap.password_key.clone().ok_or_else(|| {
                MailClientError::Unreachable(format!(
                    "email.toml's imap server for {address} names no password_key"
                ))
            })?;
            let imap_password = reveal(&imap_key)?;
            let smtp_password = match servers.smtp.password_key.as_deref() {
                Some(key) => Some(reveal(key)?),
                None => None,
            };
            (servers, imap_password, smtp_password)
        } else {
            let key: String = self.db.read(|tx| {
                tx.query_row(
                    "SELECT password_key FROM mailclient_accounts WHERE owner = ?1 AND id = ?2",
                    params![owner, id],
                    |r| r.get(0),
                )
                .map_err(MailClientError::from)
            })?;
            let password = reveal(&key)?;
            let server = |s: &MailServer| mail::Server {
                host: s.host.clone(),
                port: s.port,
                tls: s.tls.to_mail(),
                username: Some(account.username.clone()),
                password_key: Some(key.clone()),
            };
            let servers = mail::Account {
                address: account.address.clone(),
                imap: server(&account.imap),
                smtp: server(&account.smtp),
            };
            (servers, password.clone(), Some(password))
        };
        Ok(Reach {
            account,
            servers,
            imap_password,
            smtp_password,
            trust,
            ca_pem,
        })
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn toml_account(account: &mail::Account) -> MailAccount {
    let server = |s: &mail::Server| MailServer {
        host: s.host.clone(),
        port: s.port,
        tls: MailTls::of(s.tls),
    };
    MailAccount {
        id: format!("{TOML_PREFIX}{}", account.address),
        name: account.address.clone(),
        address: account.address.clone(),
        username: account.imap.username.clone().unwrap_or_default(),
        imap: server(&account.imap),
        smtp: server(&account.smtp),
        status: MailStatus::Pending,
        failure: None,
        source: MailAccountSource::Toml,
    }
}

fn added_account(r: &Row<'_>) -> store::rusqlite::Result<MailAccount> {
    let tls = |i: usize| -> store::rusqlite::Result<MailTls> {
        Ok(MailTls::parse(&r.get::<_, String>(i)?))
    };
    Ok(MailAccount {
        id: r.get(0)?,
        name: r.get(1)?,
        address: r.get(2)?,
        username: r.get(3)?,
        imap: MailServer {
            host: r.get(4)?,
            port: r.get(5)?,
            tls: tls(6)?,
        },
        smtp: MailServer {
            host: r.get(7)?,
            port: r.get(8)?,
            tls: tls(9)?,
        },
        status: MailStatus::Pending,
        failure: None,
        source: MailAccountSource::Added,
    })
}

/// The account with its text trimmed, or the first field that is wrong.
fn validate(mut new: NewMailAccount) -> Result<NewMailAccount, MailClientError> {
    new.name = new.name.trim().to_owned();
    new.address = new.address.trim().to_owned();
    new.username = new.username.trim().to_owned();
    if new.name.is_empty()
        || new.name.chars().count() > MAX_NAME_CHARS
        || new.name.chars().any(char::is_control)
    {
        return Err(MailClientError::invalid(
            "name",
            format!("must be 1 to {MAX_NAME_CHARS} characters, without control characters"),
        ));
    }
    if !is_address(&new.address) {
        return Err(MailClientError::invalid(
            "address",
            "must be an email address such as you@example.com",
        ));
    }
    if new.username.is_empty()
        || new.username.chars().count() > MAX_ADDRESS_CHARS
        || new.username.chars().any(char::is_control)
    {
        return Err(MailClientError::invalid(
            "username",
            format!("must be 1 to {MAX_ADDRESS_CHARS} characters, without control characters"),
        ));
    }
    if new.password.is_empty() || new.password.contains(['\r', '\n']) {
        return Err(MailClientError::invalid(
            "password",
            "must be 1 to 16384 bytes on one line",
        ));
    }
    for (server, host, port, tls) in [
        (&mut new.imap, "imap.host", "imap.port", "imap.tls"),
        (&mut new.smtp, "smtp.host", "smtp.port", "smtp.tls"),
    ] {
        server.host = server.host.trim().to_ascii_lowercase();
        if !is_host(&server.host) {
            return Err(MailClientError::invalid(
                host,
                "must be a host name or an IP address",
            ));
        }
        if server.port == 0 {
            return Err(MailClientError::invalid(port, "must be 1 to 65535"));
        }
        if server.tls == MailTls::None && !is_loopback(&server.host) {
            return Err(MailClientError::invalid(
                tls,
                "\"none\" is allowed only for a server on this machine (localhost, 127.0.0.1, ::1)",
            ));
        }
    }
    Ok(new)
}

fn is_address(text: &str) -> bool {
    let Some((local, domain)) = text.rsplit_once('@') else {
        return false;
    };
    text.chars().count() <= MAX_ADDRESS_CHARS
        && !local.is_empty()
        && !text
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || "<>,;\"".contains(c))
        && is_host(domain)
}

fn is_host(host: &str) -> bool {
    if host.parse::<IpAddr>().is_ok() {
        return true;
    }
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    if bare != host {
        return bare.parse::<std::net::Ipv6Addr>().is_ok();
    }
    !host.is_empty()
        && host.len() <= MAX_HOST_CHARS
        && host.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
}

fn is_loopback(host: &str) -> bool {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    bare.eq_ignore_ascii_case("localhost")
        || bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// The mail client's state: accounts, store, and the sync loop's wake-up.
pub struct MailClient {
    pub accounts: MailAccounts,
    pub store: Arc<mailclient::MailStore>,
    pub syncer: mailclient::Syncer,
    pub(crate) wake: Arc<tokio::sync::Notify>,
}

impl MailClient {
    pub fn new(
        db: Arc<store::Db>,
        clock: Arc<dyn clock::Clock>,
        secrets: Arc<secrets::Secrets>,
        data_dir: std::path::PathBuf,
    ) -> Self {
        let store = Arc::new(mailclient::MailStore::new(db.clone()));
        MailClient {
            accounts: MailAccounts::new(db, clock, secrets, data_dir),
            syncer: mailclient::Syncer::new(store.clone()),
            store,
            wake: Arc::new(tokio::sync::Notify::new()),
        }
    }
}
