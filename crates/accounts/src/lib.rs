//! Accounts and the tokens that act for them.
//!
//! Every workspace, board, item, dashboard and session belongs to exactly one
//! account. The owner account exists from the first start; others are made by
//! the owner. A caller proves itself with one of three token kinds:
//!
//! - **cli**: an account's global token (the owner's also lives in
//!   `DIR/cli-token`, written by the binary);
//! - **agent**: minted for one spawned session, revoked when it ends;
//! - **ui**: the browser's session cookie, minted at `/login`.
//!
//! Tokens scoped to one job (being a pool runner, reading metrics) live
//! apart, in [`scoped`], and open no account.
//!
//! Only SHA-256 digests of tokens are stored. Lookups go by digest through an
//! in-memory index (tokens are few, requests many) and the final comparison
//! of digests is constant-time, so response timing says nothing about a
//! token's bytes.

pub mod scoped;

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use store::rusqlite::{self, OptionalExtension, params};
use store::{Db, Migration};
use subtle::ConstantTimeEq;

pub const MIGRATIONS: &[Migration] = &[
    Migration {
        feature: "accounts",
        sql: "CREATE TABLE accounts (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            is_owner INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL
          ) STRICT;
          CREATE UNIQUE INDEX one_owner ON accounts (is_owner) WHERE is_owner = 1;
          CREATE TABLE tokens (
            digest BLOB PRIMARY KEY,
            account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('cli', 'agent', 'ui')),
            session_id TEXT,
            created_at TEXT NOT NULL
          ) STRICT;
          CREATE INDEX tokens_by_session ON tokens (session_id) WHERE session_id IS NOT NULL;",
    },
    Migration {
        feature: "accounts",
        sql: "ALTER TABLE tokens ADD COLUMN read_only INTEGER NOT NULL DEFAULT 0;",
    },
];

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TokenKind {
    Cli,
    Agent,
    Ui,
}

impl TokenKind {
    pub fn as_str(self) -> &'static str {
        match self {
            TokenKind::Cli => "cli",
            TokenKind::Agent => "agent",
            TokenKind::Ui => "ui",
        }
    }

    fn parse(text: &str) -> Option<Self> {
        match text {
            "cli" => Some(TokenKind::Cli),
            "agent" => Some(TokenKind::Agent),
            "ui" => Some(TokenKind::Ui),
            _ => None,
        }
    }
}

/// Who a token speaks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    pub account_id: String,
    pub is_owner: bool,
    pub kind: TokenKind,
    /// The session an agent token was minted for.
    pub session_id: Option<String>,
    /// An agent token that may only read (the Ask tutor's): the server
    /// refuses it every method but `GET` and `HEAD`.
    pub read_only: bool,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct Account {
    pub id: String,
    pub name: String,
    #[serde(rename = "isOwner")]
    pub is_owner: bool,
    #[serde(rename = "createdAt")]
    pub created_at: String,
}

#[derive(Debug, thiserror::Error)]
pub enum AccountsError {
    #[error("the account name must be 1 to 100 characters")]
    InvalidName,
    #[error("the operating system's random source failed: {0}")]
    Random(String),
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<rusqlite::Error> for AccountsError {
    fn from(e: rusqlite::Error) -> Self {
        AccountsError::Store(e.into())
    }
}

type Digest32 = [u8; 32];

pub struct Accounts {
    db: Arc<Db>,
    by_digest: RwLock<HashMap<Digest32, Principal>>,
}

impl Accounts {
    /// Loads every live token into memory. Agent tokens of a previous run are
    /// dropped: their sessions' processes died with it, and a resumed session
    /// is given a fresh token.
    pub fn load(db: Arc<Db>) -> Result<Self, AccountsError> {
        db.write(|tx| tx.execute("DELETE FROM tokens WHERE kind = 'agent'", []))?;
        let entries = db.read(|tx| {
            let mut stmt = tx.prepare(
                "SELECT t.digest, t.account_id, a.is_owner, t.kind, t.session_id, t.read_only
                 FROM tokens t JOIN accounts a ON a.id = t.account_id",
            )?;
            let rows = stmt.query_map([], |row| {
                let digest: Vec<u8> = row.get(0)?;
                let kind: String = row.get(3)?;
                Ok((
                    digest,
                    Principal {
                        account_id: row.get(1)?,
                        is_owner: row.get::<_, i64>(2)? == 1,
                        kind: TokenKind::parse(&kind).unwrap_or(TokenKind::Ui),
                        session_id: row.get(4)?,
                        read_only: row.get::<_, i64>(5)? == 1,
                    },
                ))
            })?;
            rows.collect::<rusqlite::Result<Vec<_>>>()
        })?;
        let by_digest = entries
            .into_iter()
            .filter_map(|(digest, principal)| Some((Digest32::try_from(digest).ok()?, principal)))
            .collect();
        Ok(Self {
            db,
            by_digest: RwLock::new(by_digest),
        })
    }

