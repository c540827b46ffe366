//! Bookmarks: an account's links (`url`) and session recipes (`session`:
//! an engine, a folder and a prompt), kept in the order the user gives them.
//! Launching is the server's: a link becomes a navigation request, a recipe
//! a spawn under the spawn rules. Knows nothing of HTTP or settings.

pub mod demo;

use std::sync::Arc;

use clock::Clock;
use serde::{Deserialize, Serialize};
use store::Db;
use store::rusqlite::{OptionalExtension, Row, Transaction, params};
use ts_rs::TS;
use utoipa::ToSchema;

pub const MAX_TITLE_CHARS: usize = 200;
pub const MAX_URL_CHARS: usize = 2_000;
pub const MAX_PROMPT_CHARS: usize = 20_000;

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[store::Migration {
    feature: "bookmarks",
    sql: "CREATE TABLE bookmarks (
            id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            title TEXT NOT NULL,
            kind TEXT NOT NULL,
            url TEXT,
            engine TEXT,
            cwd TEXT,
            prompt TEXT,
            position INTEGER NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
          ) STRICT;
          CREATE INDEX bookmarks_by_account ON bookmarks (account_id, position);",
}];

#[derive(Debug, thiserror::Error)]
pub enum BookmarkError {
    #[error("no such bookmark")]
    NotFound,
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Url => "url",
            Kind::Session => "session",
        }
    }
}

impl From<store::rusqlite::Error> for BookmarkError {
    fn from(e: store::rusqlite::Error) -> Self {
        BookmarkError::Store(e.into())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BookmarkKind")]
#[schema(as = BookmarkKind)]
pub enum Kind {
    Url,
    Session,
}

#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Bookmark {
    pub id: String,
    pub title: String,
    pub kind: Kind,
    /// A `url` bookmark's address.
    pub url: Option<String>,
    /// A `session` bookmark's recipe; the engine and folder default as a spawn's do.
    pub engine: Option<String>,
    pub cwd: Option<String>,
    pub prompt: Option<String>,
    /// Its place in the account's order, from 0.
    pub position: i64,
    pub created_at: String,
    pub updated_at: String,
}

/// A new bookmark, or (every field optional) the change to one.
#[derive(Debug, Clone, Default, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[ts(optional_fields, rename = "BookmarkFields")]
#[schema(as = BookmarkFields)]
pub struct Fields {
    pub title: Option<String>,
    pub kind: Option<Kind>,
    pub url: Option<String>,
    pub engine: Option<String>,
    pub cwd: Option<String>,
    pub prompt: Option<String>,
}

const COLUMNS: &str = "id, title, kind, url, engine, cwd, prompt, position, created_at, updated_at";

fn from_row(row: &Row<'_>) -> store::rusqlite::Result<Bookmark> {
    Ok(Bookmark {
        id: row.get(0)?,
        title: row.get(1)?,
        kind: if row.get::<_, String>(2)? == Kind::Url.as_str() {
            Kind::Url
        } else {
            Kind::Session
        },
        url: row.get(3)?,
        engine: row.get(4)?,
        cwd: row.get(5)?,
        prompt: row.get(6)?,
        position: row.get(7)?,
        created_at: row.get(8)?,
        updated_at: row.get(9)?,
    })
}

/// A field as stored: blank is none, on create as on update.
fn clean(value: Option<String>) -> Option<String> {
    value.filter(|v| !v.trim().is_empty())
}

fn invalid(message: &str) -> BookmarkError {
    BookmarkError::Invalid(message.to_owned())
}

/// A bookmark whole and right: the title, and the fields its kind needs
/// (and only those).
fn check(b: &Bookmark) -> Result<(), BookmarkError> {
    let title = b.title.trim();
    if title.is_empty() || title.chars().count() > MAX_TITLE_CHARS {
        return Err(invalid("title must be 1 to 200 characters"));
    }
    let blank = |v: &Option<String>| v.as_deref().is_none_or(|s| s.trim().is_empty());
    match b.kind {
        Kind::Url => {
            let url = b.url.as_deref().unwrap_or_default();
            let scheme = url.starts_with("https://") || url.starts_with("http://");
            if !scheme
                || url.len() <= "http://".len()
                || url.chars().count() > MAX_URL_CHARS
                || url.contains(char::is_whitespace)
            {
                return Err(invalid("a url bookmark needs url: an http(s) address"));
            }
            if !(blank(&b.engine) && blank(&b.cwd) && blank(&b.prompt)) {
                return Err(invalid("a url bookmark takes no engine, cwd or prompt"));
            }
        }
        Kind::Session => {
            let prompt = b.prompt.as_deref().unwrap_or_default();
            if prompt.trim().is_empty() || prompt.chars().count() > MAX_PROMPT_CHARS {
                return Err(invalid(
                    "a session bookmark needs prompt (1 to 20,000 characters)",
                ));
            }
            if !blank(&b.url) {
                return Err(invalid("a session bookmark takes no url"));
            }
            if b.cwd.as_deref().is_some_and(|c| !c.starts_with('/')) {
                return Err(invalid("cwd must be an absolute path"));
            }
        }
    }
    Ok(())
}

pub struct Bookmarks {
    db: Arc<Db>,
    clock: Arc<dyn Clock>,
}

impl Bookmarks {
    pub fn new(db: Arc<Db>, clock: Arc<dyn Clock>) -> Self {
        Self { db, clock }
    }

