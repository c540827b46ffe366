//! Switchboard's HTTP glue: the control server (127.0.0.1:19519, bearer
//! tokens, for scripts and agents) and the UI server (127.0.0.1:19520, the web
//! app and the same API under `/api`, cookie only).
//!
//! Only this crate knows axum. Handlers extract the caller, call a domain
//! crate or an operation of the application (`crates/app`), and map its error
//! through [`error::ApiError`]; every request first passes the guards in
//! [`guards`]. [`Listeners::bind`] takes both ports (and the apps proxy's,
//! `app_proxy`, which [`serve`] runs beside them) and [`serve`] serves the
//! application on them until it is asked to stop, letting in-flight requests
//! finish. No background work lives here, and no task is started: the loops
//! are the application's, and the caller runs [`serve`].

use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Extension};
use axum::http::StatusCode;
use axum::middleware::{from_fn, from_fn_with_state};
use axum::routing::get;
use axum::serve::ListenerExt;
use tokio::net::TcpListener;
use tower_http::compression::{CompressionLayer, CompressionLevel};

mod apps_wire;
pub mod auth;
mod blocking;
mod briefings_wire;
pub mod error;
pub mod guards;
mod host_names;
mod imports_wire;
mod json;
mod mail_wire;
mod mcp;
mod negotiate;
mod request_log;
mod request_metrics;
mod routes;
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
/// The Running apps proxy (docs/apps.md); when it is taken and no port was
/// asked for, a free one is used and `server.json` says which.
pub const DEFAULT_APPS_PORT: u16 = 19521;

/// Proxies close a connection idle for a minute or so; a comment line every
/// 15 s keeps an event stream open through them.
pub const STREAM_KEEP_ALIVE_MS: u64 = 15_000;

/// A client that takes nothing of a response for this long is gone or
/// stalled: its connection is closed (and an event stream's buffer with it).
const WRITE_STALL_LIMIT: Duration = Duration::from_secs(60);

#[derive(Debug, thiserror::Error)]
#[error("cannot listen on 127.0.0.1:{port} for the {what}")]
pub struct BindError {
    what: &'static str,
    port: u16,
    source: std::io::Error,
}

/// Both listeners bound (the control server's only when it is on), before
/// anything serves on them: the application is started with their addresses.
pub struct Listeners {
    ui: (TcpListener, u16),
    control: Option<(TcpListener, u16)>,
    apps: (TcpListener, u16),
}

impl Listeners {
    /// Port 0 asks the system for a free port; the one bound is in [`Listeners::urls`].
    /// `apps_port` `None` is [`DEFAULT_APPS_PORT`], or any free port when
    /// that one is taken (another server's, a test's): the proxy is not
    /// worth a failed start. A port asked for must be had.
    pub async fn bind(
        ui_port: u16,
        control_port: u16,
        control_enabled: bool,
        apps_port: Option<u16>,
    ) -> Result<Self, BindError> {
        let ui = bind("UI server", ui_port).await?;
        let control = if control_enabled {
            Some(bind("control server", control_port).await?)
        } else {
            None
        };
        let apps = match apps_port {
            Some(port) => bind("apps proxy", port).await?,
            None => match bind("apps proxy", DEFAULT_APPS_PORT).await {
                Ok(bound) => bound,
                Err(_) => bind("apps proxy", 0).await?,
            },
        };
        Ok(Self { ui, control, apps })
    }

    pub fn urls(&self) -> app::Urls {
        app::Urls {
            ui: format!("http://127.0.0.1:{}", self.ui.1),
            control: self
                .control
                .as_ref()
                .map(|(_, port)| format!("http://127.0.0.1:{port}")),
            apps_port: self.apps.1,
        }
    }
}

