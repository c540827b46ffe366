//! Feeds at work (docs/briefings.md "Feeds"): one loop on the app clock
//! runs the feeds crate's poll round while `rssEnabled` is on: every feed
//! whose next poll is due, at most [`CONCURRENCY`] fetched at once, each
//! feed's next poll set by its own pace (`feeds::policy`). The loop sleeps
//! until the earliest next poll (at most [`LOOK_EVERY`]), and wakes at once
//! when a feed is added or imported ([`App::wake_feeds`]) or a setting
//! changes. A feed that fails is recorded failing, with why, on its row.

use crate::services::App;

/// How many feeds are fetched at once: enough that a few slow servers
/// (each held up to the fetch timeout) never stall the round.
const CONCURRENCY: usize = 8;
/// The longest the loop sleeps without looking.
const LOOK_EVERY: time::Duration = time::Duration::minutes(5);

impl App {
    /// Feeds were added: the loop polls the due ones now.
    pub fn wake_feeds(&self) {
        self.feeds_wake.notify_one();
    }
}

pub(crate) fn start(app: &App) {
    crate::looking::spawn(app, app.feeds_wake.clone(), |app| async move {
        poll_round(&app).await
    });
}

/// Polls the due feeds while feeds are on; returns the moment to look again.
async fn poll_round(app: &App) -> time::OffsetDateTime {
    let began = app.clock.now();
    if !app.settings.rss_enabled() {
        return began + LOOK_EVERY;
    }
    let feeds = app.feeds.clone();
    let polled = tokio::task::spawn_blocking(move || {
        let report = feeds.poll_due(CONCURRENCY)?;
        Ok::<_, feeds::FeedError>((report, feeds.next_due()?))
    })
    .await;
    let next = match polled {
        Ok(Ok((report, next))) => {
            if report.polled > 0 {
                tracing::debug!(
                    polled = report.polled,
                    failed = report.failed,
                    added = report.added,
                    "feeds polled"
                );
            }
            next
        }
        Ok(Err(error)) => {
            tracing::warn!(%error, "the feeds' poll round failed");
            None
        }
        Err(error) => {
            tracing::warn!(%error, "the feeds' poll round stopped");
            None
        }
    };
    // A feed the round could not record stays due: looking again at once
    // would spin, so the loop waits a moment of the clock first.
    let (now, soonest) = (app.clock.now(), time::Duration::seconds(1));
    next.map_or(now + LOOK_EVERY, |at| {
        at.clamp(now + soonest, now + LOOK_EVERY)
    })
}
