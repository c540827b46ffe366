//! The runner listener as the application keeps it: bound while
//! `runners.toml` has a usable `[listener]` and `cloudControlPlaneEnabled`
//! is on (what runs elsewhere is off by default), rebound when either
//! changes, and admitting only runner tokens.

use std::sync::Arc;
use std::time::Duration;

use accounts::scoped::{Scope, ScopedTokens};
use runners::config::Listener;
use runners::pool::listener::{Admission, RunnerListener};
use settings::SettingsStore;

use crate::listener_slot::{Bound, ListenerState};
use crate::services::App;
use crate::setting_watch::Watched;

/// How often `runners.toml` is read again for a changed `[listener]`.
const LOOK_EVERY: Duration = Duration::from_secs(15);

struct TokenAdmission {
    tokens: Arc<ScopedTokens>,
    metrics: Arc<metrics::Metrics>,
}

impl Admission for TokenAdmission {
    fn admit(&self, token: &str) -> Option<String> {
        self.tokens.verify(Scope::Runner, token)
    }

    fn refused(&self, reason: &'static str) {
        self.metrics.runner_connect_refused(reason);
    }
}

/// Keeps the listener as the file and the setting say, from now on.
pub(crate) fn start(app: &App) {
    let app = app.clone();
    let mut stop = app.stop.subscribe();
    let mut changes = Watched::new(&app, SettingsStore::cloud_control_plane_enabled);
    tokio::spawn(async move {
        let mut read_the_file = true;
        loop {
            if read_the_file {
                app.runners.reload();
            }
            settle(&app).await;
            // A settings change is about the switch: reading and parsing the
            // file again at each of a burst of `PATCH /settings` held a
            // runtime thread that the requests were waiting for.
            read_the_file = tokio::select! {
                _ = stop.wait_for(Option::is_some) => break,
                () = changes.changed(&app.settings) => false,
                () = tokio::time::sleep(LOOK_EVERY) => true,
            };
        }
        if let Ok(mut bound) = app.runner_listener.lock() {
            bound.listener = None;
        }
    });
}

/// Binds, rebinds or closes the listener to match what is wanted now.
async fn settle(app: &App) {
    let wanted = match app.runners.listener() {
        Ok(config) => config,
        Err(error) => return failed(app, error),
    };
    let on = app.settings.cloud_control_plane_enabled();
    let current = app
        .runner_listener
        .lock()
        .ok()
        .and_then(|b| b.listener.as_ref().map(|_| b.config.clone()));
    let target = wanted.clone().filter(|_| on);
    if current.as_ref() == Some(&target) && target.is_some() {
        return;
    }
    let Some(config) = target else {
        set(
            app,
            None,
            None,
            ListenerState {
                configured: wanted.is_some(),
                error: wanted.is_some().then(|| {
                    "cloudControlPlaneEnabled is off, so no runner may connect".to_owned()
                }),
                ..ListenerState::default()
            },
        );
        return;
    };
    // The old socket goes first, so a listener rebound on the same port can
    // bind it.
    set(app, None, None, ListenerState::default());
    let admission = Arc::new(TokenAdmission {
        tokens: Arc::clone(&app.scoped_tokens),
        metrics: Arc::clone(&app.metrics),
    });
    match runners::pool::listener::listen(app.runners.clone(), &config, admission).await {
        Ok(listener) => {
            tracing::info!(address = %listener.local_addr, "runner listener bound");
            let state = ListenerState {
                address: Some(listener.local_addr.to_string()),
                fingerprint: Some(listener.fingerprint.clone()),
                error: None,
                configured: true,
            };
            set(app, Some(config), Some(listener), state);
        }
        Err(error) => {
            tracing::warn!("the runner listener could not start: {error}");
            failed(app, error);
        }
    }
}

/// Configured, and not listening because of `error`.
fn failed(app: &App, error: String) {
    let state = ListenerState {
        error: Some(error),
        configured: true,
        ..ListenerState::default()
    };
    set(app, None, None, state);
}

fn set(
    app: &App,
    config: Option<Listener>,
    listener: Option<RunnerListener>,
    state: ListenerState,
) {
    if let Ok(mut bound) = app.runner_listener.lock() {
        *bound = Bound {
            state,
            config,
            listener,
        };
    }
}

impl App {
    pub fn runner_listener_state(&self) -> ListenerState {
        self.runner_listener
            .lock()
            .map(|b| b.state.clone())
            .unwrap_or_default()
    }

    /// Mints a runner token.
    pub fn mint_runner_token(
        &self,
        name: &str,
    ) -> Result<(accounts::scoped::ScopedToken, String), accounts::AccountsError> {
        self.scoped_tokens.mint(Scope::Runner, name)
    }

    /// Revokes runner token `id` and closes what it opened, at once; false
    /// when there is no such token.
    pub fn revoke_runner_token(&self, id: &str) -> Result<bool, accounts::AccountsError> {
        let revoked = self.scoped_tokens.revoke(Scope::Runner, id)?;
        if revoked {
            self.runners.revoke_token(id);
        }
        Ok(revoked)
    }
}
