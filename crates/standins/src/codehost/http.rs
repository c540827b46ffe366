//! The HTTP/1.1 of the code host stand-in, by hand over a blocking socket:
//! a request read off a kept-alive connection (`Content-Length` or chunked),
//! an answer written back, percent-decoding, and a list's strong ETag with
//! the 304 `If-None-Match` earns.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, Read};
use std::net::TcpStream;

use serde_json::Value;

/// An answer before it is written.
pub(super) struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    /// None for a 304.
    pub body: Option<String>,
}

impl Answer {
    pub fn json(status: u16, body: &Value) -> Answer {
        Answer {
            status,
            headers: Vec::new(),
            body: Some(body.to_string()),
        }
    }
}

pub(super) fn find<'h>(headers: &'h [(String, String)], name: &str) -> Option<&'h str> {
    headers
        .iter()
        .find(|(known, _)| known == name)
        .map(|(_, value)| value.as_str())
}

/// A list's 200 with its strong ETag, or a 304 when `If-None-Match` names
/// it (or `*`); weak comparison, as RFC 9110 has for `If-None-Match`.
pub(super) fn listed(items: &Value, if_none_match: Option<&str>) -> Answer {
    let body = items.to_string();
    let mut hasher = DefaultHasher::new();
    body.hash(&mut hasher);
    let etag = format!("\"{:016x}\"", hasher.finish());
    let matches = if_none_match.is_some_and(|list| {
        list.split(',')
            .map(str::trim)
            .any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag) == etag)
    });
    Answer {
        status: if matches { 304 } else { 200 },
        headers: vec![("etag".to_owned(), etag)],
        body: (!matches).then_some(body),
    }
}

pub(super) fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        304 => "Not Modified",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        409 => "Conflict",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

/// `%XX` decoded (and '+' as a space in a query value); a stray '%' stays.
pub(super) fn decode(text: &str, query: bool) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let hex = bytes
            .get(at + 1..at + 3)
            .and_then(|pair| std::str::from_utf8(pair).ok())
            .and_then(|pair| u8::from_str_radix(pair, 16).ok());
        match (bytes[at], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                at += 3;
            }
            (b'+', _) if query => {
                out.push(b' ');
                at += 1;
            }
            (byte, _) => {
                out.push(byte);
                at += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

pub(super) type Received = (String, String, Vec<(String, String)>, Vec<u8>);

/// One request off a kept-alive connection: method, target, headers
/// (names lower-cased) and body (by `Content-Length`, or chunked).
pub(super) fn read_request(reader: &mut BufReader<TcpStream>) -> Option<Received> {
    let mut line = String::new();
    if reader.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_owned();
    let target = parts.next()?.to_owned();
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).ok()? == 0 {
            return None;
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
    }
    let header = |name: &str| {
        headers
            .iter()
            .find(|(known, _)| known == name)
            .map(|(_, v)| v.as_str())
    };
    let mut body = Vec::new();
    if header("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).ok()?;
            let size = usize::from_str_radix(size.trim().split(';').next()?, 16).ok()?;
            let mut chunk = vec![0; size + 2];
            if size == 0 {
                // The trailers, if any, end with an empty line.
                loop {
                    let mut trailer = String::new();
                    if reader.read_line(&mut trailer).ok()? == 0 || trailer.trim().is_empty() {
                        break;
                    }
                }
                break;
            }
            reader.read_exact(&mut chunk).ok()?;
            body.extend_from_slice(&chunk[..size]);
        }
    } else {
        let length = header("content-length")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        body = vec![0; length];
        reader.read_exact(&mut body).ok()?;
    }
    Some((method, target, headers, body))
}

pub(super) fn written(answer: &Answer) -> Vec<u8> {
    let mut head = format!("HTTP/1.1 {} {}\r\n", answer.status, reason(answer.status));
    for (name, value) in &answer.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    if let Some(body) = &answer.body {
        let kind = if body.starts_with(['[', '{']) {
            "application/json; charset=utf-8"
        } else {
            "text/plain"
        };
        head.push_str(&format!(
            "content-type: {kind}\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        ));
    } else {
        head.push_str("\r\n");
    }
    head.into_bytes()
}
