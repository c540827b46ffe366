//! Codex 0.169.0 as the `second` engine.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;
use standins::{Api, Message, Reply, Reset, Usage};

use crate::rig::Rig;

/// What the stand-in was scripted to report for the `n`-th reply (from 0):
/// distinct figures per reply, so a sum and a last value differ.
fn reply_usage(n: u64) -> Usage {
    Usage {
        input: 600 + 100 * n,
        cache_read: 1000,
        cache_write: 0,
        output: 10 * (n + 1),
    }
}

/// A plain turn and three follow-ups on a `$HOME` with no Codex history:
/// each follow-up resumes the same thread and the stand-in sees the earlier
/// turns. Codex's `turn.completed.usage` restates the thread's running total
/// on every resume (docs/engines.md), so the session's tokens are the sum of
/// all four replies' usage, which is Codex's last report, not the sum of its
/// four reports.
#[test]
fn a_turn_and_three_follow_ups_resume_one_thread() {
    let Some(rig) = Rig::start(Api::OpenAi, &[]) else {
        return;
    };
    for (n, reply) in ["One.", "Two.", "Three.", "Four."].iter().enumerate() {
        rig.standin
            .push(Message::text(*reply).usage(reply_usage(n as u64)));
    }
    let id = rig.spawn("first");
    let mut session = rig.wait_turn(&id, 1);
    assert_eq!(session["status"], "waiting_for_input", "{session}");
    let thread = session["engineSessionId"].as_str().unwrap().to_owned();
    for (turn, text) in [(2, "second"), (3, "third"), (4, "fourth")] {
        rig.send(&id, text);
        session = rig.wait_turn(&id, turn);
        assert_eq!(session["status"], "waiting_for_input", "{session}");
        assert_eq!(session["engineSessionId"], thread.as_str());
    }
    let requests = rig.standin.main_requests();
    assert_eq!(requests.len(), 4, "{session}\n{:#?}", rig.transcript(&id));
    let last = requests[3].body["input"].to_string();
    for earlier in ["first", "second", "third", "One.", "Two.", "Three."] {
        assert!(last.contains(earlier), "{earlier} missing from {last}");
    }
    assert_eq!(session["engineVersion"], "0.169.0");
    assert!(session["costUsd"].is_null());
    // Codex's fourth report: 1600+1700+1800+1900 input (cache reads
    // included), 4000 of them cached, 10+20+30+40 output. Summing its
    // reports would give 16000 / 10000 / 200.
    let usage: Vec<Usage> = (0..4).map(reply_usage).collect();
    let input: u64 = usage.iter().map(|u| u.input + u.cache_read).sum();
    assert_eq!(input, 7000);
    assert_eq!(
        session["tokens"],
        json!({"input": 7000, "cachedInput": 4000, "output": 100}),
        "{session}"
    );
}

/// The text of the `function_call_output` the stand-in received for
/// `call_id` (Codex sends it in the next request's `input`).
fn function_output(rig: &Rig, call_id: &str) -> Option<String> {
    rig.standin.main_requests().iter().find_map(|request| {
        request.body["input"].as_array()?.iter().find_map(|item| {
            let output = (item["type"] == "function_call_output" && item["call_id"] == call_id)
                .then(|| &item["output"])?;
            Some(
                output
                    .as_str()
                    .map_or_else(|| output.to_string(), str::to_owned),
            )
        })
    })
}

fn exec(call_id: &str, cmd: &str) -> Message {
    Message::tool_call(call_id, "exec_command", json!({ "cmd": cmd }))
}

fn set_level(rig: &Rig, level: &str) {
    rig.server.set_setting("agentPermissionLevel", json!(level));
}

/// A rig at `level` whose first turn ran each `(call id, command)` through
/// `exec_command` and then ended.
fn run_commands(level: &str, commands: &[(&str, &str)]) -> Option<Rig> {
    let rig = Rig::start(Api::OpenAi, &[])?;
    set_level(&rig, level);
    for (call_id, cmd) in commands {
        rig.standin.push(exec(call_id, cmd));
    }
    rig.standin.push(Message::text("Done."));
    let id = rig.spawn("run the commands");
    let session = rig.wait_turn(&id, 1);
    assert_eq!(session["status"], "waiting_for_input", "{session}");
    Some(rig)
}

/// A folder outside the workspace, under `/var/tmp`, which workspace-write
/// does not open as it does `/tmp`; the command that writes a file there.
fn outside() -> (tempfile::TempDir, std::path::PathBuf, String) {
    let dir = tempfile::tempdir_in("/var/tmp").unwrap();
    let file = dir.path().join("outside.txt");
    let cmd = format!("echo outside > {}", file.display());
    (dir, file, cmd)
}

