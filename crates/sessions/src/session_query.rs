//! Reading whole sessions: their own columns, their turn totals and pending
//! inputs, their children and their tree's cost.
//!
//! Each statement reads one table at its top level, unsorted. SQLite (3.54)
//! prepares a statement whose top level joins tables or sorts again after
//! any other connection writes, and a busy server writes all the time: the
//! list and every announced session were parsed anew on each read, about a
//! sixth of the server's CPU at 1,024 busy sessions. So the totals, the
//! children and the worktrees are grouped reads of their own, put beside
//! each session here (a subquery a row for the children also sorted once a
//! row), and the list is sorted here.

use std::collections::HashMap;

use store::rusqlite::{OptionalExtension, Row, Transaction, params_from_iter};

use crate::error::Result;
use crate::model::{Session, Status, StopReason, TitleSource, Tokens, Trigger, TurnEnd, Worktree};

/// A session's own columns and what its tree cost when it has children
/// (`NULL` otherwise: the tree is the session alone, whose cost comes from
/// its totals).
const SESSION_COLUMNS: &str = "
    s.id, s.account_id, s.engine, s.engine_kind, s.title, s.cwd, s.prompt, s.status, s.archived,
    s.agent_driven, s.source_session_id, s.starts_at, s.engine_session_id, s.error,
    s.max_dollars, s.max_turns, s.created_at, s.updated_at,
    iif(EXISTS (SELECT 1 FROM sessions c WHERE c.source_session_id = s.id),
        (WITH RECURSIVE tree(id) AS (
            SELECT s.id UNION SELECT c.id FROM sessions c JOIN tree ON c.source_session_id = tree.id)
         SELECT SUM(iif(t.total_superseded = 0, t.total_cost_usd, NULL))
                - COALESCE(SUM(t.inherited_cost_usd), 0)
         FROM session_turns t WHERE t.session_id IN tree),
        NULL),
    s.activity AS activity_json,
    s.trigger_kind AS trigger_text,
    s.resume_at AS resume_at,
    s.engine_version AS engine_version,
    s.forked_from AS forked_from,
    s.title_source AS title_source,
    s.title_history AS title_history,
    s.archived_at AS archived_at,
    s.runner AS runner,
    s.awaiting_approval AS awaiting_approval,
    s.permission_level AS permission_level,
    s.judged_turn AS judged_turn,
    s.asked_turn AS asked_turn,
    s.revision AS revision";

/// Each session's turn totals, grouped by session.
const TURN_TOTALS: &str = "SELECT session_id,
    COUNT(*),
    COALESCE(SUM(engine_turns), 0),
    SUM(iif(total_superseded = 0, total_cost_usd, NULL)) - COALESCE(SUM(inherited_cost_usd), 0),
    COALESCE(SUM(input_tokens), 0),
    COALESCE(SUM(output_tokens), 0),
    COALESCE(SUM(cached_input_tokens), 0)
    FROM session_turns";

const PENDING_INPUTS: &str = "SELECT session_id, COUNT(*) FROM session_inputs WHERE consumed = 0";

/// Where [`SESSION_COLUMNS`]' columns are. A lookup by name compares the
/// name with every column's, per row: a list of 1,024 sessions did it
/// twelve times a row. A test checks the named ones against their names.
pub(crate) mod at {
    pub(crate) const TREE_COST: usize = 18;
    pub(crate) const ACTIVITY: usize = 19;
    pub(crate) const TRIGGER: usize = 20;
    pub(crate) const RESUME_AT: usize = 21;
    pub(crate) const ENGINE_VERSION: usize = 22;
    pub(crate) const FORKED_FROM: usize = 23;
    pub(crate) const TITLE_SOURCE: usize = 24;
    pub(crate) const TITLE_HISTORY: usize = 25;
    pub(crate) const ARCHIVED_AT: usize = 26;
    pub(crate) const RUNNER: usize = 27;
    pub(crate) const AWAITING_APPROVAL: usize = 28;
    pub(crate) const PERMISSION_LEVEL: usize = 29;
    pub(crate) const JUDGED: usize = 30;
    pub(crate) const ASKED: usize = 31;
    pub(crate) const REVISION: usize = 32;
}

