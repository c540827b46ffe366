//! The supervisor: the public API over sessions, the spawn rules, one actor
//! task per active session, and crash recovery at start.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clock::Clock;
use store::Db;
use store::rusqlite::Transaction;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use tokio::sync::{Notify, broadcast, watch};

use crate::actor::{Start, actor};
use crate::db::{self, NewSession};
use crate::engines::{self, EngineSpec};
use crate::error::{Result, SessionError};
use crate::isolation;
use crate::model::{
    Caller, EngineInfo, EntryPage, Isolation, PromptSettings, Session, SpawnPolicy, SpawnRequest,
    Spawned, Status, Transcript, Via,
};
use crate::output::{OutputFeed, OutputReceiver};
use crate::pages::{self, PageFrom};
use crate::prompts;
use crate::schema;
use crate::state::{EndRequest, Hooks, Inner, Live, SessionUpdate, TokenIssuer};

const NUDGE: &str =
    "Switchboard restarted while you were working on this. Continue where you left off.";

/// The agent-session engine. Cheap to clone; every clone drives the same sessions.
#[derive(Clone)]
pub struct Supervisor {
    pub(crate) inner: Arc<Inner>,
}

impl Supervisor {
    /// Opens the sessions feature on `db` and recovers what a previous server
    /// left: its engine processes are killed; with `auto_resume_on_crash`,
    /// running sessions restart with a continue nudge and waiting ones are
    /// restored, otherwise both are marked interrupted. Queued sessions keep
    /// their place and start on time either way. Spawn spacing and every
    /// recorded time read `clock`.
    pub async fn start(
        db: Arc<Db>,
        clock: Arc<dyn Clock>,
        data_dir: PathBuf,
        control_url: Option<String>,
        issuer: Arc<dyn TokenIssuer>,
        hooks: Hooks,
        auto_resume_on_crash: bool,
    ) -> Result<Supervisor> {
        db.migrate(schema::MIGRATIONS)?;
        let inner = Arc::new(Inner {
            db,
            clock,
            data_dir,
            control_url,
            issuer,
            turn_args: hooks.turn_args,
            governance: hooks.governance,
            trees: hooks.trees,
            runners: hooks.runners,
            before_turn: hooks.before_turn,
            app_env: hooks.app_env,
            builtin_engines: hooks.builtin_engines,
            room: tokio::sync::Mutex::new(()),
            pacer: crate::returning::Pacer::default(),
            versions: crate::versions::Cache::default(),
            live: Mutex::new(HashMap::new()),
            shutting_down: AtomicBool::new(false),
            // Each running session sends one per batch of output (its activity
            // changes); a spawn burst of hundreds of sessions must not
            // overrun the listeners (every stream then gets a `reset`).
            updates: broadcast::channel(16_384).0,
            output: OutputFeed::new(),
            groups: Arc::default(),
            usage: Default::default(),
            remembered: Default::default(),
            runtime: tokio::runtime::Handle::current(),
        });
        let supervisor = Supervisor { inner };
        supervisor.recover(auto_resume_on_crash).await?;
        Ok(supervisor)
    }