    /// Makes sure the owner account exists and that `owner_token` is its cli
    /// token, returning the owner. The binary keeps that token in a file, so a
    /// database rebuilt beside an existing file keeps working with it.
    pub fn ensure_owner(&self, owner_token: &str) -> Result<Account, AccountsError> {
        let digest = digest(owner_token);
        let owner = self.db.write(|tx| {
            let existing = tx
                .query_row(
                    "SELECT id, name, created_at FROM accounts WHERE is_owner = 1",
                    [],
                    |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
                )
                .optional()?;
            let (id, name, created_at): (String, String, String) = match existing {
                Some(found) => found,
                None => {
                    let account = (store::new_id(), "owner".to_owned(), store::now_rfc3339());
                    tx.execute(
                        "INSERT INTO accounts (id, name, is_owner, created_at) VALUES (?1, ?2, 1, ?3)",
                        params![account.0, account.1, account.2],
                    )?;
                    account
                }
            };
            tx.execute(
                "DELETE FROM tokens WHERE account_id = ?1 AND kind = 'cli' AND digest != ?2",
                params![id, digest.as_slice()],
            )?;
            tx.execute(
                "INSERT OR IGNORE INTO tokens (digest, account_id, kind, created_at) VALUES (?1, ?2, 'cli', ?3)",
                params![digest.as_slice(), id, store::now_rfc3339()],
            )?;
            Ok::<_, AccountsError>(Account {
                id,
                name,
                is_owner: true,
                created_at,
            })
        })?;
        let mut index = self.index_mut();
        index.retain(|_, p| !(p.account_id == owner.id && p.kind == TokenKind::Cli));
        index.insert(
            digest,
            Principal {
                account_id: owner.id.clone(),
                is_owner: true,
                kind: TokenKind::Cli,
                session_id: None,
                read_only: false,
            },
        );
        Ok(owner)
    }

    /// Creates a non-owner account and returns it with its new cli token.
    pub fn create_account(&self, name: &str) -> Result<(Account, String), AccountsError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 100 {
            return Err(AccountsError::InvalidName);
        }
        let account = Account {
            id: store::new_id(),
            name: name.to_owned(),
            is_owner: false,
            created_at: store::now_rfc3339(),
        };
        let token = new_token()?;
        self.db.write(|tx| {
            tx.execute(
                "INSERT INTO accounts (id, name, is_owner, created_at) VALUES (?1, ?2, 0, ?3)",
                params![account.id, account.name, account.created_at],
            )?;
            insert_token(tx, &token, &account.id, TokenKind::Cli, None, false)
        })?;
        self.remember(&token, &account.id, false, TokenKind::Cli, None, false);
        Ok((account, token))
    }

    /// Mints the scoped token a spawned session acts with; `read_only`
    /// marks it, stored with it, as one that may only read.
    pub fn mint_agent_token(
        &self,
        account_id: &str,
        session_id: &str,
        read_only: bool,
    ) -> Result<String, AccountsError> {
        self.mint(account_id, TokenKind::Agent, Some(session_id), read_only)
    }

    /// Mints a browser session for the account (the ui cookie's value).
    pub fn mint_ui_token(&self, account_id: &str) -> Result<String, AccountsError> {
        self.mint(account_id, TokenKind::Ui, None, false)
    }

