//! What one turn cost, from the total its engine reported.
//!
//! Claude Code's `total_cost_usd` covers its whole conversation: a run with
//! `--resume` starts from the total the conversation's transcript saved and
//! restates it plus its own spend (0.0051 after the first turn, 0.0102 after
//! the second), while its `usage` tokens count only its own process. So each
//! turn keeps two figures: the total as reported, and its own part, the
//! difference from the total its conversation had before it. What a session
//! cost is the sum of the totals that no later turn continued (with one
//! conversation, exactly its latest total); sums over time (a day's usage,
//! the governor's spend on revived turns) add the parts.
//!
//! Codex's tokens follow the same rule: `turn.completed.usage` of a resumed
//! thread restates the thread's running total (1600/10, then 3300/30, then
//! 5100/60 input/output), so a Codex turn keeps the totals it reported
//! beside its own parts, and a session's tokens (the sum of the parts) are
//! its thread's latest totals.
//!
//! A fork's first turn copies another session's conversation, and both
//! engines restate the copied conversation's totals in the copy's first
//! report. Its own part is read against the source's latest total of that
//! conversation, which stays the source's (never marked continued), and
//! the copied cost is kept on the turn (`inherited_cost_usd`) so that the
//! fork's cost, the sum of its uncontinued totals less what they copied,
//! is its own.

use std::ops::Sub;

use store::rusqlite::{OptionalExtension, Transaction, params};

use crate::adapters::TurnMeta;
use crate::error::Result;

/// The migration that brought the rule: `cost_usd` becomes the turn's own
/// part, `total_cost_usd` keeps what the engine reported, and
/// `total_superseded` marks a total a later turn continued. Turns stored
/// before are read by the rule of [`turn_cost`], restated here in SQL, each
/// as resuming the latest engine id before it.
pub(crate) const MIGRATION: &str = "
ALTER TABLE session_turns ADD COLUMN resumed_engine_session_id TEXT;
ALTER TABLE session_turns ADD COLUMN total_cost_usd REAL;
ALTER TABLE session_turns ADD COLUMN total_superseded INTEGER NOT NULL DEFAULT 0;
UPDATE session_turns SET total_cost_usd = cost_usd, resumed_engine_session_id = (
    SELECT p.engine_session_id FROM session_turns p
    WHERE p.session_id = session_turns.session_id AND p.turn < session_turns.turn
      AND p.engine_session_id IS NOT NULL
    ORDER BY p.turn DESC LIMIT 1);
CREATE TEMP TABLE cost_bases AS
    SELECT t.session_id, t.turn, (
        SELECT p.turn FROM session_turns p
        WHERE p.session_id = t.session_id AND p.turn < t.turn
          AND p.engine_session_id = t.resumed_engine_session_id AND p.total_cost_usd > 0
        ORDER BY p.turn DESC LIMIT 1) AS base_turn
    FROM session_turns t
    WHERE t.total_cost_usd IS NOT NULL AND t.engine_session_id = t.resumed_engine_session_id;
DELETE FROM cost_bases WHERE base_turn IS NULL OR (
    SELECT t.total_cost_usd < p.total_cost_usd
    FROM session_turns t, session_turns p
    WHERE t.session_id = cost_bases.session_id AND t.turn = cost_bases.turn
      AND p.session_id = cost_bases.session_id AND p.turn = cost_bases.base_turn);
UPDATE session_turns SET cost_usd = total_cost_usd - (
    SELECT p.total_cost_usd FROM cost_bases b JOIN session_turns p
        ON p.session_id = b.session_id AND p.turn = b.base_turn
    WHERE b.session_id = session_turns.session_id AND b.turn = session_turns.turn)
WHERE (session_id, turn) IN (SELECT session_id, turn FROM cost_bases);
UPDATE session_turns SET total_superseded = 1
WHERE (session_id, turn) IN (SELECT session_id, base_turn FROM cost_bases);
DROP TABLE cost_bases;
";

