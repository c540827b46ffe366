//! The calendar tables: accounts, their collections (calendars), the
//! objects each holds as the server sent them (so a new window is expanded
//! again without a download), and the occurrences expanded from them.
//! A subscription's objects are its UID groups, their ETag the SHA-256 of
//! the group's text (`import.rs`). Functions take the caller's transaction.

use store::Migration;
use store::rusqlite::{OptionalExtension, Row, Transaction, params};

use crate::error::Result;
use crate::expand::Occ;

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        feature: "calendar",
        sql: "CREATE TABLE calendar_accounts (
            id TEXT PRIMARY KEY,
            owner TEXT NOT NULL,
            kind TEXT NOT NULL,
            name TEXT NOT NULL,
            url TEXT NOT NULL,
            username TEXT,
            secret_key TEXT,
            status TEXT NOT NULL,
            failure TEXT,
            warnings TEXT NOT NULL,
            etag TEXT,
            last_modified TEXT,
            content_hash TEXT,
            window_from INTEGER,
            last_sync_at TEXT,
            created_at TEXT NOT NULL
          ) STRICT;
          CREATE INDEX calendar_accounts_by_owner ON calendar_accounts (owner, created_at);
          CREATE TABLE calendar_collections (
            account_id TEXT NOT NULL REFERENCES calendar_accounts (id) ON DELETE CASCADE,
            url TEXT NOT NULL,
            name TEXT NOT NULL,
            color TEXT,
            ctag TEXT,
            sync_token TEXT,
            timezones TEXT NOT NULL,
            PRIMARY KEY (account_id, url)
          ) STRICT;
          CREATE TABLE calendar_objects (
            account_id TEXT NOT NULL,
            collection TEXT NOT NULL,
            href TEXT NOT NULL,
            etag TEXT,
            ics TEXT NOT NULL,
            PRIMARY KEY (account_id, collection, href),
            FOREIGN KEY (account_id, collection)
              REFERENCES calendar_collections (account_id, url) ON DELETE CASCADE
          ) STRICT;
          CREATE TABLE calendar_occurrences (
            account_id TEXT NOT NULL,
            collection TEXT NOT NULL,
            href TEXT NOT NULL,
            uid TEXT NOT NULL,
            start_at INTEGER NOT NULL,
            end_at INTEGER NOT NULL,
            all_day INTEGER NOT NULL,
            recurring INTEGER NOT NULL,
            summary TEXT NOT NULL,
            location TEXT,
            FOREIGN KEY (account_id, collection, href)
              REFERENCES calendar_objects (account_id, collection, href) ON DELETE CASCADE
          ) STRICT;
          CREATE INDEX calendar_occurrences_by_object
            ON calendar_occurrences (account_id, collection, href);
          CREATE INDEX calendar_occurrences_by_start ON calendar_occurrences (start_at);",
    },
    // What the calendar told (`reminders.rs`): each occurrence reminded
    // once per owner, uid and start, whatever restarts or ticks follow; the
    // day's agenda considered once per owner and local day.
    Migration {
        feature: "calendar",
        sql: "CREATE TABLE calendar_reminded (
            owner TEXT NOT NULL,
            uid TEXT NOT NULL,
            start_at INTEGER NOT NULL,
            sent_at TEXT NOT NULL,
            PRIMARY KEY (owner, uid, start_at)
          ) STRICT, WITHOUT ROWID;
          CREATE TABLE calendar_agendas (
            owner TEXT NOT NULL,
            day TEXT NOT NULL,
            sent_at TEXT NOT NULL,
            PRIMARY KEY (owner, day)
          ) STRICT, WITHOUT ROWID;",
    },
    // Spam invitations (`screen.rs`, `spam.rs`): each object's organizer
    // (NULL until read, '' for none; objects stored before this step are
    // read at their account's next sync), the senders the owner marked
    // spam, the domains and addresses the owner adds to their
    // organization, and the invitations deleted on the server, kept to be
    // restored for 30 days.
    Migration {
        feature: "calendar",
        sql: "ALTER TABLE calendar_objects ADD COLUMN organizer TEXT;
          CREATE TABLE calendar_spam_senders (
            owner TEXT NOT NULL,
            address TEXT NOT NULL,
            marked_at TEXT NOT NULL,
            PRIMARY KEY (owner, address)
          ) STRICT, WITHOUT ROWID;
          CREATE TABLE calendar_organization (
            owner TEXT NOT NULL,
            entry TEXT NOT NULL,
            added_at TEXT NOT NULL,
            PRIMARY KEY (owner, entry)
          ) STRICT, WITHOUT ROWID;
          CREATE TABLE calendar_trash (
            id TEXT PRIMARY KEY,
            owner TEXT NOT NULL,
            account_id TEXT NOT NULL,
            collection TEXT NOT NULL,
            href TEXT NOT NULL,
            uid TEXT NOT NULL,
            summary TEXT NOT NULL,
            start_at INTEGER,
            organizer TEXT NOT NULL,
            ics TEXT NOT NULL,
            deleted_at TEXT NOT NULL
          ) STRICT;
          CREATE INDEX calendar_trash_by_owner ON calendar_trash (owner, deleted_at);",
    },
];

