//! The unified inbox: persistent rows that agents, sessions and boards drop
//! for the user.
//!
//! One table holds every category the spec names (agent alerts, sessions
//! needing attention, project events, approvals, digests, messages), so a
//! later category is a new `Category` value, not a new table. Rows belong to
//! an account like everything else.

use std::sync::Arc;

use serde::Serialize;
use store::rusqlite::{self, params};
use store::{Db, Migration};

pub const MIGRATIONS: &[Migration] = &[Migration {
    feature: "inbox",
    sql: "CREATE TABLE inbox_rows (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            account_id TEXT NOT NULL,
            category TEXT NOT NULL,
            title TEXT NOT NULL,
            body TEXT,
            source_session_id TEXT,
            payload TEXT,
            created_at TEXT NOT NULL,
            read_at TEXT,
            dismissed_at TEXT
          ) STRICT;
          CREATE INDEX inbox_by_account ON inbox_rows (account_id, seq);",
}];

/// What kind of row this is; the inbox's `inboxShow*` settings filter on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    Alert,
    Session,
    PmEvent,
    Automation,
    Calendar,
    CliPending,
    Cron,
    Digest,
    Recipe,
    Sms,
    Messenger,
    Webhook,
}

impl Category {
    const ALL: [Category; 12] = [
        Category::Alert,
        Category::Session,
        Category::PmEvent,
        Category::Automation,
        Category::Calendar,
        Category::CliPending,
        Category::Cron,
        Category::Digest,
        Category::Recipe,
        Category::Sms,
        Category::Messenger,
        Category::Webhook,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Category::Alert => "alert",
            Category::Session => "session",
            Category::PmEvent => "pm-event",
            Category::Automation => "automation",
            Category::Calendar => "calendar",
            Category::CliPending => "cli-pending",
            Category::Cron => "cron",
            Category::Digest => "digest",
            Category::Recipe => "recipe",
            Category::Sms => "sms",
            Category::Messenger => "messenger",
            Category::Webhook => "webhook",
        }
    }

    fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == text)
    }
}

#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct InboxRow {
    pub id: String,
    pub category: Category,
    pub title: String,
    pub body: Option<String>,
    pub source_session_id: Option<String>,
    pub created_at: String,
    pub read_at: Option<String>,
}

#[derive(Debug, Clone)]
pub struct NewRow<'a> {
    pub category: Category,
    pub title: &'a str,
    pub body: Option<&'a str>,
    pub source_session_id: Option<&'a str>,
}

const MAX_TITLE_CHARS: usize = 200;
const MAX_BODY_CHARS: usize = 10_000;

#[derive(Debug, thiserror::Error)]
pub enum InboxError {
    #[error("title must be 1 to {MAX_TITLE_CHARS} characters")]
    InvalidTitle,
    #[error("body must be at most {MAX_BODY_CHARS} characters")]
    InvalidBody,
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<rusqlite::Error> for InboxError {
    fn from(e: rusqlite::Error) -> Self {
        InboxError::Store(e.into())
    }
}

pub struct Inbox {
    db: Arc<Db>,
}

impl Inbox {
    pub fn new(db: Arc<Db>) -> Self {
        Self { db }
    }

    pub fn create(&self, account_id: &str, row: NewRow<'_>) -> Result<InboxRow, InboxError> {
        let title = row.title.trim();
        if title.is_empty() || title.chars().count() > MAX_TITLE_CHARS {
            return Err(InboxError::InvalidTitle);
        }
        if row.body.is_some_and(|b| b.chars().count() > MAX_BODY_CHARS) {
            return Err(InboxError::InvalidBody);
        }
        let created = InboxRow {
            id: store::new_id(),
            category: row.category,
            title: title.to_owned(),
            body: row.body.map(str::to_owned),
            source_session_id: row.source_session_id.map(str::to_owned),
            created_at: store::now_rfc3339(),
            read_at: None,
        };
        self.db.write(|tx| {
            tx.execute(
                "INSERT INTO inbox_rows (id, account_id, category, title, body, source_session_id, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    created.id,
                    account_id,
                    created.category.as_str(),
                    created.title,
                    created.body,
                    created.source_session_id,
                    created.created_at
                ],
            )
        })?;
        Ok(created)
    }

    /// The account's rows, newest first.
    pub fn list(&self, account_id: &str, limit: usize) -> Result<Vec<InboxRow>, InboxError> {
        Ok(self.db.read(|tx| {
            let mut stmt = tx.prepare(
                "SELECT id, category, title, body, source_session_id, created_at, read_at
                 FROM inbox_rows WHERE account_id = ?1 AND dismissed_at IS NULL
                 ORDER BY seq DESC LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![account_id, limit as i64], |row| {
                let category: String = row.get(1)?;
                Ok(InboxRow {
                    id: row.get(0)?,
                    category: Category::parse(&category).unwrap_or(Category::Alert),
                    title: row.get(2)?,
                    body: row.get(3)?,
                    source_session_id: row.get(4)?,
                    created_at: row.get(5)?,
                    read_at: row.get(6)?,
                })
            })?;
            rows.collect::<rusqlite::Result<Vec<_>>>()
        })?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inbox() -> (tempfile::TempDir, Inbox) {
        let dir = tempfile::tempdir().unwrap();
        let db = Arc::new(Db::open(&dir.path().join("db.sqlite")).unwrap());
        db.migrate(MIGRATIONS).unwrap();
        (dir, Inbox::new(db))
    }

    fn alert(title: &str) -> NewRow<'_> {
        NewRow {
            category: Category::Alert,
            title,
            body: Some("details"),
            source_session_id: Some("s1"),
        }
    }

    #[test]
    fn rows_are_listed_newest_first_per_account() {
        let (_dir, inbox) = inbox();
        inbox.create("a", alert("first")).unwrap();
        inbox.create("a", alert("second")).unwrap();
        inbox.create("b", alert("other account")).unwrap();
        let titles: Vec<String> = inbox
            .list("a", 50)
            .unwrap()
            .into_iter()
            .map(|r| r.title)
            .collect();
        assert_eq!(titles, ["second", "first"]);
        assert_eq!(inbox.list("a", 1).unwrap().len(), 1);
    }

    #[test]
    fn bad_titles_and_bodies_store_nothing() {
        let (_dir, inbox) = inbox();
        assert!(matches!(
            inbox.create("a", alert("   ")),
            Err(InboxError::InvalidTitle)
        ));
        let long = "x".repeat(MAX_TITLE_CHARS + 1);
        assert!(inbox.create("a", alert(&long)).is_err());
        let body = "y".repeat(MAX_BODY_CHARS + 1);
        let row = NewRow {
            body: Some(&body),
            ..alert("ok")
        };
        assert!(matches!(
            inbox.create("a", row),
            Err(InboxError::InvalidBody)
        ));
        assert!(inbox.list("a", 50).unwrap().is_empty());
    }

    #[test]
    fn every_category_round_trips() {
        for category in Category::ALL {
            assert_eq!(Category::parse(category.as_str()), Some(category));
        }
    }
}
