//! Forking: a new session that starts from a copy of another session's
//! engine conversation, which itself stays as it was.
//!
//! The fork's row keeps the source's engine conversation id
//! (`fork_engine_session_id`); its first turn continues that conversation
//! as a new one (`Resume::Fork`: Claude Code's `--resume <id>
//! --fork-session`, Codex's `exec fork <id>`), and once its engine names
//! the copy, every later turn resumes the copy like any session's.

use std::path::{Path, PathBuf};

use crate::db;
use crate::engines::{self, EngineKind};
use crate::error::{Result, SessionError};
use crate::model::{Isolation, Session, SpawnRequest};
use crate::state::Inner;

/// What a fork takes from its source.
pub(crate) struct Fork {
    /// The source session's id.
    pub(crate) source: String,
    /// The source's engine conversation, which the fork's first turn copies.
    pub(crate) engine_session_id: String,
}

/// Reads the session `request.fork_from` names, checks that it can be
/// forked, and fills in what the request leaves to it: the engine, and
/// the folder with its isolation. `None` when the request forks nothing.
pub(crate) async fn resolve(
    inner: &Inner,
    account: &str,
    request: &mut SpawnRequest,
) -> Result<Option<Fork>> {
    let Some(source_id) = request.fork_from.as_deref().map(str::trim) else {
        return Ok(None);
    };
    if source_id.is_empty() {
        return Err(SessionError::InvalidInput(
            "forkFrom must name a session.".to_owned(),
        ));
    }
    let (account, owned) = (account.to_owned(), source_id.to_owned());
    let source = inner
        .read(move |tx| db::get_session(tx, &account, &owned))
        .await?
        .ok_or_else(|| SessionError::ForkSourceNotFound {
            id: source_id.to_owned(),
        })?;
    if !kind_of(&source).is_some_and(EngineKind::can_fork) {
        return Err(SessionError::ForkUnsupported {
            engine: source.engine.clone(),
            kind: source.engine_kind.clone(),
        });
    }
    let engine = request
        .engine
        .as_deref()
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .unwrap_or(&source.engine)
        .to_owned();
    let kind = engines::resolve(&inner.data_dir, &inner.builtin_engines, &engine)?.kind;
    if !kind.can_fork() {
        return Err(SessionError::ForkUnsupported {
            engine,
            kind: kind.as_str().to_owned(),
        });
    }
    if kind.as_str() != source.engine_kind {
        return Err(SessionError::InvalidInput(format!(
            "A fork continues its source's conversation, so its engine must be of the \
             source's kind ({}); `{engine}` is {}.",
            source.engine_kind,
            kind.as_str()
        )));
    }
    let Some(engine_session_id) = source.engine_session_id.clone() else {
        return Err(SessionError::ForkNotReady { id: source.id });
    };
    request.engine = Some(engine);
    if request.cwd.as_deref().is_none_or(|c| c.trim().is_empty()) {
        request.cwd = Some(folder_of(&source));
        if source.worktree.is_some() {
            request.isolation = request.isolation.or(Some(Isolation::Worktree));
        }
    }
    Ok(Some(Fork {
        source: source.id,
        engine_session_id,
    }))
}

fn kind_of(session: &Session) -> Option<EngineKind> {
    [EngineKind::Command, EngineKind::Claude, EngineKind::Codex]
        .into_iter()
        .find(|k| k.as_str() == session.engine_kind)
}

/// Where a fork of `source` runs by default: the source's folder, or for a
/// session in a worktree the same folder of the repository it was made
/// from (a worktree is the source's own; the fork gets one of its own).
fn folder_of(source: &Session) -> String {
    let Some(worktree) = &source.worktree else {
        return source.cwd.clone();
    };
    let repository = PathBuf::from(&worktree.repository);
    let within = Path::new(&source.cwd)
        .strip_prefix(&worktree.path)
        .ok()
        .map(|sub| worktrees::mirror(&repository, sub))
        .filter(|folder| folder.is_dir());
    within.unwrap_or(repository).to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Status, Tokens, Worktree};

    fn session(cwd: &str, worktree: Option<Worktree>) -> Session {
        Session {
            id: "s1".into(),
            account_id: "a".into(),
            engine: "primary".into(),
            engine_kind: "claude".into(),
            engine_version: None,
            title: None,
            title_source: None,
            title_history: Vec::new(),
            cwd: cwd.into(),
            prompt: "p".into(),
            status: Status::WaitingForInput,
            archived: false,
            archived_at: None,
            runner: "local".into(),
            awaiting_approval: false,
            resources: None,
            agent_driven: false,
            parent_id: None,
            forked_from: None,
            children: Vec::new(),
            turns: 1,
            turn_end: None,
            engine_turns: 1,
            cost_usd: None,
            tree_cost_usd: None,
            tokens: Tokens::default(),
            engine_session_id: Some("c-1".into()),
            starts_at: None,
            resume_at: None,
            error: None,
            pending_messages: 0,
            max_dollars_per_session: 0.0,
            max_turns_per_session: 0,
            created_at: "t".into(),
            updated_at: "t".into(),
            worktree,
            stop_reason: None,
            activity: None,
            trigger: None,
            project: None,
            permission_level: None,
        }
    }

    #[test]
    fn a_fork_of_a_worktree_session_runs_in_the_same_folder_of_its_repository() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let repository = dir.path().join("app");
        std::fs::create_dir_all(repository.join("web")).unwrap_or_else(|e| panic!("{e}"));
        let worktree = |path: &str| Worktree {
            path: path.into(),
            branch: "switchboard/x".into(),
            base: "abc".into(),
            repository: repository.to_string_lossy().into_owned(),
            removed: true,
            kept_reason: None,
        };
        let folder = |cwd: &str, w| folder_of(&session(cwd, w));
        assert_eq!(folder("/src/plain", None), "/src/plain");
        assert_eq!(
            folder(
                "/data/worktrees/s1/web",
                Some(worktree("/data/worktrees/s1"))
            ),
            repository.join("web").to_string_lossy()
        );
        // A folder the repository no longer has: its root.
        assert_eq!(
            folder(
                "/data/worktrees/s1/gone",
                Some(worktree("/data/worktrees/s1"))
            ),
            repository.to_string_lossy()
        );
        assert_eq!(
            folder("/elsewhere", Some(worktree("/data/worktrees/s1"))),
            repository.to_string_lossy()
        );
    }
}
