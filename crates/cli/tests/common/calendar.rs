//! What the calendar tests share: a calendar file served over HTTP on
//! loopback, as an ICS subscription's server (every request is answered
//! with the status and body the test set last, so a test can change the
//! file or fail the server between syncs), and the check of bad days.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use super::TestServer;

/// What the server answers: a status and a body.
pub type Answer = Arc<Mutex<(u16, String)>>;

/// Starts the server answering 200 with `body`; returns its URL and the
/// answer to change.
pub fn ics_server(body: &str) -> (String, Answer) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("bind: {e}"));
    let url = format!(
        "http://{}/team.ics",
        listener.local_addr().unwrap_or_else(|e| panic!("{e}"))
    );
    let answer: Answer = Arc::new(Mutex::new((200, body.to_owned())));
    let serving = answer.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(&stream);
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
            }
            let mut request_body = vec![0; length];
            let _ = reader.read_exact(&mut request_body);
            let (status, text) = serving.lock().map(|a| a.clone()).unwrap_or_default();
            let reply = format!(
                "HTTP/1.1 {status} X\r\nContent-Type: text/calendar\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
                text.len()
            );
            let _ = (&stream).write_all(reply.as_bytes());
        }
    });
    (url, answer)
}

/// `GET /calendar/events` refuses malformed, reversed and too long ranges
/// with a 400 naming the field, and a missing `from`.
pub fn refuses_bad_days(server: &TestServer) {
    for (from, to, field) in [
        ("2026-02-30", "2026-03-01", "from"),
        ("2026-03-01", "soon", "to"),
        ("2026-03-02", "2026-03-01", "to"),
        ("2026-01-01", "2027-06-01", "to"),
    ] {
        let reply = server.call(
            "GET",
            &format!("/calendar/events?from={from}&to={to}"),
            None,
        );
        assert_eq!(reply.status, 400, "{from}..{to}: {}", reply.text());
        assert_eq!(reply.json()["error"]["field"], field, "{}", reply.text());
    }
    let missing = server.call("GET", "/calendar/events?to=2026-03-01", None);
    assert_eq!(missing.status, 400, "{}", missing.text());
}
