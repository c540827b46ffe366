//! The task that rings alarms on time, whether or not anyone is watching.
//!
//! It sleeps on the [`clock::Clock`] until the next due alarm or end of a
//! ring, or until an alarm changes, then makes the [`Alarms`] move for that
//! moment and hands each result to the caller's `on_fired` (the server turns
//! them into events and inbox rows). A wait is never longer than a minute
//! of the clock, so a changed `alarmsMaxRingingMinutes` counts within one.
//!
//! While `enabled` says no (`alarmsEnabled` off), nothing rings and nothing
//! is missed; once it says yes again, what fell due meanwhile is missed, as
//! after a server that was down.

use std::future::Future;
use std::sync::Arc;

use jiff::SignedDuration;

use crate::alarm::{AlarmError, Fired};
use crate::service::{Alarms, from_jiff, to_jiff};

/// The longest wait between two looks at the alarms, on the clock.
const LONGEST_WAIT: SignedDuration = SignedDuration::from_secs(60);

/// Makes alarms that fell due while the server was down missed (handing
/// each to `on_fired`), then starts the task that rings the rest on time
/// until `stop` resolves. `enabled` and `max_ringing` are read at every
/// move, so they can follow settings.
pub async fn start(
    alarms: Arc<Alarms>,
    enabled: impl Fn() -> bool + Send + Sync + 'static,
    max_ringing: impl Fn() -> SignedDuration + Send + Sync + 'static,
    on_fired: impl Fn(Fired) + Send + Sync + 'static,
    stop: impl Future<Output = ()> + Send + 'static,
) -> Result<tokio::task::JoinHandle<()>, AlarmError> {
    let max_ringing = Arc::new(max_ringing);
    let on_fired = Arc::new(on_fired);
    let mut was_enabled = enabled();
    let mut failed = false;
    if was_enabled {
        run_tick(&alarms, &max_ringing, &on_fired, true).await?;
    }
    Ok(tokio::spawn(async move {
        tokio::pin!(stop);
        loop {
            let changed = alarms.changed.clone();
            let wait = {
                let alarms = alarms.clone();
                let limit = max_ringing();
                tokio::task::spawn_blocking(move || alarms.next_wake(limit)).await
            };
            let now = to_jiff(alarms.clock().now());
            let until = match wait {
                // While off (or after a failed move), what is due stays due:
                // waiting for it would wake at once, again and again.
                _ if !was_enabled || failed => now + LONGEST_WAIT,
                Ok(Ok(Some(next))) => next.min(now + LONGEST_WAIT),
                Ok(Ok(None)) => now + LONGEST_WAIT,
                Ok(Err(error)) => {
                    tracing::error!(%error, "cannot read when the next alarm is due");
                    now + LONGEST_WAIT
                }
                Err(error) => {
                    tracing::error!(%error, "the alarm scheduler's read failed");
                    now + LONGEST_WAIT
                }
            };
            let clock = alarms.clock().clone();
            tokio::select! {
                () = &mut stop => return,
                () = clock.sleep_until(from_jiff(until)) => {}
                () = changed.notified() => {}
            }
            let now_enabled = enabled();
            if now_enabled {
                // Just switched back on: what fell due while off is missed.
                let catching_up = !was_enabled;
                let outcome = run_tick(&alarms, &max_ringing, &on_fired, catching_up).await;
                failed = outcome.is_err();
                if let Err(error) = outcome {
                    tracing::error!(%error, "the alarm scheduler could not ring its alarms");
                }
            }
            was_enabled = now_enabled;
        }
    }))
}

async fn run_tick<M, F>(
    alarms: &Arc<Alarms>,
    max_ringing: &Arc<M>,
    on_fired: &Arc<F>,
    at_start: bool,
) -> Result<(), AlarmError>
where
    M: Fn() -> SignedDuration + Send + Sync + 'static,
    F: Fn(Fired) + Send + Sync + 'static,
{
    let alarms = alarms.clone();
    let max_ringing = max_ringing.clone();
    let on_fired = on_fired.clone();
    // SQLite work, and `on_fired` may write too (inbox rows): off the async workers.
    tokio::task::spawn_blocking(move || {
        for fired in alarms.tick(max_ringing(), at_start)? {
            on_fired(fired);
        }
        Ok(())
    })
    .await
    .unwrap_or_else(|error| {
        tracing::error!(%error, "the alarm scheduler's work failed");
        Ok(())
    })
}
