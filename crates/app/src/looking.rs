//! The loop of the features that act at moments of the app clock
//! (scheduled messages and drips, pomodoro runs): look, then sleep until the
//! moment the look named, a change of the settings it reads, a wake, or the
//! stop. The look names a moment rather than a length, so a clock moved
//! while it looked wakes the loop at once.

use std::future::Future;
use std::sync::Arc;

use settings::SettingsStore;
use tokio::sync::Notify;

use crate::services::App;
use crate::setting_watch::{Reads, Watched};

/// Spawns the loop of `look`, woken early by `wake` and by a change of any
/// setting's value.
pub(crate) fn spawn<F, Fut>(app: &App, wake: Arc<Notify>, look: F)
where
    F: Fn(App) -> Fut + Send + 'static,
    Fut: Future<Output = time::OffsetDateTime> + Send + 'static,
{
    spawn_reading(app, wake, SettingsStore::all_json, look);
}

/// Spawns the loop of `look`, woken early by `wake` and by a change of what
/// `reads` returns: the settings the look acts on.
pub(crate) fn spawn_reading<T, F, Fut>(app: &App, wake: Arc<Notify>, reads: Reads<T>, look: F)
where
    T: PartialEq + Send + 'static,
    F: Fn(App) -> Fut + Send + 'static,
    Fut: Future<Output = time::OffsetDateTime> + Send + 'static,
{
    let app = app.clone();
    tokio::spawn(async move {
        let (mut stop, mut settings) = (app.stop.subscribe(), Watched::new(&app, reads));
        loop {
            let until = look(app.clone()).await;
            tokio::select! {
                _ = stop.wait_for(Option::is_some) => return,
                () = settings.changed(&app.settings) => {}
                () = wake.notified() => {}
                () = app.clock.sleep_until(until) => {}
            }
        }
    });
}
