//! The typed queries over the sessions feature's tables (`schema.rs`).

use store::rusqlite::{OptionalExtension, Transaction, params};

use crate::adapters::TurnMeta;
use crate::engines::Resume;
use crate::error::Result;
use crate::model::{Status, StatusEvent, Trigger, Turn};
pub use crate::session_query::{get_session, get_session_any};

const ACTIVE: &str = "('queued','starting','running','waiting_for_input')";

pub struct NewSession<'a> {
    pub id: &'a str,
    pub account_id: &'a str,
    pub engine: &'a str,
    pub engine_kind: &'a str,
    pub engine_spec: &'a str,
    pub title: Option<&'a str>,
    pub cwd: &'a str,
    pub prompt: &'a str,
    pub status: Status,
    pub agent_driven: bool,
    pub parent_id: Option<&'a str>,
    pub starts_at: Option<&'a str>,
    pub follow_up_added: Option<&'a str>,
    pub first_added: Option<&'a str>,
    pub max_dollars: f64,
    pub max_turns: i64,
    pub reason: &'a str,
    pub trigger: Option<Trigger>,
    /// The level pinned for the session's life, if its starter pinned one.
    pub permission_level: Option<permissions::Level>,
    /// The session a fork copies, and the engine conversation of it that
    /// its first turn continues as a new one.
    pub forked_from: Option<&'a str>,
    pub fork_engine_session_id: Option<&'a str>,
    /// Where its engine runs: `local` or a runner of `runners.toml`.
    pub runner: &'a str,
    /// Started by a session on a runner: held until the user approves.
    pub awaiting_approval: bool,
    /// The clock's timestamp for the row and its first event.
    pub now: &'a str,
}

pub fn insert_session(tx: &Transaction<'_>, s: &NewSession<'_>) -> Result<()> {
    let now = s.now;
    tx.execute(
        "INSERT INTO sessions (id, account_id, engine, engine_kind, engine_spec, title, cwd, prompt,
            status, agent_driven, source_session_id, starts_at, follow_up_added, max_dollars,
            max_turns, created_at, updated_at, trigger_kind, forked_from, fork_engine_session_id,
            title_source, runner, awaiting_approval, permission_level)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?16, ?17,
            ?18, ?19, iif(?6 IS NULL, NULL, 'user'), ?20, ?21, ?22)",
        params![
            s.id,
            s.account_id,
            s.engine,
            s.engine_kind,
            s.engine_spec,
            s.title,
            s.cwd,
            s.prompt,
            s.status.as_str(),
            s.agent_driven,
            s.parent_id,
            s.starts_at,
            s.follow_up_added,
            s.max_dollars,
            s.max_turns,
            now,
            s.trigger.map(Trigger::as_str),
            s.forked_from,
            s.fork_engine_session_id,
            s.runner,
            s.awaiting_approval,
            s.permission_level.map(permissions::Level::as_str)
        ],
    )?;
    record_event(tx, s.id, None, s.status, s.reason, now)?;
    push_input(tx, s.id, "prompt", s.prompt, s.first_added, now)?;
    Ok(())
}

fn record_event(
    tx: &Transaction<'_>,
    id: &str,
    from: Option<Status>,
    to: Status,
    reason: &str,
    at: &str,
) -> Result<()> {
    tx.execute(
        "INSERT INTO session_events (session_id, at, from_status, to_status, reason)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![id, at, from.map(Status::as_str), to.as_str(), reason],
    )?;
    Ok(())
}

pub fn status_of(tx: &Transaction<'_>, id: &str) -> Result<Option<(Status, bool)>> {
    Ok(tx
        .query_row(
            "SELECT status, archived FROM sessions WHERE id = ?1",
            [id],
            |r| Ok((r.get::<_, String>(0)?, r.get::<_, bool>(1)?)),
        )
        .optional()?
        .map(|(s, archived)| (Status::parse(&s).unwrap_or(Status::Failed), archived)))
}