/// At `guarded` Codex runs with `--sandbox workspace-write`, and its own
/// bubblewrap works inside Switchboard's sandbox (it failed with "bwrap:
/// Failed to make / slave" under Landlock alone): a write in the workspace
/// happens, a write outside it is refused by Codex and the model is told so.
#[test]
fn guarded_writes_inside_the_workspace_and_codex_refuses_outside() {
    let (_dir, outside_file, outside_cmd) = outside();
    let Some(rig) = run_commands(
        "guarded",
        &[
            ("call_in", "echo inside > inside.txt"),
            ("call_out", &outside_cmd),
        ],
    ) else {
        return;
    };
    assert_eq!(
        std::fs::read_to_string(rig.work.path().join("inside.txt")).unwrap(),
        "inside\n"
    );
    let inside = function_output(&rig, "call_in").unwrap();
    assert!(inside.contains("exited with code 0"), "{inside}");
    assert!(!outside_file.exists());
    let refused = function_output(&rig, "call_out").unwrap();
    assert!(refused.contains("Read-only file system"), "{refused}");
    assert!(!refused.contains("bwrap"), "{refused}");
}

/// At `full` (`--sandbox danger-full-access`) the same write outside the
/// workspace happens: what refused it at `guarded` was Codex's sandbox, not
/// Switchboard's.
#[test]
fn full_writes_outside_the_workspace() {
    let (_dir, outside_file, outside_cmd) = outside();
    let Some(_rig) = run_commands("full", &[("call_out", &outside_cmd)]) else {
        return;
    };
    assert_eq!(std::fs::read_to_string(&outside_file).unwrap(), "outside\n");
}

/// At `read_only` (`--sandbox read-only`) even the workspace is refused.
#[test]
fn read_only_refuses_a_write_in_the_workspace() {
    let Some(rig) = run_commands("read_only", &[("call_in", "echo inside > inside.txt")]) else {
        return;
    };
    assert!(!rig.work.path().join("inside.txt").exists());
    let refused = function_output(&rig, "call_in").unwrap();
    assert!(refused.contains("Read-only file system"), "{refused}");
}

/// Points Codex at a model it has no metadata for, so its first turn opens
/// with the "Model metadata … not found" warning item.
fn use_unknown_model(home: &Path) {
    let path = home.join(".codex/config.toml");
    let config = std::fs::read_to_string(&path).unwrap();
    let changed = config.replacen("model = \"gpt-5.5\"", "model = \"standin-model\"", 1);
    assert_ne!(changed, config);
    std::fs::write(&path, changed).unwrap();
}

