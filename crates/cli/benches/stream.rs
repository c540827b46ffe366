//! What idle event-stream clients cost a release `switchboard serve`: the
//! extra resident memory of 1,000 open `GET /stream` connections, and
//! `GET /settings` throughput without and with them. Printed, not asserted
//! (issue 11 aims at under 50 MiB and under 10 % throughput change). For
//! scale it also prints what 1,000 idle keep-alive connections cost that made
//! one ordinary request: the share of the figure that is not the stream's.
//! The load generator and the clients run in this process on the same machine.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::Duration;

use support::{Addresses, CONNECTIONS, load, rss_kib, signal_term, time_startup};

const CLIENTS: usize = 1000;
const RUN: Duration = Duration::from_secs(3);

/// Sends `GET path` on a keep-alive connection and reads the response head,
/// so the server holds the connection open (for `/me`, its body is left unread
/// in the socket: a few bytes).
fn open(control: &str, token: &str, path: &str) -> Option<BufReader<TcpStream>> {
    let mut socket = TcpStream::connect(control).ok()?;
    let head =
        format!("GET {path} HTTP/1.1\r\nHost: {control}\r\nAuthorization: Bearer {token}\r\n\r\n");
    socket.write_all(head.as_bytes()).ok()?;
    socket
        .set_read_timeout(Some(Duration::from_secs(10)))
        .ok()?;
    let mut reader = BufReader::new(socket);
    let mut status = String::new();
    reader.read_line(&mut status).ok()?;
    if !status.starts_with("HTTP/1.1 200") {
        return None;
    }
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        if line.trim().is_empty() {
            return Some(reader);
        }
    }
}

fn settings_throughput(control: &str, token: &str) -> f64 {
    let get = format!(
        "GET /settings HTTP/1.1\r\nHost: {control}\r\nAuthorization: Bearer {token}\r\n\r\n"
    );
    let (count, _) = load(control, RUN, move |_| get.clone().into_bytes());
    count as f64 / RUN.as_secs_f64()
}

/// A fresh server (so no earlier connection's freed memory is reused); its
/// resident KiB before and with `CLIENTS` idle connections that asked for
/// `path`, and `GET /settings` throughput before and with them.
fn measure(path: &str) -> (usize, u64, u64, f64, f64) {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_, mut child) = time_startup(dir.path());
    let server = Addresses::read(dir.path());
    let (control, token) = (server.control().to_owned(), server.token);
    let before = settings_throughput(&control, &token);
    std::thread::sleep(Duration::from_secs(1));
    let rss_before = rss_kib(child.id());
    let clients: Vec<_> = (0..CLIENTS)
        .filter_map(|_| open(&control, &token, path))
        .collect();
    std::thread::sleep(Duration::from_secs(1));
    let rss_with = rss_kib(child.id());
    let with = settings_throughput(&control, &token);
    let count = clients.len();
    drop(clients);
    signal_term(&child);
    child.wait().ok();
    (count, rss_before, rss_with, before, with)
}

fn main() {
    let (open, rss_before, rss_with, before, with) = measure("/stream");
    let (_, plain_before, plain_with, _, _) = measure("/me");
    let extra = rss_with.saturating_sub(rss_before);
    println!(
        "switchboard stream bench ({CONNECTIONS} keep-alive connections for GET /settings, {}s each, loopback)",
        RUN.as_secs()
    );
    println!(
        "  {open} idle stream clients: +{extra} KiB resident ({:.1} MiB; {rss_before} KiB before, {rss_with} KiB with them)",
        extra as f64 / 1024.0
    );
    println!(
        "  for scale, {CLIENTS} idle keep-alive connections after one GET /me: +{} KiB",
        plain_with.saturating_sub(plain_before)
    );
    println!(
        "  GET /settings: {before:.0} req/s without them, {with:.0} req/s with them ({:+.1} %)",
        (with - before) / before * 100.0
    );
}
