//! The last lines a started app printed, stdout and stderr interleaved as
//! they come, for the Running apps page.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

/// How many lines are kept.
pub const KEPT_LINES: usize = 200;

/// The longest line kept: a minified bundle printed on one line would
/// otherwise hold megabytes.
pub const LINE_MAX: usize = 4096;

/// The kept lines of one app, shared by its readers and the registry.
#[derive(Clone, Default)]
pub struct Output {
    lines: Arc<Mutex<VecDeque<String>>>,
}

impl Output {
    pub fn push(&self, line: String) {
        let mut lines = self.lines.lock().unwrap_or_else(|p| p.into_inner());
        if lines.len() == KEPT_LINES {
            lines.pop_front();
        }
        lines.push_back(line);
    }

    pub fn lines(&self) -> Vec<String> {
        let lines = self.lines.lock().unwrap_or_else(|p| p.into_inner());
        lines.iter().cloned().collect()
    }

    /// Reads `stream` to its end, keeping each line cut to [`LINE_MAX`]
    /// bytes; a long line is never held whole in memory.
    pub async fn pump(self, stream: impl AsyncRead + Unpin) {
        let mut reader = BufReader::new(stream);
        let mut line: Vec<u8> = Vec::new();
        loop {
            let (used, ended) = match reader.fill_buf().await {
                Ok([]) | Err(_) => break,
                Ok(chunk) => match chunk.iter().position(|b| *b == b'\n') {
                    Some(newline) => {
                        keep(&mut line, &chunk[..newline]);
                        (newline + 1, true)
                    }
                    None => {
                        keep(&mut line, chunk);
                        (chunk.len(), false)
                    }
                },
            };
            reader.consume(used);
            if ended {
                self.push(text_of(&line));
                line.clear();
            }
        }
        if !line.is_empty() {
            self.push(text_of(&line));
        }
    }
}

/// Adds `bytes` to `line` up to [`LINE_MAX`].
fn keep(line: &mut Vec<u8>, bytes: &[u8]) {
    let room = LINE_MAX.saturating_sub(line.len());
    line.extend_from_slice(&bytes[..bytes.len().min(room)]);
}

fn text_of(line: &[u8]) -> String {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    String::from_utf8_lossy(line).into_owned()
}
