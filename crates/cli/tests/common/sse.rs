//! An open `GET /stream` read off a plain socket: the chunked body decoded
//! as it arrives and split into events, with deadlines everywhere.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::TestServer;

#[derive(Debug, Clone)]
pub struct Received {
    pub id: String,
    pub name: String,
    pub data: Value,
}

impl Received {
    /// A `session` event saying `session` now waits for input (its turn ended).
    pub fn is_waiting(&self, session: &str) -> bool {
        self.name == "session"
            && self.data["id"] == session
            && self.data["status"] == "waiting_for_input"
    }
}

/// One open `GET /stream`, its chunked body decoded as it arrives.
pub struct Stream {
    reader: BufReader<TcpStream>,
    /// Decoded body not yet split into events.
    pending: String,
    pub comments: usize,
    pub ended: bool,
}

impl Stream {
    pub fn open(
        addr: &str,
        path: &str,
        credential: (&str, &str),
        last_event_id: Option<&str>,
    ) -> Self {
        let mut socket = TcpStream::connect(addr).unwrap();
        let mut head = format!(
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\n{}: {}\r\nAccept: text/event-stream\r\n\
             Accept-Encoding: gzip, br, zstd\r\n",
            credential.0, credential.1
        );
        if let Some(id) = last_event_id {
            head.push_str(&format!("Last-Event-ID: {id}\r\n"));
        }
        head.push_str("\r\n");
        socket.write_all(head.as_bytes()).unwrap();
        socket
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut reader = BufReader::new(socket);
        let mut status = String::new();
        reader.read_line(&mut status).unwrap();
        assert!(status.starts_with("HTTP/1.1 200"), "{status}");
        let mut headers = Vec::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if line.trim().is_empty() {
                break;
            }
            headers.push(line.trim().to_ascii_lowercase());
        }
        assert!(
            headers.contains(&"content-type: text/event-stream".to_owned()),
            "{headers:?}"
        );
        assert!(
            headers.contains(&"transfer-encoding: chunked".to_owned()),
            "{headers:?}"
        );
        // Compression would hold events back until a block fills.
        assert!(
            !headers.iter().any(|h| h.starts_with("content-encoding")),
            "{headers:?}"
        );
        Stream {
            reader,
            pending: String::new(),
            comments: 0,
            ended: false,
        }
    }

    pub fn bearer(server: &TestServer, token: &str, last_event_id: Option<&str>) -> Self {
        let auth = format!("Bearer {token}");
        Stream::open(
            server.control(),
            "/stream",
            ("Authorization", &auth),
            last_event_id,
        )
    }

    /// Reads one chunk of the body into `pending`; false at the end of the
    /// body, on a closed connection or when the deadline passes.
    pub fn fill(&mut self, deadline: Instant) -> bool {
        if self.ended {
            return false;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        self.reader.get_ref().set_read_timeout(Some(left)).unwrap();
        let mut size_line = String::new();
        match self.reader.read_line(&mut size_line) {
            Ok(0) => {
                self.ended = true;
                return false;
            }
            Ok(_) => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return false;
            }
            Err(_) => {
                self.ended = true;
                return false;
            }
        }
        let size = usize::from_str_radix(size_line.trim(), 16).unwrap_or(0);
        let mut chunk = vec![0; size + 2];
        if size == 0 || self.reader.read_exact(&mut chunk).is_err() {
            self.ended = true;
            return false;
        }
        chunk.truncate(size);
        self.pending.push_str(&String::from_utf8(chunk).unwrap());
        true
    }

    /// The next event before `within` passes, counting comment lines on the way.
    pub fn next(&mut self, within: Duration) -> Option<Received> {
        let deadline = Instant::now() + within;
        loop {
            if let Some(end) = self.pending.find("\n\n") {
                let block: String = self.pending.drain(..end + 2).collect();
                let (mut id, mut name, mut data) = (None, None, None);
                for line in block.lines() {
                    if line.starts_with(':') {
                        self.comments += 1;
                    } else if let Some(v) = line.strip_prefix("id: ") {
                        id = Some(v.to_owned());
                    } else if let Some(v) = line.strip_prefix("event: ") {
                        name = Some(v.to_owned());
                    } else if let Some(v) = line.strip_prefix("data: ") {
                        assert!(data.is_none(), "one data line per event: {block:?}");
                        data = Some(serde_json::from_str(v).unwrap());
                    }
                }
                if let (Some(id), Some(name), Some(data)) = (id, name, data) {
                    return Some(Received { id, name, data });
                }
                continue;
            }
            if !self.fill(deadline) {
                return None;
            }
        }
    }

    /// Events until `done` says so (that event included); fails after 20 s.
    pub fn until(&mut self, mut done: impl FnMut(&Received) -> bool) -> Vec<Received> {
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let event = self
                .next(left)
                .unwrap_or_else(|| panic!("the awaited event never came; got {got:#?}"));
            let stop = done(&event);
            got.push(event);
            if stop {
                return got;
            }
        }
    }
}
