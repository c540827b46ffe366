//! The thread list's rows (`mailclient_threads`), one per thread and
//! folder, derived from the messages and rewritten whenever they change, so
//! that a page of the list is one indexed read even at 100,000 messages.
//!
//! A row sums up the thread's messages in that folder: the subject of the
//! oldest, the snippet of the newest, the distinct senders in order, how
//! many are unread, whether any is starred, and the newest activity time.

use std::collections::HashSet;

use store::rusqlite::{Transaction, params};

use crate::ClientError;

/// Senders named on one row at most.
const MAX_PARTICIPANTS: usize = 8;

struct Message {
    folder: String,
    thread: String,
    activity: i64,
    subject: String,
    sender: String,
    preview: String,
    flags: String,
}

/// Rebuilds every row of `account`.
pub(crate) fn refresh_all(tx: &Transaction<'_>, account: &str) -> Result<(), ClientError> {
    tx.execute(
        "DELETE FROM mailclient_threads WHERE account = ?1",
        params![account],
    )?;
    let mut statement = tx.prepare(
        "SELECT folder, thread_id, activity, subject, sender, preview, flags
         FROM mailclient_messages WHERE account = ?1 AND thread_id IS NOT NULL
         ORDER BY folder, thread_id, activity, id",
    )?;
    let rows = statement.query_map(params![account], message_from_row)?;
    let mut group: Vec<Message> = Vec::new();
    for row in rows {
        let row = row?;
        if group
            .last()
            .is_some_and(|last| last.folder != row.folder || last.thread != row.thread)
        {
            write_row(tx, account, &group)?;
            group.clear();
        }
        group.push(row);
    }
    write_row(tx, account, &group)
}

/// Rebuilds the rows of the given (folder, thread) pairs.
pub(crate) fn refresh_threads(
    tx: &Transaction<'_>,
    account: &str,
    threads: &[(String, String)],
) -> Result<(), ClientError> {
    let unique: HashSet<&(String, String)> = threads.iter().collect();
    let mut statement = tx.prepare_cached(
        "SELECT folder, thread_id, activity, subject, sender, preview, flags
         FROM mailclient_messages WHERE account = ?1 AND folder = ?2 AND thread_id = ?3
         ORDER BY activity, id",
    )?;
    for (folder, thread) in unique {
        tx.execute(
            "DELETE FROM mailclient_threads WHERE account = ?1 AND folder = ?2 AND thread_id = ?3",
            params![account, folder, thread],
        )?;
        let group = statement
            .query_map(params![account, folder, thread], message_from_row)?
            .collect::<Result<Vec<_>, _>>()?;
        write_row(tx, account, &group)?;
    }
    Ok(())
}

fn message_from_row(row: &store::rusqlite::Row<'_>) -> store::rusqlite::Result<Message> {
    Ok(Message {
        folder: row.get(0)?,
        thread: row.get(1)?,
        activity: row.get(2)?,
        subject: row.get(3)?,
        sender: row.get(4)?,
        preview: row.get(5)?,
        flags: row.get(6)?,
    })
}

/// Writes the row of one group of messages, oldest first.
fn write_row(tx: &Transaction<'_>, account: &str, group: &[Message]) -> Result<(), ClientError> {
    let (Some(oldest), Some(newest)) = (group.first(), group.iter().max_by_key(|m| m.activity))
    else {
        return Ok(());
    };
    let mut participants: Vec<&str> = Vec::new();
    for message in group {
        let name = display_name(&message.sender);
        if !name.is_empty()
            && !participants.contains(&name)
            && participants.len() < MAX_PARTICIPANTS
        {
            participants.push(name);
        }
    }
    let has = |m: &Message, flag: &str| m.flags.split_whitespace().any(|f| f == flag);
    let unread = group.iter().filter(|m| !has(m, "\\Seen")).count();
    let starred = group.iter().any(|m| has(m, "\\Flagged"));
    let count = group.len();
    tx.prepare_cached(
        "INSERT OR REPLACE INTO mailclient_threads (account, folder, thread_id, activity, subject,
           participants, snippet, count, unread, starred)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?
    .execute(params![
        account,
        oldest.folder,
        oldest.thread,
        newest.activity,
        oldest.subject,
        participants.join("\n"),
        newest.preview,
        count as i64,
        unread as i64,
        starred,
    ])?;
    Ok(())
}

/// `Ann <ann@x>` → `Ann`; a bare address stays as it is.
fn display_name(sender: &str) -> &str {
    match sender.find('<') {
        Some(at) if at > 0 => sender[..at].trim().trim_matches('"'),
        _ => sender.trim_matches(['<', '>', ' ']),
    }
}