/// How one turn's reported total stands to its conversation's earlier one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct TurnCost<T = f64> {
    /// What this turn itself spent.
    pub own: T,
    /// The total continues `before`: the earlier total is part of this one,
    /// so it no longer counts on its own.
    pub continues: bool,
}

/// The turn's own cost, given:
/// - `total`: what its process reported;
/// - `resumed`: the engine conversation it was started to resume, if any;
/// - `answered_in`: the conversation the engine says it answered in (the
///   latest id it printed);
/// - `before`: the latest positive total an earlier turn of `resumed` reported.
///
/// A turn that did not continue `resumed` (none asked, or the resume failed
/// and a new conversation came back) started from nothing, so its whole
/// total is its own. So is a total below `before`: the running total started
/// over (a `/clear`), and what it says now was all spent since. Zero totals
/// never become `before`: Claude Code may write zeroes on a crashed run's
/// result, and the next resume still continues from the saved total.
pub(crate) fn turn_cost<T>(
    total: T,
    resumed: Option<&str>,
    answered_in: Option<&str>,
    before: Option<T>,
) -> TurnCost<T>
where
    T: Copy + Default + PartialOrd + Sub<Output = T>,
{
    let continued = resumed.is_some() && resumed == answered_in;
    match before {
        Some(before) if continued && before > T::default() && total >= before => TurnCost {
            own: total - before,
            continues: true,
        },
        _ => TurnCost {
            own: total,
            continues: false,
        },
    }
}

/// The turn's own part of the `total` it reported, read against its
/// conversation's earlier total (the caller stores both figures); that
/// earlier total is marked when this one continues it, so that a session
/// never counts it twice.
pub(crate) fn own_part(
    tx: &Transaction<'_>,
    id: &str,
    turn: i64,
    total: f64,
    meta: &TurnMeta,
) -> Result<f64> {
    let (resumed, copied_from) = resumed_conversation(tx, id, turn)?;
    if let (Some(resumed), Some(source)) = (resumed.as_deref(), copied_from) {
        let before: Option<f64> = tx
            .query_row(
                "SELECT total_cost_usd FROM session_turns
                 WHERE session_id = ?1 AND engine_session_id = ?2 AND total_cost_usd > 0
                 ORDER BY turn DESC LIMIT 1",
                params![source, resumed],
                |r| r.get(0),
            )
            .optional()?;
        // The copy restates the copied total, whatever id it answers under.
        let cost = turn_cost(total, Some(resumed), Some(resumed), before);
        let inherited = before.filter(|_| cost.continues);
        tx.execute(
            "UPDATE session_turns SET inherited_cost_usd = ?3 WHERE session_id = ?1 AND turn = ?2",
            params![id, turn, inherited],
        )?;
        return Ok(cost.own);
    }
    let (resumed, base): (Option<String>, Option<(i64, f64)>) = tx.query_row(
        "SELECT t.resumed_engine_session_id, p.turn, p.total_cost_usd
         FROM session_turns t LEFT JOIN session_turns p ON p.session_id = t.session_id
            AND p.turn = (SELECT e.turn FROM session_turns e
                          WHERE e.session_id = t.session_id AND e.turn < t.turn
                            AND e.engine_session_id = t.resumed_engine_session_id
                            AND e.total_cost_usd > 0
                          ORDER BY e.turn DESC LIMIT 1)
         WHERE t.session_id = ?1 AND t.turn = ?2",
        params![id, turn],
        |r| {
            let base = match (r.get::<_, Option<i64>>(1)?, r.get::<_, Option<f64>>(2)?) {
                (Some(turn), Some(total)) => Some((turn, total)),
                _ => None,
            };
            Ok((r.get(0)?, base))
        },
    )?;
    let cost = turn_cost(
        total,
        resumed.as_deref(),
        meta.engine_session_id.as_deref(),
        base.map(|(_, total)| total),
    );
    if let Some((base_turn, _)) = base.filter(|_| cost.continues) {
        tx.execute(
            "UPDATE session_turns SET total_superseded = 1 WHERE session_id = ?1 AND turn = ?2",
            params![id, base_turn],
        )?;
    }
    Ok(cost.own)
}

