//! What a bulk write costs a release `switchboard serve` after it has
//! answered: the owner creates 50 boards of 2,000 items each with
//! `POST /boards/<id>/items/batch` (a status, a number, a dropdown and a date
//! in the past, no assignee), then the bench prints the write time, the
//! server's CPU during the writes and after them until it is idle (under 5 %
//! of one core over a second), its CPU share in the second that starts 2 s
//! after the last reply, the rows the writes left (items, item events, inbox
//! rows, notices), the database and WAL size before and after `VACUUM`, and
//! `PATCH /settings/<key>` p50/p99 at 4 and 8 clients on the seeded
//! database. Printed, not asserted (issue 25: idle within 2 s, under 60 MB,
//! PATCH p99 under 5 ms).

mod support;

use std::collections::VecDeque;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{Addresses, cpu_time, load_with, percentile, signal_term, time_startup};

const BOARDS: usize = 50;
const ITEMS: usize = 2_000;
/// Idle: less CPU than this over a second (5 % of one core).
const IDLE_CPU: Duration = Duration::from_millis(50);
const PATCH_RUN: Duration = Duration::from_secs(5);

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_, mut child) = time_startup(dir.path());
    let pid = child.id();
    let server = Addresses::read(dir.path());
    let control = server.control().to_owned();
    let token = server.token.clone();
    let call = |method: &str, path: &str, body: &Value| -> Value {
        let url = format!("http://{control}{path}");
        let auth = format!("Bearer {token}");
        let request = match method {
            "POST" => ureq::post(&url),
            _ => ureq::patch(&url),
        };
        request
            .header("Authorization", &auth)
            .send_json(body)
            .expect("a request")
            .body_mut()
            .read_json()
            .unwrap_or(Value::Null)
    };
    let workspace = call("POST", "/workspaces", &json!({"name": "Seed"}))["id"]
        .as_str()
        .expect("a workspace")
        .to_owned();
    let boards: Vec<String> = (0..BOARDS)
        .map(|n| {
            call(
                "POST",
                "/boards",
                &json!({
                "workspaceId": workspace, "name": format!("Board {n}"),
                "columns": [
                    {"id": "status", "title": "Status", "type": "status", "settings": {"labels": [
                        {"name": "Working"}, {"name": "Stuck"}, {"name": "Done", "done": true}]}},
                    {"id": "estimate", "title": "Estimate", "type": "number"},
                    {"id": "kind", "title": "Kind", "type": "dropdown",
                     "settings": {"options": ["Bug", "Feature", "Chore"]}},
                    {"id": "due", "title": "Due", "type": "date"}],
                "groups": [{"id": "g", "title": "G"}]}),
            )["id"]
                .as_str()
                .expect("a board")
                .to_owned()
        })
        .collect();
    let cpu_before = cpu_time(pid);
    let started = Instant::now();
    for board in &boards {
        let items: Vec<Value> = (0..ITEMS)
            .map(|n| {
                let status = ["Working", "Stuck", "Done"][n % 3];
                let kind = ["Bug", "Feature", "Chore"][n % 3];
                json!({"groupId": "g", "name": format!("Item {n}"), "values": {
                    "status": status,
                    "estimate": n % 13,
                    "kind": [kind],
                    "due": format!("2026-{:02}-{:02}", 1 + n % 9, 1 + n % 28)}})
            })
            .collect();
        call(
            "POST",
            &format!("/boards/{board}/items/batch"),
            &json!({ "items": items }),
        );
    }
    let written = Instant::now();
    let write_time = written - started;
    let cpu_writes = cpu_time(pid) - cpu_before;
    let (idle_after, cpu_after, share_at_2s) = until_idle(pid, written);
    println!(
        "switchboard bulk-write bench (release server, loopback): {BOARDS} boards x {ITEMS} items by the owner"
    );
    println!(
        "  writes: {:>8.2} s wall, server CPU {:>6.2} s",
        write_time.as_secs_f64(),
        cpu_writes.as_secs_f64()
    );
    println!(
        "  after the last reply: idle after {:>6.2} s, server CPU {:>6.2} s until then",
        idle_after.as_secs_f64(),
        cpu_after.as_secs_f64()
    );
    println!(
        "  CPU from 2 s to 3 s after the last reply: {:.1} % of one core",
        share_at_2s * 100.0
    );
    let db = dir.path().join("switchboard.db");
    print_rows(&db);
    print_sizes("before VACUUM", &db);
    for clients in [4, 8] {
        let (host, token) = (control.clone(), token.clone());
        let (_, mut latencies) = load_with(&control, clients, PATCH_RUN, move |n| {
            let body = json!({"value": n % 40 + 1}).to_string();
            format!(
                "PATCH /settings/sessionRefillTargetCount HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .into_bytes()
        });
        println!(
            "  PATCH /settings/<key> at {clients} clients: p50 {:>6.2} ms  p99 {:>6.2} ms ({} writes)",
            ms(percentile(&mut latencies, 0.5)),
            ms(percentile(&mut latencies, 0.99)),
            latencies.len()
        );
    }
    signal_term(&child);
    child.wait().ok();
    print_sizes("after the server stopped", &db);
    let vacuumed = dir.path().join("vacuumed.db");
    let connection = store::rusqlite::Connection::open(&db).expect("open the database");
    connection
        .execute("VACUUM INTO ?1", [vacuumed.to_string_lossy()])
        .expect("VACUUM INTO");
    print_sizes("after VACUUM", &vacuumed);
    let per_item = file_size(&vacuumed) as f64 / (BOARDS * ITEMS) as f64;
    println!("  bytes per item after VACUUM: {per_item:.0}");
    print_tables(&connection);
}