/// An account's row, the saved key's name included (never its value).
#[derive(Debug, Clone)]
pub(crate) struct AccountRow {
    pub id: String,
    pub kind: String,
    pub name: String,
    pub url: String,
    pub username: Option<String>,
    pub secret_key: Option<String>,
    pub status: String,
    pub failure: Option<String>,
    pub warnings: String,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    /// SHA-256 of a subscription's last imported file.
    pub content_hash: Option<String>,
    pub window_from: Option<i64>,
    pub last_sync_at: Option<String>,
    pub created_at: String,
}

const ACCOUNT_COLUMNS: &str = "id, kind, name, url, username, secret_key, status, failure, \
     warnings, etag, last_modified, content_hash, window_from, last_sync_at, created_at";

fn account_row(r: &Row<'_>) -> store::rusqlite::Result<AccountRow> {
    Ok(AccountRow {
        id: r.get(0)?,
        kind: r.get(1)?,
        name: r.get(2)?,
        url: r.get(3)?,
        username: r.get(4)?,
        secret_key: r.get(5)?,
        status: r.get(6)?,
        failure: r.get(7)?,
        warnings: r.get(8)?,
        etag: r.get(9)?,
        last_modified: r.get(10)?,
        content_hash: r.get(11)?,
        window_from: r.get(12)?,
        last_sync_at: r.get(13)?,
        created_at: r.get(14)?,
    })
}

pub(crate) fn insert_account(tx: &Transaction<'_>, owner: &str, row: &AccountRow) -> Result<()> {
    tx.execute(
        "INSERT INTO calendar_accounts
           (id, owner, kind, name, url, username, secret_key, status, warnings, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, '', ?9)",
        params![
            row.id,
            owner,
            row.kind,
            row.name,
            row.url,
            row.username,
            row.secret_key,
            row.status,
            row.created_at
        ],
    )?;
    Ok(())
}