/// One session's totals over its turns and waiting inputs.
#[derive(Debug, Default, Clone, Copy)]
struct Totals {
    turns: i64,
    engine_turns: i64,
    cost_usd: Option<f64>,
    tokens: Tokens,
    pending: i64,
}

/// What is read beside each session's row: its totals, its children and
/// its worktree, for session `only` or for every session.
#[derive(Default)]
struct Related {
    totals: HashMap<String, Totals>,
    /// Each parent's children, oldest first (by `created_at`, then id).
    children: HashMap<String, Vec<String>>,
    worktrees: HashMap<String, Worktree>,
}

/// The statements [`related`] runs: the turn totals, the pending inputs,
/// the children and the worktrees, of session `?1` or of all.
fn related_sql(one: bool) -> [String; 4] {
    // One session's totals are one aggregate row, without `GROUP BY`: grouped
    // by the column `?1` fixes, the statement depended on `?1`'s value and
    // SQLite prepared it again at every bind (the row has no session id
    // when there is nothing to count).
    let (filter, and_filter, group, parent) = if one {
        (
            " WHERE session_id = ?1",
            " AND session_id = ?1",
            "",
            "source_session_id = ?1",
        )
    } else {
        (
            "",
            "",
            " GROUP BY session_id",
            "source_session_id IS NOT NULL",
        )
    };
    [
        format!("{TURN_TOTALS}{filter}{group}"),
        format!("{PENDING_INPUTS}{and_filter}{group}"),
        format!("SELECT source_session_id, created_at, id FROM sessions WHERE {parent}"),
        format!(
            "SELECT session_id, path, branch, base, repository, removed, kept_reason
             FROM session_worktrees{filter}"
        ),
    ]
}

fn related(tx: &Transaction<'_>, only: Option<&str>) -> Result<Related> {
    let [turns_sql, pending_sql, children_sql, worktrees_sql] = related_sql(only.is_some());
    let mut found = Related::default();
    let mut turns = tx.prepare_cached(&turns_sql)?;
    let mut rows = turns.query(params_from_iter(only))?;
    while let Some(row) = rows.next()? {
        let Some(id) = row.get::<_, Option<String>>(0)? else {
            continue;
        };
        found.totals.insert(
            id,
            Totals {
                turns: row.get(1)?,
                engine_turns: row.get(2)?,
                cost_usd: row.get(3)?,
                tokens: Tokens {
                    input: row.get(4)?,
                    output: row.get(5)?,
                    cached_input: row.get(6)?,
                },
                pending: 0,
            },
        );
    }
    let mut pending = tx.prepare_cached(&pending_sql)?;
    let mut rows = pending.query(params_from_iter(only))?;
    while let Some(row) = rows.next()? {
        if let Some(id) = row.get::<_, Option<String>>(0)? {
            found.totals.entry(id).or_default().pending = row.get(1)?;
        }
    }
    let mut children = tx.prepare_cached(&children_sql)?;
    let mut rows = children.query(params_from_iter(only))?;
    let mut dated: HashMap<String, Vec<(String, String)>> = HashMap::new();
    while let Some(row) = rows.next()? {
        dated
            .entry(row.get(0)?)
            .or_default()
            .push((row.get(1)?, row.get(2)?));
    }
    for (parent, mut kids) in dated {
        // `str` orders by bytes, as SQLite's BINARY collation does.
        kids.sort_unstable();
        found
            .children
            .insert(parent, kids.into_iter().map(|(_, id)| id).collect());
    }
    let mut worktrees = tx.prepare_cached(&worktrees_sql)?;
    let mut rows = worktrees.query(params_from_iter(only))?;
    while let Some(row) = rows.next()? {
        found.worktrees.insert(
            row.get(0)?,
            Worktree {
                path: row.get(1)?,
                branch: row.get(2)?,
                base: row.get(3)?,
                repository: row.get(4)?,
                removed: row.get(5)?,
                kept_reason: row.get(6)?,
            },
        );
    }
    Ok(found)
}