/// Codex's warning items (`item.completed` of type `error`, the turn going
/// on) are `notice` entries: the transcript has no `error` and the session
/// did not fail.
#[test]
fn a_warning_item_is_a_notice_not_an_error() {
    let Some(rig) = Rig::start(Api::OpenAi, &[]) else {
        return;
    };
    use_unknown_model(rig.home());
    rig.standin.push(Message::text("Fine."));
    let id = rig.spawn("hello");
    let session = rig.wait_turn(&id, 1);
    assert_eq!(session["status"], "waiting_for_input", "{session}");
    assert!(session["error"].is_null(), "{session}");
    let entries = rig
        .server
        .call(
            "GET",
            &format!("/sessions/{id}/transcript?format=json"),
            None,
        )
        .json();
    let all = entries.to_string();
    let kinds: Vec<&str> = entries["entries"]
        .as_array()
        .unwrap_or_else(|| panic!("{entries}"))
        .iter()
        .filter_map(|entry| entry["kind"].as_str())
        .collect();
    assert!(!kinds.contains(&"error"), "{all}");
    let notice = entries["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|entry| entry["kind"] == "notice")
        .unwrap_or_else(|| panic!("no notice: {all}"));
    assert!(
        notice
            .to_string()
            .contains("Model metadata for `standin-model` not found"),
        "{notice}"
    );
    assert_eq!(
        rig.standin.main_requests()[0].body["model"],
        "standin-model"
    );
}

/// Switchboard's own MCP server reaches Codex through `-c mcp_servers.…`.
/// The model searches the deferred tools, then calls `read_session` on its
/// own session: the result the stand-in receives is that session's JSON.
/// Codex runs a tool marked read-only without asking, but `codex exec`
/// refuses any other ("MCP tool call requires approval, but approval policy
/// is never") unless the entry approves them: `post_alert` reaches the
/// inbox.
#[test]
fn switchboards_own_mcp_tool_is_called_through_codexs_mcp_servers() {
    let Some(rig) = Rig::start(Api::OpenAi, &[]) else {
        return;
    };
    set_level(&rig, "guarded");
    rig.standin
        .push(Message::tool_search("call_search", "read_session"));
    // The call names the session, known once spawned; Codex takes well
    // over the moment this needs to start and search first.
    let id = rig.spawn("read yourself");
    rig.standin.push(Message::tool_call(
        "call_read",
        "mcp__switchboard__read_session",
        json!({ "sessionId": id }),
    ));
    rig.standin.push(Message::tool_call(
        "call_alert",
        "mcp__switchboard__post_alert",
        json!({ "title": "From Codex", "body": "through MCP" }),
    ));
    rig.standin.push(Message::text("Read."));
    let session = rig.wait_turn(&id, 1);
    assert_eq!(session["status"], "waiting_for_input", "{session}");
    let requests = rig.standin.main_requests();
    assert_eq!(requests.len(), 4, "{:#?}", rig.transcript(&id));
    assert!(
        requests[0].body_text().contains("mcp__switchboard"),
        "the namespace is not offered: {}",
        requests[0].body_text()
    );
    let output = function_output(&rig, "call_read").unwrap();
    assert!(output.contains(&format!("\"id\":\"{id}\"")), "{output}");
    assert!(output.contains("\"engine\":\"second\""), "{output}");
    let alert = function_output(&rig, "call_alert").unwrap();
    assert!(!alert.contains("requires approval"), "{alert}");
    let inbox = rig
        .server
        .call("GET", "/inbox?category=alert", None)
        .json()
        .to_string();
    assert!(inbox.contains("From Codex"), "{alert}\n{inbox}");
}

/// Processes one of whose arguments `matches`, from `/proc`.
fn processes(matches: impl Fn(&str) -> bool) -> Vec<u32> {
    let mut found = vec![];
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline);
        if cmdline.split('\0').any(&matches) {
            found.push(pid);
        }
    }
    found
}

/// Codex processes of this rig: the Node launcher (`codex.js`) or the
/// native `codex`, whose `HOME` is the rig's.
fn codex_processes(home: &Path) -> Vec<u32> {
    let home = format!("HOME={}", home.display());
    processes(|arg| {
        Path::new(arg)
            .file_name()
            .is_some_and(|name| name == "codex" || name == "codex.js")
    })
    .into_iter()
    .filter(|pid| {
        std::fs::read(format!("/proc/{pid}/environ"))
            .is_ok_and(|env| env.split(|b| *b == 0).any(|var| var == home.as_bytes()))
    })
    .collect()
}

/// A process's command line, `stat` and whether its environment names a
/// Switchboard session, for a failure to show.
fn describe(pid: u32) -> String {
    let read = |file: &str| {
        String::from_utf8_lossy(&std::fs::read(format!("/proc/{pid}/{file}")).unwrap_or_default())
            .replace('\0', " ")
    };
    let session = read("environ")
        .split(' ')
        .find(|var| var.starts_with("APP_SESSION_ID="))
        .map(str::to_owned);
    let cmdline: String = read("cmdline").chars().take(60).collect();
    format!("{pid}: {session:?} | {} | {cmdline}", read("stat"))
}

/// Stopping a session while Codex runs `sleep`: Codex and the sleep are
/// gone within 5 s and the session is `stopped`.
#[test]
fn stop_mid_command_ends_codex_and_its_command() {
    let Some(rig) = Rig::start(Api::OpenAi, &[]) else {
        return;
    };
    set_level(&rig, "autonomous");
    // A duration no other process has, to find this very sleep.
    let seconds = format!("30.{}", std::process::id());
    rig.standin
        .push(exec("call_sleep", &format!("sleep {seconds}")));
    rig.standin.push(Message::text("Slept."));
    let id = rig.spawn("sleep");
    let deadline = Instant::now() + Duration::from_secs(60);
    while processes(|arg| arg.contains(&seconds)).is_empty() {
        assert!(Instant::now() < deadline, "the sleep never started");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!codex_processes(rig.home()).is_empty());
    let reply = rig
        .server
        .call("POST", &format!("/sessions/{id}/stop"), Some(&json!({})));
    assert!(reply.status < 300, "{}", reply.text());
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let left = (
            processes(|arg| arg.contains(&seconds)),
            codex_processes(rig.home()),
        );
        if left.0.is_empty() && left.1.is_empty() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "still running: {:?}",
            left.0
                .iter()
                .chain(&left.1)
                .map(|pid| describe(*pid))
                .collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let session = rig.server.wait_for_status(&id, "stopped");
    assert_eq!(session["stopReason"], "stopped", "{session}");
    assert_eq!(rig.standin.main_requests().len(), 1);
}