/// Moves a session to `to`, recording the move; a move to the same status is
/// not recorded. Says whether it moved.
pub fn set_status(
    tx: &Transaction<'_>,
    id: &str,
    to: Status,
    reason: &str,
    now: &str,
) -> Result<bool> {
    let from = status_of(tx, id)?.map(|(s, _)| s);
    if from == Some(to) {
        return Ok(false);
    }
    tx.execute(
        "UPDATE sessions SET status = ?2, updated_at = ?3 WHERE id = ?1",
        params![id, to.as_str(), now],
    )?;
    if matches!(to, Status::Failed) {
        tx.execute(
            "UPDATE sessions SET error = ?2 WHERE id = ?1",
            params![id, reason],
        )?;
    }
    record_event(tx, id, from, to, reason, now)?;
    Ok(true)
}

pub fn set_archived(tx: &Transaction<'_>, id: &str, now: &str) -> Result<()> {
    tx.execute(
        "UPDATE sessions SET archived = 1, archived_at = ?2, updated_at = ?2 WHERE id = ?1",
        params![id, now],
    )?;
    Ok(())
}

pub fn count_active_agent_driven(tx: &Transaction<'_>) -> Result<u32> {
    Ok(tx.query_row(
        &format!(
            "SELECT COUNT(*) FROM sessions WHERE agent_driven = 1 AND archived = 0 AND status IN {ACTIVE}"
        ),
        [],
        |r| r.get(0),
    )?)
}

pub fn is_live_of_account(tx: &Transaction<'_>, account: &str, id: &str) -> Result<bool> {
    Ok(tx
        .query_row(
            &format!(
                "SELECT 1 FROM sessions WHERE id = ?1 AND account_id = ?2 AND archived = 0 AND status IN {ACTIVE}"
            ),
            [id, account],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

/// The latest start slot handed to an agent-driven session, for spawn spacing.
pub fn last_agent_slot(tx: &Transaction<'_>) -> Result<Option<String>> {
    Ok(tx.query_row(
        "SELECT MAX(starts_at) FROM sessions WHERE agent_driven = 1",
        [],
        |r| r.get(0),
    )?)
}

pub fn push_input(
    tx: &Transaction<'_>,
    id: &str,
    kind: &str,
    text: &str,
    added: Option<&str>,
    now: &str,
) -> Result<()> {
    tx.execute(
        "INSERT INTO session_inputs (session_id, kind, text, added, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![id, kind, text, added, now],
    )?;
    Ok(())
}

pub fn follow_up_added(tx: &Transaction<'_>, id: &str) -> Result<Option<String>> {
    Ok(tx.query_row(
        "SELECT follow_up_added FROM sessions WHERE id = ?1",
        [id],
        |r| r.get(0),
    )?)
}

/// The next turn to run, taken from the oldest unconsumed input.
pub struct NextTurn {
    pub turn: i64,
    /// `prompt`, `message` or `nudge`.
    pub kind: String,
    pub text: String,
    pub added: Option<String>,
    /// The engine's id from the previous turn, for a resume; for a fork
    /// whose engine has not answered yet, the source's, to copy.
    pub resume: Option<String>,
    /// `resume` is the source's conversation, to continue as a new one.
    pub fork: bool,
}

impl NextTurn {
    pub fn resume(&self) -> Option<Resume<'_>> {
        self.resume.as_deref().map(|id| {
            if self.fork {
                Resume::Fork(id)
            } else {
                Resume::Continue(id)
            }
        })
    }
}

pub fn take_input(tx: &Transaction<'_>, id: &str, now: &str) -> Result<Option<NextTurn>> {
    let Some((input_id, kind, text, added)) = tx
        .query_row(
            "SELECT id, kind, text, added FROM session_inputs
             WHERE session_id = ?1 AND consumed = 0 ORDER BY id LIMIT 1",
            [id],
            |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, Option<String>>(3)?,
                ))
            },
        )
        .optional()?
    else {
        return Ok(None);
    };
    tx.execute(
        "UPDATE session_inputs SET consumed = 1 WHERE id = ?1",
        [input_id],
    )?;
    let turn: i64 = tx.query_row(
        "SELECT COALESCE(MAX(turn), 0) + 1 FROM session_turns WHERE session_id = ?1",
        [id],
        |r| r.get(0),
    )?;
    // A fork copies its source's conversation until its engine names the
    // copy (at its first turn); from then on it continues its own.
    let (own, fork_of): (Option<String>, Option<String>) = tx.query_row(
        "SELECT engine_session_id, fork_engine_session_id FROM sessions WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let fork = own.is_none() && fork_of.is_some();
    let resume = own.or(fork_of);
    // What the turn resumes is kept with it: its cost is read against that
    // conversation's earlier total.
    tx.execute(
        "INSERT INTO session_turns (session_id, turn, kind, input, added, status, started_at,
            resumed_engine_session_id)
         VALUES (?1, ?2, ?3, ?4, ?5, 'running', ?6, ?7)",
        params![id, turn, kind, text, added, now, resume],
    )?;
    // Kept on the session so the governor orders ten thousand of them by
    // last activity without reading their turns.
    tx.execute(
        "UPDATE sessions SET last_turn_at = ?2 WHERE id = ?1",
        params![id, now],
    )?;
    Ok(Some(NextTurn {
        turn,
        kind,
        text,
        added,
        resume,
        fork,
    }))
}

