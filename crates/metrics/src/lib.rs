//! Switchboard's metrics for Prometheus (`GET /metrics`): what an operator,
//! an alert or an autoscaler reads about the fleet without the web app.
//!
//! Two kinds of figure meet in one scrape. What only the running process
//! sees happen (turns starting and ending, requests answered, runner
//! connections refused) is counted here as it happens, in [`Metrics`]; what
//! the database already knows (sessions by state, the queue, today's spend,
//! runners, unread inbox rows) is read at scrape time by the application and
//! handed in as a plain [`Snapshot`], so nothing here keeps a copy that could
//! drift from the truth. [`Metrics::render`] writes both in the Prometheus
//! text exposition format, version 0.0.4 ([`CONTENT_TYPE`]): the format every
//! Prometheus server, the Prometheus adapter behind a Kubernetes HPA and the
//! other scrapers all read.
//!
//! Label values stay bounded, since each value is a series a server keeps
//! forever: HTTP routes are templates, methods outside the standard ones are
//! `other`, and a refused connection's reason is one of [`REFUSED_REASONS`].
//! Knows nothing of HTTP servers or of any other crate of the workspace.

use std::fmt;
use std::time::Duration;

use prometheus_client::encoding::{EncodeLabelSet, prometheus_text};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};

mod snapshot;

pub use snapshot::{InboxCount, RunnerCount, SessionCount, Snapshot};

/// The `Content-Type` of what [`Metrics::render`] writes.
pub const CONTENT_TYPE: &str = prometheus_text::CONTENT_TYPE;

/// Every metric's name starts `switchboard_`, so one installation's series
/// never mix with another program's on the same Prometheus.
const PREFIX: &str = "switchboard";

/// Agent turns run from a second (a `command` engine, a short answer) to
/// an hour (a long refactor); past that the `+Inf` bucket counts them.
const TURN_BUCKETS: [f64; 12] = [
    1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1200.0, 1800.0, 3600.0,
];

/// A request on loopback answers in a millisecond or so; the slowest end at
/// the 30 s request timeout.
const HTTP_BUCKETS: [f64; 14] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

/// Why a runner's connection may be refused; each is exposed from the start
/// (at 0), so an alert on one has a series to watch before it first happens.
pub const REFUSED_REASONS: [&str; 10] = [
    "bad_token",
    "rate_limited",
    "too_many_pending",
    "protocol",
    "tls",
    "name_taken",
    "token_in_use",
    "bad_request",
    "timeout",
    "handshake",
];

/// The label value of a method or reason outside the known ones, so a
/// client inventing methods cannot make series without end.
const OTHER: &str = "other";

/// The HTTP methods counted under their own name.
const METHODS: [&str; 9] = [
    "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE",
];

/// The route label of a request no route matched (an unknown path).
pub const UNMATCHED: &str = "unmatched";

/// How a turn that was running ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnOutcome {
    /// The session moved on: waiting for input, its next turn, finished,
    /// stopped, paused or interrupted to come back later.
    Finished,
    /// The session failed.
    Failed,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct HttpLabels {
    route: String,
    method: &'static str,
    listener: &'static str,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RefusedLabels {
    reason: &'static str,
}

type HistogramFamily<L> = Family<L, Histogram, fn() -> Histogram>;

fn http_histogram() -> Histogram {
    Histogram::new(HTTP_BUCKETS)
}

/// What the process counts as it happens, and the one place a scrape's
/// text is written. Cheap to share: every figure is atomic.
pub struct Metrics {
    registry: Registry,
    turns_started: Counter,
    turns_finished: Counter,
    turns_failed: Counter,
    turn_duration: Histogram,
    http: HistogramFamily<HttpLabels>,
    refused: Family<RefusedLabels, Counter>,
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    pub fn new() -> Self {
        let mut registry = Registry::with_prefix(PREFIX);
        let turns_started = Counter::default();
        let turns_finished = Counter::default();
        let turns_failed = Counter::default();
        let turn_duration = Histogram::new(TURN_BUCKETS);
        let http: HistogramFamily<HttpLabels> = Family::new_with_constructor(http_histogram);
        let refused = Family::<RefusedLabels, Counter>::default();
        registry.register(
            "turns_started",
            "Agent turns whose engine began to run",
            turns_started.clone(),
        );
        registry.register(
            "turns_finished",
            "Agent turns that ended with the session moving on (waiting for input, its next \
             turn, finished, stopped, paused or interrupted)",
            turns_finished.clone(),
        );
        registry.register(
            "turns_failed",
            "Agent turns that ended with their session failed",
            turns_failed.clone(),
        );
        registry.register_with_unit(
            "turn_duration",
            "How long agent turns ran, from the engine's start to the session's next status, \
             on the application's clock",
            Unit::Seconds,
            turn_duration.clone(),
        );
        registry.register_with_unit(
            "http_request_duration",
            "Time from a request's arrival to its response's head, by route template, method \
             and listener",
            Unit::Seconds,
            http.clone(),
        );
        registry.register(
            "runner_connect_refused",
            "Runner connections the runner listener refused, by reason",
            refused.clone(),
        );
        for reason in REFUSED_REASONS {
            refused.get_or_create_owned(&RefusedLabels { reason });
        }
        Self {
            registry,
            turns_started,
            turns_finished,
            turns_failed,
            turn_duration,
            http,
            refused,
        }
    }