    /// Ends every token minted for the session, at once.
    pub fn revoke_session(&self, session_id: &str) -> Result<(), AccountsError> {
        self.db
            .write(|tx| tx.execute("DELETE FROM tokens WHERE session_id = ?1", [session_id]))?;
        self.index_mut()
            .retain(|_, p| p.session_id.as_deref() != Some(session_id));
        Ok(())
    }

    /// Who `token` speaks for, if anyone.
    pub fn authenticate(&self, token: &str) -> Option<Principal> {
        let wanted = digest(token);
        let index = self.by_digest.read().unwrap_or_else(|p| p.into_inner());
        let (stored, principal) = index.get_key_value(&wanted)?;
        bool::from(stored.ct_eq(&wanted)).then(|| principal.clone())
    }

    pub fn list(&self) -> Result<Vec<Account>, AccountsError> {
        Ok(self.db.read(|tx| {
            let mut stmt = tx.prepare(
                "SELECT id, name, is_owner, created_at FROM accounts ORDER BY created_at",
            )?;
            let rows = stmt.query_map([], |row| {
                Ok(Account {
                    id: row.get(0)?,
                    name: row.get(1)?,
                    is_owner: row.get::<_, i64>(2)? == 1,
                    created_at: row.get(3)?,
                })
            })?;
            rows.collect::<rusqlite::Result<Vec<_>>>()
        })?)
    }

    fn mint(
        &self,
        account_id: &str,
        kind: TokenKind,
        session_id: Option<&str>,
        read_only: bool,
    ) -> Result<String, AccountsError> {
        let token = new_token()?;
        let is_owner = self.db.write(|tx| {
            insert_token(tx, &token, account_id, kind, session_id, read_only)?;
            tx.query_row(
                "SELECT is_owner FROM accounts WHERE id = ?1",
                [account_id],
                |row| row.get::<_, i64>(0),
            )
        })? == 1;
        self.remember(&token, account_id, is_owner, kind, session_id, read_only);
        Ok(token)
    }

    fn remember(
        &self,
        token: &str,
        account_id: &str,
        is_owner: bool,
        kind: TokenKind,
        session_id: Option<&str>,
        read_only: bool,
    ) {
        self.index_mut().insert(
            digest(token),
            Principal {
                account_id: account_id.to_owned(),
                is_owner,
                kind,
                session_id: session_id.map(str::to_owned),
                read_only,
            },
        );
    }

    fn index_mut(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<Digest32, Principal>> {
        self.by_digest.write().unwrap_or_else(|p| p.into_inner())
    }
}

fn insert_token(
    tx: &rusqlite::Transaction<'_>,
    token: &str,
    account_id: &str,
    kind: TokenKind,
    session_id: Option<&str>,
    read_only: bool,
) -> rusqlite::Result<usize> {
    tx.execute(
        "INSERT INTO tokens (digest, account_id, kind, session_id, created_at, read_only)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            digest(token).as_slice(),
            account_id,
            kind.as_str(),
            session_id,
            store::now_rfc3339(),
            i64::from(read_only)
        ],
    )
}

fn digest(token: &str) -> Digest32 {
    store::secret_digest(token)
}

/// The owner account, read without loading the token index (for local
/// maintenance commands that run beside a live server).
pub fn owner(db: &Db) -> Result<Option<Account>, AccountsError> {
    Ok(db.read(|tx| {
        tx.query_row(
            "SELECT id, name, created_at FROM accounts WHERE is_owner = 1",
            [],
            |row| {
                Ok(Account {
                    id: row.get(0)?,
                    name: row.get(1)?,
                    is_owner: true,
                    created_at: row.get(2)?,
                })
            },
        )
        .optional()
    })?)
}