pub fn set_process(tx: &Transaction<'_>, id: &str, pid: Option<u32>) -> Result<()> {
    tx.execute(
        "UPDATE sessions SET pid = ?2, pgid = ?2 WHERE id = ?1",
        params![id, pid],
    )?;
    Ok(())
}

/// Appends one transcript row stored at `at` (the clock's timestamp).
pub fn append_output(
    tx: &Transaction<'_>,
    id: &str,
    turn: i64,
    stream: &str,
    text: &str,
    at: &str,
) -> Result<Option<i64>> {
    if text.is_empty() {
        return Ok(None);
    }
    tx.execute(
        "INSERT INTO session_output (session_id, turn, stream, text, at)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![id, turn, stream, text, at],
    )?;
    Ok(Some(tx.last_insert_rowid()))
}

/// Stores what the engine said about itself so far (the engine's id first of
/// all: a resume after a crash needs the latest one).
pub fn save_meta(tx: &Transaction<'_>, id: &str, turn: i64, meta: &TurnMeta) -> Result<()> {
    let own_cost = match meta.cost_usd {
        Some(total) => Some(crate::cost::own_part(tx, id, turn, total, meta)?),
        None => None,
    };
    let tokens = crate::cost::own_tokens(tx, id, turn, meta)?;
    let totals = tokens.totals.unwrap_or_default();
    tx.execute(
        "UPDATE session_turns SET engine_session_id = ?3, cost_usd = ?4, total_cost_usd = ?5,
            engine_turns = ?6, input_tokens = ?7, output_tokens = ?8, cached_input_tokens = ?9,
            total_input_tokens = ?10, total_cached_input_tokens = ?11, total_output_tokens = ?12
         WHERE session_id = ?1 AND turn = ?2",
        params![
            id,
            turn,
            meta.engine_session_id,
            own_cost,
            meta.cost_usd,
            meta.engine_turns,
            tokens.input,
            tokens.output,
            tokens.cached_input,
            totals[0],
            totals[1],
            totals[2]
        ],
    )?;
    if let Some(engine_id) = &meta.engine_session_id {
        tx.execute(
            "UPDATE sessions SET engine_session_id = ?2 WHERE id = ?1",
            params![id, engine_id],
        )?;
    }
    if meta.cost_usd.is_some() {
        tx.execute(
            "UPDATE sessions SET reports_cost = 1 WHERE id = ?1 AND reports_cost = 0",
            [id],
        )?;
    }
    Ok(())
}

pub fn end_turn(
    tx: &Transaction<'_>,
    id: &str,
    turn: i64,
    status: &str,
    error: Option<&str>,
    exit_code: Option<i32>,
    now: &str,
) -> Result<()> {
    tx.execute(
        "UPDATE session_turns SET status = ?3, error = ?4, exit_code = ?5, ended_at = ?6
         WHERE session_id = ?1 AND turn = ?2",
        params![id, turn, status, error, exit_code, now],
    )?;
    tx.execute(
        "UPDATE sessions SET pid = NULL, pgid = NULL WHERE id = ?1",
        [id],
    )?;
    Ok(())
}