    pub fn turn_started(&self) {
        self.turns_started.inc();
    }

    /// A turn whose start was counted ended after running for `took`.
    pub fn turn_ended(&self, outcome: TurnOutcome, took: Duration) {
        match outcome {
            TurnOutcome::Finished => self.turns_finished.inc(),
            TurnOutcome::Failed => self.turns_failed.inc(),
        };
        self.turn_duration.observe(took.as_secs_f64());
    }

    /// One request answered: `route` is the matched route's template
    /// (`/sessions/{id}`), never the path a client sent, and `None` when no
    /// route matched.
    pub fn http_request(
        &self,
        route: Option<&str>,
        method: &str,
        listener: &'static str,
        took: Duration,
    ) {
        let labels = HttpLabels {
            route: route.unwrap_or(UNMATCHED).to_owned(),
            method: known(&METHODS, method),
            listener,
        };
        self.http.get_or_create(&labels).observe(took.as_secs_f64());
    }

    /// A runner's connection was refused; `reason` is one of
    /// [`REFUSED_REASONS`], anything else is counted as `other`.
    pub fn runner_connect_refused(&self, reason: &str) {
        let reason = known(&REFUSED_REASONS, reason);
        self.refused.get_or_create(&RefusedLabels { reason }).inc();
    }

    /// The scrape: everything counted so far, then the snapshot's gauges.
    /// Writing to a `String` cannot fail; the encoder's signature can.
    pub fn render(&self, snapshot: &Snapshot) -> Result<String, fmt::Error> {
        let mut text = String::new();
        prometheus_text::encode(&mut text, &self.registry)?;
        let mut read_now = Registry::with_prefix(PREFIX);
        snapshot.register(&mut read_now);
        prometheus_text::encode(&mut text, &read_now)?;
        Ok(text)
    }
}