/// Samples the server's CPU every 100 ms from `since` until a second passes
/// with less than [`IDLE_CPU`] and the second from 2 s to 3 s is over: how
/// long until that idle second began, the CPU used until then, and the
/// share of one core used from 2 s to 3 s.
fn until_idle(pid: u32, since: Instant) -> (Duration, Duration, f64) {
    let start_cpu = cpu_time(pid);
    let mut samples: VecDeque<(Instant, Duration)> = VecDeque::from([(since, start_cpu)]);
    let mut idle: Option<(Duration, Duration)> = None;
    let mut at_2s = None;
    let deadline = since + Duration::from_secs(300);
    loop {
        std::thread::sleep(Duration::from_millis(100));
        let now = Instant::now();
        let cpu = cpu_time(pid);
        samples.push_back((now, cpu));
        if at_2s.is_none() && now - since >= Duration::from_secs(2) {
            at_2s = Some((now, cpu));
        }
        while samples.len() > 1 && now - samples[1].0 >= Duration::from_secs(1) {
            samples.pop_front();
        }
        let (first_at, first_cpu) = samples[0];
        if idle.is_none() && now - first_at >= Duration::from_secs(1) && cpu - first_cpu < IDLE_CPU
        {
            idle = Some((first_at - since, first_cpu - start_cpu));
        }
        if let (Some((idle_after, cpu_until)), Some((t2, c2))) = (idle, at_2s)
            && now - t2 >= Duration::from_secs(1)
        {
            let share = (cpu - c2).as_secs_f64() / (now - t2).as_secs_f64();
            return (idle_after, cpu_until, share);
        }
        assert!(now < deadline, "the server never went idle");
    }
}

fn print_rows(db: &Path) {
    let connection = store::rusqlite::Connection::open_with_flags(
        db,
        store::rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .expect("open the database");
    let count = |table: &str| -> i64 {
        connection
            .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
            .unwrap_or(-1)
    };
    println!(
        "  rows: items {}, item_events {}, inbox_rows {}, pm_notices {}, pm_due_sent {}",
        count("items"),
        count("item_events"),
        count("inbox_rows"),
        count("pm_notices"),
        count("pm_due_sent")
    );
}

fn print_tables(connection: &store::rusqlite::Connection) {
    // dbstat: the space each table and index takes, largest first.
    let Ok(mut statement) = connection
        .prepare("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 8")
    else {
        return;
    };
    let Ok(rows) = statement.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))
    else {
        return;
    };
    let largest: Vec<String> = rows
        .flatten()
        .map(|(name, bytes)| format!("{name} {:.1} MB", bytes as f64 / 1e6))
        .collect();
    println!("  largest (before VACUUM): {}", largest.join(", "));
}

fn print_sizes(when: &str, db: &Path) {
    let wal = db.with_extension("db-wal");
    println!(
        "  database {when}: {:>7.1} MB, WAL {:>6.1} MB",
        file_size(db) as f64 / 1e6,
        file_size(&wal) as f64 / 1e6
    );
}

fn file_size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}