pub fn turns(tx: &Transaction<'_>, id: &str) -> Result<Vec<Turn>> {
    let mut stmt = tx.prepare(
        "SELECT turn, kind, input, added, status, error, exit_code, engine_session_id, cost_usd,
            started_at, ended_at
         FROM session_turns WHERE session_id = ?1 ORDER BY turn",
    )?;
    let mut turns = stmt
        .query_map([id], |r| {
            Ok(Turn {
                turn: r.get(0)?,
                kind: r.get(1)?,
                input: r.get(2)?,
                added: r.get(3)?,
                output: String::new(),
                stderr: String::new(),
                status: r.get(4)?,
                error: r.get(5)?,
                exit_code: r.get(6)?,
                engine_session_id: r.get(7)?,
                cost_usd: r.get(8)?,
                started_at: r.get(9)?,
                ended_at: r.get(10)?,
            })
        })?
        .collect::<store::rusqlite::Result<Vec<_>>>()?;
    // `entry` rows are the typed transcript's JSON, which the plain form leaves out.
    let mut chunks = tx.prepare(
        "SELECT turn, stream, text FROM session_output
         WHERE session_id = ?1 AND stream <> 'entry' ORDER BY turn, id",
    )?;
    let mut rows = chunks.query([id])?;
    while let Some(row) = rows.next()? {
        let turn: i64 = row.get(0)?;
        let stream: String = row.get(1)?;
        let text: String = row.get(2)?;
        if let Some(t) = turns.iter_mut().find(|t| t.turn == turn) {
            if stream == "err" {
                t.stderr.push_str(&text);
            } else {
                t.output.push_str(&text);
            }
        }
    }
    Ok(turns)
}

