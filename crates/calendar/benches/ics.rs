//! Prints what synchronising a large ICS subscription costs: the wall time
//! of the first sync (download, split, expand, store) and of the second
//! (a 304), the resident memory before the sync and its peak during it,
//! for 50,000 events beside a same-run baseline of 5,000. Each size runs in
//! a child process of its own, so one's peak is not the other's.
//!
//! Run with `cargo bench -p calendar --bench ics`.

// The bench serves the file with the tests' scripted server, and needs
// only part of it.
#[allow(dead_code)]
#[path = "../tests/fake/mod.rs"]
mod fake;

use std::process::Command;
use std::sync::Arc;
use std::time::Instant;

use calendar::{Calendars, Kind, NewAccount, Options};
use clock::ManualClock;
use fake::{Fake, Response};

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

fn run(size: usize) {
    let text = Arc::new(fake::big_ics(size).into_bytes());
    let bytes = text.len();
    let fake = {
        let text = text.clone();
        Fake::start(move |r| {
            if r.header("if-none-match") == Some("\"v1\"") {
                return Response::new(304, "");
            }
            Response {
                status: 200,
                headers: vec![("ETag".into(), "\"v1\"".into())],
                body: text.clone(),
            }
        })
    };
    let dir = tempfile::tempdir().expect("a temporary folder");
    let db = Arc::new(store::Db::open(&dir.path().join("db.sqlite")).expect("the database"));
    db.migrate(secrets::MIGRATIONS).expect("migrations");
    db.migrate(calendar::MIGRATIONS).expect("migrations");
    let clock = Arc::new(ManualClock::new(
        time::macros::datetime!(2026-03-15 12:00 UTC),
    ));
    let cipher = secrets::Cipher::load_or_create(&dir.path().join("secrets.key")).expect("key");
    let secrets = Arc::new(secrets::Secrets::new(db.clone(), clock.clone(), cipher));
    let calendars = Calendars::with_options(db, clock, secrets, Options::default());
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
    let started = Instant::now();
    let report = calendars.sync("bench", &id).expect("the first sync");
    let first = started.elapsed();
    let peak = vm("VmHWM:");
    let started = Instant::now();
    let again = calendars.sync("bench", &id).expect("the second sync");
    let second = started.elapsed();
    assert_eq!(report.fetched, size);
    assert!(again.not_modified);
    println!(
        "  {size:>6} events, {:>5.1} MiB file: first sync {:>7.0} ms, unchanged (304) {:>4.1} ms; RSS {before:>6.1} MiB before, peak {peak:>6.1} MiB during (+{:.1} MiB)",
        bytes as f64 / (1024.0 * 1024.0),
        first.as_secs_f64() * 1e3,
        second.as_secs_f64() * 1e3,
        peak - before,
    );
}
