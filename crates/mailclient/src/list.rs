//! Reading the store for the page: the folder list with counts, a page of
//! a folder's thread list (newest activity first, keyset-paginated by an
//! opaque cursor), and the local full-text search.

use serde::Serialize;
use store::rusqlite::params;

use crate::store::{MAX_HITS, MESSAGE_COLUMNS, MailStore, Stored, stored_from_row};
use crate::{ClientError, Role};

/// A folder for the sidebar.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FolderSummary {
    pub name: String,
    pub role: Option<Role>,
    pub unread: u32,
    pub total: u32,
}

/// One line of the thread list: the thread's messages in that folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ThreadSummary {
    pub id: String,
    pub subject: String,
    pub participants: Vec<String>,
    pub snippet: String,
    pub count: u32,
    /// How many of them are unread.
    pub unread: u32,
    pub starred: bool,
    /// The newest activity: a message's date, or when it woke from snooze.
    pub date: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ThreadPage {
    pub threads: Vec<ThreadSummary>,
    /// The cursor of the next page, when there is one.
    pub next: Option<String>,
}

impl MailStore {
    /// The account's folders, the Inbox first, then those with a role,
    /// then the rest by name.
    pub fn folder_list(&self, account: &str) -> Result<Vec<FolderSummary>, ClientError> {
        let mut folders = self.db.read(|tx| {
            let mut statement = tx.prepare(
                "SELECT f.name, f.role, count(m.id),
                   coalesce(sum(m.id IS NOT NULL AND instr(' ' || m.flags || ' ', ' \\Seen ') = 0), 0)
                 FROM mailclient_folders f
                 LEFT JOIN mailclient_messages m ON m.account = f.account AND m.folder = f.name
                 WHERE f.account = ?1 GROUP BY f.name",
            )?;
            let rows = statement.query_map(params![account], |row| {
                Ok(FolderSummary {
                    name: row.get(0)?,
                    role: row
                        .get::<_, Option<String>>(1)?
                        .as_deref()
                        .and_then(Role::parse),
                    total: row.get(2)?,
                    unread: row.get(3)?,
                })
            })?;
            rows.collect::<Result<Vec<_>, store::rusqlite::Error>>()
        })?;
        folders.sort_by_key(|f| (f.role.map_or(u8::MAX, Role::rank), f.name.to_lowercase()));
        Ok(folders)
    }

    /// A page of `folder`'s thread list, newest activity first: `limit`
    /// threads after `cursor` (a page's `next`), only those matching `query`
    /// (every word, in headers or fetched bodies) when one is given.
    pub fn thread_page(
        &self,
        account: &str,
        folder: &str,
        query: Option<&str>,
        cursor: Option<&str>,
        limit: usize,
    ) -> Result<ThreadPage, ClientError> {
        self.thread_page_with(account, folder, query, &[], cursor, limit)
    }

