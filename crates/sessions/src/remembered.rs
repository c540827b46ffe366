//! The sessions lists last read, kept by revision, so that a list reads
//! again only the sessions that changed since.
//!
//! A list of 1,024 sessions cost about 3.3 ms of SQLite and parsing a
//! request (the turn totals, every row's columns, each activity's JSON),
//! and at 1,024 busy sessions, with the engines and the server's pumps on
//! the same two cores, the list waited for a core in proportion to that
//! CPU: its p99 was 20–32 ms. Each session has a revision instead
//! (`schema.rs`: triggers give it a new number from one counter at every
//! change of its row, its turns, its inputs or its worktree, so no number
//! stands for two committed states), and a session read at revision `r`
//! is that session for as long as its revision is `r`. A list reads each
//! session's revision (one statement over the sessions alone), takes the
//! ones held at that revision, and reads the others, all in one
//! transaction.
//!
//! A parent is read every time and never kept: its tree's cost moves with
//! its descendants' turns, which do not move its revision.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};

use store::rusqlite::Transaction;

use crate::error::Result;
use crate::model::Session;
use crate::session_query::{get_revised, list_revised, newest_first, revisions};

/// A read of one session runs five statements (its row and what is read
/// beside it) where the whole list runs five for all: past one stale
/// session in this many, the whole list is read instead.
const WHOLE_LIST_PAST_ONE_IN: usize = 5;

/// Each session as last read, by id, with the revision it was read at.
#[derive(Default)]
pub(crate) struct Remembered {
    read: Mutex<HashMap<String, (i64, Arc<Session>)>>,
}

impl Remembered {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, (i64, Arc<Session>)>> {
        // Each entry is written whole under the lock: a panic leaves none half made.
        self.read.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The account's sessions, newest first, as of `tx`.
    pub(crate) fn list(&self, tx: &Transaction<'_>, account: &str) -> Result<Vec<Session>> {
        let current = revisions(tx, account)?;
        let kept: Vec<Option<Arc<Session>>> = {
            let read = self.lock();
            current
                .iter()
                .map(|(id, revision, parent)| match read.get(id) {
                    Some((known, session)) if !parent && known == revision => {
                        Some(Arc::clone(session))
                    }
                    _ => None,
                })
                .collect()
        };
        let stale = kept.iter().filter(|session| session.is_none()).count();
        let mut sessions = Vec::with_capacity(current.len());
        if stale * WHOLE_LIST_PAST_ONE_IN > current.len() {
            let all: Vec<(i64, Arc<Session>)> = list_revised(tx, account)?
                .into_iter()
                .map(|(revision, session)| (revision, Arc::new(session)))
                .collect();
            sessions.extend(all.iter().map(|(_, session)| Session::clone(session)));
            self.remember(all);
        } else {
            let mut fresh = Vec::with_capacity(stale);
            for ((id, ..), kept) in current.iter().zip(kept) {
                let session = match kept {
                    Some(session) => session,
                    None => match get_revised(tx, account, id)? {
                        Some((revision, session)) => {
                            let session = Arc::new(session);
                            fresh.push((revision, Arc::clone(&session)));
                            session
                        }
                        // Listed by this transaction a moment ago: not gone.
                        None => continue,
                    },
                };
                sessions.push(Session::clone(&session));
            }
            self.remember(fresh);
        }
        self.forget_all_but(&current);
        newest_first(&mut sessions);
        Ok(sessions)
    }

    /// The account's session `id`, as of `tx`, kept for the lists: what
    /// announces a changed session reads it here, so the next list finds
    /// it read.
    pub(crate) fn get(
        &self,
        tx: &Transaction<'_>,
        account: &str,
        id: &str,
    ) -> Result<Option<Session>> {
        let Some((revision, session)) = get_revised(tx, account, id)? else {
            return Ok(None);
        };
        let session = Arc::new(session);
        self.remember([(revision, Arc::clone(&session))]);
        Ok(Some(Arc::unwrap_or_clone(session)))
    }

