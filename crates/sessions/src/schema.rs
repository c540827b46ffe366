//! The sessions feature's tables, as migrations applied in order (the
//! typed queries over them are `db.rs`).
//!
//! `sessions` holds one row per session (the resolved engine spec included, so
//! a session never changes engine under its feet); `session_events` every status
//! move; `session_inputs` the prompt, follow-ups and nudges, consumed in order
//! (so a follow-up accepted while a turn ran survives a crash); `session_turns`
//! one row per turn; `session_output` the streamed transcript in chunks,
//! appended rather than rewritten so a 50 MB reply costs linear time (its
//! `stream` says what a row is: `out` and `err` a `command` engine's whole
//! lines of stdout and any engine's stderr, each both plain text and a typed
//! entry; `reply` a Claude or Codex turn's reply text, for the plain
//! transcript only; `entry` one of their typed entries as JSON; see `pages.rs`;
//! `at` when the row was stored, `NULL` on rows older than that column);
//! `session_worktrees` the git worktree of a session spawned with isolation,
//! and whether archiving removed it.
//! `sessions.source_session_id` is the session's parent (`parentId` in the
//! API), `sessions.forked_from` the session whose conversation it copied
//! (`forkedFrom`); a turn's `input_tokens` counts cached input too, `cached_input_tokens`
//! the cached part of it (the adapters bring both engines to that meaning);
//! its `total_cost_usd` is the cost the engine reported, cumulative over a
//! resumed conversation, and `cost_usd` the turn's own part of it (`cost.rs`);
//! the same holds of Codex's tokens, whose reported totals are kept in
//! `total_input_tokens`, `total_cached_input_tokens` and `total_output_tokens`.

use store::Migration;

