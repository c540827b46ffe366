//! The gauges read at scrape time: what the application found in the
//! database and the runners a moment ago, as plain values. They are written
//! into a registry made for that one scrape, so two scrapes at once never
//! see each other's half-written figures.

use std::sync::atomic::AtomicU64;
use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::{Registry, Unit};

/// What the application read for one scrape.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Snapshot {
    /// Sessions by state and runner (archived ones left out), a zero for
    /// each pair that should read 0 rather than vanish.
    pub sessions: Vec<SessionCount>,
    /// Sessions queued for room on a runner, for memory or for their start
    /// slot (not those waiting for a person's approval).
    pub queued: u64,
    /// How long the longest-waiting of those has been queued; zero when none is.
    pub oldest_queued_wait: Duration,
    /// What today's turns cost, as the engines reported it.
    pub spend_today_dollars: f64,
    pub runners: Vec<RunnerCount>,
    pub inbox_unread: Vec<InboxCount>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionCount {
    pub state: String,
    pub runner: String,
    pub count: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunnerCount {
    pub state: String,
    pub kind: String,
    pub count: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InboxCount {
    pub category: String,
    pub count: u64,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct SessionLabels {
    state: String,
    runner: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RunnerLabels {
    state: String,
    kind: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct InboxLabels {
    category: String,
}

/// A count as a gauge's value; no real count reaches `i64::MAX`.
fn count(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// A labelled gauge with one series per row.
fn counted<T, L>(rows: &[T], series: impl Fn(&T) -> (L, u64)) -> Family<L, Gauge>
where
    L: Clone + std::hash::Hash + Eq + EncodeLabelSet + std::fmt::Debug + Send + Sync + 'static,
{
    let family = Family::<L, Gauge>::default();
    for row in rows {
        let (labels, n) = series(row);
        family.get_or_create(&labels).inc_by(count(n));
    }
    family
}

impl Snapshot {
    pub(crate) fn register(&self, registry: &mut Registry) {
        let sessions = counted(&self.sessions, |each| {
            let labels = SessionLabels {
                state: each.state.clone(),
                runner: each.runner.clone(),
            };
            (labels, each.count)
        });
        registry.register(
            "sessions",
            "Sessions by state and runner, archived ones left out",
            sessions,
        );
        let queued = Gauge::<i64>::default();
        queued.set(count(self.queued));
        registry.register(
            "sessions_queued",
            "Sessions queued for room on a runner, for memory or for their start slot (not \
             for a person's approval)",
            queued,
        );
        let oldest = Gauge::<f64, AtomicU64>::default();
        oldest.set(self.oldest_queued_wait.as_secs_f64());
        registry.register_with_unit(
            "sessions_queued_oldest_wait",
            "How long the longest-queued of those sessions has waited, on the application's \
             clock; 0 when none is queued",
            Unit::Seconds,
            oldest,
        );
        let spend = Gauge::<f64, AtomicU64>::default();
        spend.set(self.spend_today_dollars);
        registry.register(
            "spend_today_dollars",
            "What turns that ended today (UTC, as GET /usage counts days) cost, as the engines \
             reported it",
            spend,
        );
        let runners = counted(&self.runners, |each| {
            let labels = RunnerLabels {
                state: each.state.clone(),
                kind: each.kind.clone(),
            };
            (labels, each.count)
        });
        registry.register("runners", "Runners by state and kind", runners);
        let unread = counted(&self.inbox_unread, |each| {
            let labels = InboxLabels {
                category: each.category.clone(),
            };
            (labels, each.count)
        });
        registry.register(
            "inbox_unread",
            "Unread inbox rows of every account, by category",
            unread,
        );
    }
}