/// 256 bits from the OS random source, URL-safe base64 without padding.
pub fn new_token() -> Result<String, AccountsError> {
    store::new_secret().map_err(|e| AccountsError::Random(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accounts() -> (tempfile::TempDir, Arc<Db>, Accounts) {
        let dir = tempfile::tempdir().unwrap();
        let db = Arc::new(Db::open(&dir.path().join("db.sqlite")).unwrap());
        db.migrate(MIGRATIONS).unwrap();
        let accounts = Accounts::load(db.clone()).unwrap();
        (dir, db, accounts)
    }

    #[test]
    fn tokens_are_long_random_and_url_safe() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_ne!(a, b);
        assert_eq!(a.len(), 43);
        assert!(
            a.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        );
    }

    #[test]
    fn owner_token_authenticates_and_survives_reload() {
        let (_dir, db, accounts) = accounts();
        let token = new_token().unwrap();
        let owner = accounts.ensure_owner(&token).unwrap();
        let principal = accounts.authenticate(&token).unwrap();
        assert_eq!(principal.account_id, owner.id);
        assert!(principal.is_owner);
        assert_eq!(principal.kind, TokenKind::Cli);
        assert!(accounts.authenticate("wrong").is_none());

        let reloaded = Accounts::load(db).unwrap();
        assert_eq!(reloaded.authenticate(&token).unwrap().account_id, owner.id);
        assert_eq!(reloaded.ensure_owner(&token).unwrap().id, owner.id);
    }

    #[test]
    fn a_replaced_owner_token_file_retires_the_old_token() {
        let (_dir, _db, accounts) = accounts();
        let old = new_token().unwrap();
        let new = new_token().unwrap();
        accounts.ensure_owner(&old).unwrap();
        accounts.ensure_owner(&new).unwrap();
        assert!(accounts.authenticate(&old).is_none());
        assert!(accounts.authenticate(&new).is_some());
    }

    #[test]
    fn tokens_are_stored_only_as_digests() {
        let (_dir, db, accounts) = accounts();
        let token = new_token().unwrap();
        accounts.ensure_owner(&token).unwrap();
        let (_, other) = accounts.create_account("second").unwrap();
        let stored: Vec<Vec<u8>> = db
            .read(|tx| {
                let mut stmt = tx.prepare("SELECT digest FROM tokens")?;
                let rows = stmt.query_map([], |r| r.get(0))?;
                rows.collect::<rusqlite::Result<Vec<_>>>()
            })
            .unwrap();
        assert_eq!(stored.len(), 2);
        for bytes in stored {
            assert_eq!(bytes.len(), 32);
            assert_ne!(bytes, token.as_bytes());
            assert_ne!(bytes, other.as_bytes());
        }
    }

    #[test]
    fn agent_tokens_die_with_their_session_and_with_the_process() {
        let (_dir, db, accounts) = accounts();
        let owner = accounts.ensure_owner(&new_token().unwrap()).unwrap();
        let one = accounts.mint_agent_token(&owner.id, "s1", false).unwrap();
        let two = accounts.mint_agent_token(&owner.id, "s2", false).unwrap();
        let principal = accounts.authenticate(&one).unwrap();
        assert_eq!(principal.kind, TokenKind::Agent);
        assert_eq!(principal.session_id.as_deref(), Some("s1"));
        accounts.revoke_session("s1").unwrap();
        assert!(accounts.authenticate(&one).is_none());
        assert!(accounts.authenticate(&two).is_some());
        let reloaded = Accounts::load(db).unwrap();
        assert!(reloaded.authenticate(&two).is_none());
    }

    #[test]
    fn other_accounts_are_not_owners() {
        let (_dir, _db, accounts) = accounts();
        accounts.ensure_owner(&new_token().unwrap()).unwrap();
        let (account, token) = accounts.create_account("  team  ").unwrap();
        assert_eq!(account.name, "team");
        let principal = accounts.authenticate(&token).unwrap();
        assert!(!principal.is_owner);
        assert!(matches!(
            accounts.create_account(" "),
            Err(AccountsError::InvalidName)
        ));
        let ui = accounts.mint_ui_token(&account.id).unwrap();
        assert_eq!(accounts.authenticate(&ui).unwrap().kind, TokenKind::Ui);
        assert_eq!(accounts.list().unwrap().len(), 2);
    }

    #[test]
    fn a_read_only_agent_token_says_so_and_others_do_not() {
        let (_dir, _db, accounts) = accounts();
        let owner = accounts.ensure_owner(&new_token().unwrap()).unwrap();
        let reader = accounts.mint_agent_token(&owner.id, "ask", true).unwrap();
        let writer = accounts.mint_agent_token(&owner.id, "work", false).unwrap();
        assert!(accounts.authenticate(&reader).unwrap().read_only);
        assert!(!accounts.authenticate(&writer).unwrap().read_only);
    }
}
