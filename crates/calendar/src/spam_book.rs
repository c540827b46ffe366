//! The spam invitations' tables (`book.rs`'s third step): the senders the
//! owner marked spam, the entries the owner added to their organization,
//! the invitations deleted on the server (the trash), and each object's
//! organizer read for the objects stored before it was kept. Functions take
//! the caller's transaction.

use store::rusqlite::{OptionalExtension, Row, Transaction, params};

use store::Db;

use crate::error::{CalendarError, Result};

/// The user names of the owner's CalDAV accounts (some are addresses).
pub(crate) fn caldav_usernames(tx: &Transaction<'_>, owner: &str) -> Result<Vec<String>> {
    let mut stmt = tx.prepare_cached(
        "SELECT username FROM calendar_accounts
         WHERE owner = ?1 AND kind = 'caldav' AND username IS NOT NULL",
    )?;
    let rows = stmt.query_map(params![owner], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The domains and addresses the owner added to their organization.
pub(crate) fn organization(tx: &Transaction<'_>, owner: &str) -> Result<Vec<String>> {
    let mut stmt = tx.prepare_cached(
        "SELECT entry FROM calendar_organization WHERE owner = ?1 ORDER BY entry",
    )?;
    let rows = stmt.query_map(params![owner], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Replaces the owner's added entries.
pub(crate) fn set_organization(
    tx: &Transaction<'_>,
    owner: &str,
    entries: &[String],
    now: &str,
) -> Result<()> {
    tx.execute(
        "DELETE FROM calendar_organization WHERE owner = ?1",
        params![owner],
    )?;
    for entry in entries {
        add_to_organization(tx, owner, entry, now)?;
    }
    Ok(())
}

pub(crate) fn add_to_organization(
    tx: &Transaction<'_>,
    owner: &str,
    entry: &str,
    now: &str,
) -> Result<()> {
    tx.execute(
        "INSERT OR IGNORE INTO calendar_organization (owner, entry, added_at) VALUES (?1, ?2, ?3)",
        params![owner, entry, now],
    )?;
    Ok(())
}

/// The owner's spam senders and when each was marked, oldest first.
pub(crate) fn spam_senders(tx: &Transaction<'_>, owner: &str) -> Result<Vec<(String, String)>> {
    let mut stmt = tx.prepare_cached(
        "SELECT address, marked_at FROM calendar_spam_senders WHERE owner = ?1
         ORDER BY marked_at, address",
    )?;
    let rows = stmt.query_map(params![owner], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(crate) fn mark_spam(tx: &Transaction<'_>, owner: &str, address: &str, now: &str) -> Result<()> {
    tx.execute(
        "INSERT OR IGNORE INTO calendar_spam_senders (owner, address, marked_at) VALUES (?1, ?2, ?3)",
        params![owner, address, now],
    )?;
    Ok(())
}

pub(crate) fn unmark_spam(tx: &Transaction<'_>, owner: &str, address: &str) -> Result<bool> {
    Ok(tx.execute(
        "DELETE FROM calendar_spam_senders WHERE owner = ?1 AND address = ?2",
        params![owner, address],
    )? > 0)
}

/// Reads the organizer of the account's objects stored before it was kept:
/// a read that finds none (every sync after the first) takes no write lock.
pub(crate) fn read_organizers(db: &Db, account: &str) -> Result<()> {
    let unread: Vec<(String, String, String)> = db.read(|tx| {
        let mut stmt = tx.prepare_cached(
            "SELECT collection, href, ics FROM calendar_objects
             WHERE account_id = ?1 AND organizer IS NULL",
        )?;
        let rows = stmt.query_map(params![account], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok::<_, CalendarError>(rows.collect::<Result<_, _>>()?)
    })?;
    if unread.is_empty() {
        return Ok(());
    }
    db.write(|tx| {
        let mut update = tx.prepare_cached(
            "UPDATE calendar_objects SET organizer = ?4
             WHERE account_id = ?1 AND collection = ?2 AND href = ?3 AND organizer IS NULL",
        )?;
        for (collection, href, ics) in &unread {
            let organizer = crate::screen::organizer_of(ics);
            update.execute(params![account, collection, href, organizer])?;
        }
        Ok(())
    })
}

/// A stored CalDAV object, as the trash takes it.
#[derive(Debug, Clone)]
pub(crate) struct Stored {
    pub account_id: String,
    pub collection: String,
    pub href: String,
    pub etag: Option<String>,
    pub ics: String,
    pub organizer: String,
}

fn stored(r: &Row<'_>) -> store::rusqlite::Result<Stored> {
    Ok(Stored {
        account_id: r.get(0)?,
        collection: r.get(1)?,
        href: r.get(2)?,
        etag: r.get(3)?,
        ics: r.get(4)?,
        organizer: r.get::<_, Option<String>>(5)?.unwrap_or_default(),
    })
}

/// The object of the owner's account holding the event `uid`, and the
/// account's kind.
pub(crate) fn object_of_event(
    tx: &Transaction<'_>,
    owner: &str,
    account: &str,
    uid: &str,
) -> Result<Option<(String, Stored)>> {
    Ok(tx
        .query_row(
            "SELECT b.account_id, b.collection, b.href, b.etag, b.ics, b.organizer, a.kind
             FROM calendar_occurrences o
             JOIN calendar_accounts a ON a.id = o.account_id
             JOIN calendar_objects b
               ON b.account_id = o.account_id AND b.collection = o.collection AND b.href = o.href
             WHERE a.owner = ?1 AND o.account_id = ?2 AND o.uid = ?3
             LIMIT 1",
            params![owner, account, uid],
            |r| Ok((r.get(6)?, stored(r)?)),
        )
        .optional()?)
}

/// The owner's stored CalDAV invitations from senders marked spam.
pub(crate) fn spam_objects(tx: &Transaction<'_>, owner: &str) -> Result<Vec<Stored>> {
    let mut stmt = tx.prepare_cached(
        "SELECT b.account_id, b.collection, b.href, b.etag, b.ics, b.organizer
         FROM calendar_objects b
         JOIN calendar_accounts a ON a.id = b.account_id
         JOIN calendar_spam_senders s ON s.owner = a.owner AND s.address = b.organizer
         WHERE a.owner = ?1 AND a.kind = 'caldav'
         ORDER BY b.account_id, b.collection, b.href",
    )?;
    let rows = stmt.query_map(params![owner], stored)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// An object's title and first stored start, for the trash.
pub(crate) fn first_occurrence(
    tx: &Transaction<'_>,
    object: &Stored,
) -> Result<(String, Option<i64>, String)> {
    Ok(tx
        .query_row(
            "SELECT summary, start_at, uid FROM calendar_occurrences
             WHERE account_id = ?1 AND collection = ?2 AND href = ?3
             ORDER BY start_at LIMIT 1",
            params![object.account_id, object.collection, object.href],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?
        .unwrap_or_default())
}

/// One invitation in the trash.
#[derive(Debug, Clone)]
pub(crate) struct TrashRow {
    pub id: String,
    pub object: Stored,
    pub account_name: String,
    pub uid: String,
    pub summary: String,
    pub start_at: Option<i64>,
    pub deleted_at: String,
}

pub(crate) fn put_trash(tx: &Transaction<'_>, owner: &str, row: &TrashRow) -> Result<()> {
    let o = &row.object;
    tx.execute(
        "INSERT INTO calendar_trash (id, owner, account_id, collection, href, uid, summary,
           start_at, organizer, ics, deleted_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        params![
            row.id,
            owner,
            o.account_id,
            o.collection,
            o.href,
            row.uid,
            row.summary,
            row.start_at,
            o.organizer,
            o.ics,
            row.deleted_at
        ],
    )?;
    Ok(())
}

const TRASH_ROWS: &str = "SELECT t.account_id, t.collection, t.href, NULL, t.ics, t.organizer,
        t.id, a.name, t.uid, t.summary, t.start_at, t.deleted_at
     FROM calendar_trash t JOIN calendar_accounts a ON a.id = t.account_id";

fn trash_row(r: &Row<'_>) -> store::rusqlite::Result<TrashRow> {
    Ok(TrashRow {
        object: stored(r)?,
        id: r.get(6)?,
        account_name: r.get(7)?,
        uid: r.get(8)?,
        summary: r.get(9)?,
        start_at: r.get(10)?,
        deleted_at: r.get(11)?,
    })
}

/// The owner's trash deleted at or after `since` (older entries wait for
/// [`purge`]), the latest deleted first.
pub(crate) fn trash(tx: &Transaction<'_>, owner: &str, since: &str) -> Result<Vec<TrashRow>> {
    let mut stmt = tx.prepare_cached(&format!(
        "{TRASH_ROWS} WHERE t.owner = ?1 AND t.deleted_at >= ?2 ORDER BY t.deleted_at DESC, t.id"
    ))?;
    let rows = stmt.query_map(params![owner, since], trash_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(crate) fn trashed(
    tx: &Transaction<'_>,
    owner: &str,
    id: &str,
    since: &str,
) -> Result<Option<TrashRow>> {
    Ok(tx
        .query_row(
            &format!("{TRASH_ROWS} WHERE t.owner = ?1 AND t.id = ?2 AND t.deleted_at >= ?3"),
            params![owner, id, since],
            trash_row,
        )
        .optional()?)
}

pub(crate) fn delete_trashed(tx: &Transaction<'_>, id: &str) -> Result<()> {
    tx.execute("DELETE FROM calendar_trash WHERE id = ?1", params![id])?;
    Ok(())
}

/// Forgets what was deleted before `before` (a timestamp).
pub(crate) fn purge(tx: &Transaction<'_>, before: &str) -> Result<usize> {
    Ok(tx.execute(
        "DELETE FROM calendar_trash WHERE deleted_at < ?1",
        params![before],
    )?)
}
