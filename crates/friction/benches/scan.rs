//! The friction scan over 1,000 stored transcripts: the demo's five Claude
//! Code sessions (tool calls, results, a failure) seeded for 200 accounts
//! into a real SQLite database on disk, then a full scan (read every
//! transcript, apply the rules, keep the findings) and a second one that
//! finds nothing new. Printed, not asserted.

use std::collections::HashMap;
use std::time::Instant;

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = store::Db::open(&dir.path().join("db.sqlite")).expect("db");
    db.migrate(friction::MIGRATIONS).expect("migrate");
    let now = time::macros::datetime!(2026-11-24 09:00 UTC);
    for account in 0..200 {
        let account = format!("account-{account}");
        sessions::seed_demo(
            &db,
            &sessions::DemoSeed {
                account_id: &account,
                data_dir: dir.path(),
                engine: &sessions::engines::demo_spec(std::path::Path::new("switchboard")),
                now,
                max_dollars_per_session: 5.0,
                max_turns_per_session: 50,
            },
        )
        .expect("seed");
    }
    let since = "2000-01-01T00:00:00.000Z";
    let started = Instant::now();
    let first =
        friction::scan(&db, since, "2026-11-24T09:00:00.000Z", &HashMap::new()).expect("scan");
    let first_took = started.elapsed();
    let started = Instant::now();
    let second =
        friction::scan(&db, since, "2026-11-24T10:00:00.000Z", &HashMap::new()).expect("scan");
    let second_took = started.elapsed();
    let found: usize = first.new.values().map(Vec::len).sum();
    assert!(second.new.is_empty());
    println!(
        "friction scan over {} stored transcripts:",
        first.transcripts
    );
    println!(
        "  first scan   {:>8.1} ms  ({:.0} \u{b5}s per transcript, {found} findings new)",
        first_took.as_secs_f64() * 1000.0,
        first_took.as_secs_f64() * 1e6 / first.transcripts.max(1) as f64
    );
    println!(
        "  second scan  {:>8.1} ms  (nothing new)",
        second_took.as_secs_f64() * 1000.0
    );
}