/// Serves `app` on both listeners until the application is asked to stop
/// (which also ends the event streams); the future resolves once in-flight
/// requests have finished. The caller runs it
/// (on a task of its own): this crate starts no task.
pub async fn serve(app: app::App, listeners: Listeners, stream_keep_alive: Duration) {
    let state = AppState {
        app: std::sync::Arc::new(app.clone()),
        stream_keep_alive,
    };
    let (ui_listener, ui_port) = listeners.ui;
    let ui = serve_on(ui_listener, ui_router(state.clone(), ui_port), &app);
    let control = async {
        match listeners.control {
            Some((listener, port)) => {
                serve_on(listener, control_router(state, port, ui_port), &app).await
            }
            None => Ok(()),
        }
    };
    let (apps_listener, apps_port) = listeners.apps;
    let mut stop = app.watch_stop();
    let apps = app_proxy::serve(
        apps_listener,
        std::sync::Arc::new(app::ProxyRoutes {
            apps: app.apps.clone(),
            runners: app.runners.clone(),
        }),
        app_proxy::Options {
            proxy_port: apps_port,
            ui_cookie: auth::UI_COOKIE.to_owned(),
        },
        async move {
            let _ = stop.wait_for(Option::is_some).await;
        },
    );
    let (ui, control, ()) = tokio::join!(ui, control, apps);
    for ended in [ui, control] {
        if let Err(error) = ended {
            tracing::warn!(%error, "a listener ended with an error");
        }
    }
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
        .layer(from_fn(guards::time_limit))
        .layer(from_fn(guards::error_shape))
        .layer(request_log::layer())
        .with_state(state)
}

fn not_found() -> ApiError {
    ApiError::for_status(StatusCode::NOT_FOUND)
}

/// The control server: the API, plus the routes the UI server does not
/// serve (webhook deliveries, `POST /hooks/<secret>`, whose secret is the
/// credential; `GET /metrics`). Each request is timed outside every other
/// layer; MCP's tool calls, which run through a copy of those layers
/// in-process, are not requests of their own there.
pub fn control_router(state: AppState, port: u16, ui_port: u16) -> Router {
    let allow = Allowlist::new(port, ui_port)
        .with_hooks()
        .with_tunnels(state.runners.tunnel_ports());
    let api = routes::api(&state)
        .merge(routes::control_only())
        .fallback(|| async { not_found() });
    // MCP tools call the API through this very stack of layers, so a tool
    // call is checked exactly as the same request over HTTP would be.
    let tools_call = with_layers(api.clone(), state.clone(), allow.clone(), AuthMode::Bearer);
    let mcp = mcp::routes(&state, tools_call);
    let timed = (state.metrics.clone(), "control");
    with_layers(api.merge(mcp), state, allow, AuthMode::Bearer)
        .layer(from_fn_with_state(timed, request_metrics::record))
}

pub fn ui_router(state: AppState, port: u16) -> Router {
    let api = routes::ui_api(&state).fallback(|| async { not_found() });
    let routes = Router::new()
        .nest("/api", api)
        .route("/login", get(routes::ui::login))
        .fallback(routes::ui::web_app);
    let timed = (state.metrics.clone(), "ui");
    // The names the user added to reach this server from a phone (docs/phone.md).
    let allow = Allowlist::new(port, port).with_names(&host_names::load(&state.data_dir));
    with_layers(routes, state, allow, AuthMode::Cookie)
        .layer(from_fn_with_state(timed, request_metrics::record))
}

async fn serve_on(listener: TcpListener, router: Router, app: &app::App) -> std::io::Result<()> {
    let mut stop = app.watch_stop();
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
    axum::serve(listener, service)
        .with_graceful_shutdown(async move {
            let _ = stop.wait_for(Option::is_some).await;
        })
        .await
}

async fn bind(what: &'static str, port: u16) -> Result<(TcpListener, u16), BindError> {
    let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))
        .await
        .map_err(|source| BindError { what, port, source })?;
    let bound = listener.local_addr().map(|a| a.port()).unwrap_or(port);
    Ok((listener, bound))
}
