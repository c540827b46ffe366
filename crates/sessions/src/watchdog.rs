//! Watching a running turn for the two ways it can be stuck without failing:
//! a **stall** (no output and no CPU used by its whole process group for
//! [`STALL_AFTER`], looked at every [`STALL_CHECK`] on the clock, while
//! `autoRestartUnresponsiveSessions` is on) and a **loop** (the same tool
//! call again and again, or an unchanged file read over and over: see
//! [`resilience::LoopDetector`], while `readLoopBreakerEnabled` is on).
//! Either trips the turn: its process group is ended and the session
//! relaunched with a note saying why.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use clock::Clock;
use resilience::{FileFingerprint, LoopDetector};
use time::{Duration, OffsetDateTime};
use tokio::sync::watch;

use crate::model::EntryBody;
use crate::returning::Governance;

/// How long a turn may print nothing and use no CPU before it is restarted.
pub(crate) const STALL_AFTER: Duration = Duration::minutes(10);
/// How often the stall watch looks.
pub(crate) const STALL_CHECK: Duration = Duration::minutes(1);

/// The reasons a restart leaves in the transcript's notice; the friction
/// scan finds loops and stalls by them.
pub const LOOP_RESTART_REASON: &str = "restarted by the loop breaker: ";
pub const STALL_RESTART_REASON: &str = "restarted: no output and no CPU for 10 minutes";

const STALL_NOTE: &str = "Your previous turn stopped responding (no output and no CPU for 10 minutes) and was restarted. Continue where you left off; avoid commands that wait for input or run forever.";

/// Why a turn was stopped to be relaunched, and what the agent is told.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Trip {
    pub(crate) reason: String,
    pub(crate) note: String,
}

/// What the pump and the turn share while a turn runs.
pub(crate) struct Watch {
    /// The clock's Unix milliseconds of the latest output.
    last_output_ms: AtomicI64,
    tripped: watch::Sender<Option<Trip>>,
}

impl Watch {
    pub(crate) fn new(now: OffsetDateTime) -> Arc<Self> {
        Arc::new(Self {
            last_output_ms: AtomicI64::new(millis(now)),
            tripped: watch::channel(None).0,
        })
    }

    pub(crate) fn saw_output(&self, now: OffsetDateTime) {
        self.last_output_ms.store(millis(now), Ordering::Relaxed);
    }

    /// The first trip wins; later ones change nothing.
    pub(crate) fn trip(&self, trip: Trip) {
        self.tripped.send_if_modified(|held| {
            if held.is_some() {
                return false;
            }
            *held = Some(trip);
            true
        });
    }

    /// Resolves once the turn is tripped.
    pub(crate) async fn tripped(&self) -> Trip {
        let mut seen = self.tripped.subscribe();
        loop {
            if let Some(trip) = seen.borrow_and_update().clone() {
                return trip;
            }
            if seen.changed().await.is_err() {
                return std::future::pending().await;
            }
        }
    }
}

fn millis(at: OffsetDateTime) -> i64 {
    i64::try_from(at.unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX)
}

/// Looks at the turn every [`STALL_CHECK`] and trips it once it printed
/// nothing and its process group used no CPU for [`STALL_AFTER`]. Runs
/// until the turn ends (the caller drops it).
pub(crate) async fn watch_for_stall(
    clock: Arc<dyn Clock>,
    governance: Arc<dyn Governance>,
    groups: Arc<Groups>,
    watch: Arc<Watch>,
    pgid: u32,
) {
    let mut cpu = groups.ticks(clock.as_ref(), pgid).await;
    let mut busy_at = clock.now();
    loop {
        clock.sleep(STALL_CHECK).await;
        let now = clock.now();
        // Off, `/proc` is not read at all, and quiet time counts from when it
        // is turned on again.
        if !governance.restart_unresponsive() {
            busy_at = now;
            continue;
        }
        let ticks = groups.ticks(clock.as_ref(), pgid).await;
        if ticks != cpu {
            cpu = ticks;
            busy_at = now;
        }
        let output_at = OffsetDateTime::from_unix_timestamp_nanos(
            i128::from(watch.last_output_ms.load(Ordering::Relaxed)) * 1_000_000,
        )
        .unwrap_or(now);
        let quiet_since = busy_at.max(output_at);
        if now - quiet_since >= STALL_AFTER {
            watch.trip(Trip {
                reason: STALL_RESTART_REASON.to_owned(),
                note: STALL_NOTE.to_owned(),
            });
            return;
        }
    }
}

/// How long one look at `/proc` answers every turn's watch. A stall takes
/// [`STALL_AFTER`] to call, so ticks a few seconds old change nothing.
const SCAN_FRESH: Duration = Duration::seconds(5);

/// The CPU ticks of every process group, from one look at `/proc` shared by
/// all running turns. Reading `/proc` means reading every process's `stat`,
/// so a look per turn would cost the server N × (N + the rest) reads a
/// minute: at 1,024 sessions that was most of what an idle server did.
/// Looks are made on the blocking pool, one at a time, and the turns that
/// ask meanwhile take the one made.
#[derive(Default)]
pub(crate) struct Groups {
    last: tokio::sync::Mutex<Option<Scan>>,
}

struct Scan {
    at: OffsetDateTime,
    ticks: Arc<HashMap<u32, u64>>,
}

