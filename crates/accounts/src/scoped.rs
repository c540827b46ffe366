//! Tokens that may do one thing and nothing else: be a pool runner (connect
//! to the runner listener) or read `/metrics`.
//!
//! They live apart from the account tokens on purpose: `Accounts::authenticate`
//! never sees them, so no API route can be opened with one, whatever a route's
//! extractor says. Only digests are stored; revoking one answers at once and
//! the caller closes what the token had opened.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use store::rusqlite::{self, params};
use store::{Db, Migration};
use subtle::ConstantTimeEq;

use crate::{AccountsError, Digest32, digest, new_token};

pub const MIGRATIONS: &[Migration] = &[Migration {
    feature: "scoped_tokens",
    sql: "CREATE TABLE scoped_tokens (
            id TEXT PRIMARY KEY,
            scope TEXT NOT NULL CHECK (scope IN ('runner', 'metrics')),
            name TEXT NOT NULL,
            digest BLOB NOT NULL UNIQUE,
            created_at TEXT NOT NULL
          ) STRICT;",
}];

/// What a scoped token may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    Runner,
    Metrics,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Runner => "runner",
            Scope::Metrics => "metrics",
        }
    }
}

/// A scoped token as its owner sees it: never the token itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopedToken {
    pub id: String,
    pub scope: Scope,
    pub name: String,
    pub created_at: String,
}

#[derive(Debug, Clone)]
struct Entry {
    id: String,
    scope: Scope,
}

pub struct ScopedTokens {
    db: Arc<Db>,
    by_digest: RwLock<HashMap<Digest32, Entry>>,
}

impl ScopedTokens {
    pub fn load(db: Arc<Db>) -> Result<Self, AccountsError> {
        let entries = db.read(|tx| {
            let mut stmt = tx.prepare("SELECT digest, id, scope FROM scoped_tokens")?;
            let rows = stmt.query_map([], |row| {
                let digest: Vec<u8> = row.get(0)?;
                let scope: String = row.get(2)?;
                Ok((digest, row.get::<_, String>(1)?, scope))
            })?;
            rows.collect::<rusqlite::Result<Vec<_>>>()
        })?;
        let by_digest = entries
            .into_iter()
            .filter_map(|(bytes, id, scope)| {
                let digest = Digest32::try_from(bytes.as_slice()).ok()?;
                Some((
                    digest,
                    Entry {
                        id,
                        scope: parse_scope(&scope)?,
                    },
                ))
            })
            .collect();
        Ok(ScopedTokens {
            db,
            by_digest: RwLock::new(by_digest),
        })
    }

    /// A new token for `scope`, named so its owner can tell tokens apart.
    /// The token is returned once and never stored.
    pub fn mint(&self, scope: Scope, name: &str) -> Result<(ScopedToken, String), AccountsError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 100 {
            return Err(AccountsError::InvalidName);
        }
        let token = new_token()?;
        let record = ScopedToken {
            id: store::new_id(),
            scope,
            name: name.to_owned(),
            created_at: store::now_rfc3339(),
        };
        self.db.write(|tx| {
            tx.execute(
                "INSERT INTO scoped_tokens (id, scope, name, digest, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    record.id,
                    scope.as_str(),
                    record.name,
                    digest(&token).as_slice(),
                    record.created_at
                ],
            )
        })?;
        self.index_mut().insert(
            digest(&token),
            Entry {
                id: record.id.clone(),
                scope,
            },
        );
        Ok((record, token))
    }

    /// Every token of `scope`, oldest first.
    pub fn list(&self, scope: Scope) -> Result<Vec<ScopedToken>, AccountsError> {
        Ok(self.db.read(|tx| {
            let mut stmt = tx.prepare(
                "SELECT id, name, created_at FROM scoped_tokens WHERE scope = ?1
                 ORDER BY created_at, id",
            )?;
            let rows = stmt.query_map([scope.as_str()], |row| {
                Ok(ScopedToken {
                    id: row.get(0)?,
                    scope,
                    name: row.get(1)?,
                    created_at: row.get(2)?,
                })
            })?;
            rows.collect::<rusqlite::Result<Vec<_>>>()
        })?)
    }

    /// Ends token `id` of `scope`; false when there is none.
    pub fn revoke(&self, scope: Scope, id: &str) -> Result<bool, AccountsError> {
        let removed = self.db.write(|tx| {
            tx.execute(
                "DELETE FROM scoped_tokens WHERE id = ?1 AND scope = ?2",
                params![id, scope.as_str()],
            )
        })? > 0;
        self.index_mut().retain(|_, entry| entry.id != id);
        Ok(removed)
    }

    /// The id of the token of `scope` that `token` is, if it is one.
    pub fn verify(&self, scope: Scope, token: &str) -> Option<String> {
        let wanted = digest(token);
        let index = self.by_digest.read().unwrap_or_else(|p| p.into_inner());
        let (stored, entry) = index.get_key_value(&wanted)?;
        (bool::from(stored.ct_eq(&wanted)) && entry.scope == scope).then(|| entry.id.clone())
    }

    /// Whether token `id` is still in force.
    pub fn is_live(&self, id: &str) -> bool {
        let index = self.by_digest.read().unwrap_or_else(|p| p.into_inner());
        index.values().any(|entry| entry.id == id)
    }

    fn index_mut(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<Digest32, Entry>> {
        self.by_digest.write().unwrap_or_else(|p| p.into_inner())
    }
}

