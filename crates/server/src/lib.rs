//! Switchboard's HTTP glue: the control server (127.0.0.1:19519, bearer
//! tokens, for scripts and agents) and the UI server (127.0.0.1:19520, the web
//! app and the same API under `/api`, cookie only).
//!
//! Only this crate knows axum. Handlers extract the caller, call a domain
//! crate, and map its error through [`error::ApiError`]; every request first
//! passes the guards in [`guards`]. [`start`] opens the data directory, binds
//! both listeners and writes `server.json`; [`Running::wait`] serves until a
//! signal or a restart request and then drains in-flight requests.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Extension};
use axum::http::StatusCode;
use axum::middleware::{from_fn, from_fn_with_state};
use axum::routing::get;
use axum::serve::ListenerExt;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower_http::compression::{CompressionLayer, CompressionLevel};
use tower_http::timeout::TimeoutLayer;

pub mod auth;
mod coaching_watch;
pub mod error;
mod governor_loop;
pub mod guards;
mod instruction_sync;
mod json;
mod mcp;
mod negotiate;
mod notifier;
mod permission_check;
mod publish;
mod request_log;
mod routes;
mod session_inbox;
mod stall;
pub mod state;
pub mod wire;

use auth::AuthMode;
use error::ApiError;
use guards::{Allowlist, MAX_BODY_BYTES};
pub use routes::openapi;
pub use state::{AppState, StopReason};

pub const DEFAULT_CONTROL_PORT: u16 = 19519;
pub const DEFAULT_UI_PORT: u16 = 19520;

#[derive(Debug, Clone)]
pub struct ServeOptions {
    pub data_dir: PathBuf,
    pub control_port: u16,
    pub ui_port: u16,
    /// Seed a demo workspace when the owner has no boards yet.
    pub demo: bool,
    /// How often an idle event stream sends a comment line
    /// ([`STREAM_KEEP_ALIVE_MS`] unless a test wants it sooner).
    pub stream_keep_alive: Duration,
    /// Run on a manual clock that only `POST /test/clock` moves (owner
    /// only, served only then), so integration tests control time: the
    /// webhook rate limit's minute, for one.
    pub manual_clock: bool,
    /// Where the manual clock starts, in Unix milliseconds (the system's
    /// now when `None`): a test that restarts a server can start the next
    /// one later than the last, as if it had been down that long.
    pub manual_clock_start_ms: Option<i64>,
    /// A file read in place of `/proc/meminfo` (and no cgroup limit), so
    /// tests can make memory short for the memory guard.
    pub meminfo_file: Option<PathBuf>,
}

/// Proxies close a connection idle for a minute or so; a comment line every
/// 15 s keeps an event stream open through them.
pub const STREAM_KEEP_ALIVE_MS: u64 = 15_000;

/// A client that takes nothing of a response for this long is gone or
/// stalled: its connection is closed (and an event stream's buffer with it).
const WRITE_STALL_LIMIT: Duration = Duration::from_secs(60);