/// `value` itself when it is one of `known`, else [`OTHER`].
fn known(known: &[&'static str], value: &str) -> &'static str {
    known
        .iter()
        .find(|k| **k == value)
        .copied()
        .unwrap_or(OTHER)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fails unless every one of `wanted` is a whole line of `text`.
    fn assert_lines(text: &str, wanted: &[&str]) {
        let lines: Vec<&str> = text.lines().collect();
        for line in wanted {
            assert!(lines.contains(line), "{line:?} missing from\n{text}");
        }
    }

    #[test]
    fn counters_and_histograms_start_at_zero_and_are_named_for_prometheus() {
        let text = Metrics::new().render(&Snapshot::default()).unwrap();
        assert_lines(
            &text,
            &[
                "# TYPE switchboard_turns_started_total counter",
                "switchboard_turns_started_total 0",
                "switchboard_turns_finished_total 0",
                "switchboard_turns_failed_total 0",
                "# TYPE switchboard_turn_duration_seconds histogram",
                "switchboard_turn_duration_seconds_bucket{le=\"1\"} 0",
                "switchboard_turn_duration_seconds_bucket{le=\"3600\"} 0",
                "switchboard_turn_duration_seconds_bucket{le=\"+Inf\"} 0",
                "switchboard_turn_duration_seconds_count 0",
                "switchboard_runner_connect_refused_total{reason=\"bad_token\"} 0",
                "switchboard_runner_connect_refused_total{reason=\"rate_limited\"} 0",
                "switchboard_runner_connect_refused_total{reason=\"protocol\"} 0",
                "switchboard_runner_connect_refused_total{reason=\"tls\"} 0",
                "# TYPE switchboard_sessions_queued gauge",
                "switchboard_sessions_queued 0",
                "switchboard_sessions_queued_oldest_wait_seconds 0.0",
                "switchboard_spend_today_dollars 0.0",
            ],
        );
        assert!(
            !text.contains("# EOF"),
            "the classic format has no EOF line"
        );
    }

    #[test]
    fn a_turn_counts_once_by_outcome_and_its_time_lands_in_its_buckets() {
        let metrics = Metrics::new();
        metrics.turn_started();
        metrics.turn_started();
        metrics.turn_started();
        metrics.turn_ended(TurnOutcome::Finished, Duration::from_secs(3));
        metrics.turn_ended(TurnOutcome::Failed, Duration::from_millis(500));
        let text = metrics.render(&Snapshot::default()).unwrap();
        assert_lines(
            &text,
            &[
                "switchboard_turns_started_total 3",
                "switchboard_turns_finished_total 1",
                "switchboard_turns_failed_total 1",
                "switchboard_turn_duration_seconds_bucket{le=\"1\"} 1",
                "switchboard_turn_duration_seconds_bucket{le=\"2\"} 1",
                "switchboard_turn_duration_seconds_bucket{le=\"5\"} 2",
                "switchboard_turn_duration_seconds_sum 3.5",
                "switchboard_turn_duration_seconds_count 2",
            ],
        );
    }

    #[test]
    fn requests_are_labelled_by_template_known_method_and_listener() {
        let metrics = Metrics::new();
        let ms = Duration::from_millis;
        metrics.http_request(Some("/sessions/{id}"), "GET", "control", ms(3));
        metrics.http_request(Some("/sessions/{id}"), "GET", "control", ms(40));
        metrics.http_request(None, "BREW", "ui", ms(1));
        let text = metrics.render(&Snapshot::default()).unwrap();
        assert_lines(
            &text,
            &[
                "switchboard_http_request_duration_seconds_bucket{route=\"/sessions/{id}\",method=\"GET\",listener=\"control\",le=\"0.005\"} 1",
                "switchboard_http_request_duration_seconds_bucket{route=\"/sessions/{id}\",method=\"GET\",listener=\"control\",le=\"0.05\"} 2",
                "switchboard_http_request_duration_seconds_count{route=\"/sessions/{id}\",method=\"GET\",listener=\"control\"} 2",
                "switchboard_http_request_duration_seconds_count{route=\"unmatched\",method=\"other\",listener=\"ui\"} 1",
            ],
        );
    }

    #[test]
    fn a_refusal_counts_under_its_reason_and_an_unknown_one_under_other() {
        let metrics = Metrics::new();
        metrics.runner_connect_refused("bad_token");
        metrics.runner_connect_refused("bad_token");
        metrics.runner_connect_refused("made up");
        let text = metrics.render(&Snapshot::default()).unwrap();
        assert_lines(
            &text,
            &[
                "switchboard_runner_connect_refused_total{reason=\"bad_token\"} 2",
                "switchboard_runner_connect_refused_total{reason=\"tls\"} 0",
                "switchboard_runner_connect_refused_total{reason=\"other\"} 1",
            ],
        );
        assert!(!text.contains("made up"));
    }

    #[test]
    fn the_snapshot_is_written_as_it_was_read() {
        let snapshot = Snapshot {
            sessions: vec![
                SessionCount {
                    state: "running".into(),
                    runner: "local".into(),
                    count: 2,
                },
                SessionCount {
                    state: "queued".into(),
                    runner: "gpu-1".into(),
                    count: 0,
                },
            ],
            queued: 3,
            oldest_queued_wait: Duration::from_millis(90_500),
            spend_today_dollars: 1.25,
            runners: vec![RunnerCount {
                state: "connected".into(),
                kind: "ssh".into(),
                count: 1,
            }],
            inbox_unread: vec![InboxCount {
                category: "session".into(),
                count: 4,
            }],
        };
        let text = Metrics::new().render(&snapshot).unwrap();
        assert_lines(
            &text,
            &[
                "# TYPE switchboard_sessions gauge",
                "switchboard_sessions{state=\"running\",runner=\"local\"} 2",
                "switchboard_sessions{state=\"queued\",runner=\"gpu-1\"} 0",
                "switchboard_sessions_queued 3",
                "# TYPE switchboard_sessions_queued_oldest_wait_seconds gauge",
                "switchboard_sessions_queued_oldest_wait_seconds 90.5",
                "switchboard_spend_today_dollars 1.25",
                "switchboard_runners{state=\"connected\",kind=\"ssh\"} 1",
                "switchboard_inbox_unread{category=\"session\"} 4",
            ],
        );
    }

    #[test]
    fn label_values_are_escaped() {
        let snapshot = Snapshot {
            sessions: vec![SessionCount {
                state: "running".into(),
                runner: "odd \"name\"\\".into(),
                count: 1,
            }],
            ..Snapshot::default()
        };
        let text = Metrics::new().render(&snapshot).unwrap();
        assert!(
            text.lines()
                .any(|l| l == r#"switchboard_sessions{state="running",runner="odd \"name\"\\"} 1"#),
            "{text}"
        );
    }
}
