//! How long Claude Code waits on Switchboard for an allowed tool call:
//! `switchboard hook pre-tool-use` run as the engine runs it (a fresh
//! process, the hook's JSON on stdin, a live session's token in its
//! environment) against a `switchboard serve` of the same build, from the
//! process's start to its answer on stdout, p50 and p95 over many calls.
//! Printed, not asserted (issue 13 aims at under 15 ms).

mod support;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::{Value, json};
use support::{Addresses, HeldSession, Holder, percentile, signal_term, time_startup};

const CALLS: usize = 200;

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let holder = Holder::install(dir.path());
    let (_, mut child) = time_startup(dir.path());
    let server = Addresses::read(dir.path());
    let HeldSession { id, token, url } = holder.spawn(&server);
    let scratch = &holder.scratch;
    let input = json!({
        "session_id": "0b3c2f9e-5f1e-4c1a-9d7e-2a1f3c4d5e6f",
        "cwd": scratch.path(),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": "env"},
        "tool_use_id": "toolu_01",
    })
    .to_string();
    let mut samples = Vec::new();
    for n in 0..CALLS + 10 {
        let started = Instant::now();
        let mut hook = Command::new(env!("CARGO_BIN_EXE_switchboard"))
            .args(["hook", "pre-tool-use"])
            .env("APP_CLI_TOKEN", &token)
            .env("APP_CONTROL_URL", &url)
            .env("APP_SESSION_ID", &id)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("run the hook");
        hook.stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("write the input");
        let out = hook.wait_with_output().expect("the answer");
        let elapsed = started.elapsed();
        let answer: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        assert_eq!(
            answer["hookSpecificOutput"]["permissionDecision"], "allow",
            "{answer}"
        );
        // The first few warm the page cache and the server's connections.
        if n >= 10 {
            samples.push(elapsed);
        }
    }
    let (p50, p95) = (
        percentile(&mut samples, 0.5),
        percentile(&mut samples, 0.95),
    );
    println!(
        "hook pre-tool-use, allowed Read: start to answer p50 {p50:>8.2?}  p95 {p95:>8.2?}  ({CALLS} calls)"
    );
    signal_term(&child);
    child.wait().ok();
}
