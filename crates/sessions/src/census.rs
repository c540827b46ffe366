//! How many sessions stand where, for a metrics scrape: one grouped count of
//! the sessions not archived by status and runner, and the queue an
//! autoscaler reads (how many wait, and since when the longest has).

use store::rusqlite::Transaction;

use crate::error::Result;
use crate::model::Status;
use crate::supervisor::Supervisor;

/// The sessions at one moment.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Census {
    /// Sessions not archived, per status and runner; only pairs that have one.
    pub by_status: Vec<(Status, String, u64)>,
    /// Sessions queued for room, memory or their start slot: not archived,
    /// and not held for a person's approval, which no capacity would end.
    pub queued: u64,
    /// When the longest-waiting of those last moved to `queued` (a stored
    /// timestamp of the supervisor's clock).
    pub oldest_queued_since: Option<String>,
}

impl Supervisor {
    pub async fn census(&self) -> Result<Census> {
        self.inner.read(census).await
    }
}

fn census(tx: &Transaction<'_>) -> Result<Census> {
    let mut stmt = tx.prepare_cached(
        "SELECT status, runner, COUNT(*) FROM sessions WHERE archived = 0
         GROUP BY status, runner ORDER BY status, runner",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, i64>(2)?,
        ))
    })?;
    let mut by_status = Vec::new();
    for row in rows {
        let (status, runner, count) = row?;
        let count = u64::try_from(count).unwrap_or_default();
        // A status this version does not know is an older or newer row's; it is left out.
        if let Some(status) = Status::parse(&status) {
            by_status.push((status, runner, count));
        }
    }
    // Each session's latest move into `queued` is when its present wait began.
    let (queued, oldest_queued_since) = tx.query_row(
        "SELECT COUNT(*), MIN((SELECT e.at FROM session_events e
                               WHERE e.session_id = s.id AND e.to_status = 'queued'
                               ORDER BY e.id DESC LIMIT 1))
         FROM sessions s INDEXED BY sessions_by_status
         WHERE s.status = 'queued' AND s.archived = 0 AND s.awaiting_approval = 0",
        [],
        |r| Ok((r.get::<_, i64>(0)?, r.get::<_, Option<String>>(1)?)),
    )?;
    Ok(Census {
        by_status,
        queued: u64::try_from(queued).unwrap_or_default(),
        oldest_queued_since,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use store::Db;
    use store::rusqlite::params;

    fn open() -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("db.sqlite")).unwrap();
        db.migrate(crate::schema::MIGRATIONS).unwrap();
        (dir, db)
    }

    /// A session row as its status says, with its moves recorded at `moves`
    /// (status, time), oldest first.
    fn session(db: &Db, id: &str, runner: &str, archived: bool, moves: &[(&str, &str)]) {
        let (status, _) = moves.last().copied().unwrap();
        db.write(|tx| {
            tx.execute(
                "INSERT INTO sessions (id, account_id, engine, engine_kind, engine_spec, cwd,
                    prompt, status, archived, agent_driven, max_dollars, max_turns, created_at,
                    updated_at, runner)
                 VALUES (?1, 'a', 'e', 'command', '{}', '/', 'p', ?2, ?3, 1, 0, 0, 't', 't', ?4)",
                params![id, status, archived, runner],
            )?;
            for (to, at) in moves {
                tx.execute(
                    "INSERT INTO session_events (session_id, at, to_status, reason)
                     VALUES (?1, ?2, ?3, 'test')",
                    params![id, at, to],
                )?;
            }
            Ok::<_, store::rusqlite::Error>(())
        })
        .unwrap();
    }

    #[test]
    fn sessions_are_counted_by_status_and_runner_and_the_queue_by_its_longest_wait() {
        let (_dir, db) = open();
        session(
            &db,
            "r1",
            "local",
            false,
            &[("running", "2026-01-01T10:00:00Z")],
        );
        session(
            &db,
            "r2",
            "local",
            false,
            &[("running", "2026-01-01T10:00:00Z")],
        );
        session(
            &db,
            "r3",
            "gpu",
            false,
            &[("running", "2026-01-01T10:00:00Z")],
        );
        session(
            &db,
            "old",
            "local",
            true,
            &[("finished", "2026-01-01T09:00:00Z")],
        );
        // Queued long ago, ran, and queued again later: its wait is the later one.
        session(
            &db,
            "q1",
            "gpu",
            false,
            &[
                ("queued", "2026-01-01T08:00:00Z"),
                ("running", "2026-01-01T08:10:00Z"),
                ("queued", "2026-01-01T11:00:00Z"),
            ],
        );
        session(
            &db,
            "q2",
            "gpu",
            false,
            &[("queued", "2026-01-01T10:30:00Z")],
        );
        let census = db.read(census).unwrap();
        assert_eq!(
            census.by_status,
            vec![
                (Status::Queued, "gpu".to_owned(), 2),
                (Status::Running, "gpu".to_owned(), 1),
                (Status::Running, "local".to_owned(), 2),
            ]
        );
        assert_eq!(census.queued, 2);
        assert_eq!(
            census.oldest_queued_since.as_deref(),
            Some("2026-01-01T10:30:00Z")
        );
    }

    #[test]
    fn a_session_held_for_approval_is_no_part_of_the_queue() {
        let (_dir, db) = open();
        session(
            &db,
            "q",
            "gpu",
            false,
            &[("queued", "2026-01-01T10:30:00Z")],
        );
        db.write(|tx| tx.execute("UPDATE sessions SET awaiting_approval = 1", []))
            .unwrap();
        let census = db.read(census).unwrap();
        assert_eq!(
            census.by_status,
            vec![(Status::Queued, "gpu".to_owned(), 1)]
        );
        assert_eq!((census.queued, census.oldest_queued_since), (0, None));
    }
}
