//! The `SELECT` that reads whole sessions: their columns, their totals, and
//! where the named columns are.

/// A session's own columns and its totals. Read with [`all_sessions`] or
/// [`one_session`] as the `FROM`, which give the totals as `tt` and `pi`.
pub(crate) const SESSION_COLUMNS: &str = "
    s.id, s.account_id, s.engine, s.engine_kind, s.title, s.cwd, s.prompt, s.status, s.archived,
    s.agent_driven, s.source_session_id, s.starts_at, s.engine_session_id, s.error,
    s.max_dollars, s.max_turns, s.created_at, s.updated_at,
    COALESCE(tt.turns, 0),
    COALESCE(tt.engine_turns, 0),
    tt.cost_usd,
    COALESCE(tt.input_tokens, 0),
    COALESCE(tt.output_tokens, 0),
    COALESCE(pi.pending, 0),
    COALESCE(tt.cached_input_tokens, 0),
    (SELECT json_group_array(c.id ORDER BY c.created_at, c.id) FROM sessions c
        WHERE c.source_session_id = s.id),
    iif(EXISTS (SELECT 1 FROM sessions c WHERE c.source_session_id = s.id),
        (WITH RECURSIVE tree(id) AS (
            SELECT s.id UNION SELECT c.id FROM sessions c JOIN tree ON c.source_session_id = tree.id)
         SELECT SUM(iif(t.total_superseded = 0, t.total_cost_usd, NULL))
                - COALESCE(SUM(t.inherited_cost_usd), 0)
         FROM session_turns t WHERE t.session_id IN tree),
        tt.cost_usd),
    (SELECT json_object('path', w.path, 'branch', w.branch, 'base', w.base,
        'repository', w.repository, 'removed', json(iif(w.removed, 'true', 'false')),
        'keptReason', w.kept_reason)
     FROM session_worktrees w WHERE w.session_id = s.id) AS worktree_json,
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
    s.asked_turn AS asked_turn";

/// Each session's turn totals in one grouped read: a subquery per total per
/// row read a session's turns seven times, and a list of 1,024 sessions
/// spent most of its time there.
const TURN_TOTALS: &str = "SELECT session_id,
    COUNT(*) AS turns,
    COALESCE(SUM(engine_turns), 0) AS engine_turns,
    SUM(iif(total_superseded = 0, total_cost_usd, NULL))
        - COALESCE(SUM(inherited_cost_usd), 0) AS cost_usd,
    COALESCE(SUM(input_tokens), 0) AS input_tokens,
    COALESCE(SUM(output_tokens), 0) AS output_tokens,
    COALESCE(SUM(cached_input_tokens), 0) AS cached_input_tokens
    FROM session_turns";

const PENDING_INPUTS: &str =
    "SELECT session_id, COUNT(*) AS pending FROM session_inputs WHERE consumed = 0";

/// `sessions s` with every session's totals, for reads of many sessions.
pub(crate) fn all_sessions() -> String {
    format!(
        "sessions s
         LEFT JOIN ({TURN_TOTALS} GROUP BY session_id) tt ON tt.session_id = s.id
         LEFT JOIN ({PENDING_INPUTS} GROUP BY session_id) pi ON pi.session_id = s.id"
    )
}

/// `sessions s` with the totals of the session `?1` alone, so reading one
/// session does not total every other one's turns.
pub(crate) fn one_session() -> String {
    format!(
        "sessions s
         LEFT JOIN ({TURN_TOTALS} WHERE session_id = ?1 GROUP BY session_id) tt
             ON tt.session_id = s.id
         LEFT JOIN ({PENDING_INPUTS} AND session_id = ?1 GROUP BY session_id) pi
             ON pi.session_id = s.id"
    )
}

/// Where [`SESSION_COLUMNS`]' named columns are. A lookup by name compares
/// the name with every column's, per row: a list of 1,024 sessions did it
/// twelve times a row. A test checks each against its name.
pub(crate) mod at {
    pub(crate) const WORKTREE: usize = 27;
    pub(crate) const ACTIVITY: usize = 28;
    pub(crate) const TRIGGER: usize = 29;
    pub(crate) const RESUME_AT: usize = 30;
    pub(crate) const ENGINE_VERSION: usize = 31;
    pub(crate) const FORKED_FROM: usize = 32;
    pub(crate) const TITLE_SOURCE: usize = 33;
    pub(crate) const TITLE_HISTORY: usize = 34;
    pub(crate) const ARCHIVED_AT: usize = 35;
    pub(crate) const RUNNER: usize = 36;
    pub(crate) const AWAITING_APPROVAL: usize = 37;
    pub(crate) const PERMISSION_LEVEL: usize = 38;
    pub(crate) const JUDGED: usize = 39;
    pub(crate) const ASKED: usize = 40;
}
