//! Starts the daily automatic backup when `DIR/backup.toml` turns it on
//! (off by default; docs/backup.md). A config that cannot be used is logged
//! and leaves the backup off rather than stopping the server.

use crate::services::App;

pub(crate) fn start(app: &App) {
    let config = match backup::daily::DailyConfig::load(&app.data_dir) {
        Ok(config) => config,
        Err(error) => {
            tracing::warn!(%error, "the daily backup is off");
            return;
        }
    };
    if !config.daily {
        return;
    }
    let mut stop = app.stop.subscribe();
    let stopped = async move {
        let _ = stop.wait_for(Option::is_some).await;
    };
    tokio::spawn(backup::daily::run(
        app.data_dir.clone(),
        config,
        app.clock.clone(),
        stopped,
    ));
}
