//! The last WARN and ERROR lines of this process's log, kept in memory for
//! the fact sheet. The binary adds [`layer`] to its subscriber; until it
//! has, [`recent`] says the lines are unknown rather than that there are
//! none.

use std::collections::VecDeque;
use std::fmt::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::layer::{Context, Layer};

/// Lines kept; older ones leave as new ones come.
pub const KEPT: usize = 32;

static LINES: Mutex<VecDeque<String>> = Mutex::new(VecDeque::new());
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// The layer that fills the ring; from its first call on, the ring counts.
pub fn layer() -> RecentLog {
    INSTALLED.store(true, Ordering::Relaxed);
    RecentLog
}

/// The kept lines, oldest first; `None` when no layer was ever made, so
/// nothing was listening.
pub fn recent() -> Option<Vec<String>> {
    if !INSTALLED.load(Ordering::Relaxed) {
        return None;
    }
    let lines = LINES.lock().unwrap_or_else(|p| p.into_inner());
    Some(lines.iter().cloned().collect())
}

fn keep(line: String) {
    let mut lines = LINES.lock().unwrap_or_else(|p| p.into_inner());
    if lines.len() == KEPT {
        lines.pop_front();
    }
    lines.push_back(line);
}

/// Keeps each WARN or ERROR event as one line: level, target, message and
/// fields.
pub struct RecentLog;

impl<S: Subscriber> Layer<S> for RecentLog {
    fn on_event(&self, event: &Event<'_>, _: Context<'_, S>) {
        let meta = event.metadata();
        if *meta.level() > Level::WARN {
            return;
        }
        let mut line = Line::default();
        event.record(&mut line);
        keep(format!(
            "{} {}: {}{}",
            meta.level(),
            meta.target(),
            line.message,
            line.fields
        ));
    }
}

#[derive(Default)]
struct Line {
    message: String,
    fields: String,
}

impl Visit for Line {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            let _ = write!(self.message, "{value:?}");
        } else {
            let _ = write!(self.fields, " {}={value:?}", field.name());
        }
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.message.push_str(value);
        } else {
            let _ = write!(self.fields, " {}={value}", field.name());
        }
    }
}

#[cfg(test)]
mod tests {
    use tracing_subscriber::layer::SubscriberExt;

    use super::*;

    #[test]
    fn warnings_and_errors_are_kept_and_the_rest_is_not() {
        let subscriber = tracing_subscriber::registry().with(layer());
        tracing::subscriber::with_default(subscriber, || {
            tracing::info!("an ordinary day");
            tracing::warn!(runner = "gpu", "runner unreachable");
            for n in 0..KEPT {
                tracing::error!(n, "engine failed");
            }
        });
        let lines = recent().unwrap();
        assert_eq!(lines.len(), KEPT);
        assert!(lines.iter().all(|l| !l.contains("ordinary")));
        assert!(
            lines
                .last()
                .unwrap()
                .starts_with("ERROR ask::log_ring::tests: engine failed n=31"),
            "{lines:?}"
        );
        assert!(
            !lines.iter().any(|l| l.contains("runner unreachable")),
            "the oldest left"
        );
    }
}