pub const MIGRATIONS: &[Migration] = &[
    Migration {
        feature: "sessions",
        sql: "
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    engine TEXT NOT NULL,
    engine_kind TEXT NOT NULL,
    engine_spec TEXT NOT NULL,
    title TEXT,
    cwd TEXT NOT NULL,
    prompt TEXT NOT NULL,
    status TEXT NOT NULL,
    archived INTEGER NOT NULL DEFAULT 0,
    agent_driven INTEGER NOT NULL,
    source_session_id TEXT,
    starts_at TEXT,
    engine_session_id TEXT,
    error TEXT,
    follow_up_added TEXT,
    max_dollars REAL NOT NULL,
    max_turns INTEGER NOT NULL,
    pid INTEGER,
    pgid INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX sessions_by_account ON sessions(account_id, created_at);
CREATE INDEX sessions_by_status ON sessions(status);
CREATE TABLE session_events (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    at TEXT NOT NULL,
    from_status TEXT,
    to_status TEXT NOT NULL,
    reason TEXT NOT NULL
) STRICT;
CREATE INDEX session_events_by_session ON session_events(session_id, id);
CREATE TABLE session_inputs (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    added TEXT,
    created_at TEXT NOT NULL,
    consumed INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX session_inputs_pending ON session_inputs(session_id, consumed, id);
CREATE TABLE session_turns (
    session_id TEXT NOT NULL REFERENCES sessions(id),
    turn INTEGER NOT NULL,
    kind TEXT NOT NULL,
    input TEXT NOT NULL,
    added TEXT,
    status TEXT NOT NULL,
    error TEXT,
    exit_code INTEGER,
    engine_session_id TEXT,
    cost_usd REAL,
    engine_turns INTEGER,
    input_tokens INTEGER,
    output_tokens INTEGER,
    started_at TEXT NOT NULL,
    ended_at TEXT,
    PRIMARY KEY (session_id, turn)
) STRICT;
CREATE TABLE session_output (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL,
    turn INTEGER NOT NULL,
    stream TEXT NOT NULL,
    text TEXT NOT NULL,
    FOREIGN KEY (session_id, turn) REFERENCES session_turns(session_id, turn)
) STRICT;
CREATE INDEX session_output_by_turn ON session_output(session_id, turn, id);
",
    },
    // Cost and tokens per turn for `GET /usage` (by the day a turn ended), and the
    // parent link walked for `children`, `treeCostUsd` and tree stops.
    Migration {
        feature: "sessions",
        sql: "
ALTER TABLE session_turns ADD COLUMN cached_input_tokens INTEGER;
CREATE INDEX session_turns_by_end ON session_turns(ended_at);
CREATE INDEX sessions_by_parent ON sessions(source_session_id, created_at);
",
    },
    // The git worktree of a session spawned with isolation, and what archiving did with it.
    Migration {
        feature: "sessions",
        sql: "
CREATE TABLE session_worktrees (
    session_id TEXT PRIMARY KEY REFERENCES sessions(id),
    path TEXT NOT NULL,
    branch TEXT NOT NULL,
    base TEXT NOT NULL,
    repository TEXT NOT NULL,
    removed INTEGER NOT NULL DEFAULT 0,
    kept_reason TEXT
) STRICT;
",
    },
    // Typed transcripts: `session_output` rows are paged by `seq` (their id)
    // within a session, so they need that order in an index; `activity` is the
    // session's current step as JSON, kept up to date as entries are stored so
    // that listing sessions never reads a transcript.
    Migration {
        feature: "sessions",
        sql: "
CREATE INDEX session_output_by_seq ON session_output(session_id, id);
ALTER TABLE sessions ADD COLUMN activity TEXT;
",
    },
    // What started a session from outside (`email`): such sessions are locked down.
    Migration {
        feature: "sessions",
        sql: "ALTER TABLE sessions ADD COLUMN trigger_kind TEXT;",
    },
    Migration {
        feature: "sessions",
        sql: "ALTER TABLE sessions ADD COLUMN resume_at TEXT;
              CREATE INDEX sessions_dormant ON sessions(status)
                WHERE status IN ('interrupted', 'paused');",
    },
    Migration {
        feature: "sessions",
        // The governor sums what revived turns cost today at every check.
        sql: "CREATE INDEX session_turns_revives ON session_turns(started_at) WHERE kind = 'revive';",
    },
    Migration {
        feature: "sessions",
        // Kept on the session so the governor orders ten thousand of them by
        // last activity, and knows which cost dollars, without their turns.
        sql: "ALTER TABLE sessions ADD COLUMN last_turn_at TEXT;
              ALTER TABLE sessions ADD COLUMN reports_cost INTEGER NOT NULL DEFAULT 0;
              UPDATE sessions SET
                last_turn_at = (SELECT MAX(t.started_at) FROM session_turns t WHERE t.session_id = sessions.id),
                reports_cost = EXISTS (SELECT 1 FROM session_turns t
                                       WHERE t.session_id = sessions.id AND t.cost_usd IS NOT NULL);",
    },
    // Claude Code restates a conversation's cumulative cost on `--resume`:
    // each turn's own part beside the reported total (`cost.rs`).
    Migration {
        feature: "sessions",
        sql: crate::cost::MIGRATION,
    },
    // The engine's version, read from its `--version` (`versions.rs`).
    Migration {
        feature: "sessions",
        sql: "ALTER TABLE sessions ADD COLUMN engine_version TEXT;",
    },
    // Codex restates a thread's cumulative tokens on `resume`: each turn's
    // own parts beside the reported totals (`cost.rs`).
    Migration {
        feature: "sessions",
        sql: crate::cost::TOKENS_MIGRATION,
    },
    // When each transcript row was stored, from the supervisor's clock, so a
    // reader can show an entry's time; rows stored before stay `NULL`.
    Migration {
        feature: "sessions",
        sql: "ALTER TABLE session_output ADD COLUMN at TEXT;",
    },
    // A fork: the session it copies, and that session's engine conversation,
    // which the fork's turns copy until its engine names a conversation of
    // its own (`engine_session_id`); the copied cost a fork's turn restated
    // (`cost.rs`).
    Migration {
        feature: "sessions",
        sql: "ALTER TABLE sessions ADD COLUMN forked_from TEXT;
              ALTER TABLE sessions ADD COLUMN fork_engine_session_id TEXT;
              ALTER TABLE session_turns ADD COLUMN inherited_cost_usd REAL;",
    },
    // Titles (`titles.rs`): whose the title is (`user`, never replaced, or
    // `ai`), the earlier AI titles, and the turn count the AI title was
    // written at, so a refresh waits its turns. A title stored before was
    // given at spawn: the user's.
    Migration {
        feature: "sessions",
        sql: "ALTER TABLE sessions ADD COLUMN title_source TEXT;
              ALTER TABLE sessions ADD COLUMN title_history TEXT;
              ALTER TABLE sessions ADD COLUMN titled_turn INTEGER;
              UPDATE sessions SET title_source = 'user' WHERE title IS NOT NULL;",
    },
    // When a session was archived, for the archive digest: `updated_at`
    // moves on with any later change (a rename). A session archived before
    // has its last change as the best answer there is.
    Migration {
        feature: "sessions",
        sql: "ALTER TABLE sessions ADD COLUMN archived_at TEXT;
              UPDATE sessions SET archived_at = updated_at WHERE archived = 1;",
    },
    // Where each session's engine runs (docs/runners.md): every session
    // before runners ran here.
    Migration {
        feature: "sessions",
        sql: "ALTER TABLE sessions ADD COLUMN runner TEXT NOT NULL DEFAULT 'local';",
    },
    // `cloudStartedSessionsEnabled`: a session a runner's session started
    // waits, queued, for the user's approval.
    Migration {
        feature: "sessions",
        sql: "ALTER TABLE sessions ADD COLUMN awaiting_approval INTEGER NOT NULL DEFAULT 0;",
    },
    // The permission level a session was started at when its starter pinned
    // one (a recipe's `permissionLevel`); `NULL` follows the engine's own
    // level or `agentPermissionLevel`, as every session before did.
    Migration {
        feature: "sessions",
        sql: "ALTER TABLE sessions ADD COLUMN permission_level TEXT;",
    },
    // The attention rule's verdict on the latest turn (`turn_ends.rs`): the
    // turn it read, and the last turn that asked the user. A session from
    // before has none, and is read again at start.
    Migration {
        feature: "sessions",
        sql: "ALTER TABLE sessions ADD COLUMN judged_turn INTEGER;
              ALTER TABLE sessions ADD COLUMN asked_turn INTEGER;",
    },
    // A session's revision (`remembered.rs`): a number from one counter,
    // given again whenever the session's row or a row of its turns, its
    // inputs or its worktree changes, so a number is never given to two
    // committed states. Lists keep the sessions they read by revision and
    // read again only those whose number moved. A table whose rows a
    // session shows needs triggers like these.
    Migration {
        feature: "sessions",
        sql: "CREATE TABLE session_revision (n INTEGER NOT NULL) STRICT;
              INSERT INTO session_revision (n) VALUES (0);
              ALTER TABLE sessions ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
              CREATE TRIGGER sessions_revised_when_added AFTER INSERT ON sessions BEGIN
                  UPDATE session_revision SET n = n + 1;
                  UPDATE sessions SET revision = (SELECT n FROM session_revision)
                      WHERE rowid = NEW.rowid;
              END;
              CREATE TRIGGER sessions_revised AFTER UPDATE ON sessions
                  WHEN NEW.revision = OLD.revision BEGIN
                  UPDATE session_revision SET n = n + 1;
                  UPDATE sessions SET revision = (SELECT n FROM session_revision)
                      WHERE rowid = NEW.rowid;
              END;
              CREATE TRIGGER session_turns_added AFTER INSERT ON session_turns BEGIN
                  UPDATE session_revision SET n = n + 1;
                  UPDATE sessions SET revision = (SELECT n FROM session_revision)
                      WHERE id = NEW.session_id;
              END;
              CREATE TRIGGER session_turns_changed AFTER UPDATE ON session_turns BEGIN
                  UPDATE session_revision SET n = n + 1;
                  UPDATE sessions SET revision = (SELECT n FROM session_revision)
                      WHERE id IN (OLD.session_id, NEW.session_id);
              END;
              CREATE TRIGGER session_turns_removed AFTER DELETE ON session_turns BEGIN
                  UPDATE session_revision SET n = n + 1;
                  UPDATE sessions SET revision = (SELECT n FROM session_revision)
                      WHERE id = OLD.session_id;
              END;
              CREATE TRIGGER session_inputs_added AFTER INSERT ON session_inputs BEGIN
                  UPDATE session_revision SET n = n + 1;
                  UPDATE sessions SET revision = (SELECT n FROM session_revision)
                      WHERE id = NEW.session_id;
              END;
              CREATE TRIGGER session_inputs_changed AFTER UPDATE ON session_inputs BEGIN
                  UPDATE session_revision SET n = n + 1;
                  UPDATE sessions SET revision = (SELECT n FROM session_revision)
                      WHERE id IN (OLD.session_id, NEW.session_id);
              END;
              CREATE TRIGGER session_inputs_removed AFTER DELETE ON session_inputs BEGIN
                  UPDATE session_revision SET n = n + 1;
                  UPDATE sessions SET revision = (SELECT n FROM session_revision)
                      WHERE id = OLD.session_id;
              END;
              CREATE TRIGGER session_worktrees_added AFTER INSERT ON session_worktrees BEGIN
                  UPDATE session_revision SET n = n + 1;
                  UPDATE sessions SET revision = (SELECT n FROM session_revision)
                      WHERE id = NEW.session_id;
              END;
              CREATE TRIGGER session_worktrees_changed AFTER UPDATE ON session_worktrees BEGIN
                  UPDATE session_revision SET n = n + 1;
                  UPDATE sessions SET revision = (SELECT n FROM session_revision)
                      WHERE id IN (OLD.session_id, NEW.session_id);
              END;
              CREATE TRIGGER session_worktrees_removed AFTER DELETE ON session_worktrees BEGIN
                  UPDATE session_revision SET n = n + 1;
                  UPDATE sessions SET revision = (SELECT n FROM session_revision)
                      WHERE id = OLD.session_id;
              END;",
    },
];