    async fn recover(&self, auto_resume: bool) -> Result<()> {
        let mut leftovers = self.inner.read(db::leftovers).await?;
        // A turn on a runner host went on without this server: picked up
        // again, its engine left alone and its token kept.
        if self.inner.runners.is_some() {
            let mut reattached = Vec::new();
            for leftover in std::mem::take(&mut leftovers) {
                let remote = leftover.runner != runners::LOCAL
                    && matches!(leftover.status, Status::Starting | Status::Running);
                let id = leftover.id.clone();
                let open = remote
                    && self
                        .inner
                        .read(move |tx| db::open_turn(tx, &id))
                        .await?
                        .is_some();
                if open {
                    reattached.push(leftover);
                } else {
                    leftovers.push(leftover);
                }
            }
            for leftover in reattached {
                let id = leftover.id.clone();
                let account = self.inner.read(move |tx| db::account_of(tx, &id)).await?;
                self.launch(leftover.id, account, Start::Reattach);
            }
        }
        let ids: HashSet<String> = leftovers.iter().map(|l| l.id.clone()).collect();
        let killed = crate::process::kill_leftovers(&ids).await;
        if !killed.is_empty() {
            tracing::info!(
                count = killed.len(),
                "ended engine processes left by a previous server"
            );
        }
        for leftover in leftovers {
            self.inner.issuer.revoke(&leftover.id);
            let id = leftover.id.clone();
            let next = match leftover.status {
                Status::Queued => Some((Status::Queued, None)),
                Status::Starting | Status::Running if auto_resume => Some((
                    Status::Queued,
                    Some(
                        "the server restarted: returning, paced with the others, with a continue nudge",
                    ),
                )),
                Status::WaitingForInput if auto_resume => Some((
                    Status::WaitingForInput,
                    Some("the server restarted: restored, waiting for input"),
                )),
                status if status.is_active() => Some((
                    Status::Interrupted,
                    Some("the server stopped while the session was active"),
                )),
                _ => None,
            };
            let nudge = leftover.status != Status::WaitingForInput;
            let now = self.inner.clock.timestamp();
            let account = self
                .inner
                .write(move |tx| {
                    db::close_open_turns(tx, &id, &now)?;
                    if let Some((to, Some(reason))) = next {
                        if to == Status::Queued && nudge && db::pending_inputs(tx, &id)? == 0 {
                            db::push_input(tx, &id, "nudge", NUDGE, None, &now)?;
                        }
                        db::set_status(tx, &id, to, reason, &now)?;
                        if to == Status::WaitingForInput {
                            db::note(tx, &id, to, reason, &now)?;
                        }
                    }
                    db::account_of(tx, &id)
                })
                .await?;
            match next {
                // Restored waits start no process: nothing to pace.
                Some((Status::WaitingForInput, _)) => self.launch(leftover.id, account, Start::Now),
                Some((Status::Queued, Some(_))) => {
                    self.launch(leftover.id, account, Start::Returning);
                }
                Some((Status::Queued, None)) => self.launch(leftover.id, account, Start::Burst),
                _ => {}
            }
        }
        // A wait for a reset or a retry outlives the server that began it.
        for (id, account) in self.inner.read(crate::recovery::scheduled_returns).await? {
            self.launch(id, account, Start::Returning);
        }
        Ok(())
    }

    /// Starts a session, or queues it while spawn spacing holds it back.
    /// The spawn rules apply to the control server and to the user's
    /// automations (`Via::Automation`, which `agentDrivenSessionsEnabled`
    /// does not gate); `Via::Ui` is the user's own.
    pub async fn spawn(
        &self,
        caller: &Caller,
        policy: &SpawnPolicy,
        prompts: &PromptSettings,
        request: SpawnRequest,
    ) -> Result<Spawned> {
        // Runs to its end even when the caller stops waiting (a client gone, a
        // request timeout during a long checkout), so a worktree made for the
        // session is always either recorded and used or taken back.
        let this = self.clone();
        let (caller, policy, prompts) = (caller.clone(), policy.clone(), prompts.clone());
        let task = self.inner.runtime.spawn(async move {
            let spawned = this.spawn_to_end(&caller, &policy, &prompts, request);
            spawned.await
        });
        match task.await {
            Ok(spawned) => spawned,
            Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
            Err(_) => Err(SessionError::ShuttingDown),
        }
    }

