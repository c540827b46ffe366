//! The loop of the features that act at moments of the app clock
//! (scheduled messages and drips, pomodoro runs): look, then sleep until the
//! moment the look named, a settings change, a wake, or the stop. The look
//! names a moment rather than a length, so a clock moved while it looked
//! wakes the loop at once.

use std::future::Future;
use std::sync::Arc;

use tokio::sync::Notify;

use crate::services::App;

/// Spawns the loop of `look`, woken early by `wake`.
pub(crate) fn spawn<F, Fut>(app: &App, wake: Arc<Notify>, look: F)
where
    F: Fn(App) -> Fut + Send + 'static,
    Fut: Future<Output = time::OffsetDateTime> + Send + 'static,
{
    let app = app.clone();
    tokio::spawn(async move {
        let (mut stop, mut settings) = (app.stop.subscribe(), app.settings_changed.subscribe());
        loop {
            let until = look(app.clone()).await;
            tokio::select! {
                _ = stop.wait_for(Option::is_some) => return,
                _ = settings.changed() => {}
                () = wake.notified() => {}
                () = app.clock.sleep_until(until) => {}
            }
        }
    });
}
