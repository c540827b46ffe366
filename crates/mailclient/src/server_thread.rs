//! The server's own threads: RFC 5256 `UID THREAD REFERENCES` where the
//! server offers THREAD=REFERENCES. async-imap cannot read a THREAD
//! response (its parser stops on it), so the command goes out on the
//! session's byte stream while no other command is in flight, and the
//! answer is read here line by line, within bounds, and parsed by a small
//! parser of our own that no input can make loop, recurse or panic.

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use crate::ClientError;
use crate::imap::{ImapSession, limit};

/// The longest answer read (a THREAD line of 100,000 UIDs is about 1 MB).
const MAX_ANSWER: usize = 32 << 20;
const TAG: &str = "MCTHREAD";

/// Groups of UIDs of the selected folder, one per thread.
pub async fn thread_references(
    session: &mut ImapSession,
    server: &str,
) -> Result<Vec<Vec<u32>>, ClientError> {
    let stream = session.as_mut();
    limit(
        stream.write_all(format!("{TAG} UID THREAD REFERENCES UTF-8 ALL\r\n").as_bytes()),
        server,
    )
    .await?
    .map_err(io_error)?;
    limit(stream.flush(), server).await?.map_err(io_error)?;
    // The server sends nothing after the tagged line until the next
    // command, so the buffer is empty when this returns (checked below):
    // no byte is left behind async-imap's back.
    let mut reader = BufReader::with_capacity(64 << 10, stream);
    let mut groups = Vec::new();
    let mut total = 0usize;
    loop {
        let mut line = Vec::new();
        let read = limit(reader.read_until(b'\n', &mut line), server)
            .await?
            .map_err(io_error)?;
        if read == 0 {
            return Err(ClientError::Imap(async_imap::error::Error::ConnectionLost));
        }
        total += read;
        if total > MAX_ANSWER {
            return Err(ClientError::Protocol {
                server: server.to_owned(),
                detail: format!("THREAD answer over {MAX_ANSWER} bytes"),
            });
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end();
        if let Some(rest) = text.strip_prefix(&format!("{TAG} ")) {
            if !reader.buffer().is_empty() {
                return Err(ClientError::Protocol {
                    server: server.to_owned(),
                    detail: "sent more after completing THREAD".to_owned(),
                });
            }
            return if rest.get(..2).is_some_and(|s| s.eq_ignore_ascii_case("OK")) {
                Ok(groups)
            } else {
                Err(ClientError::Refused {
                    server: server.to_owned(),
                    command: "UID THREAD".to_owned(),
                    detail: rest.to_owned(),
                })
            };
        }
        if let Some(body) = text.strip_prefix("* ").and_then(|b| {
            b.get(6..)
                .filter(|_| b.get(..6).is_some_and(|t| t.eq_ignore_ascii_case("THREAD")))
        }) {
            groups.extend(parse_thread(body));
        }
    }
}

fn io_error(e: std::io::Error) -> ClientError {
    ClientError::Imap(e.into())
}

/// Parses the data of a THREAD response, `(1 2)(3 (4)(5))`, into the UIDs
/// of each top-level thread. Anything malformed ends the current thread
/// and the parse goes on; unbalanced parentheses and junk cannot make it
/// fail or go deep (it counts depth, it does not recurse).
pub fn parse_thread(data: &str) -> Vec<Vec<u32>> {
    let mut groups = Vec::new();
    let mut current: Vec<u32> = Vec::new();
    let mut depth: u32 = 0;
    let mut number: Option<u32> = None;
    for c in data.chars() {
        if let Some(digit) = c.to_digit(10) {
            number = Some(number.unwrap_or(0).saturating_mul(10).saturating_add(digit));
            continue;
        }
        if let Some(n) = number.take()
            && depth > 0
            && n > 0
        {
            current.push(n);
        }
        match c {
            '(' => depth = depth.saturating_add(1),
            ')' if depth > 0 => {
                depth -= 1;
                if depth == 0 && !current.is_empty() {
                    groups.push(std::mem::take(&mut current));
                }
            }
            _ => {}
        }
    }
    if let Some(n) = number
        && depth > 0
        && n > 0
    {
        current.push(n);
    }
    if !current.is_empty() {
        groups.push(current);
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::parse_thread;

    #[test]
    fn reads_rfc_5256_examples_and_survives_junk() {
        assert_eq!(
            parse_thread(" (2)(3 6 (4 23)(44 7 96))"),
            [vec![2], vec![3, 6, 4, 23, 44, 7, 96]]
        );
        assert_eq!(parse_thread(" ((3)(5))(1 2)"), [vec![3, 5], vec![1, 2]]);
        assert!(parse_thread("").is_empty());
        assert!(parse_thread(")))(((").is_empty());
        assert_eq!(parse_thread("(1 (2"), [vec![1, 2]]);
        assert_eq!(parse_thread("(99999999999999 0 x5)"), [vec![u32::MAX, 5]]);
        let deep = format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
        assert_eq!(parse_thread(&deep), [vec![1]]);
    }
}
