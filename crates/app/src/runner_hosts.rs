//! The runners (`DIR/runners.toml`) as the application keeps them: opened
//! with the control port their tunnels lead to, looked at again on the
//! clock, and listed with what runs where.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use crate::services::App;

/// How often each runner is looked at (connection, load, memory, engines).
const LOOK_EVERY: Duration = Duration::from_secs(15);

pub(crate) fn open(
    data_dir: &Path,
    clock: Arc<dyn clock::Clock>,
    control_url: Option<&str>,
) -> runners::Runners {
    let runners = runners::Runners::new(data_dir, env!("CARGO_PKG_VERSION"), clock);
    if let Some(port) = control_url.and_then(sessions::port_of) {
        runners.set_control_port(port);
    }
    runners.set_engines(sessions::engines::probe_list(data_dir));
    runners
}

/// Looks at every runner now and then, while remote runners are on.
pub(crate) fn start(app: &App) {
    let app = app.clone();
    let mut stop = app.stop.subscribe();
    tokio::spawn(async move {
        loop {
            if app.settings.cloud_control_plane_enabled() {
                app.runners.refresh().await;
            }
            let stopping = tokio::select! {
                _ = stop.wait_for(Option::is_some) => true,
                () = app.clock.sleep(time::Duration::try_from(LOOK_EVERY).unwrap_or_default()) => false,
            };
            if stopping {
                app.runners.shutdown().await;
                return;
            }
        }
    });
}

impl App {
    /// Every runner, `local` first, with its running sessions; `refresh`
    /// reads `runners.toml` again and looks at each host before answering.
    pub async fn list_runners(
        &self,
        refresh: bool,
    ) -> Result<Vec<runners::RunnerInfo>, sessions::SessionError> {
        self.runners.reload();
        if refresh {
            self.runners
                .set_engines(sessions::engines::probe_list(&self.data_dir));
            if self.settings.cloud_control_plane_enabled() {
                self.runners.refresh().await;
            }
        }
        let running = self.sessions.running_by_runner().await?;
        let data_dir = self.data_dir.clone();
        let mut local = tokio::task::spawn_blocking(move || local_facts(&data_dir))
            .await
            .unwrap_or_default();
        // As `auto` placement and the memory guard read it.
        local.memory = self.sessions.local_memory();
        Ok(self.runners.list(&running, local))
    }
}

/// What `local` reports: the same probe a runner host answers.
fn local_facts(data_dir: &Path) -> runners::LocalFacts {
    let probe = runners::helper::probe(
        env!("CARGO_PKG_VERSION"),
        &sessions::engines::probe_list(data_dir),
    );
    runners::LocalFacts {
        memory: None,
        load: probe.load,
        engines: probe.engines,
        sandbox: Some(probe.sandbox),
    }
}
