//! Merging the ready branches of a repository: the work waiting on review
//! there (pushed, not landed, nothing uncommitted), merged one at a time
//! by a session asked to ([`prompt`]). Each such session is recorded
//! ([`record`]) so `mergePriorityBoostEnabled` can put it first for the
//! CPU while it runs, for at most [`BOOST_FOR`].

use store::Db;
use store::rusqlite::{Transaction, params};

use crate::index::Entry;
use crate::state::State;

/// How long a merge session keeps its boost at most.
pub const BOOST_FOR: i64 = 30 * 60;

/// The account's work in `repository` that is ready to merge, oldest
/// first (the order it is merged in).
pub fn ready<'a>(entries: &'a [Entry], repository: &str) -> Vec<&'a Entry> {
    let mut ready: Vec<&Entry> = entries
        .iter()
        .filter(|e| e.repository == repository && e.state == State::WaitingOnReview)
        .collect();
    ready.sort_by(|a, b| {
        let at = |e: &Entry| e.last_commit.as_ref().map(|c| c.at.clone());
        at(a).cmp(&at(b))
    });
    ready
}

/// What the merge session is asked.
pub fn prompt(default: &str, ready: &[&Entry]) -> String {
    let mut text = format!(
        "Merge these ready branches into {default} in this repository, one at a time, in this order:\n"
    );
    for entry in ready {
        let subject = entry
            .last_commit
            .as_ref()
            .map_or(String::new(), |c| format!(" (last commit: {})", c.subject));
        text.push_str(&format!("- {}{subject}\n", entry.branch));
    }
    text.push_str(
        "For each: check out the default branch, merge the branch with git merge --no-ff, \
         resolve any conflict, run the project's tests, and commit. At the first branch that \
         cannot be merged cleanly or whose tests fail, stop and say which and why. Do not push.",
    );
    text
}

/// A merge session, as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merge {
    pub session_id: String,
    pub account_id: String,
    pub started_at: i64,
}

pub fn record(
    db: &Db,
    session_id: &str,
    account_id: &str,
    repository: &str,
    branches: &[String],
    started_at: i64,
) -> store::Result<()> {
    db.write(|tx: &Transaction<'_>| {
        tx.execute(
            "INSERT OR IGNORE INTO work_merges (session_id, account_id, repository, branches, started_at)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![session_id, account_id, repository, branches.join("\n"), started_at],
        )?;
        Ok(())
    })
}

/// The merge sessions started at `since` or later, newest first.
pub fn since(db: &Db, since: i64) -> store::Result<Vec<Merge>> {
    db.read(|tx: &Transaction<'_>| {
        let mut statement = tx.prepare(
            "SELECT session_id, account_id, started_at FROM work_merges
             WHERE started_at >= ?1 ORDER BY started_at DESC, session_id DESC",
        )?;
        let rows = statement.query_map([since], |row| {
            Ok(Merge {
                session_id: row.get(0)?,
                account_id: row.get(1)?,
                started_at: row.get(2)?,
            })
        })?;
        Ok(rows.collect::<store::rusqlite::Result<_>>()?)
    })
}