/// Why `serve` could not start. Each message says what failed and leaves the
/// cause to `source()`, so a printed chain (`{:#}`) names the cause once.
#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error("cannot use data directory {path}")]
    DataDir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot read or create the token file {path}")]
    TokenFile {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the token file {path} is empty or malformed; delete it to have a new token made")]
    TokenFileMalformed { path: PathBuf },
    #[error(transparent)]
    Store(#[from] store::StoreError),
    #[error(transparent)]
    Accounts(#[from] accounts::AccountsError),
    #[error(transparent)]
    Settings(#[from] settings::SettingsError),
    #[error("cannot seed the demo workspace")]
    Demo(#[from] boards::BoardsError),
    #[error("cannot start the alarm scheduler")]
    Alarms(#[from] alarms::AlarmError),
    #[error("cannot make the accounts' own members")]
    SelfMember(#[source] boards::BoardsError),
    #[error("cannot open the permission broker")]
    Permissions(#[from] permissions::PermissionError),
    #[error("cannot open the key store")]
    Secrets(#[from] secrets::SecretsError),
    #[error("cannot start the session supervisor")]
    Sessions(#[from] sessions::SessionError),
    #[error("cannot listen on 127.0.0.1:{port} for the {what}")]
    Bind {
        what: &'static str,
        port: u16,
        source: std::io::Error,
    },
    #[error("cannot write {path}")]
    ServerFile {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// A started server: both listeners bound and `server.json` written.
pub struct Running {
    pub control_url: Option<String>,
    pub ui_url: String,
    /// The link that logs a browser in as the owner (it holds the token).
    pub login_url: String,
    data_dir: PathBuf,
    state: AppState,
    servers: Vec<tokio::task::JoinHandle<std::io::Result<()>>>,
    signals: ShutdownSignals,
}

pub async fn start(options: ServeOptions) -> Result<Running, StartupError> {
    let data_dir = options.data_dir;
    create_private_dir(&data_dir)?;
    let db = Arc::new(store::Db::open(&data_dir.join("switchboard.db"))?);
    db.migrate(&all_migrations())?;
    let owner_token = read_or_create_owner_token(&data_dir.join("cli-token"))?;
    let accounts = Arc::new(accounts::Accounts::load(db.clone())?);
    let owner = accounts.ensure_owner(&owner_token)?;
    // Every account has its own member ("self"); accounts made before there
    // was one get it here, new ones when they are made.
    for account in accounts.list()? {
        let name = if account.is_owner {
            "Me"
        } else {
            &account.name
        };
        boards::ensure_self_member(&db, &account.id, name).map_err(StartupError::SelfMember)?;
    }
    let settings = Arc::new(settings::SettingsStore::load(db.clone())?);
    if options.demo {
        boards::seed_demo(&db, &owner.id)?;
    }

    let ui_listener = bind("UI server", options.ui_port).await?;
    let ui_port = local_port(&ui_listener, options.ui_port);
    let control_listener = if settings.cli_server_enabled() {
        Some(bind("control server", options.control_port).await?)
    } else {
        None
    };
    let control_port = control_listener
        .as_ref()
        .map(|l| local_port(l, options.control_port));
    let ui_url = format!("http://127.0.0.1:{ui_port}");
    let control_url = control_port.map(|port| format!("http://127.0.0.1:{port}"));

    let issuer = Arc::new(AgentTokens(accounts.clone()));
    let manual_clock =
        (options.manual_clock || options.manual_clock_start_ms.is_some()).then(|| {
            Arc::new(match options.manual_clock_start_ms.and_then(unix_ms) {
                Some(start) => clock::ManualClock::new(start),
                None => clock::ManualClock::starting_now(),
            })
        });
    let clock: Arc<dyn clock::Clock> = match &manual_clock {
        Some(manual) => manual.clone(),
        None => Arc::new(clock::SystemClock),
    };
    // Each start gets its own epoch, so a Last-Event-ID from an earlier run
    // is unknown here (a `reset`) rather than taken for one of this run's.
    let epoch = u64::try_from(clock.now().unix_timestamp_nanos()).unwrap_or_default();
    let (instructions, hand_edited) = instruction_sync::InstructionSync::new(
        settings.clone(),
        instructions::SqliteLedger::new(db.clone(), clock.clone()),
    );
    let supervisor = sessions::Supervisor::start(
        db.clone(),
        clock.clone(),
        data_dir.clone(),
        control_url.clone(),
        issuer,
        sessions::Hooks {
            turn_args: Some(Arc::new(BrokerArgs {
                settings: settings.clone(),
                program: hook_program(),
                control_url: control_url.clone(),
            })),
            before_turn: Some(instructions.clone()),
            governance: Some(Arc::new(governor_loop::FleetGovernance {
                settings: settings.clone(),
                memory: governor_loop::memory_source(options.meminfo_file.clone()),
            })),
        },
        settings.auto_resume_on_crash(),
    )
    .await?;
    let broker = permissions::Broker::open(db.clone(), clock.clone())?;
    let governor = Arc::new(governor::Governor::new(
        db.clone(),
        clock.clone(),
        supervisor.clone(),
        jiff::tz::TimeZone::system(),
    ));
    let cipher = secrets::Cipher::load_or_create(&data_dir.join(secrets::KEY_FILE))?;
    let secrets = Arc::new(secrets::Secrets::new(db.clone(), clock.clone(), cipher));
    let (stop, _) = watch::channel(None);
    let presence = Arc::new(navigation::Presence::new(clock.clone()));
    let coaching = Arc::new(coaching::Coaching::new(db.clone(), clock.clone()));
    let bookmarks = Arc::new(bookmarks::Bookmarks::new(db.clone(), clock.clone()));
    let state = AppState {
        inbox: Arc::new(inbox::Inbox::new(db.clone(), clock.clone())),
        webhooks: Arc::new(webhooks::Webhooks::new(db.clone(), clock.clone())),
        alarms: Arc::new(alarms::Alarms::in_system_zone(db.clone(), clock.clone())),
        clock,
        manual_clock,
        db,
        settings,
        accounts,
        sessions: supervisor,
        governor,
        presence,
        coaching,
        bookmarks,
        permissions: broker,
        secrets,
        secrets_answered: Arc::new(tokio::sync::Notify::new()),
        pm_wake: Arc::new(tokio::sync::Notify::new()),
        events: Arc::new(events::Hub::new(events::Config::with_epoch(epoch))),
        stream_keep_alive: options.stream_keep_alive,
        stop,
        data_dir: data_dir.clone(),
        ui_url: ui_url.clone(),
        control_url: control_url.clone(),
    };

    publish::forward_sessions(&state);
    session_inbox::watch_turn_ends(&state);
    // Before the listeners serve: alarms that fell due while the server was
    // down are missed rows by the time anyone can ask.
    publish::ring_alarms(&state).await?;
    notifier::start(&state);
    governor_loop::start(&state);
    instruction_sync::start(&state, instructions, hand_edited);
    coaching_watch::start(&state);

    let mut servers = vec![serve(
        ui_listener,
        ui_router(state.clone(), ui_port),
        &state,
    )];
    if let (Some(listener), Some(port)) = (control_listener, control_port) {
        servers.push(serve(
            listener,
            control_router(state.clone(), port, ui_port),
            &state,
        ));
    }

    // Before `server.json` exists: whoever finds the file may signal at once,
    // and a SIGTERM before the handler is installed would kill, not drain.
    let signals = ShutdownSignals::install();
    write_server_file(&data_dir, control_url.as_deref(), &ui_url)?;
    Ok(Running {
        signals,
        login_url: format!("{ui_url}/login?token={owner_token}"),
        control_url,
        ui_url,
        data_dir,
        state,
        servers,
    })
}

fn unix_ms(ms: i64) -> Option<time::OffsetDateTime> {
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000).ok()
}

/// The program Claude Code's hook runs: this very binary, by absolute path,
/// so the hook is the same build as the server it asks.
fn hook_program() -> std::path::PathBuf {
    std::env::current_exe().unwrap_or_else(|error| {
        tracing::warn!(%error, "cannot tell this binary's path; the permission hook runs `switchboard` from PATH");
        "switchboard".into()
    })
}

/// Each turn's permission arguments: the hook for Claude Code, the sandbox
/// flags for Codex, at the level in force when the turn starts (a codex
/// engine's own level, if its spec has one, else the setting's); and, while
/// the control server runs, its MCP endpoint.
struct BrokerArgs {
    settings: Arc<settings::SettingsStore>,
    program: std::path::PathBuf,
    control_url: Option<String>,
}

impl sessions::TurnArgs for BrokerArgs {
    fn turn_args(
        &self,
        engine: &sessions::EngineSpec,
        trigger: Option<sessions::Trigger>,
    ) -> Vec<String> {
        let level =
            permission_check::effective_level(&self.settings, trigger, engine.permission_level);
        let mut args = permissions::engine_args(engine.kind.as_str(), level, &self.program);
        if let Some(url) = &self.control_url {
            let strict = self.settings.session_strict_mcp_config();
            args.extend(mcp::engine_args(engine.kind, url, strict));
        }
        args
    }
}

/// Agent tokens for spawned sessions, minted and revoked through accounts.
struct AgentTokens(Arc<accounts::Accounts>);

impl sessions::TokenIssuer for AgentTokens {
    fn mint(&self, account_id: &str, session_id: &str) -> String {
        self.0
            .mint_agent_token(account_id, session_id)
            .unwrap_or_else(|error| {
                // The session still runs; it just cannot call back.
                tracing::error!(%error, session_id, "could not mint an agent token");
                String::new()
            })
    }

    fn revoke(&self, session_id: &str) {
        if let Err(error) = self.0.revoke_session(session_id) {
            tracing::error!(%error, session_id, "could not revoke agent tokens");
        }
    }
}

impl Running {
    /// Serves until SIGINT, SIGTERM or a restart request, lets in-flight
    /// requests finish, removes `server.json`, and says why it stopped.
    pub async fn wait(self) -> StopReason {
        let stop = self.state.stop.clone();
        let mut requested = stop.subscribe();
        tokio::select! {
            _ = self.signals.received() => { stop.send_replace(Some(StopReason::Shutdown)); }
            _ = requested.wait_for(Option::is_some) => {}
        }
        let reason = (*stop.borrow()).unwrap_or(StopReason::Shutdown);
        // Event streams never end on their own; the drain below waits for them.
        self.state.events.close();
        for server in self.servers {
            match server.await {
                Ok(Err(e)) => tracing::warn!(error = %e, "listener ended with an error"),
                Err(e) => tracing::warn!(error = %e, "listener task failed"),
                Ok(Ok(())) => {}
            }
        }
        self.state.sessions.shutdown().await;
        if let Err(e) = std::fs::remove_file(self.data_dir.join("server.json")) {
            tracing::warn!(error = %e, "could not remove server.json");
        }
        reason
    }
}

fn all_migrations() -> Vec<store::Migration> {
    [
        accounts::MIGRATIONS,
        settings::MIGRATIONS,
        inbox::MIGRATIONS,
        webhooks::MIGRATIONS,
        alarms::MIGRATIONS,
        boards::MIGRATIONS,
        dashboards::MIGRATIONS,
        pm_inbox::MIGRATIONS,
        permissions::MIGRATIONS,
        secrets::MIGRATIONS,
        governor::MIGRATIONS,
        instructions::MIGRATIONS,
        coaching::MIGRATIONS,
        bookmarks::MIGRATIONS,
    ]
    .concat()
}

/// The routes and layers both listeners share; `mode` says which credential
/// counts there.
fn with_layers(
    router: Router<AppState>,
    state: AppState,
    allow: Allowlist,
    mode: AuthMode,
) -> Router {
    router
        .layer(Extension(mode))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        // Clients are on loopback, where bytes are cheap and the CPU is shared with them: the
        // fastest level (zstd 1) halves the server's cost of a full read against the default.
        .layer(CompressionLayer::new().quality(CompressionLevel::Fastest))
        .layer(from_fn_with_state(allow, guards::check_request))
        // Outside the guards: reading a chunked body to see it is empty is under the limit too.
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            Duration::from_secs(30),
        ))
        .layer(from_fn(guards::error_shape))
        .layer(request_log::layer())
        .with_state(state)
}

fn not_found() -> ApiError {
    ApiError::for_status(StatusCode::NOT_FOUND)
}

/// The control server: the API, plus the routes that take no token at all
/// (webhook deliveries, `POST /hooks/<secret>`, whose secret is the
/// credential), which the UI server does not serve.
pub fn control_router(state: AppState, port: u16, ui_port: u16) -> Router {
    let allow = Allowlist::new(port, ui_port).with_hooks();
    let api = routes::api(&state)
        .merge(routes::control_only())
        .fallback(|| async { not_found() });
    // MCP tools call the API through this very stack of layers, so a tool
    // call is checked exactly as the same request over HTTP would be.
    let tools_call = with_layers(api.clone(), state.clone(), allow.clone(), AuthMode::Bearer);
    let mcp = mcp::routes(&state, tools_call);
    with_layers(api.merge(mcp), state, allow, AuthMode::Bearer)
}

pub fn ui_router(state: AppState, port: u16) -> Router {
    let api = routes::ui_api(&state).fallback(|| async { not_found() });
    let routes = Router::new()
        .nest("/api", api)
        .route("/login", get(routes::ui::login))
        .fallback(routes::ui::web_app);
    with_layers(routes, state, Allowlist::new(port, port), AuthMode::Cookie)
}

fn serve(
    listener: TcpListener,
    router: Router,
    state: &AppState,
) -> tokio::task::JoinHandle<std::io::Result<()>> {
    let mut stop = state.stop.subscribe();
    // Streamed bodies are written in pieces; without TCP_NODELAY the last
    // small piece waits on the client's delayed ACK (tens of milliseconds).
    let listener = listener.tap_io(|tcp| {
        if let Err(error) = tcp.set_nodelay(true) {
            tracing::warn!(%error, "cannot set TCP_NODELAY");
        }
    });
    let listener = stall::StallGuarded {
        listener,
        limit: WRITE_STALL_LIMIT,
    };
    // A plain Router given to `serve` rebuilds its route table for every
    // connection (about 100 KiB each); `into_make_service` builds it once and
    // hands each connection a cheap clone.
    let service = router.into_make_service();
    tokio::spawn(async move {
        axum::serve(listener, service)
            .with_graceful_shutdown(async move {
                let _ = stop.wait_for(Option::is_some).await;
            })
            .await
    })
}

async fn bind(what: &'static str, port: u16) -> Result<TcpListener, StartupError> {
    TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))
        .await
        .map_err(|source| StartupError::Bind { what, port, source })
}

fn local_port(listener: &TcpListener, asked: u16) -> u16 {
    listener.local_addr().map(|a| a.port()).unwrap_or(asked)
}

/// SIGINT and SIGTERM, listened for from the moment they are installed.
struct ShutdownSignals(Option<(tokio::signal::unix::Signal, tokio::signal::unix::Signal)>);

impl ShutdownSignals {
    fn install() -> Self {
        use tokio::signal::unix::{SignalKind, signal};
        match (
            signal(SignalKind::interrupt()),
            signal(SignalKind::terminate()),
        ) {
            (Ok(int), Ok(term)) => Self(Some((int, term))),
            _ => Self(None),
        }
    }

    async fn received(mut self) {
        match &mut self.0 {
            Some((int, term)) => {
                tokio::select! {
                    _ = int.recv() => {}
                    _ = term.recv() => {}
                }
            }
            None => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
}

fn create_private_dir(dir: &Path) -> Result<(), StartupError> {
    use std::os::unix::fs::DirBuilderExt;
    let error = |source| StartupError::DataDir {
        path: dir.to_owned(),
        source,
    };
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(error)?;
    let probe = dir.join(".write-probe");
    std::fs::write(&probe, b"").map_err(error)?;
    std::fs::remove_file(&probe).map_err(error)
}

/// Reads the owner's token, or creates the file with mode 0600 from the start
/// (never chmod after), so the token is never readable by others.
fn read_or_create_owner_token(path: &Path) -> Result<String, StartupError> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let io_error = |source| StartupError::TokenFile {
        path: path.to_owned(),
        source,
    };
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let token = text.trim();
            if token.len() < 22
                || !token
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                return Err(StartupError::TokenFileMalformed {
                    path: path.to_owned(),
                });
            }
            Ok(token.to_owned())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let token = accounts::new_token()?;
            let temp = path.with_extension("tmp");
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .mode(0o600)
                .open(&temp)
                .map_err(io_error)?;
            file.write_all(format!("{token}\n").as_bytes())
                .and_then(|()| file.sync_all())
                .map_err(io_error)?;
            std::fs::rename(&temp, path).map_err(io_error)?;
            Ok(token)
        }
        Err(e) => Err(io_error(e)),
    }
}

fn write_server_file(
    data_dir: &Path,
    control_url: Option<&str>,
    ui_url: &str,
) -> Result<(), StartupError> {
    let path = data_dir.join("server.json");
    let error = |source| StartupError::ServerFile {
        path: path.clone(),
        source,
    };
    let body = serde_json::json!({
        "pid": std::process::id(),
        "controlUrl": control_url,
        "uiUrl": ui_url,
    });
    let temp = data_dir.join("server.json.tmp");
    std::fs::write(&temp, body.to_string()).map_err(error)?;
    std::fs::rename(&temp, &path).map_err(error)
}