    /// [`Self::thread_page`], also counting the messages `extra` (UIDs of
    /// `folder` the server's search found) as matching.
    pub(crate) fn thread_page_with(
        &self,
        account: &str,
        folder: &str,
        query: Option<&str>,
        extra: &[u32],
        cursor: Option<&str>,
        limit: usize,
    ) -> Result<ThreadPage, ClientError> {
        let after = cursor.map(parse_cursor).transpose()?;
        let terms = query.map(fts_query).filter(|q| !q.is_empty());
        let limit = limit.max(1);
        let mut sql = String::from(
            "SELECT thread_id, activity, subject, participants, snippet, count, unread, starred
             FROM mailclient_threads WHERE account = ?1 AND folder = ?2",
        );
        if after.is_some() {
            sql.push_str(" AND (activity < ?3 OR (activity = ?3 AND thread_id < ?4))");
        }
        if terms.is_some() {
            sql.push_str(
                " AND thread_id IN (
                   SELECT m.thread_id FROM mailclient_search s
                   JOIN mailclient_messages m ON m.id = s.rowid
                   WHERE mailclient_search MATCH ?5 AND m.account = ?1 AND m.folder = ?2
                   UNION SELECT thread_id FROM mailclient_messages
                   WHERE account = ?1 AND folder = ?2 AND uid IN (SELECT value FROM json_each(?6)))",
            );
        }
        sql.push_str(" ORDER BY activity DESC, thread_id DESC LIMIT ?7");
        let (activity, thread) = after.unwrap_or((0, String::new()));
        let extra_json = format!(
            "[{}]",
            extra
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(",")
        );
        let mut threads = self.db.read(|tx| {
            let mut statement = tx.prepare(&sql)?;
            let rows = statement.query_map(
                params![
                    account,
                    folder,
                    activity,
                    thread,
                    terms.clone().unwrap_or_else(|| "\"\"".to_owned()),
                    extra_json,
                    (limit + 1) as i64
                ],
                |row| {
                    let participants: String = row.get(3)?;
                    Ok(ThreadSummary {
                        id: row.get(0)?,
                        date: row.get(1)?,
                        subject: row.get(2)?,
                        participants: participants
                            .split('\n')
                            .filter(|p| !p.is_empty())
                            .map(str::to_owned)
                            .collect(),
                        snippet: row.get(4)?,
                        count: row.get(5)?,
                        unread: row.get(6)?,
                        starred: row.get(7)?,
                    })
                },
            )?;
            rows.collect::<Result<Vec<_>, store::rusqlite::Error>>()
        })?;
        let next = if threads.len() > limit {
            threads.truncate(limit);
            threads.last().map(|t| format!("{}.{}", t.date, t.id))
        } else {
            None
        };
        Ok(ThreadPage { threads, next })
    }

    /// Messages matching every word of `query` in their subject,
    /// participants, preview or fetched body, best match first, at most
    /// [`MAX_HITS`].
    pub fn search(&self, account: &str, query: &str) -> Result<Vec<Stored>, ClientError> {
        let terms = fts_query(query);
        if terms.is_empty() {
            return Ok(Vec::new());
        }
        let hits = self.db.read(|tx| {
            let mut statement = tx.prepare(&format!(
                "SELECT {MESSAGE_COLUMNS} FROM mailclient_messages
                 JOIN (SELECT rowid AS hit, rank AS score FROM mailclient_search
                       WHERE mailclient_search MATCH ?2) ON id = hit
                 WHERE account = ?1 ORDER BY score LIMIT ?3"
            ))?;
            let rows = statement.query_map(params![account, terms, MAX_HITS as i64], |row| {
                stored_from_row(row)
            })?;
            rows.collect::<Result<Vec<_>, store::rusqlite::Error>>()
        })?;
        Ok(hits)
    }
}

/// The user's words as an FTS5 query: each word quoted, so no text the
/// user types is query syntax.
fn fts_query(query: &str) -> String {
    query
        .split_whitespace()
        .map(|word| format!("\"{}\"", word.replace('"', "\"\"")))
        .collect::<Vec<_>>()
        .join(" ")
}

fn parse_cursor(cursor: &str) -> Result<(i64, String), ClientError> {
    let bad = || ClientError::BadCursor(cursor.chars().take(80).collect());
    let (activity, thread) = cursor.split_once('.').ok_or_else(bad)?;
    let activity = activity.parse::<i64>().map_err(|_| bad())?;
    if thread.is_empty() {
        return Err(bad());
    }
    Ok((activity, thread.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_parse_or_fail_cleanly() {
        assert_eq!(parse_cursor("-5.tabc").unwrap(), (-5, "tabc".to_owned()));
        assert_eq!(parse_cursor("12.a.b").unwrap(), (12, "a.b".to_owned()));
        for bad in ["", "x.y", "12", "12.", "\u{0}"] {
            assert!(parse_cursor(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn user_text_is_never_fts_syntax() {
        assert_eq!(fts_query(" a\"b  OR "), "\"a\"\"b\" \"OR\"");
    }
}
