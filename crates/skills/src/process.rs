//! One short exchange with an engine's program: JSON lines written to its
//! stdin, its stdout read until the answer comes, then the program and
//! whatever it started ended, all within a time limit.

use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// How long an engine may take to list: its start-up plus a file walk.
pub(crate) const TIMEOUT: Duration = Duration::from_secs(30);
/// The most of its output read before giving up on an answer.
const MAX_OUTPUT: usize = 16 << 20;

/// Starts `command`, writes `lines`, and gives back the first JSON line
/// `wanted` picks, or why none came. Stdin stays open until then: both
/// engines end when it closes, before answering.
pub(crate) async fn exchange(
    mut command: tokio::process::Command,
    lines: &[Value],
    wanted: impl Fn(&Value) -> bool,
) -> Result<Value, String> {
    let mut child = command
        .spawn()
        .map_err(|e| format!("it could not be started: {e}"))?;
    let group = child.id();
    let talk = async {
        let mut stdin = child.stdin.take().ok_or("it has no stdin")?;
        let stdout = child.stdout.take().ok_or("it has no stdout")?;
        let mut written = Vec::new();
        for line in lines {
            written.extend(line.to_string().into_bytes());
            written.push(b'\n');
        }
        stdin
            .write_all(&written)
            .await
            .map_err(|e| format!("it did not take the request: {e}"))?;
        stdin
            .flush()
            .await
            .map_err(|e| format!("it did not take the request: {e}"))?;
        let mut reader = BufReader::new(stdout);
        let mut read = 0;
        let mut line = String::new();
        loop {
            line.clear();
            let got = reader
                .read_line(&mut line)
                .await
                .map_err(|e| format!("its output could not be read: {e}"))?;
            if got == 0 {
                return Err("it ended without answering".to_owned());
            }
            read += got;
            if read > MAX_OUTPUT {
                return Err("it wrote too much without answering".to_owned());
            }
            if let Ok(value) = serde_json::from_str::<Value>(&line)
                && wanted(&value)
            {
                drop(stdin);
                return Ok(value);
            }
        }
    };
    let answer = tokio::time::timeout(TIMEOUT, talk).await;
    if let Some(group) = group.and_then(|pid| i32::try_from(pid).ok()) {
        // SAFETY: killpg only sends a signal; the group is the child's own
        // (it was started in a new process group).
        unsafe { libc::killpg(group, libc::SIGKILL) };
    }
    let _ = child.wait().await;
    answer.map_err(|_| format!("it did not answer within {} seconds", TIMEOUT.as_secs()))?
}
