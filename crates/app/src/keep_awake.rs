//! `keepAwakeWhileSessionsRunning` (docs/resources.md): a logind sleep
//! inhibitor held while any session is starting or running, on this
//! machine or a runner (the server streams and steers them all), and
//! released within a second of the last one ending or of the setting
//! turning off. Where no logind answers, the server says so once and asks
//! again a minute later, never on every tick.

use std::time::Duration;

use settings::SettingsStore;

use crate::services::App;
use crate::setting_watch::Watched;

/// How often the running sessions are counted.
const LOOK_EVERY: Duration = Duration::from_secs(1);
/// How long after a failed attempt logind is asked again.
const ASK_AGAIN_AFTER: time::Duration = time::Duration::minutes(1);

const WHO: &str = "Switchboard";

pub(crate) fn start(app: &App) {
    let app = app.clone();
    let mut stop = app.stop.subscribe();
    let mut changes = Watched::new(&app, SettingsStore::keep_awake_while_sessions_running);
    tokio::spawn(async move {
        let mut logind: Option<awake::Logind> = None;
        let mut held: Option<awake::Inhibitor> = None;
        let mut failed_at: Option<time::OffsetDateTime> = None;
        let mut last_failure = String::new();
        loop {
            let running = if app.settings.keep_awake_while_sessions_running() {
                match app.sessions.running_by_runner().await {
                    Ok(by_runner) => by_runner.values().sum::<u32>(),
                    Err(e) => {
                        tracing::warn!(
                            "keep awake: the running sessions could not be counted: {e}"
                        );
                        0
                    }
                }
            } else {
                0
            };
            if running == 0 {
                if held.take().is_some() {
                    tracing::info!("keep awake: no session runs; the sleep inhibitor is released");
                }
            } else if held.is_none()
                && failed_at.is_none_or(|at| app.clock.now() - at >= ASK_AGAIN_AFTER)
            {
                match inhibit(&mut logind, running).await {
                    Ok(inhibitor) => {
                        tracing::info!(running, "keep awake: holding a logind sleep inhibitor");
                        held = Some(inhibitor);
                        failed_at = None;
                        last_failure.clear();
                    }
                    Err(e) => {
                        let failure = e.to_string();
                        if failure != last_failure {
                            tracing::warn!(
                                "keep awake: this machine may sleep while sessions run: {failure}"
                            );
                            last_failure = failure;
                        }
                        logind = None;
                        failed_at = Some(app.clock.now());
                    }
                }
            }
            let stopping = tokio::select! {
                _ = stop.wait_for(Option::is_some) => true,
                () = changes.changed(&app.settings) => false,
                () = app.clock.sleep(time::Duration::try_from(LOOK_EVERY).unwrap_or_default()) => false,
            };
            if stopping {
                return;
            }
        }
    });
}

async fn inhibit(
    logind: &mut Option<awake::Logind>,
    running: u32,
) -> Result<awake::Inhibitor, awake::Error> {
    let connected = match logind.take() {
        Some(connected) => connected,
        None => awake::Logind::connect().await?,
    };
    let why = if running == 1 {
        "an agent session is running".to_owned()
    } else {
        format!("{running} agent sessions are running")
    };
    let inhibitor = connected.inhibit(WHO, &why).await?;
    *logind = Some(connected);
    Ok(inhibitor)
}
