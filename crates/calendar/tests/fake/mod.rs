//! A tiny scripted HTTP server on loopback, for what a real CalDAV server
//! will not do on demand: answer 500 or 404, send malformed XML, serve a
//! 50,000-event ICS file. It answers one connection at a time with
//! `Connection: close` and records every request it was sent.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Arc<Vec<u8>>,
}

impl Response {
    pub fn new(status: u16, body: impl Into<Vec<u8>>) -> Response {
        Response {
            status,
            headers: Vec::new(),
            body: Arc::new(body.into()),
        }
    }

    pub fn header(mut self, name: &str, value: &str) -> Response {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }
}

type Handler = Box<dyn FnMut(&Request) -> Response + Send>;

pub struct Fake {
    pub url: String,
    handler: Arc<Mutex<Handler>>,
    requests: Arc<Mutex<Vec<Request>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Fake {
    pub fn start(handler: impl FnMut(&Request) -> Response + Send + 'static) -> Fake {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let handler: Arc<Mutex<Handler>> = Arc::new(Mutex::new(Box::new(handler)));
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (handler, requests, stop) = (handler.clone(), requests.clone(), stop.clone());
            std::thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let Ok(stream) = stream else { continue };
                    let _ = serve(stream, &handler, &requests);
                }
            })
        };
        Fake {
            url,
            handler,
            requests,
            stop,
            thread: Some(thread),
        }
    }

    /// Answers with `handler` from now on.
    pub fn set(&self, handler: impl FnMut(&Request) -> Response + Send + 'static) {
        *self.handler.lock().unwrap() = Box::new(handler);
    }

    /// The requests since the last call.
    pub fn take_requests(&self) -> Vec<Request> {
        std::mem::take(&mut *self.requests.lock().unwrap())
    }
}

impl Drop for Fake {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.url.trim_start_matches("http://"));
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn serve(
    stream: TcpStream,
    handler: &Mutex<Handler>,
    requests: &Mutex<Vec<Request>>,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_owned();
    let path = parts.next().unwrap_or("").to_owned();
    let mut headers = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let trimmed = line.trim_end();
        if trimmed.is_empty() {
            break;
        }
        if let Some((name, value)) = trimmed.split_once(':') {
            headers.push((name.trim().to_owned(), value.trim().to_owned()));
        }
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    let request = Request {
        method,
        path,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    };
    let response = (handler.lock().unwrap())(&request);
    requests.lock().unwrap().push(request);
    let mut head = format!(
        "HTTP/1.1 {} Fake\r\nContent-Length: {}\r\nConnection: close\r\n",
        response.status,
        response.body.len()
    );
    for (name, value) in &response.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut stream = stream;
    stream.write_all(head.as_bytes())?;
    stream.write_all(&response.body)?;
    stream.flush()
}

/// Events a day in [`big_ics`].
pub const BIG_PER_DAY: usize = 200;

/// An ICS file of `count` events from 1 January 2026, [`BIG_PER_DAY`] a
/// day between 06:00 and 16:00: odd ones in a zone only the file's
/// VTIMEZONE defines, even ones in UTC, each 45 minutes long, every
/// hundredth yearly for two years.
pub fn big_ics(count: usize) -> String {
    let mut out = String::with_capacity(count * 260);
    out.push_str(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//fake//big//EN\r\nX-WR-CALNAME:Big\r\n",
    );
    out.push_str("BEGIN:VTIMEZONE\r\nTZID:Custom Berlin\r\nBEGIN:STANDARD\r\nDTSTART:19701025T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nEND:STANDARD\r\nBEGIN:DAYLIGHT\r\nDTSTART:19700329T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n");
    let first = jiff::civil::date(2026, 1, 1);
    for i in 0..count {
        let day = first
            .checked_add(jiff::Span::new().days(i64::try_from(i / BIG_PER_DAY).unwrap()))
            .unwrap();
        let slot = i % BIG_PER_DAY;
        let (hour, minute) = (6 + slot / 20, (slot % 20) * 3);
        let stamp = format!("{}T{hour:02}{minute:02}00", day.strftime("%Y%m%d"));
        let start = if i % 2 == 1 {
            format!("DTSTART;TZID=Custom Berlin:{stamp}")
        } else {
            format!("DTSTART:{stamp}Z")
        };
        let rule = if i % 100 == 0 {
            "RRULE:FREQ=YEARLY;COUNT=2\r\n"
        } else {
            ""
        };
        out.push_str(&format!(
            "BEGIN:VEVENT\r\nUID:big-{i}@fake\r\nDTSTAMP:20260101T000000Z\r\n{start}\r\nDURATION:PT45M\r\n{rule}SUMMARY:Meeting {i}\r\nLOCATION:Room {}\r\nEND:VEVENT\r\n",
            i % 40
        ));
    }
    out.push_str("END:VCALENDAR\r\n");
    out
}
