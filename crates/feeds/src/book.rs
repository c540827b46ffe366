//! The feeds' SQL: feed rows and their polling state, entries inserted once
//! per key, and the keyset-paged entry list (newest first by the entry's
//! date, its id breaking ties, so a page never repeats or skips an entry
//! as new ones arrive).

use store::rusqlite::{OptionalExtension, Row, Transaction, params, params_from_iter};

use crate::fetch::Validators;
use crate::parse::NewEntry;
use crate::{Entry, EntryQuery, Feed, FeedError, Status};

/// A feed's row, with what polling needs.
#[derive(Debug, Clone)]
pub(crate) struct FeedRow {
    pub id: String,
    pub account_id: String,
    pub url: String,
    pub validators: Validators,
    pub ttl_minutes: Option<u32>,
    pub failures: u32,
}

const FEED_COLUMNS: &str = "f.id, COALESCE(f.title, f.url), f.url, f.site_url, f.status, f.failure,
    f.last_fetched_at, f.next_poll_at,
    (SELECT COUNT(*) FROM feed_entries e WHERE e.feed_id = f.id AND e.read = 0)";

fn feed(row: &Row<'_>) -> store::rusqlite::Result<Feed> {
    Ok(Feed {
        id: row.get(0)?,
        title: row.get(1)?,
        url: row.get(2)?,
        site_url: row.get(3)?,
        status: Status::parse(&row.get::<_, String>(4)?),
        failure: row.get(5)?,
        last_fetched_at: row.get(6)?,
        next_poll_at: row.get(7)?,
        unread: row.get(8)?,
    })
}