fn parse_scope(text: &str) -> Option<Scope> {
    match text {
        "runner" => Some(Scope::Runner),
        "metrics" => Some(Scope::Metrics),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Accounts;

    fn tokens() -> (tempfile::TempDir, Arc<Db>, ScopedTokens) {
        let dir = tempfile::tempdir().unwrap();
        let db = Arc::new(Db::open(&dir.path().join("db.sqlite")).unwrap());
        db.migrate(crate::MIGRATIONS).unwrap();
        db.migrate(MIGRATIONS).unwrap();
        let tokens = ScopedTokens::load(db.clone()).unwrap();
        (dir, db, tokens)
    }

    #[test]
    fn a_scoped_token_does_its_one_thing_and_opens_no_account() {
        let (_dir, db, tokens) = tokens();
        let accounts = Accounts::load(db.clone()).unwrap();
        let (record, token) = tokens.mint(Scope::Runner, " pool a ").unwrap();
        assert_eq!(record.name, "pool a");
        assert_eq!(
            tokens.verify(Scope::Runner, &token),
            Some(record.id.clone())
        );
        assert_eq!(tokens.verify(Scope::Metrics, &token), None);
        assert!(accounts.authenticate(&token).is_none());
        let reloaded = ScopedTokens::load(db.clone()).unwrap();
        assert_eq!(reloaded.verify(Scope::Runner, &token), Some(record.id));
        let stored: Vec<u8> = db
            .read(|tx| tx.query_row("SELECT digest FROM scoped_tokens", [], |r| r.get(0)))
            .unwrap();
        assert_eq!(stored.len(), 32);
        assert_ne!(stored, token.as_bytes());
    }

    #[test]
    fn a_revoked_token_stops_at_once_and_stays_stopped() {
        let (_dir, db, tokens) = tokens();
        let (one, first) = tokens.mint(Scope::Runner, "one").unwrap();
        let (_, second) = tokens.mint(Scope::Runner, "two").unwrap();
        assert!(!tokens.revoke(Scope::Metrics, &one.id).unwrap());
        assert!(tokens.revoke(Scope::Runner, &one.id).unwrap());
        assert!(!tokens.is_live(&one.id));
        assert_eq!(tokens.verify(Scope::Runner, &first), None);
        assert!(tokens.verify(Scope::Runner, &second).is_some());
        assert!(!tokens.revoke(Scope::Runner, &one.id).unwrap());
        let reloaded = ScopedTokens::load(db).unwrap();
        assert_eq!(reloaded.verify(Scope::Runner, &first), None);
        let names: Vec<String> = reloaded
            .list(Scope::Runner)
            .unwrap()
            .into_iter()
            .map(|t| t.name)
            .collect();
        assert_eq!(names, ["two"]);
    }

    #[test]
    fn a_token_needs_a_name() {
        let (_dir, _db, tokens) = tokens();
        assert!(matches!(
            tokens.mint(Scope::Metrics, "  "),
            Err(AccountsError::InvalidName)
        ));
        assert!(tokens.list(Scope::Metrics).unwrap().is_empty());
    }
}
