//! `switchboard serve`: the application and its HTTP listeners composed
//! into one process, in the order that keeps every promise made to a client:
//! the data directory opened before any port is taken, the application
//! started once its addresses are known, `server.json` written only when a
//! signal would drain rather than kill, and on the way out the listeners
//! drained before the sessions stop.

use std::process::ExitCode;
use std::time::Duration;

use app::StopReason;

pub struct Serve {
    pub app: app::Options,
    pub control_port: u16,
    pub ui_port: u16,
    /// The Running apps proxy's port; `None` is its default or a free one.
    pub apps_port: Option<u16>,
    /// How often an idle event stream sends a comment line.
    pub stream_keep_alive: Duration,
}

pub fn run(serve: Serve) -> anyhow::Result<ExitCode> {
    // Before any thread or descriptor: the soft limit (1,024 on most
    // machines) would refuse sessions long before the hard one. A failure
    // leaves the soft limit, which spawns then measure against.
    let open_file_limit = resources::raise_limit();
    // Every server thread, the first and each the runtime makes, asks for a
    // short slice: a request that wakes it then preempts a busy engine.
    let short_slice = || {
        if let Err(error) = resources::short_slice_for_this_thread() {
            tracing::debug!(%error, "no short scheduler slice for a server thread");
        }
    };
    short_slice();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .on_thread_start(short_slice)
        .build()?;
    // The listeners get a runtime of their own: on the sessions' runtime a
    // request waited in a run queue behind thousands of output pumps'
    // wake-ups (at 2,048 busy sessions, `GET /settings`, a kept body, took
    // 57 ms at p99). What a request starts for a session, the supervisor
    // runs on the sessions' runtime.
    let listeners_runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("listeners")
        .on_thread_start(short_slice)
        .build()?;
    let listeners_handle = listeners_runtime.handle().clone();
    let reason = runtime.block_on(async {
        let prepared = app::Prepared::open(serve.app)?;
        let cli_server_enabled = prepared.settings().cli_server_enabled();
        let listeners = listeners_handle
            .spawn(server::Listeners::bind(
                serve.ui_port,
                serve.control_port,
                cli_server_enabled,
                serve.apps_port,
            ))
            .await??;
        let app = prepared.start(listeners.urls()).await?;
        let serving = listeners_handle.spawn(server::serve(
            app.clone(),
            listeners,
            serve.stream_keep_alive,
        ));
        // Before `server.json` exists: whoever finds the file may signal at once,
        // and a SIGTERM before the handler is installed would kill, not drain.
        let signals = ShutdownSignals::install();
        app.announce()?;
        init_logging();
        match open_file_limit {
            Ok(limit) => tracing::debug!(limit, "open-file limit"),
            Err(error) => tracing::warn!(%error, "the open-file limit could not be raised"),
        }
        release_startup_pages_soon();
        println!("Switchboard is running.");
        println!("  Open the web UI: {}", app.login_url);
        match &app.control_url {
            Some(url) => println!("  Control server:  {url}"),
            None => println!("  Control server:  off (setting cliServerEnabled)"),
        }
        println!("  Running apps:    {}", app.apps.proxy_url());
        let reason = tokio::select! {
            () = signals.received() => StopReason::Shutdown,
            reason = app.stopped() => reason,
        };
        app.request_stop(reason);
        if let Err(error) = serving.await {
            tracing::warn!(%error, "the listeners' task failed");
        }
        app.shutdown().await;
        anyhow::Ok(reason)
    })?;
    listeners_runtime.shutdown_timeout(Duration::from_secs(5));
    runtime.shutdown_timeout(Duration::from_secs(5));
    if reason == StopReason::Restart {
        return Err(restart_in_place());
    }
    Ok(ExitCode::SUCCESS)
}

/// How long start-up goes on after `server.json`: every loop's first look
/// runs code the idle server does not run again.
const STARTUP_SETTLES: Duration = Duration::from_secs(1);

/// Gives start-up's code pages back once the loops' first looks are over.
/// Given back at the announcement, as before, the first looks read about
/// 10 MiB of code back in, and the idle server kept them.
fn release_startup_pages_soon() {
    tokio::spawn(async {
        tokio::time::sleep(STARTUP_SETTLES).await;
        let released = tokio::task::spawn_blocking(resources::release_startup_pages).await;
        if let Ok(Err(error)) = released {
            tracing::debug!(%error, "start-up's code pages were not given back");
        }
    });
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

/// Replaces this process with a fresh copy of itself, same arguments, so a
/// restart keeps the pid's parent and terminal. Returns only on failure.
fn restart_in_place() -> anyhow::Error {
    use std::os::unix::process::CommandExt;
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => return anyhow::anyhow!("cannot restart: {e}"),
    };
    let error = std::process::Command::new(exe)
        .args(std::env::args_os().skip(1))
        .exec();
    anyhow::anyhow!("cannot restart: {error}")
}

/// Logs go to stderr only once the server is up, so a failed start prints
/// exactly one line. `RUST_LOG` overrides the level. Every WARN and ERROR
/// line is also kept in memory, whatever `RUST_LOG` says, for the Ask
/// tutor's fact sheet (docs/ask.md).
fn init_logging() {
    use tracing_subscriber::Layer;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_filter(filter),
        )
        .with(ask::log_ring::layer().with_filter(tracing_subscriber::filter::LevelFilter::WARN))
        .init();
}
