//! Prints what synchronising a large ICS subscription costs, for 50,000
//! events beside a same-run baseline of 5,000: the wall time of the first
//! sync (download, split, expand, store), of the second (a 304) and of a
//! third after one event of the file changed, with the rows each of the
//! first and third wrote; the longest a concurrent write (what a board edit
//! or a session's output does) waited for the database's one writer during
//! them; the resident memory before the first and the third and its peak
//! during each. Each size runs in a child process of its own, so one's peak
//! is not the other's.
//!
//! Run with `cargo bench -p calendar --bench ics`.

// The bench serves the file with the tests' scripted server, and needs
// only part of it.
#[allow(dead_code)]
#[path = "../tests/fake/mod.rs"]
mod fake;

use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use calendar::{Calendars, Kind, NewAccount, Options, SyncReport};
use clock::ManualClock;
use fake::{Fake, Response};
use store::Db;

const SIZES: [usize; 2] = [5_000, 50_000];

fn main() {
    if let Some(size) = std::env::args()
        .nth(1)
        .and_then(|a| a.parse::<usize>().ok())
    {
        run(size);
        return;
    }
    let me = std::env::current_exe().expect("the bench's own path");
    println!("ICS subscription sync (release build, one child process per size)");
    for size in SIZES {
        let status = Command::new(&me)
            .arg(size.to_string())
            .status()
            .expect("the bench runs itself");
        assert!(status.success(), "the {size}-event run failed");
    }
}

/// Reads a `Vm…` line of /proc/self/status, in MiB.
fn vm(field: &str) -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Another writer of the database while a sync runs: an empty write
/// transaction every 2 ms, the longest wait for the writer kept.
struct Probe {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Duration>,
}

impl Probe {
    fn start(db: Arc<Db>) -> Probe {
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut longest = Duration::ZERO;
                while !stop.load(Ordering::Relaxed) {
                    let started = Instant::now();
                    db.write(|_| Ok::<_, store::rusqlite::Error>(()))
                        .expect("the probe's write");
                    longest = longest.max(started.elapsed());
                    std::thread::sleep(Duration::from_millis(2));
                }
                longest
            })
        };
        Probe { stop, thread }
    }

    fn stop(self) -> Duration {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().expect("the probe")
    }
}

/// Rows inserted, updated or deleted by the writer connection so far.
fn written(db: &Db) -> u64 {
    db.write(|tx| Ok::<_, store::rusqlite::Error>(tx.total_changes()))
        .expect("the writer's count")
}

/// Syncs with a probe writing beside it: the report, the sync's wall time,
/// the probe's longest wait and the rows the sync wrote.
fn timed(calendars: &Calendars, db: &Arc<Db>, id: &str) -> (SyncReport, Duration, Duration, u64) {
    let rows = written(db);
    let probe = Probe::start(db.clone());
    let started = Instant::now();
    let report = calendars.sync("bench", id).expect("a sync");
    let took = started.elapsed();
    let waited = probe.stop();
    (report, took, waited, written(db) - rows)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn run(size: usize) {
    let text = fake::big_ics(size);
    let bytes = text.len();
    // The same file with the summary of one event inside the window (21
    // January, in the file's own zone) changed.
    let edited = text.replacen(
        "SUMMARY:Meeting 4001\r\n",
        "SUMMARY:Meeting 4001 moved\r\n",
        1,
    );
    assert_ne!(edited, text);
    let served = Arc::new(Mutex::new(("\"v1\"", Arc::new(text.into_bytes()))));
    let fake = {
        let served = served.clone();
        Fake::start(move |r| {
            let (etag, body) = served.lock().expect("the served file").clone();
            if r.header("if-none-match") == Some(etag) {
                return Response::new(304, "");
            }
            Response {
                status: 200,
                headers: vec![("ETag".into(), etag.into())],
                body,
            }
        })
    };
    let dir = tempfile::tempdir().expect("a temporary folder");
    let db = Arc::new(Db::open(&dir.path().join("db.sqlite")).expect("the database"));
    db.migrate(secrets::MIGRATIONS).expect("migrations");
    db.migrate(calendar::MIGRATIONS).expect("migrations");
    let clock = Arc::new(ManualClock::new(
        time::macros::datetime!(2026-03-15 12:00 UTC),
    ));
    let cipher = secrets::Cipher::load_or_create(&dir.path().join("secrets.key")).expect("key");
    let secrets = Arc::new(secrets::Secrets::new(db.clone(), clock.clone(), cipher));
    let calendars = Calendars::with_options(db.clone(), clock, secrets, Options::default());
    let id = calendars
        .add(
            "bench",
            NewAccount {
                kind: Kind::Ics,
                url: format!("{}/big.ics", fake.url),
                username: None,
                password: None,
                name: None,
            },
        )
        .expect("the account")
        .id;
    let before = vm("VmRSS:");
    // Resets VmHWM to the current RSS (Linux 4.0 on), so the peak read
    // after the sync is the sync's own.
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let (report, first, first_wait, first_rows) = timed(&calendars, &db, &id);
    let peak = vm("VmHWM:");
    let started = Instant::now();
    let again = calendars.sync("bench", &id).expect("the second sync");
    let second = started.elapsed();
    assert_eq!(report.fetched, size);
    assert!(again.not_modified);
    *served.lock().expect("the served file") = ("\"v2\"", Arc::new(edited.into_bytes()));
    let settled = vm("VmRSS:");
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let (changed, third, third_wait, third_rows) = timed(&calendars, &db, &id);
    let third_peak = vm("VmHWM:");
    assert!(!changed.not_modified);
    println!(
        "  {size:>6} events, {:>5.1} MiB file: first sync {:>6.0} ms ({first_rows} rows, writer waited for up to {:>5.1} ms), unchanged (304) {:>4.1} ms, one event changed {:>6.0} ms ({third_rows} rows, up to {:>5.1} ms); RSS {before:>6.1} MiB before, peak {peak:>6.1} MiB during the first (+{:.1} MiB), {settled:.1} → {third_peak:.1} MiB during the change (+{:.1} MiB)",
        bytes as f64 / (1024.0 * 1024.0),
        ms(first),
        ms(first_wait),
        ms(second),
        ms(third),
        ms(third_wait),
        peak - before,
        third_peak - settled,
    );
}