/// The conversation the turn resumed, and when the turn copies a fork's
/// source conversation (it resumed the id the fork was made from), the
/// source session, whose turns hold that conversation's earlier totals.
fn resumed_conversation(
    tx: &Transaction<'_>,
    id: &str,
    turn: i64,
) -> Result<(Option<String>, Option<String>)> {
    Ok(tx.query_row(
        "SELECT t.resumed_engine_session_id,
            iif(t.resumed_engine_session_id = s.fork_engine_session_id, s.forked_from, NULL)
         FROM session_turns t JOIN sessions s ON s.id = t.session_id
         WHERE t.session_id = ?1 AND t.turn = ?2",
        params![id, turn],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?)
}

/// The migration that brought the rule to Codex's tokens: `input_tokens`,
/// `cached_input_tokens` and `output_tokens` become the turn's own parts,
/// and `total_*` keep what a conversation-wide report said (Codex's turns
/// only; Claude Code's tokens are its process's own). Codex turns stored
/// before are read by [`turn_cost`], as the cost migration reads costs.
pub(crate) const TOKENS_MIGRATION: &str = "
ALTER TABLE session_turns ADD COLUMN total_input_tokens INTEGER;
ALTER TABLE session_turns ADD COLUMN total_cached_input_tokens INTEGER;
ALTER TABLE session_turns ADD COLUMN total_output_tokens INTEGER;
UPDATE session_turns SET total_input_tokens = input_tokens,
    total_cached_input_tokens = cached_input_tokens, total_output_tokens = output_tokens
WHERE input_tokens IS NOT NULL
  AND session_id IN (SELECT id FROM sessions WHERE engine_kind = 'codex');
CREATE TEMP TABLE token_bases AS
    SELECT t.session_id, t.turn, (
        SELECT p.turn FROM session_turns p
        WHERE p.session_id = t.session_id AND p.turn < t.turn
          AND p.engine_session_id = t.resumed_engine_session_id AND p.total_input_tokens > 0
        ORDER BY p.turn DESC LIMIT 1) AS base_turn
    FROM session_turns t
    WHERE t.total_input_tokens IS NOT NULL AND t.engine_session_id = t.resumed_engine_session_id;
UPDATE session_turns SET
    input_tokens = total_input_tokens - COALESCE((
        SELECT iif(session_turns.total_input_tokens >= p.total_input_tokens, p.total_input_tokens, 0)
        FROM token_bases b JOIN session_turns p ON p.session_id = b.session_id AND p.turn = b.base_turn
        WHERE b.session_id = session_turns.session_id AND b.turn = session_turns.turn), 0),
    cached_input_tokens = total_cached_input_tokens - COALESCE((
        SELECT iif(session_turns.total_cached_input_tokens >= p.total_cached_input_tokens
                   AND p.total_cached_input_tokens > 0, p.total_cached_input_tokens, 0)
        FROM token_bases b JOIN session_turns p ON p.session_id = b.session_id AND p.turn = b.base_turn
        WHERE b.session_id = session_turns.session_id AND b.turn = session_turns.turn), 0),
    output_tokens = total_output_tokens - COALESCE((
        SELECT iif(session_turns.total_output_tokens >= p.total_output_tokens
                   AND p.total_output_tokens > 0, p.total_output_tokens, 0)
        FROM token_bases b JOIN session_turns p ON p.session_id = b.session_id AND p.turn = b.base_turn
        WHERE b.session_id = session_turns.session_id AND b.turn = session_turns.turn), 0)
WHERE (session_id, turn) IN (SELECT session_id, turn FROM token_bases WHERE base_turn IS NOT NULL);
DROP TABLE token_bases;
";

/// A turn's tokens: its own parts, and the totals they were read from when
/// the engine reported conversation-wide totals.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct TurnTokens {
    pub input: Option<i64>,
    pub cached_input: Option<i64>,
    pub output: Option<i64>,
    pub totals: Option<[Option<i64>; 3]>,
}