/// Takes the session's children and worktree out of `related`: each row is
/// read once.
fn session_from_row(row: &Row<'_>, related: &mut Related) -> store::rusqlite::Result<Session> {
    let id: String = row.get(0)?;
    let summed = related.totals.get(&id).copied().unwrap_or_default();
    let status = Status::parse(&row.get::<_, String>(7)?).unwrap_or(Status::Failed);
    let archived = row.get(8)?;
    let trigger = Trigger::parse_stored(row.get(at::TRIGGER)?);
    let children = related.children.remove(&id).unwrap_or_default();
    let worktree = related.worktrees.remove(&id);
    let tree_cost_usd = if children.is_empty() {
        summed.cost_usd
    } else {
        row.get(at::TREE_COST)?
    };
    Ok(Session {
        id,
        account_id: row.get(1)?,
        engine: row.get(2)?,
        engine_kind: row.get(3)?,
        title: row.get(4)?,
        title_source: row
            .get::<_, Option<String>>(at::TITLE_SOURCE)?
            .as_deref()
            .and_then(TitleSource::parse),
        title_history: json_array(row, at::TITLE_HISTORY)?,
        cwd: row.get(5)?,
        prompt: row.get(6)?,
        status,
        archived,
        archived_at: row.get(at::ARCHIVED_AT)?,
        stop_reason: StopReason::of(status, archived),
        // Written by the pump from a typed value; an unreadable one shows as none.
        activity: row
            .get::<_, Option<String>>(at::ACTIVITY)?
            .and_then(|json| serde_json::from_str(&json).ok()),
        agent_driven: row.get(9)?,
        parent_id: row.get(10)?,
        forked_from: row.get(at::FORKED_FROM)?,
        starts_at: row.get(11)?,
        resume_at: row.get(at::RESUME_AT)?,
        engine_version: row.get(at::ENGINE_VERSION)?,
        engine_session_id: row.get(12)?,
        error: row.get(13)?,
        max_dollars_per_session: row.get(14)?,
        max_turns_per_session: row.get(15)?,
        created_at: row.get(16)?,
        updated_at: row.get(17)?,
        turns: summed.turns,
        turn_end: TurnEnd::of(
            status,
            summed.turns,
            row.get(at::JUDGED)?,
            row.get(at::ASKED)?,
        ),
        engine_turns: summed.engine_turns,
        cost_usd: summed.cost_usd,
        tokens: summed.tokens,
        pending_messages: summed.pending,
        children,
        tree_cost_usd,
        worktree,
        runner: row.get(at::RUNNER)?,
        awaiting_approval: row.get(at::AWAITING_APPROVAL)?,
        resources: None,
        project: trigger.and_then(Trigger::project),
        trigger,
        permission_level: row
            .get::<_, Option<String>>(at::PERMISSION_LEVEL)?
            .as_deref()
            .and_then(permissions::Level::from_name),
    })
}

/// A column holding a JSON array of text: most sessions' are empty, and a
/// list of 1,024 parsed one a row. The server wrote it, so only a bug could
/// make one unreadable; it reads as empty.
fn json_array(row: &Row<'_>, place: usize) -> store::rusqlite::Result<Vec<String>> {
    Ok(match row.get_ref(place)?.as_str_or_null()? {
        None | Some("[]") => Vec::new(),
        Some(json) => serde_json::from_str(json).unwrap_or_default(),
    })
}

/// The account's session `id`.
pub fn get_session(tx: &Transaction<'_>, account: &str, id: &str) -> Result<Option<Session>> {
    Ok(get_revised(tx, account, id)?.map(|(_, session)| session))
}

/// A session whoever's it is, for the application's own work.
pub fn get_session_any(tx: &Transaction<'_>, id: &str) -> Result<Option<Session>> {
    let mut related = related(tx, Some(id))?;
    Ok(tx
        .prepare_cached(&one_sql(""))?
        .query_row([id], |row| session_from_row(row, &mut related))
        .optional()?)
}

/// The account's session `id` and its revision (`remembered.rs`). Cached:
/// the forwarder reads a busy session at every change.
pub(crate) fn get_revised(
    tx: &Transaction<'_>,
    account: &str,
    id: &str,
) -> Result<Option<(i64, Session)>> {
    let mut related = related(tx, Some(id))?;
    Ok(tx
        .prepare_cached(&one_sql(" AND s.account_id = ?2"))?
        .query_row([id, account], |row| {
            Ok((row.get(at::REVISION)?, session_from_row(row, &mut related)?))
        })
        .optional()?)
}

