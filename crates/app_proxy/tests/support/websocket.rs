//! A minimal WebSocket client for the tests: the opening handshake, masked
//! frames out, frames in.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

pub const TEXT: u8 = 0x1;
pub const CLOSE: u8 = 0x8;

pub struct WebSocket {
    stream: TcpStream,
    buffered: Vec<u8>,
}

/// The key and accept value of RFC 6455's own example (section 1.3).
const KEY: &str = "dGhlIHNhbXBsZSBub25jZQ==";
const ACCEPT: &str = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";

impl WebSocket {
    /// Opens a WebSocket to `host` through `port`; returns it and the head of
    /// the 101 answer (or panics with whatever came instead).
    pub async fn connect(port: u16, host: &str, path: &str) -> (Self, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        let request = format!(
            "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
             Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: {KEY}\r\n\r\n"
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut buffered = Vec::new();
        let head_end = loop {
            if let Some(at) = buffered.windows(4).position(|w| w == b"\r\n\r\n") {
                break at + 4;
            }
            let mut chunk = [0; 4096];
            let read = stream.read(&mut chunk).await.unwrap();
            assert!(
                read > 0,
                "closed before answering: {}",
                String::from_utf8_lossy(&buffered)
            );
            buffered.extend_from_slice(&chunk[..read]);
        };
        let head = String::from_utf8_lossy(&buffered[..head_end]).into_owned();
        assert!(head.starts_with("HTTP/1.1 101"), "not switched: {head}");
        assert!(
            head.contains(ACCEPT),
            "the app's accept key did not come through: {head}"
        );
        buffered.drain(..head_end);
        (Self { stream, buffered }, head)
    }

    pub async fn send(&mut self, opcode: u8, payload: &[u8]) {
        let mask = [0x12, 0x34, 0x56, 0x78];
        let mut frame = vec![0x80 | opcode];
        match payload.len() {
            length @ 0..=125 => frame.push(0x80 | length as u8),
            length @ 126..=65535 => {
                frame.push(0x80 | 126);
                frame.extend_from_slice(&(length as u16).to_be_bytes());
            }
            length => {
                frame.push(0x80 | 127);
                frame.extend_from_slice(&(length as u64).to_be_bytes());
            }
        }
        frame.extend_from_slice(&mask);
        frame.extend(
            payload
                .iter()
                .enumerate()
                .map(|(i, byte)| byte ^ mask[i % 4]),
        );
        self.stream.write_all(&frame).await.unwrap();
    }

    /// The next frame (opcode, payload), or `None` once the stream closed.
    pub async fn receive(&mut self) -> Option<(u8, Vec<u8>)> {
        loop {
            if let Some(frame) = self.parse() {
                return Some(frame);
            }
            let mut chunk = [0; 16384];
            let read = self.stream.read(&mut chunk).await.unwrap_or(0);
            if read == 0 {
                return None;
            }
            self.buffered.extend_from_slice(&chunk[..read]);
        }
    }

    fn parse(&mut self) -> Option<(u8, Vec<u8>)> {
        let bytes = &self.buffered;
        if bytes.len() < 2 {
            return None;
        }
        let opcode = bytes[0] & 0x0f;
        let (length, offset) = match bytes[1] & 0x7f {
            126 if bytes.len() >= 4 => (u16::from_be_bytes([bytes[2], bytes[3]]) as usize, 4),
            127 if bytes.len() >= 10 => (
                u64::from_be_bytes(bytes[2..10].try_into().unwrap()) as usize,
                10,
            ),
            126 | 127 => return None,
            short => (short as usize, 2),
        };
        if bytes.len() < offset + length {
            return None;
        }
        let payload = bytes[offset..offset + length].to_vec();
        self.buffered.drain(..offset + length);
        Some((opcode, payload))
    }
}
