//! Acknowledged settings writes survive SIGKILL: a writer thread changes
//! settings over HTTP as fast as it can while the server is killed at a
//! moment it does not know; after a restart the database is intact and holds
//! every acknowledged write.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use common::TestServer;
use serde_json::json;

const KEYS: [&str; 3] = [
    "sessionRefillTargetCount",
    "sessionRefillCooldownMinutes",
    "sessionRefillMaxCandidateAgeHours",
];

#[derive(Default, Clone, Copy)]
struct Slot {
    acknowledged: Option<u64>,
    in_flight: Option<u64>,
}

#[test]
fn acknowledged_writes_survive_sigkill_twenty_times() {
    let mut server = TestServer::start();
    let mut counter: u64 = 0;
    for round in 0..20u64 {
        let control = server.control().to_owned();
        let token = server.token.clone();
        let killed = Arc::new(AtomicBool::new(false));
        let writer_killed = killed.clone();
        let start = counter;
        let writer = std::thread::spawn(move || {
            let mut slots = [Slot::default(); 3];
            let mut n = start;
            loop {
                n += 1;
                let value = n % 400 + 1;
                let slot = (n % 3) as usize;
                slots[slot].in_flight = Some(value);
                let body = json!({"value": value}).to_string();
                let auth = format!("Bearer {token}");
                let ok = std::panic::catch_unwind(|| {
                    common::request(
                        &control,
                        "PATCH",
                        &format!("/settings/{}", KEYS[slot]),
                        &[
                            ("Authorization", &auth),
                            ("Content-Type", "application/json"),
                        ],
                        Some(body.as_bytes()),
                    )
                    .status
                        == 200
                });
                match ok {
                    Ok(true) => slots[slot].acknowledged = Some(value),
                    _ => {
                        assert!(
                            writer_killed.load(Ordering::SeqCst),
                            "a write failed before the kill"
                        );
                        return (slots, n);
                    }
                }
            }
        });
        // A pseudo-random moment, different every round.
        std::thread::sleep(Duration::from_millis(30 + (round * 7919) % 250));
        killed.store(true, Ordering::SeqCst);
        server.kill();
        let (slots, last) = writer.join().unwrap();
        counter = last;

        server = server.crash_and_restart();
        let db = store::Db::open(&server.data_dir().join("switchboard.db")).unwrap();
        let check: String = db
            .read(|tx| tx.query_row("PRAGMA integrity_check", [], |r| r.get(0)))
            .unwrap();
        assert_eq!(check, "ok", "round {round}");
        for (slot, key) in KEYS.iter().enumerate() {
            let Some(acked) = slots[slot].acknowledged else {
                continue;
            };
            let now =
                server.call("GET", &format!("/settings/{key}"), None).json()["value"].as_u64();
            assert!(
                now == Some(acked) || now == slots[slot].in_flight,
                "round {round}: {key} is {now:?}, last acknowledged {acked}"
            );
        }
    }
}