/// The account's sessions with their revisions, unsorted: an `ORDER BY`
/// made SQLite prepare the statement again after every write (see above),
/// so [`newest_first`] sorts them.
pub(crate) fn list_revised(tx: &Transaction<'_>, account: &str) -> Result<Vec<(i64, Session)>> {
    let mut related = related(tx, None)?;
    let mut stmt = tx.prepare_cached(&list_sql())?;
    let rows = stmt.query_map([account], |row| {
        Ok((row.get(at::REVISION)?, session_from_row(row, &mut related)?))
    })?;
    Ok(rows.collect::<store::rusqlite::Result<Vec<_>>>()?)
}

/// Each of the account's sessions' id and revision, and whether it has
/// children (a parent shows its tree's cost, which its descendants' turns
/// move without moving its revision).
pub(crate) fn revisions(tx: &Transaction<'_>, account: &str) -> Result<Vec<(String, i64, bool)>> {
    let mut stmt = tx.prepare_cached(REVISIONS)?;
    let rows = stmt.query_map([account], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?;
    Ok(rows.collect::<store::rusqlite::Result<Vec<_>>>()?)
}

const REVISIONS: &str = "SELECT s.id, s.revision,
        EXISTS (SELECT 1 FROM sessions c WHERE c.source_session_id = s.id)
    FROM sessions s WHERE s.account_id = ?1";

pub(crate) fn newest_first(sessions: &mut [Session]) {
    // `str` orders by bytes, as SQLite's BINARY collation does.
    sessions.sort_unstable_by(|a, b| (&b.created_at, &b.id).cmp(&(&a.created_at, &a.id)));
}

fn one_sql(and: &str) -> String {
    format!("SELECT {SESSION_COLUMNS} FROM sessions s WHERE s.id = ?1{and}")
}

fn list_sql() -> String {
    format!("SELECT {SESSION_COLUMNS} FROM sessions s WHERE s.account_id = ?1")
}

#[cfg(test)]
mod tests {
    use store::Db;
    use store::rusqlite::StatementStatus;

    use super::*;

    fn list_sessions(tx: &Transaction<'_>, account: &str) -> Result<Vec<Session>> {
        let mut sessions: Vec<Session> = list_revised(tx, account)?
            .into_iter()
            .map(|(_, session)| session)
            .collect();
        newest_first(&mut sessions);
        Ok(sessions)
    }

    fn db_with_sessions() -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let db = Db::open(&dir.path().join("db.sqlite")).unwrap_or_else(|e| panic!("{e}"));
        db.migrate(crate::schema::MIGRATIONS)
            .unwrap_or_else(|e| panic!("{e}"));
        db.write(|tx| {
            for (id, parent) in [
                ("a", None),
                ("ab", Some("a")),
                ("b", Some("a")),
                ("c", None),
            ] {
                tx.execute(
                    "INSERT INTO sessions (id, account_id, engine, engine_kind, engine_spec, cwd,
                         prompt, status, agent_driven, max_dollars, max_turns, created_at,
                         updated_at, source_session_id)
                     VALUES (?1, 'me', 'e', 'command', '{}', '/', 'p', 'running', 0, 1.0, 5,
                         ?1, ?1, ?2)",
                    (id, parent),
                )?;
            }
            for (id, turn, cost) in [("a", 1, 0.5), ("a", 2, 0.25), ("b", 1, 1.0)] {
                tx.execute(
                    "INSERT INTO session_turns (session_id, turn, kind, input, status,
                         started_at, total_cost_usd, input_tokens)
                     VALUES (?1, ?2, 'prompt', 'p', 'done', 'x', ?3, 10)",
                    (id, turn, cost),
                )?;
            }
            tx.execute(
                "INSERT INTO session_worktrees (session_id, path, branch, base, repository)
                 VALUES ('b', '/w/b', 'switchboard/b', 'abc', '/repo')",
                [],
            )?;
            tx.execute(
                "INSERT INTO session_inputs (session_id, kind, text, created_at)
                 VALUES ('c', 'message', 'hi', 'x')",
                [],
            )?;
            Ok::<_, store::rusqlite::Error>(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
        (dir, db)
    }

    #[test]
    fn each_column_read_by_place_is_the_one_named() {
        let (_dir, db) = db_with_sessions();
        let places = [
            ("activity_json", at::ACTIVITY),
            ("trigger_text", at::TRIGGER),
            ("resume_at", at::RESUME_AT),
            ("engine_version", at::ENGINE_VERSION),
            ("forked_from", at::FORKED_FROM),
            ("title_source", at::TITLE_SOURCE),
            ("title_history", at::TITLE_HISTORY),
            ("archived_at", at::ARCHIVED_AT),
            ("runner", at::RUNNER),
            ("awaiting_approval", at::AWAITING_APPROVAL),
            ("permission_level", at::PERMISSION_LEVEL),
            ("judged_turn", at::JUDGED),
            ("asked_turn", at::ASKED),
            ("revision", at::REVISION),
        ];
        db.read(|tx| {
            let stmt = tx.prepare(&list_sql())?;
            for (name, place) in places {
                assert_eq!(stmt.column_index(name)?, place, "{name}");
            }
            Ok::<_, store::rusqlite::Error>(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn totals_children_and_tree_cost_are_each_sessions_own() {
        let (_dir, db) = db_with_sessions();
        let listed = db
            .read(|tx| list_sessions(tx, "me"))
            .unwrap_or_else(|e| panic!("{e}"));
        let by_id = |id: &str| {
            listed
                .iter()
                .find(|s| s.id == id)
                .unwrap_or_else(|| panic!("{id} listed"))
        };
        let order: Vec<&str> = listed.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(order, ["c", "b", "ab", "a"], "newest first");
        let (a, b, c) = (by_id("a"), by_id("b"), by_id("c"));
        assert_eq!((a.turns, a.cost_usd, a.tokens.input), (2, Some(0.75), 20));
        assert_eq!(a.children, ["ab", "b"], "oldest first");
        let worktree = b.worktree.as_ref().map(|w| (w.path.as_str(), w.removed));
        assert_eq!(worktree, Some(("/w/b", false)));
        assert!(a.worktree.is_none());
        assert_eq!(a.tree_cost_usd, Some(1.75), "a's tree is a and b");
        assert_eq!(
            (b.turns, b.cost_usd, b.tree_cost_usd),
            (1, Some(1.0), Some(1.0))
        );
        assert_eq!((c.turns, c.cost_usd, c.tree_cost_usd), (0, None, None));
        assert_eq!((c.pending_messages, a.pending_messages), (1, 0));
        for session in &listed {
            let one = db
                .read(|tx| get_session(tx, "me", &session.id))
                .unwrap_or_else(|e| panic!("{e}"));
            let one = one.unwrap_or_else(|| panic!("{} read alone", session.id));
            assert_eq!(
                serde_json::to_value(&one).ok(),
                serde_json::to_value(session).ok(),
                "{} alone as in the list",
                session.id
            );
        }
    }

    #[test]
    fn another_connections_writes_do_not_make_the_reads_parse_again() {
        let (_dir, db) = db_with_sessions();
        for round in 0..3 {
            db.write(|tx| {
                tx.execute(
                    "UPDATE sessions SET activity = ?1 WHERE id = 'a'",
                    [format!("{{\"round\":{round}}}")],
                )
            })
            .unwrap_or_else(|e| panic!("{e}"));
            db.read(|tx| {
                list_sessions(tx, "me")?;
                // Another session each round: a statement that depends on
                // its parameters' values is prepared again at each bind.
                get_session(tx, "me", ["a", "b", "c"][round])?;
                revisions(tx, "me")?;
                let read = [
                    list_sql(),
                    one_sql(" AND s.account_id = ?2"),
                    REVISIONS.to_owned(),
                ];
                for sql in read
                    .into_iter()
                    .chain(related_sql(true))
                    .chain(related_sql(false))
                {
                    let stmt = tx.prepare_cached(&sql)?;
                    assert_eq!(stmt.get_status(StatementStatus::RePrepare), 0, "{sql}");
                }
                Ok::<_, crate::error::SessionError>(())
            })
            .unwrap_or_else(|e| panic!("{e}"));
        }
    }
}