impl Groups {
    /// User and system CPU ticks of every process in group `pgid`, as of a
    /// look at most [`SCAN_FRESH`] old on `clock`; 0 where `/proc` cannot be
    /// read.
    pub(crate) async fn ticks(&self, clock: &dyn Clock, pgid: u32) -> u64 {
        let mut last = self.last.lock().await;
        let now = clock.now();
        let fresh = last
            .as_ref()
            .filter(|scan| scan.at <= now && now - scan.at < SCAN_FRESH);
        let ticks = match fresh {
            Some(scan) => Arc::clone(&scan.ticks),
            None => {
                let ticks = Arc::new(
                    tokio::task::spawn_blocking(group_cpu_ticks)
                        .await
                        .unwrap_or_default(),
                );
                *last = Some(Scan {
                    at: now,
                    ticks: Arc::clone(&ticks),
                });
                ticks
            }
        };
        ticks.get(&pgid).copied().unwrap_or(0)
    }
}

/// User and system CPU ticks of every process group (Linux's
/// `/proc/<pid>/stat`, summed by group); empty where `/proc` cannot be read.
fn group_cpu_ticks() -> HashMap<u32, u64> {
    let mut groups = HashMap::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return groups;
    };
    let stats = entries
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok());
    for stat in stats {
        if let Some((group, ticks)) = stat_ticks(&stat) {
            *groups.entry(group).or_insert(0) += ticks;
        }
    }
    groups
}

/// The process group and its `utime + stime` from one `stat` line. The
/// command name may hold spaces and parentheses, so fields are counted
/// after its last `)`.
fn stat_ticks(stat: &str) -> Option<(u32, u64)> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace();
    // After the name: state(0) ppid(1) pgrp(2) ... utime(11) stime(12).
    let group: u32 = fields.nth(2)?.parse().ok()?;
    let utime: u64 = fields.nth(8)?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some((group, utime + stime))
}

/// What the pump does for the watchdog: note each output's time, and show
/// each entry to the loop breaker (when it is on).
pub(crate) struct Watching {
    pub(crate) watch: Arc<Watch>,
    pub(crate) loops: Option<LoopWatch>,
}

impl Watching {
    pub(crate) fn observe(&mut self, entry: &EntryBody) {
        if let Some(trip) = self.loops.as_mut().and_then(|l| l.observe(entry)) {
            self.watch.trip(trip);
        }
    }
}

/// The loop breaker over one turn's tool calls, with the session's folder
/// to find the files a `Read` names.
pub(crate) struct LoopWatch {
    detector: LoopDetector,
    cwd: PathBuf,
}

impl LoopWatch {
    pub(crate) fn new(cwd: &Path) -> Self {
        Self {
            detector: LoopDetector::new(),
            cwd: cwd.to_owned(),
        }
    }

    pub(crate) fn observe(&mut self, entry: &EntryBody) -> Option<Trip> {
        let EntryBody::ToolCall { name, input, .. } = entry else {
            return None;
        };
        let fingerprint = input
            .get("file_path")
            .and_then(serde_json::Value::as_str)
            .and_then(|path| std::fs::metadata(self.cwd.join(path)).ok())
            .and_then(|meta| {
                Some(FileFingerprint {
                    size: meta.len(),
                    modified: meta.modified().ok()?,
                })
            });
        let found = self.detector.observe(name, input, fingerprint)?;
        Some(Trip {
            reason: format!("{LOOP_RESTART_REASON}{} repeated", found.tool),
            note: found.note,
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn cpu_ticks_are_read_after_the_last_parenthesis() {
        let stat = "4242 (my (odd) name) S 1 4243 4242 0 -1 4194560 100 0 0 0 7 3 0 0 20 0 1 0";
        assert_eq!(stat_ticks(stat), Some((4243, 10)));
        assert_eq!(stat_ticks("4242 (cut) S 1 4243"), None);
    }

    #[tokio::test]
    async fn one_look_answers_until_the_clock_moves_past_it() {
        // A busy child in a group of its own: the test's own group is shared
        // with whatever else the test runner started, and a member that exits
        // takes its ticks out of the group's sum.
        let mut busy = tokio::process::Command::new("/bin/sh")
            .args(["-c", "while :; do :; done"])
            .process_group(0)
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let pgid = busy.id().unwrap();
        let clock = clock::ManualClock::new(OffsetDateTime::UNIX_EPOCH);
        let groups = Groups::default();
        let before = groups.ticks(&clock, pgid).await;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        let mut later = before;
        while later == before && std::time::Instant::now() < deadline {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            assert_eq!(groups.ticks(&clock, pgid).await, before, "the same look");
            clock.advance(SCAN_FRESH);
            later = groups.ticks(&clock, pgid).await;
        }
        assert!(later > before, "a new look sees the child's CPU");
        busy.kill().await.unwrap();
    }

    #[test]
    fn the_same_call_again_and_again_trips_with_a_note() {
        let dir = tempfile::tempdir().unwrap();
        let mut watch = LoopWatch::new(dir.path());
        let call = EntryBody::ToolCall {
            tool_id: None,
            name: "Bash".into(),
            input: json!({"command": "ls"}),
        };
        let trips: Vec<Trip> = (0..4).filter_map(|_| watch.observe(&call)).collect();
        assert_eq!(trips.len(), 1);
        assert!(trips[0].note.contains("Bash"), "{}", trips[0].note);
    }
}
