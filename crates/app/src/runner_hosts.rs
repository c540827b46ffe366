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
                app.runners.refresh(false).await;
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
    /// Every runner, `local` first, with its running sessions, from
    /// `runners.toml` as it is now; `refresh` looks at each host (versions
    /// included) before answering.
    pub async fn list_runners(
        &self,
        refresh: bool,
    ) -> Result<Vec<runners::RunnerInfo>, sessions::SessionError> {
        self.runners.reload();
        if refresh {
            self.runners
                .set_engines(sessions::engines::probe_list(&self.data_dir));
            if self.settings.cloud_control_plane_enabled() {
                self.runners.refresh(true).await;
            }
        }
        let running = self.sessions.running_by_runner().await?;
        Ok(self.runners.list(&running, self.local_facts().await))
    }

    /// What `local` reports: load and sandbox as a runner's probe reads
    /// them, memory as `auto` placement and the memory guard read it, and
    /// each engine's version as sessions read it (sandboxed, kept per
    /// binary), so a listing starts no CLI once it has been read.
    async fn local_facts(&self) -> runners::LocalFacts {
        let probe =
            tokio::task::spawn_blocking(|| runners::helper::probe(env!("CARGO_PKG_VERSION"), &[]))
                .await
                .ok();
        let home = std::env::var("HOME").unwrap_or_else(|_| self.data_dir.display().to_string());
        let mut engines = Vec::new();
        for (name, spec) in sessions::engines::load(&self.data_dir).unwrap_or_default() {
            let version = self.sessions.engine_version(&name, &spec, &home).await;
            engines.push(runners::EngineVersion { name, version });
        }
        runners::LocalFacts {
            memory: self.sessions.local_memory(),
            load: probe.as_ref().and_then(|p| p.load),
            engines,
            sandbox: probe.map(|p| p.sandbox),
        }
    }
}