fn advance(rig: &Rig, ms: i64) {
    let moved = rig
        .server
        .call("POST", "/test/clock", Some(&json!({"advanceMs": ms})));
    assert_eq!(moved.status, 204, "{}", moved.text());
}

fn now_ms() -> i64 {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    i64::try_from(since.as_millis()).unwrap()
}

/// A rig whose server's clock stands at `start` (Unix ms) until moved.
fn on_manual_clock(start: i64) -> Option<Rig> {
    let start = start.to_string();
    Rig::start(
        Api::OpenAi,
        &["--manual-clock", "--manual-clock-start-ms", &start],
    )
}

/// `ms` as the API writes a moment (`2026-11-23T12:00:00.000Z`), by the
/// civil-from-days rule of the proleptic Gregorian calendar.
fn iso(ms: i64) -> String {
    let (days, of_day) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let (h, m, s, milli) = (
        of_day / 3_600_000,
        of_day / 60_000 % 60,
        of_day / 1000 % 60,
        of_day % 1000,
    );
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{milli:03}Z")
}

#[test]
fn iso_writes_moments_as_the_api_does() {
    assert_eq!(iso(1_800_000_000_000), "2027-01-15T08:00:00.000Z");
    assert_eq!(iso(951_782_400_123), "2000-02-29T00:00:00.123Z");
}

/// Codex's 503 `server_is_overloaded` ends its turn with "Selected model is
/// at capacity. Please try a different model.": an overload, so the session
/// is interrupted and sent again 30 s later (docs/governor.md), on the
/// server's clock.
#[test]
fn an_overloaded_api_is_retried_after_30_seconds() {
    let start = now_ms() / 1000 * 1000;
    let Some(rig) = on_manual_clock(start) else {
        return;
    };
    rig.standin.push(Reply::Overloaded);
    rig.standin.push(Message::text("Back."));
    let id = rig.spawn("work");
    let session = rig.server.wait_for_status(&id, "interrupted");
    assert_eq!(session["resumeAt"], iso(start + 30_000), "{session}");
    let transcript = rig.transcript(&id).to_string();
    assert!(
        transcript.contains("Selected model is at capacity"),
        "{transcript}"
    );
    assert_eq!(rig.standin.main_requests().len(), 1);
    advance(&rig, 30_000);
    let session = rig.wait_turn(&id, 2);
    assert_eq!(session["status"], "waiting_for_input", "{session}");
    let requests = rig.standin.main_requests();
    assert_eq!(requests.len(), 2);
    assert!(requests[1].body_text().contains("work"));
}

/// Codex's 429 `usage_limit_reached` ends its turn with "You’ve hit your
/// usage limit. … try again at 12:29 PM." (the reset in local time, to the
/// minute): the session waits for that moment (`resumeAt`) and resumes then.
#[test]
fn a_usage_limit_waits_for_its_reset() {
    let start = now_ms() / 1000 * 1000;
    // On a minute, so the clock time Codex prints is the reset itself; a
    // minute or two ahead, so it is a time of today (but just before
    // midnight).
    let reset = (start / 60_000 + 2) * 60_000;
    let Some(rig) = on_manual_clock(start) else {
        return;
    };
    rig.standin.push(Reply::UsageLimit(Reset {
        at: reset / 1000,
        after_seconds: u64::try_from((reset - start) / 1000).unwrap(),
    }));
    rig.standin.push(Message::text("Back."));
    let id = rig.spawn("work");
    let session = rig.server.wait_for_status(&id, "interrupted");
    assert_eq!(session["resumeAt"], iso(reset), "{session}");
    let transcript = rig.transcript(&id).to_string();
    assert!(transcript.contains("hit your usage limit"), "{transcript}");
    advance(&rig, reset - start - 1_000);
    assert_eq!(
        rig.server.wait_for_status(&id, "interrupted")["resumeAt"],
        iso(reset)
    );
    advance(&rig, 1_000);
    let session = rig.wait_turn(&id, 2);
    assert_eq!(session["status"], "waiting_for_input", "{session}");
    assert_eq!(rig.standin.main_requests().len(), 2);
}