pub(crate) fn accounts(tx: &Transaction<'_>, owner: &str) -> Result<Vec<AccountRow>> {
    let mut stmt = tx.prepare_cached(&format!(
        "SELECT {ACCOUNT_COLUMNS} FROM calendar_accounts WHERE owner = ?1 ORDER BY created_at, id"
    ))?;
    let rows = stmt.query_map(params![owner], account_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(crate) fn account(tx: &Transaction<'_>, owner: &str, id: &str) -> Result<Option<AccountRow>> {
    Ok(tx
        .query_row(
            &format!(
                "SELECT {ACCOUNT_COLUMNS} FROM calendar_accounts WHERE owner = ?1 AND id = ?2"
            ),
            params![owner, id],
            account_row,
        )
        .optional()?)
}

pub(crate) fn delete_account(tx: &Transaction<'_>, owner: &str, id: &str) -> Result<bool> {
    // The cascade would do it row by row through the foreign keys; the
    // occurrences go first in one statement each, which is far quicker.
    tx.execute(
        "DELETE FROM calendar_occurrences WHERE account_id = ?1",
        params![id],
    )?;
    tx.execute(
        "DELETE FROM calendar_objects WHERE account_id = ?1",
        params![id],
    )?;
    tx.execute(
        "DELETE FROM calendar_trash WHERE account_id = ?1",
        params![id],
    )?;
    Ok(tx.execute(
        "DELETE FROM calendar_accounts WHERE owner = ?1 AND id = ?2",
        params![owner, id],
    )? > 0)
}

/// Records a sync's end: `failure` marks it failing and leaves the rest.
pub(crate) fn mark(
    tx: &Transaction<'_>,
    id: &str,
    failure: Option<&str>,
    warnings: Option<&str>,
    window_from: Option<i64>,
    now: &str,
) -> Result<()> {
    match failure {
        Some(reason) => tx.execute(
            "UPDATE calendar_accounts SET status = 'failing', failure = ?2, last_sync_at = ?3
             WHERE id = ?1",
            params![id, reason, now],
        )?,
        None => tx.execute(
            "UPDATE calendar_accounts SET status = 'ok', failure = NULL, last_sync_at = ?2,
               warnings = coalesce(?3, warnings), window_from = coalesce(?4, window_from)
             WHERE id = ?1",
            params![id, now, warnings, window_from],
        )?,
    };
    Ok(())
}

pub(crate) fn set_validators(
    tx: &Transaction<'_>,
    id: &str,
    etag: Option<&str>,
    last_modified: Option<&str>,
    content_hash: &str,
) -> Result<()> {
    tx.execute(
        "UPDATE calendar_accounts SET etag = ?2, last_modified = ?3, content_hash = ?4
         WHERE id = ?1",
        params![id, etag, last_modified, content_hash],
    )?;
    Ok(())
}

/// A collection as stored.
#[derive(Debug, Clone, Default)]
pub(crate) struct CollectionRow {
    pub url: String,
    pub name: String,
    pub color: Option<String>,
    pub ctag: Option<String>,
    pub sync_token: Option<String>,
    pub timezones: String,
}

pub(crate) fn collections(tx: &Transaction<'_>, account: &str) -> Result<Vec<CollectionRow>> {
    let mut stmt = tx.prepare_cached(
        "SELECT url, name, color, ctag, sync_token, timezones FROM calendar_collections
         WHERE account_id = ?1 ORDER BY name, url",
    )?;
    let rows = stmt.query_map(params![account], |r| {
        Ok(CollectionRow {
            url: r.get(0)?,
            name: r.get(1)?,
            color: r.get(2)?,
            ctag: r.get(3)?,
            sync_token: r.get(4)?,
            timezones: r.get(5)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(crate) fn put_collection(tx: &Transaction<'_>, account: &str, c: &CollectionRow) -> Result<()> {
    tx.execute(
        "INSERT INTO calendar_collections (account_id, url, name, color, ctag, sync_token, timezones)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (account_id, url) DO UPDATE SET name = excluded.name,
           color = excluded.color, ctag = excluded.ctag, sync_token = excluded.sync_token,
           timezones = excluded.timezones",
        params![account, c.url, c.name, c.color, c.ctag, c.sync_token, c.timezones],
    )?;
    Ok(())
}

pub(crate) fn delete_collection(tx: &Transaction<'_>, account: &str, url: &str) -> Result<()> {
    tx.execute(
        "DELETE FROM calendar_occurrences WHERE account_id = ?1 AND collection = ?2",
        params![account, url],
    )?;
    tx.execute(
        "DELETE FROM calendar_objects WHERE account_id = ?1 AND collection = ?2",
        params![account, url],
    )?;
    tx.execute(
        "DELETE FROM calendar_collections WHERE account_id = ?1 AND url = ?2",
        params![account, url],
    )?;
    Ok(())
}

/// Each object's href and ETag in a collection.
pub(crate) fn etags(
    tx: &Transaction<'_>,
    account: &str,
    collection: &str,
) -> Result<Vec<(String, Option<String>)>> {
    let mut stmt = tx.prepare_cached(
        "SELECT href, etag FROM calendar_objects WHERE account_id = ?1 AND collection = ?2",
    )?;
    let rows = stmt.query_map(params![account, collection], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Every object of an account: (collection, href, ics).
pub(crate) fn objects(
    tx: &Transaction<'_>,
    account: &str,
) -> Result<Vec<(String, String, String)>> {
    let mut stmt = tx.prepare_cached(
        "SELECT collection, href, ics FROM calendar_objects WHERE account_id = ?1",
    )?;
    let rows = stmt.query_map(params![account], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(crate) fn delete_object(
    tx: &Transaction<'_>,
    account: &str,
    collection: &str,
    href: &str,
) -> Result<bool> {
    tx.execute(
        "DELETE FROM calendar_occurrences WHERE account_id = ?1 AND collection = ?2 AND href = ?3",
        params![account, collection, href],
    )?;
    Ok(tx.execute(
        "DELETE FROM calendar_objects WHERE account_id = ?1 AND collection = ?2 AND href = ?3",
        params![account, collection, href],
    )? > 0)
}

/// Stores an object (replacing it) with its occurrences.
pub(crate) fn put_object(
    tx: &Transaction<'_>,
    account: &str,
    collection: &str,
    href: &str,
    etag: Option<&str>,
    ics: &str,
    occs: &[Occ],
) -> Result<()> {
    tx.execute(
        "INSERT INTO calendar_objects (account_id, collection, href, etag, ics, organizer)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (account_id, collection, href) DO UPDATE SET etag = excluded.etag,
           ics = excluded.ics, organizer = excluded.organizer",
        params![
            account,
            collection,
            href,
            etag,
            ics,
            crate::screen::organizer_of(ics)
        ],
    )?;
    put_occurrences(tx, account, collection, href, occs)
}

/// Replaces an object's occurrences.
pub(crate) fn put_occurrences(
    tx: &Transaction<'_>,
    account: &str,
    collection: &str,
    href: &str,
    occs: &[Occ],
) -> Result<()> {
    tx.prepare_cached(
        "DELETE FROM calendar_occurrences WHERE account_id = ?1 AND collection = ?2 AND href = ?3",
    )?
    .execute(params![account, collection, href])?;
    let mut insert = tx.prepare_cached(
        "INSERT INTO calendar_occurrences
           (account_id, collection, href, uid, start_at, end_at, all_day, recurring, summary, location)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?;
    for o in occs {
        insert.execute(params![
            account,
            collection,
            href,
            o.uid,
            o.start,
            o.end,
            o.all_day,
            o.recurring,
            o.summary,
            o.location
        ])?;
    }
    Ok(())
}

/// One stored occurrence with the names of where it comes from.
#[derive(Debug, Clone)]
pub(crate) struct OccurrenceRow {
    pub occ: Occ,
    pub account_id: String,
    pub account_name: String,
    pub kind: String,
    pub calendar: String,
    pub color: Option<String>,
    /// The object's organizer's address, lower case; `None` for none.
    pub organizer: Option<String>,
}

/// The owner's occurrences overlapping `[from, to)`, earliest first, at most `limit`.
pub(crate) fn occurrences(
    tx: &Transaction<'_>,
    owner: &str,
    from: i64,
    to: i64,
    limit: usize,
) -> Result<Vec<OccurrenceRow>> {
    let mut stmt = tx.prepare_cached(&format!(
        "{OCCURRENCE_ROWS}
         WHERE a.owner = ?1 AND o.start_at < ?3
           AND (o.end_at > ?2 OR (o.end_at = o.start_at AND o.start_at >= ?2))
         ORDER BY o.start_at, o.summary, o.uid
         LIMIT ?4"
    ))?;
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let rows = stmt.query_map(params![owner, from, to, limit], occurrence_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The owner's timed occurrences (not all-day ones) that start in `[from,
/// to)`: a range of the start index, not the window's history, since the
/// reminders ask every minute.
pub(crate) fn occurrences_starting(
    tx: &Transaction<'_>,
    owner: &str,
    from: i64,
    to: i64,
) -> Result<Vec<OccurrenceRow>> {
    let mut stmt = tx.prepare_cached(&format!(
        "{OCCURRENCE_ROWS}
         WHERE a.owner = ?1 AND o.start_at >= ?2 AND o.start_at < ?3 AND o.all_day = 0
         ORDER BY o.start_at, o.summary, o.uid"
    ))?;
    let rows = stmt.query_map(params![owner, from, to], occurrence_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// An occurrence with its account and calendar, as [`occurrence_row`] reads it.
const OCCURRENCE_ROWS: &str = "SELECT o.uid, o.start_at, o.end_at, o.all_day, o.recurring,
        o.summary, o.location, a.id, a.name, a.kind, c.name, c.color, b.organizer
     FROM calendar_occurrences o
     JOIN calendar_accounts a ON a.id = o.account_id
     JOIN calendar_collections c ON c.account_id = o.account_id AND c.url = o.collection
     JOIN calendar_objects b
       ON b.account_id = o.account_id AND b.collection = o.collection AND b.href = o.href";

fn occurrence_row(r: &store::rusqlite::Row<'_>) -> store::rusqlite::Result<OccurrenceRow> {
    Ok(OccurrenceRow {
        occ: Occ {
            uid: r.get(0)?,
            start: r.get(1)?,
            end: r.get(2)?,
            all_day: r.get(3)?,
            recurring: r.get(4)?,
            summary: r.get(5)?,
            location: r.get(6)?,
        },
        account_id: r.get(7)?,
        account_name: r.get(8)?,
        kind: r.get(9)?,
        calendar: r.get(10)?,
        color: r.get(11)?,
        organizer: r.get::<_, Option<String>>(12)?.filter(|o| !o.is_empty()),
    })
}
