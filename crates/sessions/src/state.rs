//! The state the supervisor and every turn share: the database, the clock,
//! the live sessions' handles, the token issuer, the status broadcast and the
//! output feed.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};

use clock::Clock;
use store::Db;
use store::rusqlite::Transaction;
use tokio::sync::{Notify, broadcast, watch};

use crate::db;
use crate::error::{Result, SessionError};
use crate::model::{EntryBody, Status};
use crate::output::{OutputAppended, OutputFeed, StoredEntry};
use crate::returning::{Governance, Pacer};

/// What a session's agent token may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenAccess {
    /// What any agent token may.
    Full,
    /// Only reading (`GET`): the Ask tutor's sessions.
    ReadOnly,
}

/// Mints and revokes the scoped agent tokens; the server implements it over
/// the accounts store.
pub trait TokenIssuer: Send + Sync {
    /// A fresh token for `session_id`, acting for `account_id`, that may
    /// do what `access` says.
    fn mint(&self, account_id: &str, session_id: &str, access: TokenAccess) -> String;
    /// Every token of `session_id` stops working.
    fn revoke(&self, session_id: &str);
}

/// What each turn's argv gains beyond the engine's own arguments: the
/// permission broker's hook settings for Claude Code, the sandbox flags for
/// Codex. The server implements it, reading the level at each turn; it gets
/// the session's stored engine, whose kind picks the arguments and whose own
/// `permission_level`, if any, stands in for the setting, and the level the
/// session itself was pinned to at spawn, which stands in for both.
pub trait TurnArgs: Send + Sync {
    /// `remote` is where a turn on a runner host reaches this server and
    /// finds the hook program; `None` for a turn on this machine.
    fn turn_args(
        &self,
        session_id: &str,
        engine: &crate::EngineSpec,
        trigger: Option<crate::model::Trigger>,
        session_level: Option<permissions::Level>,
        remote: Option<&RemotePlace>,
    ) -> Vec<String>;
}

/// A runner host's view of this server: the control URL at its end of the
/// tunnel, and the helper binary there, which is also the hook program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemotePlace {
    pub control_url: String,
    pub hook_program: String,
}

/// What the server adds to the sessions: each turn's extra arguments and the
/// settings that keep sessions alive. `Default` adds neither.
#[derive(Default, Clone)]
pub struct Hooks {
    pub turn_args: Option<Arc<dyn TurnArgs>>,
    /// Runs on the blocking pool just before each turn's engine starts.
    pub before_turn: Option<Arc<dyn BeforeTurn>>,
    pub governance: Option<Arc<dyn Governance>>,
    /// The runners beside `local` (`runners.toml`); `None` runs everything here.
    pub runners: Option<runners::Runners>,
    /// Each session's process tree in a cgroup of its own; `None` leaves
    /// engines where the server is.
    pub trees: Option<Arc<resources::Trees>>,
    /// Engines the server provides itself, beside `engines.toml`'s (the
    /// demo engine under `serve --demo`); one of the file of the same name wins.
    pub builtin_engines: std::collections::BTreeMap<String, crate::EngineSpec>,
    /// The variables each turn's engine gets for the dev servers it runs
    /// (`PORT`, `HOST`, `APP_URL`: docs/apps.md); `None` gives none.
    pub app_env: Option<Arc<dyn AppEnv>>,
}

/// Where a session's dev server should listen and be found: asked at each
/// turn, here and on runners. It must not fail the turn: a session that
/// gets no port runs without one.
pub trait AppEnv: Send + Sync {
    fn app_env(&self, session_id: &str, cwd: &str, runner: &str) -> Vec<(String, String)>;
}

/// What the server prepares in a session's folder before each turn (the
/// instruction files the engine reads). It must not fail the turn: what
/// goes wrong is the implementation's to report.
pub trait BeforeTurn: Send + Sync {
    fn before_turn(&self, account_id: &str, session_id: &str, cwd: &std::path::Path);
}

/// A status move or another change a live view shows (a spawn, a queued
/// message, archiving, a new activity), broadcast once it is recorded. Listeners re-read the
/// session, so what they show is never older than the last update.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionUpdate {
    pub session_id: String,
    pub account_id: String,
    pub status: Status,
    /// This update is the session's move into `status`, recorded just now
    /// (not another change, nor a restart restoring the status it had), so a
    /// listener that acts once per turn end acts once.
    pub moved: bool,
    /// This update is the session's archiving, recorded just now, so a
    /// listener that ends what an archived session leaves behind (its apps)
    /// need not read the session back on every update to learn it.
    pub archived: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EndRequest {
    Stop,
    Archive,
    /// The user paused it: end the process, keep the session to resume.
    Pause,
    /// The server is going down: kill the process, keep the status for recovery.
    Shutdown,
}

pub(crate) struct Live {
    pub(crate) end: watch::Sender<Option<EndRequest>>,
    pub(crate) wake: Arc<Notify>,
    pub(crate) done: watch::Receiver<bool>,
}