    async fn spawn_to_end(
        &self,
        caller: &Caller,
        policy: &SpawnPolicy,
        prompts: &PromptSettings,
        request: SpawnRequest,
    ) -> Result<Spawned> {
        if self.inner.shutting_down.load(Ordering::SeqCst) {
            return Err(SessionError::ShuttingDown);
        }
        // Refused here, whole, rather than by a pipe that cannot be made
        // halfway through a turn, or by an accept that keeps every client out.
        if let Ok(Some(files)) = tokio::task::spawn_blocking(resources::OpenFiles::now).await
            && !files.room_for_a_session()
        {
            return Err(SessionError::OpenFileLimit {
                open: files.open,
                limit: files.limit,
            });
        }
        let agent_driven = caller.via != Via::Ui;
        if agent_driven && caller.via != Via::Automation && !policy.agent_driven_sessions_enabled {
            return Err(SessionError::AgentDrivenSessionsDisabled);
        }
        if matches!(caller.via, Via::ControlAgent { .. }) && !policy.allow_agent_token_spawn {
            return Err(SessionError::AgentTokenSpawnDisabled);
        }
        let id = store::new_id();
        let mut request = request;
        // Before the worktree: a fork's folder and isolation may be its source's.
        let fork = crate::fork::resolve(&self.inner, &caller.account_id, &mut request).await?;
        // A session on a runner starts others only as cloudStartedSessionsEnabled
        // allows: on its own runner unless it names another, each held for
        // the user's approval.
        let parent_runner = match &caller.via {
            Via::ControlAgent { session_id } => {
                let parent = session_id.clone();
                self.inner
                    .read(move |tx| db::runner_of(tx, &parent))
                    .await?
                    .filter(|runner| runner != runners::LOCAL)
            }
            _ => None,
        };
        let awaiting_approval = parent_runner.is_some();
        if let Some(parent_runner) = parent_runner {
            if !policy.remote_started_sessions {
                return Err(SessionError::RemoteStartsOff);
            }
            request.runner.get_or_insert(parent_runner);
        }
        // A spawn that names no runner goes where its engine says, if it
        // does and runners are on (off, everything runs here).
        if request.runner.is_none() && policy.remote_runners {
            let engine = request.engine.as_deref().map(str::trim);
            request.runner = engines::resolve(
                &self.inner.data_dir,
                &self.inner.builtin_engines,
                engine.filter(|e| !e.is_empty()).unwrap_or("primary"),
            )
            .ok()
            .and_then(|spec| spec.runner);
        }
        let runner = self
            .place(request.runner.as_deref(), policy.remote_runners)
            .await?;
        if runner != runners::LOCAL {
            Self::check_remote(&request)?;
        }
        // Made before the row is written, so the engine never starts outside it.
        let isolated = match request.isolation {
            Some(Isolation::Worktree) if runner != runners::LOCAL => {
                let runners = self.inner.runners.clone().ok_or(SessionError::RunnersOff)?;
                let cwd = request.cwd.clone().unwrap_or_else(|| "~".to_owned());
                let made = isolation::create_remote(&runners, &runner, &id, &cwd).await?;
                request.cwd = Some(made.cwd.clone());
                Some(made)
            }
            Some(Isolation::Worktree) => {
                let cwd = resolve_cwd(&self.inner.data_dir, request.cwd.as_deref())?;
                let made = isolation::create(&self.inner.data_dir, &id, cwd.into()).await?;
                request.cwd = Some(made.cwd.clone());
                Some(made)
            }
            None => None,
        };
        let worktree = isolated.as_ref().map(|made| made.record.clone());
        let caller = caller.clone();
        let policy = policy.clone();
        let prompt_settings = prompts.clone();
        let follow_up_added = prompts::follow_up_preamble(&prompt_settings);
        let data_dir = self.inner.data_dir.clone();
        let builtin = self.inner.builtin_engines.clone();
        let clock = Arc::clone(&self.inner.clock);
        let session_id = id.clone();
        let written = self
            .inner
            .write(move |tx| {
                let parent = if agent_driven {
                    check_control_rules(tx, &caller, &policy)?
                } else {
                    live_source_header(tx, &caller)?
                };
                let valid = validate(&data_dir, &builtin, &request, &runner)?;
                let first_added = prompts::first_turn_preamble(&prompt_settings, valid.spec.kind);
                let now = clock.now();
                let (starts_at, queued) = if agent_driven {
                    spacing_slot(tx, now, policy.cli_spawn_spacing_seconds)?
                } else {
                    (None, false)
                };
                let spec = serde_json::to_string(&valid.spec)
                    .map_err(|e| SessionError::InvalidInput(e.to_string()))?;
                let queued_reason = if awaiting_approval {
                    format!("waiting for your approval: started by a session on runner {runner}")
                } else {
                    format!(
                        "held by spawn spacing until {}",
                        starts_at.as_deref().unwrap_or("later")
                    )
                };
                let queued = queued || awaiting_approval;
                db::insert_session(
                    tx,
                    &NewSession {
                        id: &session_id,
                        account_id: &caller.account_id,
                        engine: &valid.engine,
                        engine_kind: valid.spec.kind.as_str(),
                        engine_spec: &spec,
                        title: valid.title.as_deref(),
                        cwd: &valid.cwd,
                        prompt: &request.prompt,
                        status: if queued {
                            Status::Queued
                        } else {
                            Status::Starting
                        },
                        agent_driven,
                        parent_id: parent.as_deref(),
                        starts_at: starts_at.as_deref(),
                        follow_up_added: follow_up_added.as_deref(),
                        first_added: first_added.as_deref(),
                        max_dollars: policy.max_dollars_per_session,
                        max_turns: i64::from(policy.max_turns_per_session),
                        reason: if queued { &queued_reason } else { "spawned" },
                        trigger: request.trigger,
                        permission_level: request.permission_level,
                        forked_from: fork.as_ref().map(|f| f.source.as_str()),
                        fork_engine_session_id: fork.as_ref().map(|f| f.engine_session_id.as_str()),
                        runner: &runner,
                        awaiting_approval,
                        now: &clock::timestamp(now),
                    },
                )?;
                if let Some(worktree) = &worktree {
                    crate::isolation::insert_worktree(tx, &session_id, worktree)?;
                }
                let session = db::get_session(tx, &caller.account_id, &session_id)?
                    .ok_or(SessionError::NotFound)?;
                Ok((session, queued))
            })
            .await;
        let (session, queued) = match written {
            Ok(written) => written,
            Err(e) => {
                if let Some(made) = isolated {
                    isolation::discard(made).await;
                }
                return Err(e);
            }
        };
        self.inner
            .announce(&session.id, &session.account_id, session.status);
        let start = if agent_driven {
            Start::Burst
        } else {
            Start::Now
        };
        if !session.awaiting_approval {
            self.launch(id, session.account_id.clone(), start);
        }
        Ok(Spawned {
            queued: if queued {
                session.starts_at.clone()
            } else {
                None
            },
            session,
        })
    }