pub fn events(tx: &Transaction<'_>, id: &str) -> Result<Vec<StatusEvent>> {
    let mut stmt = tx.prepare(
        "SELECT at, from_status, to_status, reason FROM session_events
         WHERE session_id = ?1 ORDER BY id",
    )?;
    let rows = stmt.query_map([id], |r| {
        let from: Option<String> = r.get(1)?;
        let to: String = r.get(2)?;
        Ok(StatusEvent {
            at: r.get(0)?,
            from: from.as_deref().and_then(Status::parse),
            to: Status::parse(&to).unwrap_or(Status::Failed),
            reason: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<store::rusqlite::Result<_>>()?)
}

/// A session the previous server left active, as crash recovery sees it.
pub struct Leftover {
    pub id: String,
    pub status: Status,
    pub runner: String,
}

pub fn leftovers(tx: &Transaction<'_>) -> Result<Vec<Leftover>> {
    let mut stmt = tx.prepare(&format!(
        "SELECT id, status, runner FROM sessions
         WHERE archived = 0 AND awaiting_approval = 0
           AND (status IN {ACTIVE} OR pgid IS NOT NULL) ORDER BY created_at"
    ))?;
    let rows = stmt.query_map([], |r| {
        let status: String = r.get(1)?;
        Ok(Leftover {
            id: r.get(0)?,
            status: Status::parse(&status).unwrap_or(Status::Failed),
            runner: r.get(2)?,
        })
    })?;
    Ok(rows.collect::<store::rusqlite::Result<_>>()?)
}

/// The turn a dead server left running, as the actor that picks it up
/// again needs it (a turn on a runner host goes on without the server).
pub fn open_turn(tx: &Transaction<'_>, id: &str) -> Result<Option<NextTurn>> {
    Ok(tx
        .query_row(
            "SELECT turn, kind, input, added FROM session_turns
             WHERE session_id = ?1 AND status = 'running' ORDER BY turn DESC LIMIT 1",
            [id],
            |r| {
                Ok(NextTurn {
                    turn: r.get(0)?,
                    kind: r.get(1)?,
                    text: r.get(2)?,
                    added: r.get(3)?,
                    resume: None,
                    fork: false,
                })
            },
        )
        .optional()?)
}

/// Drops what a turn streamed after its input, before the turn's whole
/// output is read again from the runner's spool.
pub fn clear_turn_output(tx: &Transaction<'_>, id: &str, turn: i64) -> Result<()> {
    tx.execute(
        "DELETE FROM session_output WHERE session_id = ?1 AND turn = ?2 AND id > (
             SELECT MIN(id) FROM session_output WHERE session_id = ?1 AND turn = ?2)",
        params![id, turn],
    )?;
    Ok(())
}

/// A turn left `running` by a dead server is closed as interrupted.
pub fn close_open_turns(tx: &Transaction<'_>, id: &str, now: &str) -> Result<()> {
    tx.execute(
        "UPDATE session_turns SET status = 'interrupted', error = 'the server stopped during this turn',
            ended_at = ?2
         WHERE session_id = ?1 AND status = 'running'",
        params![id, now],
    )?;
    tx.execute(
        "UPDATE sessions SET pid = NULL, pgid = NULL WHERE id = ?1",
        [id],
    )?;
    Ok(())
}

pub fn engine_spec(tx: &Transaction<'_>, id: &str) -> Result<(String, String, String, String)> {
    Ok(tx.query_row(
        "SELECT engine_spec, cwd, engine, runner FROM sessions WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )?)
}

/// Lets a session held for the user's approval go (`true` when it was held).
pub fn release_approval(tx: &Transaction<'_>, id: &str) -> Result<bool> {
    Ok(tx.execute(
        "UPDATE sessions SET awaiting_approval = 0 WHERE id = ?1 AND awaiting_approval = 1",
        [id],
    )? == 1)
}

/// The runner session `id` runs on.
pub fn runner_of(tx: &Transaction<'_>, id: &str) -> Result<Option<String>> {
    Ok(tx
        .query_row("SELECT runner FROM sessions WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .optional()?)
}

/// Running sessions by runner, for `GET /runners` and `auto` placement.
pub fn running_by_runner(tx: &Transaction<'_>) -> Result<std::collections::BTreeMap<String, u32>> {
    let mut statement = tx.prepare(
        "SELECT runner, COUNT(*) FROM sessions
         WHERE status IN ('starting', 'running') AND archived = 0
         GROUP BY runner",
    )?;
    let rows = statement.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, u32>(1)?)))?;
    Ok(rows.collect::<store::rusqlite::Result<_>>()?)
}

/// What a session's permissions were fixed with at spawn: its trigger and
/// the level its starter pinned, if any.
pub fn permissions_of(
    tx: &Transaction<'_>,
    id: &str,
) -> Result<(Option<Trigger>, Option<permissions::Level>)> {
    let (trigger, level): (Option<String>, Option<String>) = tx.query_row(
        "SELECT trigger_kind, permission_level FROM sessions WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    Ok((
        trigger.as_deref().and_then(Trigger::parse),
        level.as_deref().and_then(permissions::Level::from_name),
    ))
}

pub fn is_of_account(tx: &Transaction<'_>, account: &str, id: &str) -> Result<bool> {
    Ok(tx
        .query_row(
            "SELECT 1 FROM sessions WHERE id = ?1 AND account_id = ?2",
            [id, account],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

/// The turn an entry written now belongs to: the latest one started.
pub fn current_turn(tx: &Transaction<'_>, id: &str) -> Result<i64> {
    Ok(tx.query_row(
        "SELECT COALESCE(MAX(turn), 0) FROM session_turns WHERE session_id = ?1",
        [id],
        |r| r.get(0),
    )?)
}

pub fn starts_at(tx: &Transaction<'_>, id: &str) -> Result<Option<String>> {
    Ok(tx
        .query_row(
            "SELECT starts_at FROM sessions WHERE id = ?1 AND status = 'queued'",
            [id],
            |r| r.get(0),
        )
        .optional()?
        .flatten())
}

pub fn pending_inputs(tx: &Transaction<'_>, id: &str) -> Result<i64> {
    Ok(tx.query_row(
        "SELECT COUNT(*) FROM session_inputs WHERE session_id = ?1 AND consumed = 0",
        [id],
        |r| r.get(0),
    )?)
}

pub fn account_of(tx: &Transaction<'_>, id: &str) -> Result<String> {
    Ok(
        tx.query_row("SELECT account_id FROM sessions WHERE id = ?1", [id], |r| {
            r.get(0)
        })?,
    )
}

/// Records an event that is not a move (a session restored in the status it had).
pub fn note(tx: &Transaction<'_>, id: &str, status: Status, reason: &str, now: &str) -> Result<()> {
    record_event(tx, id, Some(status), status, reason, now)
}

/// The slot a returning session was given.
pub fn set_starts_at(tx: &Transaction<'_>, id: &str, at: &str) -> Result<()> {
    tx.execute(
        "UPDATE sessions SET starts_at = ?2 WHERE id = ?1",
        params![id, at],
    )?;
    Ok(())
}

/// The engine version a turn found, written only when it changed.
pub fn set_engine_version(tx: &Transaction<'_>, id: &str, version: &str) -> Result<()> {
    tx.execute(
        "UPDATE sessions SET engine_version = ?2 WHERE id = ?1 AND engine_version IS NOT ?2",
        params![id, version],
    )?;
    Ok(())
}