    fn remember(&self, fresh: impl IntoIterator<Item = (i64, Arc<Session>)>) {
        let mut read = self.lock();
        for (revision, session) in fresh {
            if session.children.is_empty() {
                read.insert(session.id.clone(), (revision, session));
            }
        }
    }

    /// Sessions that are gone (or of another account) leave once the
    /// kept ones outgrow the latest list.
    fn forget_all_but(&self, current: &[(String, i64, bool)]) {
        let mut read = self.lock();
        if read.len() > 2 * current.len() + 64 {
            let listed: HashSet<&str> = current.iter().map(|(id, ..)| id.as_str()).collect();
            read.retain(|id, _| listed.contains(id.as_str()));
        }
    }
}

#[cfg(test)]
mod tests {
    use store::Db;

    use super::*;

    fn db_with(sessions: usize) -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let db = Db::open(&dir.path().join("db.sqlite")).unwrap_or_else(|e| panic!("{e}"));
        db.migrate(crate::schema::MIGRATIONS)
            .unwrap_or_else(|e| panic!("{e}"));
        write(&db, |tx| {
            for n in 0..sessions {
                tx.execute(
                    "INSERT INTO sessions (id, account_id, engine, engine_kind, engine_spec, cwd,
                         prompt, status, agent_driven, max_dollars, max_turns, created_at,
                         updated_at)
                     VALUES (?1, 'me', 'e', 'command', '{}', '/', 'p', 'running', 0, 1.0, 5,
                         ?1, ?1)",
                    [format!("s{n:02}")],
                )?;
            }
            Ok(())
        });
        (dir, db)
    }

    fn write(db: &Db, f: impl FnOnce(&Transaction<'_>) -> store::rusqlite::Result<()>) {
        db.write(f).unwrap_or_else(|e| panic!("{e}"));
    }

    fn as_json(sessions: &[Session]) -> serde_json::Value {
        serde_json::to_value(sessions).unwrap_or_else(|e| panic!("{e}"))
    }

    /// What a list shows through `kept`, and what a read of everything shows.
    fn listed_and_read(db: &Db, kept: &Remembered) -> (serde_json::Value, serde_json::Value) {
        db.read(|tx| {
            let listed = kept.list(tx, "me")?;
            let mut read: Vec<Session> = list_revised(tx, "me")?
                .into_iter()
                .map(|(_, session)| session)
                .collect();
            newest_first(&mut read);
            Ok::<_, crate::error::SessionError>((as_json(&listed), as_json(&read)))
        })
        .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn every_change_a_session_shows_is_in_the_next_list() {
        let (_dir, db) = db_with(12);
        let kept = Remembered::default();
        let changes: [(&str, &str); 14] = [
            (
                "a title",
                "UPDATE sessions SET title = 'renamed' WHERE id = 's01'",
            ),
            (
                "a turn started",
                "INSERT INTO session_turns (session_id, turn, kind, input, status, started_at)
                 VALUES ('s02', 1, 'prompt', 'p', 'running', 'x')",
            ),
            (
                "a turn's cost",
                "UPDATE session_turns SET total_cost_usd = 0.5, input_tokens = 9
                 WHERE session_id = 's02'",
            ),
            (
                "a message queued",
                "INSERT INTO session_inputs (session_id, kind, text, created_at)
                 VALUES ('s03', 'message', 'hi', 'x')",
            ),
            (
                "the message taken",
                "UPDATE session_inputs SET consumed = 1 WHERE session_id = 's03'",
            ),
            (
                "the message gone",
                "DELETE FROM session_inputs WHERE session_id = 's03'",
            ),
            (
                "a worktree made",
                "INSERT INTO session_worktrees (session_id, path, branch, base, repository)
                 VALUES ('s04', '/w', 'b', 'abc', '/repo')",
            ),
            (
                "the worktree removed",
                "UPDATE session_worktrees SET removed = 1 WHERE session_id = 's04'",
            ),
            (
                "the worktree forgotten",
                "DELETE FROM session_worktrees WHERE session_id = 's04'",
            ),
            (
                "a child",
                "UPDATE sessions SET source_session_id = 's05' WHERE id = 's06'",
            ),
            (
                "the child's turn",
                "INSERT INTO session_turns (session_id, turn, kind, input, status, started_at,
                     total_cost_usd)
                 VALUES ('s06', 1, 'prompt', 'p', 'done', 'x', 2.0)",
            ),
            (
                "the child left",
                "UPDATE sessions SET source_session_id = NULL WHERE id = 's06'",
            ),
            (
                "the turn undone",
                "DELETE FROM session_turns WHERE session_id = 's02'",
            ),
            (
                "a new session",
                "INSERT INTO sessions (id, account_id, engine, engine_kind, engine_spec, cwd,
                     prompt, status, agent_driven, max_dollars, max_turns, created_at, updated_at)
                 VALUES ('s99', 'me', 'e', 'command', '{}', '/', 'p', 'running', 0, 1.0, 5,
                     's99', 's99')",
            ),
        ];
        let (first, read) = listed_and_read(&db, &kept);
        assert_eq!(first, read);
        for (change, sql) in changes {
            write(&db, |tx| tx.execute(sql, []).map(drop));
            let (listed, read) = listed_and_read(&db, &kept);
            assert_eq!(listed, read, "after {change}");
        }
        write(&db, |tx| {
            tx.execute("DELETE FROM session_turns WHERE session_id = 's06'", [])?;
            tx.execute("DELETE FROM sessions WHERE id = 's06'", [])
                .map(drop)
        });
        let (listed, read) = listed_and_read(&db, &kept);
        assert_eq!(listed, read, "after a session was deleted");
        assert!(!listed.to_string().contains("\"s06\""));
    }

    #[test]
    fn many_changes_at_once_read_the_whole_list_and_agree_too() {
        let (_dir, db) = db_with(10);
        let kept = Remembered::default();
        listed_and_read(&db, &kept);
        write(&db, |tx| {
            tx.execute(
                "UPDATE sessions SET status = 'waiting_for_input' WHERE id IN ('s01', 's02', 's03')",
                [],
            )
            .map(drop)
        });
        let (listed, read) = listed_and_read(&db, &kept);
        assert_eq!(listed, read);
        assert_eq!(
            listed[7]["status"], "waiting_for_input",
            "s02, newest first"
        );
    }

    #[test]
    fn a_session_whose_revision_stayed_is_not_read_again() {
        let (_dir, db) = db_with(10);
        let kept = Remembered::default();
        listed_and_read(&db, &kept);
        // Without its trigger a change of the row leaves the revision: a
        // list that still shows the old title took it from memory.
        write(&db, |tx| {
            tx.execute("DROP TRIGGER sessions_revised", [])?;
            tx.execute("UPDATE sessions SET title = 'unseen' WHERE id = 's01'", [])
                .map(drop)
        });
        let (listed, read) = listed_and_read(&db, &kept);
        assert_ne!(listed, read);
        assert_eq!(read[8]["title"], "unseen");
        assert_eq!(listed[8]["title"], serde_json::Value::Null);
    }

    #[test]
    fn no_revision_is_given_twice() {
        let (_dir, db) = db_with(3);
        let revisions_now = || {
            db.read(|tx| revisions(tx, "me"))
                .unwrap_or_else(|e| panic!("{e}"))
                .into_iter()
                .map(|(_, revision, _)| revision)
                .collect::<Vec<_>>()
        };
        let before = revisions_now();
        write(&db, |tx| {
            tx.execute("UPDATE sessions SET title = 't'", []).map(drop)
        });
        let after = revisions_now();
        let mut all: Vec<i64> = before.iter().chain(&after).copied().collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 6, "{before:?} then {after:?}");
    }
}