    /// Queues a follow-up; it starts as soon as the running turn (if any) ends.
    pub async fn send(
        &self,
        caller: &Caller,
        policy: &SpawnPolicy,
        id: &str,
        text: &str,
    ) -> Result<Session> {
        if !matches!(caller.via, Via::Ui | Via::Automation) && !policy.agent_driven_sessions_enabled
        {
            return Err(SessionError::AgentDrivenSessionsDisabled);
        }
        if text.trim().is_empty() {
            return Err(SessionError::InvalidInput(
                "A message needs some text.".to_owned(),
            ));
        }
        let account = caller.account_id.clone();
        let owned_id = id.to_owned();
        let text = text.to_owned();
        let now = self.inner.clock.timestamp();
        let session = self
            .inner
            .write(move |tx| {
                let session =
                    db::get_session(tx, &account, &owned_id)?.ok_or(SessionError::NotFound)?;
                if !session.status.is_active() || session.archived {
                    return Err(SessionError::SessionEnded {
                        status: session.status,
                    });
                }
                let added = db::follow_up_added(tx, &owned_id)?;
                db::push_input(tx, &owned_id, "message", &text, added.as_deref(), &now)?;
                db::get_session(tx, &account, &owned_id)?.ok_or(SessionError::NotFound)
            })
            .await?;
        if let Some(live) = self.inner.live().get(id) {
            live.wake.notify_one();
        }
        self.inner
            .announce(&session.id, &session.account_id, session.status);
        Ok(session)
    }

    /// Stops a session: its whole process group ends (children and
    /// grandchildren included) and it is `stopped`. Returns once that is recorded.
    pub async fn stop(&self, caller: &Caller, id: &str) -> Result<Session> {
        self.end(&caller.account_id, id, EndRequest::Stop).await?;
        self.get(&caller.account_id, id).await
    }

    /// Archives a session, ending it first if it is active (a waiting one is
    /// `finished`, a queued or running one `stopped`).
    pub async fn archive(&self, caller: &Caller, id: &str) -> Result<Session> {
        self.end(&caller.account_id, id, EndRequest::Archive)
            .await?;
        let owned = id.to_owned();
        let now = self.inner.clock.timestamp();
        self.inner
            .write(move |tx| db::set_archived(tx, &owned, &now))
            .await?;
        isolation::release(&self.inner, &caller.account_id, id).await?;
        let session = self.get(&caller.account_id, id).await?;
        self.inner
            .announce_archived(&session.id, &session.account_id, session.status);
        Ok(session)
    }

    pub(crate) async fn end(&self, account: &str, id: &str, request: EndRequest) -> Result<()> {
        self.get(account, id).await?;
        let done = self.inner.live().get(id).map(|live| {
            live.end.send_replace(Some(request));
            live.done.clone()
        });
        if let Some(mut done) = done {
            let _ = done.wait_for(|finished| *finished).await;
        }
        Ok(())
    }