    pub fn list(&self, account_id: &str) -> Result<Vec<Bookmark>, BookmarkError> {
        self.db.read(|tx| list(tx, account_id))
    }

    pub fn get(&self, account_id: &str, id: &str) -> Result<Bookmark, BookmarkError> {
        self.db.read(|tx| find(tx, account_id, id))
    }

    /// Adds a bookmark at the end of the account's order.
    pub fn create(&self, account_id: &str, fields: Fields) -> Result<Bookmark, BookmarkError> {
        let now = self.clock.timestamp();
        let kind = fields
            .kind
            .ok_or_else(|| invalid("kind must be url or session"))?;
        let mut bookmark = Bookmark {
            id: store::new_id(),
            title: fields.title.unwrap_or_default().trim().to_owned(),
            kind,
            url: clean(fields.url),
            engine: clean(fields.engine),
            cwd: clean(fields.cwd),
            prompt: clean(fields.prompt),
            position: 0,
            created_at: now.clone(),
            updated_at: now,
        };
        check(&bookmark)?;
        self.db.write(|tx| {
            bookmark.position = tx.query_row(
                "SELECT COALESCE(MAX(position) + 1, 0) FROM bookmarks WHERE account_id = ?1",
                [account_id],
                |r| r.get(0),
            )?;
            store_row(tx, account_id, &bookmark, true)?;
            Ok(bookmark)
        })
    }

    /// Changes the fields given; the result must still be a whole bookmark.
    pub fn update(
        &self,
        account_id: &str,
        id: &str,
        fields: Fields,
    ) -> Result<Bookmark, BookmarkError> {
        let now = self.clock.timestamp();
        self.db.write(|tx| {
            let mut b = find(tx, account_id, id)?;
            if let Some(title) = fields.title {
                b.title = title.trim().to_owned();
            }
            if let Some(kind) = fields.kind {
                b.kind = kind;
            }
            let set = |slot: &mut Option<String>, value: Option<String>| {
                if value.is_some() {
                    *slot = clean(value);
                }
            };
            set(&mut b.url, fields.url);
            set(&mut b.engine, fields.engine);
            set(&mut b.cwd, fields.cwd);
            set(&mut b.prompt, fields.prompt);
            b.updated_at = now;
            check(&b)?;
            store_row(tx, account_id, &b, false)?;
            Ok(b)
        })
    }

    /// Removes a bookmark; the ones after it close the gap.
    pub fn delete(&self, account_id: &str, id: &str) -> Result<(), BookmarkError> {
        self.db.write(|tx| {
            let b = find(tx, account_id, id)?;
            tx.execute("DELETE FROM bookmarks WHERE id = ?1", [id])?;
            tx.execute(
                "UPDATE bookmarks SET position = position - 1 WHERE account_id = ?1 AND position > ?2",
                params![account_id, b.position],
            )?;
            Ok(())
        })
    }

    /// Puts the account's bookmarks in the order of `ids`, which must name
    /// each of them once.
    pub fn reorder(
        &self,
        account_id: &str,
        ids: &[String],
    ) -> Result<Vec<Bookmark>, BookmarkError> {
        self.db.write(|tx| {
            let current = list(tx, account_id)?;
            let mut given: Vec<&str> = ids.iter().map(String::as_str).collect();
            let mut held: Vec<&str> = current.iter().map(|b| b.id.as_str()).collect();
            given.sort_unstable();
            held.sort_unstable();
            if given != held {
                return Err(invalid(
                    "ids must name each of the account's bookmarks exactly once",
                ));
            }
            for (position, id) in ids.iter().enumerate() {
                tx.execute(
                    "UPDATE bookmarks SET position = ?2 WHERE id = ?1",
                    params![id, i64::try_from(position).unwrap_or(i64::MAX)],
                )?;
            }
            list(tx, account_id)
        })
    }
}

fn list(tx: &Transaction<'_>, account_id: &str) -> Result<Vec<Bookmark>, BookmarkError> {
    let mut stmt = tx.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM bookmarks WHERE account_id = ?1 ORDER BY position, id"
    ))?;
    let rows = stmt.query_map([account_id], from_row)?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

fn find(tx: &Transaction<'_>, account_id: &str, id: &str) -> Result<Bookmark, BookmarkError> {
    tx.query_row(
        &format!("SELECT {COLUMNS} FROM bookmarks WHERE id = ?1 AND account_id = ?2"),
        params![id, account_id],
        from_row,
    )
    .optional()?
    .ok_or(BookmarkError::NotFound)
}

fn store_row(
    tx: &Transaction<'_>,
    account_id: &str,
    b: &Bookmark,
    new: bool,
) -> Result<(), BookmarkError> {
    let kind = b.kind.as_str();
    if new {
        tx.execute(
            "INSERT INTO bookmarks (id, account_id, title, kind, url, engine, cwd, prompt, position, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            params![b.id, account_id, b.title, kind, b.url, b.engine, b.cwd, b.prompt, b.position, b.created_at, b.updated_at],
        )?;
    } else {
        tx.execute(
            "UPDATE bookmarks SET title = ?2, kind = ?3, url = ?4, engine = ?5, cwd = ?6, prompt = ?7, updated_at = ?8
             WHERE id = ?1",
            params![b.id, b.title, kind, b.url, b.engine, b.cwd, b.prompt, b.updated_at],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
