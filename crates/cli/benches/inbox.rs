//! What a page of the inbox costs a release `switchboard serve` holding
//! 100,000 rows: p50 and p95 of `GET /inbox` requests over HTTP, one client
//! on a keep-alive connection, for the default first page, a deep keyset
//! page, a filtered page, and the unread counts. Printed, not asserted
//! (issue 12 aims at under 20 ms a page).
//!
//! The rows are written straight into SQLite while the server runs (one
//! transaction): seeding is not what is measured, and 100,000 `POST /alert`s
//! would only time the writer.

mod support;

use std::io::{BufReader, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use support::{Addresses, read_response, signal_term, time_startup};

const ROWS: usize = 100_000;
const SAMPLES: usize = 500;
const CATEGORIES: [&str; 5] = ["alert", "webhook", "session", "digest", "pm_event"];

fn seed(db_path: &std::path::Path, account: &str) -> String {
    let mut db = store::rusqlite::Connection::open(db_path).expect("open the database");
    db.busy_timeout(Duration::from_secs(10))
        .expect("busy timeout");
    let tx = db.transaction().expect("transaction");
    {
        let mut insert = tx
            .prepare(
                "INSERT INTO inbox_rows (id, account_id, category, title, body, created_at,
                   updated_at, read_at, archived_at, source)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7, ?8, ?9)",
            )
            .expect("prepare");
        for n in 0..ROWS {
            let at = format!("2026-01-01T00:00:00.{:03}Z", n % 1000);
            // A third read, a tenth archived: every state filter has work to skip.
            let read = (n % 3 == 0).then_some(at.as_str());
            let archived = (n % 10 == 0).then_some(at.as_str());
            insert
                .execute(store::rusqlite::params![
                    format!("seed-{n:06}"),
                    account,
                    CATEGORIES[n % CATEGORIES.len()],
                    format!("Row {n}: something needs you"),
                    "A body of a few words, as alerts have.",
                    at,
                    read,
                    archived,
                    format!("{{\"sessionId\":\"s{}\"}}", n % 50),
                ])
                .expect("insert");
        }
    }
    tx.commit().expect("commit");
    format!("seed-{:06}", ROWS / 2)
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    samples[((samples.len() as f64 - 1.0) * p).round() as usize]
}

fn measure(control: &str, token: &str, path: &str) -> (Duration, Duration) {
    let stream = TcpStream::connect(control).expect("connect");
    stream.set_nodelay(true).ok();
    let mut writer = stream.try_clone().expect("clone");
    let mut reader = BufReader::new(stream);
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: {control}\r\nAuthorization: Bearer {token}\r\n\r\n");
    let mut samples = Vec::with_capacity(SAMPLES);
    for n in 0..SAMPLES + 20 {
        let sent = Instant::now();
        writer.write_all(request.as_bytes()).expect("write");
        let status = read_response(&mut reader);
        assert_eq!(status, 200, "{path}");
        // The first few warm the page cache and the prepared statements.
        if n >= 20 {
            samples.push(sent.elapsed());
        }
    }
    (
        percentile(&mut samples, 0.5),
        percentile(&mut samples, 0.95),
    )
}

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_, mut child) = time_startup(dir.path());
    let server = Addresses::read(dir.path());
    let (control, token) = (server.control().to_owned(), server.token);
    let account = fetch(&control, &token, "/me")["accountId"]
        .as_str()
        .expect("accountId")
        .to_owned();
    let seeding = Instant::now();
    let middle = seed(&dir.path().join("switchboard.db"), &account);
    println!("seeded {ROWS} inbox rows in {:?}", seeding.elapsed());
    for path in [
        "/inbox".to_owned(),
        "/inbox?limit=50&state=unread".to_owned(),
        format!("/inbox?before={middle}"),
        "/inbox?category=webhook&state=unread".to_owned(),
        "/inbox?state=all&category=digest".to_owned(),
        "/inbox/counts".to_owned(),
    ] {
        let reply = fetch(&control, &token, &path);
        let size = reply
            .as_array()
            .map_or_else(|| reply.as_object().map_or(0, |o| o.len()), Vec::len);
        let (p50, p95) = measure(&control, &token, &path);
        println!(
            "GET {path:<40} p50 {p50:>10.2?}  p95 {p95:>10.2?}  ({SAMPLES} requests of {size} entries)"
        );
    }
    signal_term(&child);
    child.wait().ok();
}

/// One `GET` on a connection of its own, its body as JSON.
fn fetch(control: &str, token: &str, path: &str) -> serde_json::Value {
    let mut stream = TcpStream::connect(control).expect("connect");
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {control}\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).expect("write");
    let mut raw = String::new();
    std::io::Read::read_to_string(&mut stream, &mut raw).expect("read");
    let body = raw.split("\r\n\r\n").nth(1).expect("a body");
    serde_json::from_str(body).expect("JSON")
}