    /// Each turn's input, what was added to it, and its output so far.
    pub async fn transcript(&self, account_id: &str, id: &str) -> Result<Transcript> {
        let account = account_id.to_owned();
        let id = id.to_owned();
        self.inner
            .read(move |tx| {
                db::get_session(tx, &account, &id)?.ok_or(SessionError::NotFound)?;
                Ok(Transcript {
                    turns: db::turns(tx, &id)?,
                    events: db::events(tx, &id)?,
                    session_id: id,
                })
            })
            .await
    }

    /// One page of the session's typed transcript (see [`PageFrom`] and
    /// [`MAX_PAGE`]); read with an index range and a `LIMIT`, whatever the
    /// transcript's size.
    pub async fn entries(
        &self,
        account_id: &str,
        id: &str,
        from: PageFrom,
        limit: u32,
    ) -> Result<EntryPage> {
        let account = account_id.to_owned();
        let id = id.to_owned();
        self.inner
            .read(move |tx| {
                // Ownership only: the whole session row (its sums and tree
                // cost) is more than a page needs.
                if !db::is_of_account(tx, &account, &id)? {
                    return Err(SessionError::NotFound);
                }
                pages::page(tx, &id, from, limit)
            })
            .await
    }

    /// True while the session is active (queued, starting, running or waiting
    /// for input): its agent token is valid and it may name itself as a spawn source.
    pub fn is_live(&self, session_id: &str) -> bool {
        self.inner.live().contains_key(session_id)
    }

    /// The engines in force now.
    pub fn engines(&self) -> Result<Vec<EngineInfo>> {
        engines::list(&self.inner.data_dir, &self.inner.builtin_engines)
    }

    /// The version engine `name` reports, as its sessions record it: read
    /// with `--version` in the sandbox its sessions get, from `cwd`, once
    /// per binary and then kept. `None` for `command` engines and when it
    /// cannot be read.
    pub async fn engine_version(&self, name: &str, spec: &EngineSpec, cwd: &str) -> Option<String> {
        self.inner
            .versions
            .outside_session(&self.inner.data_dir, name, spec, cwd)
            .await
    }

    /// Status moves as they happen.
    pub fn subscribe(&self) -> broadcast::Receiver<SessionUpdate> {
        self.inner.updates.subscribe()
    }

    /// Output as it is stored, a batch per flush, none ever dropped: keep
    /// reading it (a listener far behind holds the engines' output back).
    pub fn subscribe_output(&self) -> OutputReceiver {
        self.inner.output.subscribe()
    }

    /// A clean stop: new spawns are refused, every engine process is ended,
    /// tokens are revoked; statuses stay as they were so the next start
    /// recovers them as after a crash.
    pub async fn shutdown(&self) {
        self.inner.shutting_down.store(true, Ordering::SeqCst);
        let waits: Vec<watch::Receiver<bool>> = self
            .inner
            .live()
            .values()
            .map(|live| {
                live.end.send_replace(Some(EndRequest::Shutdown));
                live.done.clone()
            })
            .collect();
        for mut done in waits {
            let _ =
                tokio::time::timeout(Duration::from_secs(10), done.wait_for(|finished| *finished))
                    .await;
        }
    }

    pub(crate) fn launch(&self, id: String, account_id: String, start: Start) {
        let (end_tx, end_rx) = watch::channel(None);
        let (done_tx, done_rx) = watch::channel(false);
        let wake = Arc::new(Notify::new());
        self.inner.live().insert(
            id.clone(),
            Live {
                end: end_tx,
                wake: Arc::clone(&wake),
                done: done_rx,
            },
        );
        let inner = Arc::clone(&self.inner);
        self.inner.runtime.spawn(async move {
            let ended = actor(&inner, &id, &account_id, start, end_rx, wake).await;
            inner.live().remove(&id);
            // Ended for good: paused and interrupted sessions come back.
            if matches!(ended, Ok(Some((Status::Stopped | Status::Failed, _)))) {
                crate::remote_turn::session_ended(&inner, &id).await;
            }
            let recorded = match ended {
                Ok(Some((status, reason))) => inner.move_to(&id, &account_id, status, reason).await,
                Ok(None) => Ok(()),
                Err(e) => {
                    let reason = format!("the supervisor failed: {e}");
                    inner
                        .move_to(&id, &account_id, Status::Failed, reason)
                        .await
                }
            };
            if let Err(e) = recorded {
                tracing::warn!(session = %id, error = %e, "could not record how a session ended");
            }
            inner.issuer.revoke(&id);
            let _ = done_tx.send(true);
        });
    }
}