pub(crate) struct Inner {
    pub(crate) db: Arc<Db>,
    /// Every time the sessions record or wait for comes from here.
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) data_dir: PathBuf,
    pub(crate) control_url: Option<String>,
    pub(crate) issuer: Arc<dyn TokenIssuer>,
    pub(crate) turn_args: Option<Arc<dyn TurnArgs>>,
    pub(crate) governance: Option<Arc<dyn Governance>>,
    pub(crate) trees: Option<Arc<resources::Trees>>,
    pub(crate) runners: Option<runners::Runners>,
    pub(crate) before_turn: Option<Arc<dyn BeforeTurn>>,
    pub(crate) app_env: Option<Arc<dyn AppEnv>>,
    /// [`Hooks::builtin_engines`].
    pub(crate) builtin_engines: std::collections::BTreeMap<String, crate::EngineSpec>,
    /// Hands out the starts of sessions returning together, one at a time.
    /// Held while a session waiting for room on a runner looks at the
    /// room and takes it, so two waiting sessions never take one place.
    pub(crate) room: tokio::sync::Mutex<()>,
    pub(crate) pacer: Pacer,
    /// The engine versions read so far, by binary.
    pub(crate) versions: crate::versions::Cache,
    pub(crate) live: Mutex<HashMap<String, Live>>,
    pub(crate) shutting_down: AtomicBool,
    pub(crate) updates: broadcast::Sender<SessionUpdate>,
    pub(crate) output: OutputFeed,
    /// The one look at `/proc` every turn's stall watch shares.
    pub(crate) groups: Arc<crate::watchdog::Groups>,
    /// What each session's tree used, as lists last read it.
    pub(crate) usage: crate::tree_usage::UsageCache,
    /// The sessions as lists last read them, by revision.
    pub(crate) remembered: crate::remembered::Remembered,
    /// The runtime the supervisor started on, where every session's work
    /// runs: a request served on another runtime (the listeners' own) that
    /// starts a session must not bring its pumps there.
    pub(crate) runtime: tokio::runtime::Handle,
}

impl Inner {
    /// Runs a write transaction on the blocking pool, so that SQLite never stalls a runtime thread.
    pub(crate) async fn write<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Transaction<'_>) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let db = Arc::clone(&self.db);
        tokio::task::spawn_blocking(move || db.write(f))
            .await
            .map_err(|_| SessionError::ShuttingDown)?
    }

    pub(crate) async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Transaction<'_>) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let db = Arc::clone(&self.db);
        tokio::task::spawn_blocking(move || db.read(f))
            .await
            .map_err(|_| SessionError::ShuttingDown)?
    }

    pub(crate) async fn move_to(
        &self,
        id: &str,
        account_id: &str,
        to: Status,
        reason: String,
    ) -> Result<()> {
        let owned = id.to_owned();
        let now = self.clock.timestamp();
        let moved = self
            .write(move |tx| db::set_status(tx, &owned, to, &reason, &now))
            .await?;
        self.send_update(id, account_id, to, moved);
        Ok(())
    }

    /// Holds a burst or returning start while the governance says memory is short,
    /// showing the session as `queued` with the reason. Memory is a reading
    /// of the machine, not a moment on the clock: it is looked at again
    /// every second of real time.
    pub(crate) async fn hold_while_memory_short(
        &self,
        id: &str,
        account_id: &str,
        gate: &dyn Governance,
    ) -> Result<()> {
        let owned = id.to_owned();
        let runner = self
            .read(move |tx| crate::db::runner_of(tx, &owned))
            .await?
            .filter(|runner| runner != runners::LOCAL);
        // A session on a runner is held by its host's memory, not this one's.
        let hold = || match (&runner, &self.runners) {
            (Some(runner), Some(runners)) => runners
                .memory(runner)
                .filter(|m| m.total_mb > 0)
                .and_then(|m| {
                    let used = 100.0 * (m.total_mb.saturating_sub(m.available_mb)) as f64
                        / m.total_mb as f64;
                    gate.memory_hold_at(runner, used)
                }),
            _ => gate.memory_hold(),
        };
        let mut shown: Option<String> = None;
        while let Some(reason) = hold() {
            if shown.as_ref() != Some(&reason) {
                self.move_to(id, account_id, Status::Queued, reason.clone())
                    .await?;
                shown = Some(reason);
            }
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        }
        Ok(())
    }

    /// Announces entries just stored `at` for `turn`, as one batch.
    pub(crate) fn announce_stored(
        &self,
        id: &str,
        account_id: &str,
        turn: i64,
        at: &str,
        stored: Vec<(i64, EntryBody)>,
    ) {
        self.output.send(OutputAppended {
            session_id: id.to_owned(),
            account_id: account_id.to_owned(),
            turn,
            at: at.to_owned(),
            entries: stored
                .into_iter()
                .map(|(seq, entry)| StoredEntry { seq, entry })
                .collect(),
        });
    }

    /// A change other than a status move (a spawn, a message, archiving, a
    /// new activity).
    pub(crate) fn announce(&self, id: &str, account_id: &str, status: Status) {
        self.send_update(id, account_id, status, false);
    }

    /// The session's archiving, once it is recorded.
    pub(crate) fn announce_archived(&self, id: &str, account_id: &str, status: Status) {
        self.send(SessionUpdate {
            session_id: id.to_owned(),
            account_id: account_id.to_owned(),
            status,
            moved: false,
            archived: true,
        });
    }

    /// A move recorded by a caller's own transaction.
    pub(crate) fn send_moved(&self, id: &str, account_id: &str, status: Status) {
        self.send_update(id, account_id, status, true);
    }

    pub(crate) fn send_update(&self, id: &str, account_id: &str, status: Status, moved: bool) {
        self.send(SessionUpdate {
            session_id: id.to_owned(),
            account_id: account_id.to_owned(),
            status,
            moved,
            archived: false,
        });
    }

    fn send(&self, update: SessionUpdate) {
        // Nobody listening is not an error.
        let _ = self.updates.send(update);
    }

    pub(crate) fn live(&self) -> MutexGuard<'_, HashMap<String, Live>> {
        self.live.lock().unwrap_or_else(|p| p.into_inner())
    }
}