pub(crate) fn feeds(tx: &Transaction<'_>, account: &str) -> Result<Vec<Feed>, FeedError> {
    let mut stmt = tx.prepare(&format!(
        "SELECT {FEED_COLUMNS} FROM feeds f WHERE f.account_id = ?1
         ORDER BY COALESCE(f.title, f.url) COLLATE NOCASE, f.id"
    ))?;
    let rows = stmt.query_map([account], feed)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(crate) fn feed_of(tx: &Transaction<'_>, account: &str, id: &str) -> Result<Feed, FeedError> {
    tx.query_row(
        &format!("SELECT {FEED_COLUMNS} FROM feeds f WHERE f.account_id = ?1 AND f.id = ?2"),
        [account, id],
        feed,
    )
    .optional()?
    .ok_or(FeedError::NotFound)
}

pub(crate) fn exists(tx: &Transaction<'_>, account: &str, url: &str) -> Result<bool, FeedError> {
    Ok(tx
        .query_row(
            "SELECT 1 FROM feeds WHERE account_id = ?1 AND url = ?2",
            [account, url],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

/// A new feed row, pending and due at `now`.
pub(crate) fn insert_feed(
    tx: &Transaction<'_>,
    id: &str,
    account: &str,
    url: &str,
    title: Option<&str>,
    site_url: Option<&str>,
    now: &str,
) -> Result<(), FeedError> {
    tx.execute(
        "INSERT INTO feeds (id, account_id, url, title, site_url, next_poll_at, interval_secs,
            status, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, 'pending', ?6)",
        params![id, account, url, title, site_url, now],
    )?;
    Ok(())
}

fn row(row: &Row<'_>) -> store::rusqlite::Result<FeedRow> {
    Ok(FeedRow {
        id: row.get(0)?,
        account_id: row.get(1)?,
        url: row.get(2)?,
        validators: Validators {
            etag: row.get(3)?,
            last_modified: row.get(4)?,
        },
        ttl_minutes: row.get(5)?,
        failures: row.get(6)?,
    })
}

const ROW_COLUMNS: &str = "id, account_id, url, etag, last_modified, ttl_minutes, failures";

pub(crate) fn feed_row(
    tx: &Transaction<'_>,
    account: &str,
    id: &str,
) -> Result<FeedRow, FeedError> {
    tx.query_row(
        &format!("SELECT {ROW_COLUMNS} FROM feeds WHERE account_id = ?1 AND id = ?2"),
        [account, id],
        row,
    )
    .optional()?
    .ok_or(FeedError::NotFound)
}

/// The feeds due at `now`, the longest waiting first.
pub(crate) fn due(tx: &Transaction<'_>, now: &str) -> Result<Vec<FeedRow>, FeedError> {
    let mut stmt = tx.prepare(&format!(
        "SELECT {ROW_COLUMNS} FROM feeds WHERE next_poll_at <= ?1 ORDER BY next_poll_at, id"
    ))?;
    let rows = stmt.query_map([now], row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The earliest next poll of any feed.
pub(crate) fn next_due(tx: &Transaction<'_>) -> Result<Option<String>, FeedError> {
    Ok(tx.query_row("SELECT MIN(next_poll_at) FROM feeds", [], |r| r.get(0))?)
}

/// Entries of the feed dated (or, undated, fetched) since `since_ms`.
pub(crate) fn published_since(
    tx: &Transaction<'_>,
    feed_id: &str,
    since_ms: i64,
) -> Result<usize, FeedError> {
    let count: i64 = tx.query_row(
        "SELECT COUNT(*) FROM feed_entries WHERE feed_id = ?1 AND sort_ms >= ?2",
        params![feed_id, since_ms],
        |r| r.get(0),
    )?;
    Ok(usize::try_from(count).unwrap_or(0))
}

/// A poll that answered: the validators it gave, the feed's own fields when
/// it sent a body, and the next poll.
pub(crate) struct Answered<'a> {
    pub validators: &'a Validators,
    pub parsed: Option<(&'a Option<String>, &'a Option<String>, Option<u32>)>,
    pub next_poll_at: &'a str,
    pub interval_secs: i64,
    pub now: &'a str,
}

pub(crate) fn record_answer(
    tx: &Transaction<'_>,
    id: &str,
    answered: &Answered<'_>,
) -> Result<(), FeedError> {
    tx.execute(
        "UPDATE feeds SET etag = ?2, last_modified = ?3, next_poll_at = ?4, interval_secs = ?5,
            status = 'ok', failure = NULL, failures = 0, last_fetched_at = ?6 WHERE id = ?1",
        params![
            id,
            answered.validators.etag,
            answered.validators.last_modified,
            answered.next_poll_at,
            answered.interval_secs,
            answered.now
        ],
    )?;
    if let Some((title, site_url, ttl)) = answered.parsed {
        tx.execute(
            "UPDATE feeds SET title = COALESCE(?2, title), site_url = COALESCE(?3, site_url),
                ttl_minutes = ?4 WHERE id = ?1",
            params![id, title, site_url, ttl],
        )?;
    }
    Ok(())
}

pub(crate) fn record_failure(
    tx: &Transaction<'_>,
    id: &str,
    failure: &str,
    failures: u32,
    next_poll_at: &str,
) -> Result<(), FeedError> {
    tx.execute(
        "UPDATE feeds SET status = 'failing', failure = ?2, failures = ?3, next_poll_at = ?4
         WHERE id = ?1",
        params![id, failure, failures, next_poll_at],
    )?;
    Ok(())
}

/// Inserts the entries the feed does not have yet; returns how many.
pub(crate) fn insert_entries(
    tx: &Transaction<'_>,
    feed: &FeedRow,
    entries: &[NewEntry],
    now: &str,
    now_ms: i64,
) -> Result<usize, FeedError> {
    let mut stmt = tx.prepare_cached(
        "INSERT INTO feed_entries (feed_id, account_id, key, title, link, author, published_at,
            sort_ms, summary, content, remote_images, fetched_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
         ON CONFLICT (feed_id, key) DO NOTHING",
    )?;
    let mut added = 0;
    for entry in entries {
        // A date in the future would pin an entry above every other.
        let sort_ms = entry
            .published_at
            .as_deref()
            .and_then(timestamp_ms)
            .map_or(now_ms, |ms| ms.min(now_ms));
        added += stmt.execute(params![
            feed.id,
            feed.account_id,
            entry.key,
            entry.title,
            entry.link,
            entry.author,
            entry.published_at,
            sort_ms,
            entry.summary,
            entry.content,
            i64::try_from(entry.remote_images).unwrap_or(i64::MAX),
            now
        ])?;
    }
    Ok(added)
}

/// Milliseconds since the epoch.
pub(crate) fn unix_ms(at: time::OffsetDateTime) -> i64 {
    i64::try_from(at.unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX)
}

/// Milliseconds since the epoch of an RFC 3339 time.
pub(crate) fn timestamp_ms(text: &str) -> Option<i64> {
    let at =
        time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).ok()?;
    i64::try_from(at.unix_timestamp_nanos() / 1_000_000).ok()
}

fn entry(row: &Row<'_>) -> store::rusqlite::Result<(Entry, i64)> {
    Ok((
        Entry {
            id: row.get(0)?,
            feed_id: row.get(1)?,
            feed_title: row.get(2)?,
            title: row.get(3)?,
            link: row.get(4)?,
            author: row.get(5)?,
            published_at: row.get(6)?,
            summary: row.get(7)?,
            content: row.get(8)?,
            remote_images: row.get(9)?,
            read: row.get(10)?,
            starred: row.get(11)?,
            fetched_at: row.get(12)?,
        },
        row.get(13)?,
    ))
}

/// A page's cursor: the last entry's sort time and id.
fn cursor(sort_ms: i64, id: i64) -> String {
    format!("{sort_ms}_{id}")
}

fn parse_cursor(text: &str) -> Result<(i64, i64), FeedError> {
    text.split_once('_')
        .and_then(|(ms, id)| Some((ms.parse().ok()?, id.parse().ok()?)))
        .ok_or_else(|| FeedError::Invalid(format!("{text} is not a cursor this list gave.")))
}

/// One page of the account's entries, newest first, and the next cursor.
pub(crate) fn entries(
    tx: &Transaction<'_>,
    account: &str,
    query: &EntryQuery,
    limit: usize,
) -> Result<(Vec<Entry>, Option<String>), FeedError> {
    let mut sql = String::from(
        "SELECT e.id, e.feed_id, COALESCE(f.title, f.url), e.title, e.link, e.author,
            e.published_at, e.summary, e.content, e.remote_images, e.read, e.starred,
            e.fetched_at, e.sort_ms
         FROM feed_entries e JOIN feeds f ON f.id = e.feed_id WHERE e.account_id = ?",
    );
    let mut values: Vec<store::rusqlite::types::Value> = vec![account.to_owned().into()];
    if let Some(feed_id) = &query.feed_id {
        sql.push_str(" AND e.feed_id = ?");
        values.push(feed_id.clone().into());
    }
    if query.unread_only {
        sql.push_str(" AND e.read = 0");
    }
    if query.starred_only {
        sql.push_str(" AND e.starred = 1");
    }
    if let Some(text) = &query.cursor {
        let (ms, id) = parse_cursor(text)?;
        sql.push_str(" AND (e.sort_ms, e.id) < (?, ?)");
        values.push(ms.into());
        values.push(id.into());
    }
    sql.push_str(" ORDER BY e.sort_ms DESC, e.id DESC LIMIT ?");
    values.push(i64::try_from(limit + 1).unwrap_or(i64::MAX).into());
    let mut stmt = tx.prepare_cached(&sql)?;
    let mut rows = stmt
        .query_map(params_from_iter(values), entry)?
        .collect::<Result<Vec<_>, _>>()?;
    let next = if rows.len() > limit {
        rows.truncate(limit);
        rows.last().map(|(e, ms)| cursor(*ms, e.id))
    } else {
        None
    };
    Ok((rows.into_iter().map(|(e, _)| e).collect(), next))
}

/// Sets a flag (`read` or `starred`) of one of the account's entries.
pub(crate) fn set_flag(
    tx: &Transaction<'_>,
    account: &str,
    id: i64,
    column: Flag,
    on: bool,
) -> Result<(), FeedError> {
    let sql = match column {
        Flag::Read => "UPDATE feed_entries SET read = ?3 WHERE account_id = ?1 AND id = ?2",
        Flag::Starred => "UPDATE feed_entries SET starred = ?3 WHERE account_id = ?1 AND id = ?2",
    };
    match tx.execute(sql, params![account, id, on])? {
        0 => Err(FeedError::EntryNotFound),
        _ => Ok(()),
    }
}

#[derive(Debug, Clone, Copy)]
pub(crate) enum Flag {
    Read,
    Starred,
}

pub(crate) fn read_all(
    tx: &Transaction<'_>,
    account: &str,
    feed_id: Option<&str>,
) -> Result<usize, FeedError> {
    Ok(match feed_id {
        Some(feed) => tx.execute(
            "UPDATE feed_entries SET read = 1 WHERE account_id = ?1 AND feed_id = ?2 AND read = 0",
            [account, feed],
        )?,
        None => tx.execute(
            "UPDATE feed_entries SET read = 1 WHERE account_id = ?1 AND read = 0",
            [account],
        )?,
    })
}

pub(crate) fn remove(tx: &Transaction<'_>, account: &str, id: &str) -> Result<(), FeedError> {
    if tx.execute(
        "DELETE FROM feeds WHERE account_id = ?1 AND id = ?2",
        [account, id],
    )? == 0
    {
        return Err(FeedError::NotFound);
    }
    tx.execute("DELETE FROM feed_entries WHERE feed_id = ?1", [id])?;
    Ok(())
}