/// Rules 3 and 4 of the contract (1 and 2 need no database). Returns the
/// parent to record.
fn check_control_rules(
    tx: &Transaction<'_>,
    caller: &Caller,
    policy: &SpawnPolicy,
) -> Result<Option<String>> {
    let header = caller
        .source_session_header
        .as_deref()
        .map(str::trim)
        .filter(|h| !h.is_empty());
    if policy.require_spawn_source_session {
        let names_allowed = match (&caller.via, header) {
            (_, None) => false,
            (Via::ControlAgent { session_id }, Some(h)) => h == session_id,
            (_, Some(_)) => true,
        };
        let live = match header {
            Some(h) if names_allowed => db::is_live_of_account(tx, &caller.account_id, h)?,
            _ => false,
        };
        if !live {
            return Err(SessionError::SourceSessionRequired);
        }
    }
    if db::count_active_agent_driven(tx)? >= policy.agent_driven_max_concurrent {
        return Err(SessionError::ConcurrencyLimit {
            max: policy.agent_driven_max_concurrent,
        });
    }
    match &caller.via {
        Via::ControlAgent { session_id } => Ok(Some(session_id.clone())),
        _ => live_source_header(tx, caller),
    }
}

/// The session `X-App-Source-Session-Id` names, when it is a live session of
/// the caller's account: the new session's parent. Anything else is no parent.
fn live_source_header(tx: &Transaction<'_>, caller: &Caller) -> Result<Option<String>> {
    match caller.source_session_header.as_deref().map(str::trim) {
        Some(h) if !h.is_empty() && db::is_live_of_account(tx, &caller.account_id, h)? => {
            Ok(Some(h.to_owned()))
        }
        _ => Ok(None),
    }
}

struct Valid {
    engine: String,
    spec: EngineSpec,
    cwd: String,
    title: Option<String>,
}

fn validate(
    data_dir: &Path,
    builtin: &std::collections::BTreeMap<String, EngineSpec>,
    request: &SpawnRequest,
    runner: &str,
) -> Result<Valid> {
    if request.prompt.trim().is_empty() {
        return Err(SessionError::InvalidInput(
            "A session needs a prompt.".to_owned(),
        ));
    }
    let engine = request
        .engine
        .as_deref()
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .unwrap_or("primary")
        .to_owned();
    let spec = engines::resolve(data_dir, builtin, &engine)?;
    let cwd = if runner == runners::LOCAL {
        resolve_cwd(data_dir, request.cwd.as_deref())?
    } else {
        request
            .cwd
            .as_deref()
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .unwrap_or("~")
            .to_owned()
    };
    let title = request
        .title
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned);
    Ok(Valid {
        engine,
        spec,
        cwd,
        title,
    })
}

/// The folder a session asks for: an absolute path to an existing folder,
/// or the user's home when it names none.
pub(crate) fn resolve_cwd(data_dir: &Path, cwd: Option<&str>) -> Result<String> {
    match cwd.filter(|c| !c.trim().is_empty()) {
        Some(cwd) => {
            let path = Path::new(cwd);
            if !path.is_absolute() || !path.is_dir() {
                return Err(SessionError::InvalidInput(format!(
                    "cwd must be an absolute path to an existing folder; {cwd} is not."
                )));
            }
            Ok(cwd.to_owned())
        }
        None => Ok(std::env::var_os("HOME")
            .map(PathBuf::from)
            .filter(|home| home.is_dir())
            .unwrap_or_else(|| data_dir.to_owned())
            .to_string_lossy()
            .into_owned()),
    }
}

/// Rule 5: agent-driven sessions start at least `spacing` seconds apart.
/// Returns the session's start slot and whether that is in the future.
fn spacing_slot(
    tx: &Transaction<'_>,
    now: OffsetDateTime,
    spacing: u32,
) -> Result<(Option<String>, bool)> {
    let last = db::last_agent_slot(tx)?.and_then(|at| OffsetDateTime::parse(&at, &Rfc3339).ok());
    let slot = match last {
        Some(last) if spacing > 0 => last + time::Duration::seconds(i64::from(spacing)),
        _ => now,
    };
    if slot > now {
        Ok((Some(clock::timestamp(slot)), true))
    } else {
        Ok((Some(clock::timestamp(now)), false))
    }
}