/// The turn's own tokens: as reported when they are its process's own,
/// else each count less its conversation's earlier total (by [`turn_cost`],
/// against the latest earlier turn of the resumed conversation that
/// reported totals).
pub(crate) fn own_tokens(
    tx: &Transaction<'_>,
    id: &str,
    turn: i64,
    meta: &TurnMeta,
) -> Result<TurnTokens> {
    let reported = [
        meta.input_tokens,
        meta.cached_input_tokens,
        meta.output_tokens,
    ];
    if !meta.tokens_cover_conversation || reported.iter().all(Option::is_none) {
        return Ok(TurnTokens {
            input: meta.input_tokens,
            cached_input: meta.cached_input_tokens,
            output: meta.output_tokens,
            totals: None,
        });
    }
    let (resumed, copied_from) = resumed_conversation(tx, id, turn)?;
    let before: [Option<i64>; 3] = match (&resumed, &copied_from) {
        (Some(resumed), Some(source)) => tx
            .query_row(
                "SELECT total_input_tokens, total_cached_input_tokens, total_output_tokens
                 FROM session_turns
                 WHERE session_id = ?1 AND engine_session_id = ?2 AND total_input_tokens > 0
                 ORDER BY turn DESC LIMIT 1",
                params![source, resumed],
                |r| Ok([r.get(0)?, r.get(1)?, r.get(2)?]),
            )
            .optional()?
            .unwrap_or_default(),
        _ => tx.query_row(
            "SELECT p.total_input_tokens, p.total_cached_input_tokens, p.total_output_tokens
             FROM session_turns t LEFT JOIN session_turns p ON p.session_id = t.session_id
                AND p.turn = (SELECT e.turn FROM session_turns e
                              WHERE e.session_id = t.session_id AND e.turn < t.turn
                                AND e.engine_session_id = t.resumed_engine_session_id
                                AND e.total_input_tokens > 0
                              ORDER BY e.turn DESC LIMIT 1)
             WHERE t.session_id = ?1 AND t.turn = ?2",
            params![id, turn],
            |r| Ok([r.get(0)?, r.get(1)?, r.get(2)?]),
        )?,
    };
    // A copy restates the copied totals under its own new id.
    let answered_in = match copied_from {
        Some(_) => resumed.as_deref(),
        None => meta.engine_session_id.as_deref(),
    };
    let own = |i: usize| {
        reported[i].map(|total| turn_cost(total, resumed.as_deref(), answered_in, before[i]).own)
    };
    Ok(TurnTokens {
        input: own(0),
        cached_input: own(1),
        output: own(2),
        totals: Some(reported),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own(
        total: f64,
        resumed: Option<&str>,
        answered_in: Option<&str>,
        before: Option<f64>,
    ) -> f64 {
        turn_cost(total, resumed, answered_in, before).own
    }

    #[test]
    fn a_resumed_turn_costs_what_its_total_grew_by() {
        assert_eq!(
            turn_cost(0.0051, None, Some("c1"), None),
            TurnCost {
                own: 0.0051,
                continues: false
            }
        );
        assert_eq!(
            turn_cost(0.0102, Some("c1"), Some("c1"), Some(0.0051)),
            TurnCost {
                own: 0.0051,
                continues: true
            }
        );
        let third = own(0.0153, Some("c1"), Some("c1"), Some(0.0102));
        assert!((third - 0.0051).abs() < 1e-15, "{third}");
    }

    #[test]
    fn a_new_conversation_counts_its_whole_total() {
        // The resume failed and the engine started over under a new id.
        assert_eq!(own(0.004, Some("c1"), Some("c2"), Some(0.0102)), 0.004);
        // The engine printed no id at all.
        assert_eq!(own(0.004, Some("c1"), None, Some(0.0102)), 0.004);
        // Nothing was resumed.
        assert_eq!(own(0.25, None, None, Some(0.1)), 0.25);
        assert!(!turn_cost(0.004, Some("c1"), Some("c2"), Some(0.0102)).continues);
    }

    #[test]
    fn a_conversation_without_an_earlier_total_counts_whole() {
        // The turn that started it was stopped before it printed a result.
        assert_eq!(own(0.03, Some("c1"), Some("c1"), None), 0.03);
        // Or printed a crashed run's zero.
        assert!(!turn_cost(0.03, Some("c1"), Some("c1"), Some(0.0)).continues);
    }

    #[test]
    fn a_total_that_started_over_counts_whole() {
        assert_eq!(own(0.002, Some("c1"), Some("c1"), Some(0.05)), 0.002);
        assert_eq!(own(0.0, Some("c1"), Some("c1"), Some(0.05)), 0.0);
        assert!(!turn_cost(0.002, Some("c1"), Some("c1"), Some(0.05)).continues);
    }

    #[test]
    fn a_resumed_codex_thread_uses_its_tokens_as_its_part() {
        // docs/engines.md: replies of 1600/10, 1700/20, 1800/30 tokens are
        // reported as 1600/10, 3300/30, 5100/60.
        assert_eq!(turn_cost(1600_i64, None, Some("t1"), None).own, 1600);
        assert_eq!(
            turn_cost(3300_i64, Some("t1"), Some("t1"), Some(1600)).own,
            1700
        );
        assert_eq!(turn_cost(60_i64, Some("t1"), Some("t1"), Some(30)).own, 30);
        // A thread that could not be resumed started over under a new id.
        assert_eq!(
            turn_cost(900_i64, Some("t1"), Some("t2"), Some(5100)).own,
            900
        );
    }

    #[test]
    fn an_unchanged_total_cost_nothing() {
        assert_eq!(
            turn_cost(0.05, Some("c1"), Some("c1"), Some(0.05)),
            TurnCost {
                own: 0.0,
                continues: true
            }
        );
    }
}

#[cfg(test)]
mod stored {
    use store::rusqlite::{Transaction, params};
    use store::{Db, Migration};

    use crate::adapters::TurnMeta;
    use crate::db::*;
    use crate::error::Result;
    use crate::schema::MIGRATIONS;

    fn open(migrations: &[Migration]) -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let db = Db::open(&dir.path().join("db.sqlite")).unwrap_or_else(|e| panic!("{e}"));
        db.migrate(migrations).unwrap_or_else(|e| panic!("{e}"));
        (dir, db)
    }

    fn add_session(tx: &Transaction<'_>, id: &str) -> Result<()> {
        tx.execute(
            "INSERT INTO sessions (id, account_id, engine, engine_kind, engine_spec, cwd, prompt,
                status, agent_driven, max_dollars, max_turns, created_at, updated_at)
             VALUES (?1, 'acc', 'e', 'claude', '{}', '/', 'p', 'waiting_for_input', 0, 0, 0, 't', 't')",
            [id],
        )?;
        Ok(())
    }

    fn costs(db: &Db, id: &str) -> (Option<f64>, Vec<Option<f64>>) {
        db.read(|tx| {
            let session = get_session(tx, "acc", id)?.map(|s| s.cost_usd);
            let parts = turns(tx, id)?.into_iter().map(|t| t.cost_usd).collect();
            Ok::<_, crate::error::SessionError>((session.flatten(), parts))
        })
        .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Runs one turn as the pump stores it: its input taken, then its figures.
    fn turn(db: &Db, id: &str, answered_in: &str, total: f64) {
        db.write(|tx| {
            push_input(tx, id, "message", "go", None, "t")?;
            let next = take_input(tx, id, "t")?.unwrap_or_else(|| panic!("no input"));
            let meta = TurnMeta {
                engine_session_id: Some(answered_in.to_owned()),
                cost_usd: Some(total),
                ..TurnMeta::default()
            };
            // Flushed twice after its result line, as a chatty stderr does.
            save_meta(tx, id, next.turn, &meta)?;
            save_meta(tx, id, next.turn, &meta)
        })
        .unwrap_or_else(|e: crate::error::SessionError| panic!("{e}"));
    }

    #[test]
    fn a_resumed_conversation_costs_its_last_total_and_each_turn_its_part() {
        let (_dir, db) = open(MIGRATIONS);
        db.write(|tx| add_session(tx, "s"))
            .unwrap_or_else(|e| panic!("{e}"));
        turn(&db, "s", "c1", 0.0051);
        turn(&db, "s", "c1", 0.0102);
        turn(&db, "s", "c1", 0.0153);
        let (session, parts) = costs(&db, "s");
        assert_eq!(session, Some(0.0153));
        assert_eq!(parts.len(), 3);
        for part in parts {
            assert!(
                (part.unwrap_or_default() - 0.0051).abs() < 1e-15,
                "{part:?}"
            );
        }
        // The resume failed: a new conversation's whole total is added.
        turn(&db, "s", "c2", 0.002);
        // And resuming that one continues it.
        turn(&db, "s", "c2", 0.003);
        let (session, parts) = costs(&db, "s");
        assert!(
            (session.unwrap_or_default() - 0.0183).abs() < 1e-15,
            "{session:?}"
        );
        assert_eq!(parts[3], Some(0.002));
        assert!((parts[4].unwrap_or_default() - 0.001).abs() < 1e-15);
    }

    /// A database that `fill`ed the tables as they were before the
    /// migration `sql`, then opened again by this build (every migration run).
    fn upgraded(
        sql: &str,
        fill: impl FnOnce(&Transaction<'_>) -> Result<()>,
    ) -> (tempfile::TempDir, Db) {
        let at = MIGRATIONS
            .iter()
            .position(|m| m.sql == sql)
            .unwrap_or_else(|| panic!("the rule's migration is not listed"));
        let (dir, db) = open(&MIGRATIONS[..at]);
        db.write(fill).unwrap_or_else(|e| panic!("{e}"));
        drop(db);
        let db = Db::open(&dir.path().join("db.sqlite")).unwrap_or_else(|e| panic!("{e}"));
        db.migrate(MIGRATIONS).unwrap_or_else(|e| panic!("{e}"));
        (dir, db)
    }

    /// A Codex turn as the pump stores it: `turn.completed`'s usage, which
    /// covers the whole thread.
    fn codex_turn(db: &Db, id: &str, thread: &str, totals: (i64, i64, i64)) {
        db.write(|tx| {
            push_input(tx, id, "message", "go", None, "t")?;
            let next = take_input(tx, id, "t")?.unwrap_or_else(|| panic!("no input"));
            let meta = TurnMeta {
                engine_session_id: Some(thread.to_owned()),
                input_tokens: Some(totals.0),
                cached_input_tokens: Some(totals.1),
                output_tokens: Some(totals.2),
                tokens_cover_conversation: true,
                ..TurnMeta::default()
            };
            save_meta(tx, id, next.turn, &meta)?;
            save_meta(tx, id, next.turn, &meta)
        })
        .unwrap_or_else(|e: crate::error::SessionError| panic!("{e}"));
    }

    /// Input, cached input and output tokens.
    type Counts = (i64, i64, i64);

    fn tokens(db: &Db, id: &str) -> (Counts, Vec<Counts>) {
        db.read(|tx| {
            let session = get_session(tx, "acc", id)?
                .map(|s| (s.tokens.input, s.tokens.cached_input, s.tokens.output))
                .unwrap_or_default();
            let mut stmt = tx.prepare(
                "SELECT input_tokens, cached_input_tokens, output_tokens FROM session_turns
                 WHERE session_id = ?1 ORDER BY turn",
            )?;
            let parts = stmt
                .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect::<store::rusqlite::Result<Vec<_>>>()?;
            Ok::<_, crate::error::SessionError>((session, parts))
        })
        .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_resumed_codex_thread_has_its_last_totals_as_tokens() {
        let (_dir, db) = open(MIGRATIONS);
        db.write(|tx| add_session(tx, "s"))
            .unwrap_or_else(|e| panic!("{e}"));
        codex_turn(&db, "s", "t1", (1600, 1000, 10));
        codex_turn(&db, "s", "t1", (3300, 2000, 30));
        codex_turn(&db, "s", "t1", (5100, 3000, 60));
        let (session, parts) = tokens(&db, "s");
        assert_eq!(session, (5100, 3000, 60));
        assert_eq!(
            parts,
            [(1600, 1000, 10), (1700, 1000, 20), (1800, 1000, 30)]
        );
        // A new thread (the resume failed) counts whole, and so does a
        // Claude turn's own process usage.
        codex_turn(&db, "s", "t2", (700, 0, 7));
        let (session, _) = tokens(&db, "s");
        assert_eq!(session, (5800, 3000, 67));
    }

    #[test]
    fn codex_turns_stored_before_the_token_rule_are_read_by_it() {
        let (_dir, db) = upgraded(super::TOKENS_MIGRATION, |tx| {
            add_session(tx, "claude")?;
            add_session(tx, "codex")?;
            tx.execute(
                "UPDATE sessions SET engine_kind = 'codex' WHERE id = 'codex'",
                [],
            )?;
            for session in ["claude", "codex"] {
                for (turn, resumed, thread, input, output) in [
                    (1, None, "t1", 1600, 10),
                    (2, Some("t1"), "t1", 3300, 30),
                    (3, Some("t1"), "t1", 5100, 60),
                ] {
                    tx.execute(
                        "INSERT INTO session_turns (session_id, turn, kind, input, status,
                            started_at, engine_session_id, resumed_engine_session_id,
                            input_tokens, cached_input_tokens, output_tokens)
                         VALUES (?1, ?2, 'message', 'go', 'done', 't', ?3, ?4, ?5, 0, ?6)",
                        params![session, turn, thread, resumed, input, output],
                    )?;
                }
            }
            Ok(())
        });
        let (codex, parts) = tokens(&db, "codex");
        assert_eq!(codex, (5100, 0, 60));
        assert_eq!(parts, [(1600, 0, 10), (1700, 0, 20), (1800, 0, 30)]);
        // Claude's tokens were each process's own all along.
        assert_eq!(tokens(&db, "claude").0, (10000, 0, 100));
    }

    #[test]
    fn turns_stored_before_the_rule_are_read_by_it() {
        let (_dir, db) = upgraded(super::MIGRATION, |tx| {
            add_session(tx, "s")?;
            // What the old code stored: each turn's reported total as its cost.
            for (turn, engine_id, cost) in [
                (1, Some("c1"), Some(0.0051)),
                (2, Some("c1"), None),
                (3, Some("c1"), Some(0.0102)),
                (4, Some("c2"), Some(0.004)),
                (5, Some("c2"), Some(0.001)),
            ] {
                tx.execute(
                    "INSERT INTO session_turns (session_id, turn, kind, input, status,
                        started_at, engine_session_id, cost_usd)
                     VALUES ('s', ?1, 'message', 'go', 'done', 't', ?2, ?3)",
                    params![turn, engine_id, cost],
                )?;
            }
            Ok(())
        });
        let (session, parts) = costs(&db, "s");
        // c1 ended at 0.0102 (turn 2 printed no result); c2 started over at
        // 0.004 and then dropped to 0.001, a running total that started over.
        assert!(
            (session.unwrap_or_default() - 0.0152).abs() < 1e-15,
            "{session:?}"
        );
        assert_eq!(parts[..3], [Some(0.0051), None, Some(0.0051)]);
        assert_eq!(parts[3..], [Some(0.004), Some(0.001)]);
    }
}
