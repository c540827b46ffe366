//! The fleet governor against a real server on a manual clock, with a
//! `command` engine that records each start: sessions cut off by a SIGKILL
//! of the server come back paced and none is lost; a refill check with more
//! candidates than its batch revives the most recently active and says why
//! it skipped the rest; pause and resume; the memory guard (a fake meminfo
//! standing in for `/proc/meminfo`) holds an agent's spawn and not the
//! user's, and lets it go once memory frees.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::{Value, json};

/// `worker` appends a line to `starts-<id>` at every start, then works (sleeps).
fn server(args: &[&str]) -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let worker = format!(
        "echo started >> {}/starts-$APP_SESSION_ID; exec sleep 300",
        scratch.path().display()
    );
    let toml = format!(
        "[engines.worker]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {worker:?}]\n"
    );
    std::fs::write(dir.path().join("engines.toml"), toml).unwrap();
    TestServer::start_in_with(dir, args).keeping(scratch)
}

fn starts(server: &TestServer, id: &str) -> usize {
    std::fs::read_to_string(server.scratch().join(format!("starts-{id}")))
        .map(|text| text.lines().count())
        .unwrap_or(0)
}

fn user_spawn(server: &TestServer, cookie: &str) -> String {
    let reply = server.browser_spawn(cookie, &json!({"engine": "worker", "prompt": "work"}));
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()["id"].as_str().unwrap().to_owned()
}

fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !done() {
        assert!(Instant::now() < deadline, "timed out: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn advance(server: &TestServer, ms: i64) {
    let moved = server.call("POST", "/test/clock", Some(&json!({"advanceMs": ms})));
    assert_eq!(moved.status, 204, "{}", moved.text());
}

fn status(server: &TestServer, id: &str) -> Value {
    server.call("GET", &format!("/sessions/{id}"), None).json()
}

#[test]
fn sessions_cut_off_by_a_crash_come_back_paced_and_none_is_lost() {
    let server = server(&["--manual-clock"]);
    server.set_setting("sessionRestartSpacingSeconds", json!(5));
    server.set_setting("sessionRestartSpacingWarmupMinutes", json!(0));
    let cookie = server.browser_cookie();
    let ids: Vec<String> = (0..5).map(|_| user_spawn(&server, &cookie)).collect();
    for id in &ids {
        wait_until("every session started", || starts(&server, id) == 1);
    }

    let server = server.crash_and_restart_with(&["--manual-clock"]);
    // The first comes back at once; each next one 5 s of the clock later.
    let returned = |server: &TestServer| ids.iter().filter(|id| starts(server, id) == 2).count();
    wait_until("the first returned", || returned(&server) == 1);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(returned(&server), 1, "the others wait for their slot");
    let waiting: Vec<Value> = ids
        .iter()
        .map(|id| status(&server, id))
        .filter(|s| s["status"] == "queued")
        .collect();
    assert_eq!(waiting.len(), 4);
    for step in 2..=5 {
        advance(&server, 5_000);
        wait_until("the next returned", || returned(&server) == step);
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(returned(&server), step, "one start per slot");
    }
    for id in &ids {
        assert_eq!(server.wait_for_status(id, "running")["status"], "running");
    }
}

#[test]
fn a_refill_check_revives_the_most_recent_up_to_its_batch_and_says_why_not_the_rest() {
    let server = server(&["--manual-clock"]);
    server.set_setting("autoResumeOnCrash", json!(false));
    let cookie = server.browser_cookie();
    let mut ids = Vec::new();
    for _ in 0..4 {
        let id = user_spawn(&server, &cookie);
        wait_until("started", || starts(&server, &id) == 1);
        ids.push(id);
        // Each a second apart on the clock, so "most recently active" is an order.
        advance(&server, 1_000);
    }
    let paused = user_spawn(&server, &cookie);
    wait_until("started", || starts(&server, &paused) == 1);
    let reply = server.call("POST", &format!("/sessions/{paused}/pause"), None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["status"], "paused");
    assert_eq!(reply.json()["stopReason"], "stopped");

    let server = server.crash_and_restart_with(&["--manual-clock"]);
    for id in &ids {
        let session = status(&server, id);
        assert_eq!(session["status"], "interrupted");
        assert_eq!(session["stopReason"], "interrupted");
    }
    server.set_setting("sessionRefillBatch", json!(2));
    server.set_setting("sessionRefillTargetCount", json!(10));
    let check = server.call("POST", "/governor/check", None);
    assert_eq!(check.status, 200, "{}", check.text());
    let check = check.json();
    assert_eq!(check["running"], 0);
    assert_eq!(check["target"], 10);
    // Most recently active first: the last one spawned.
    assert_eq!(check["revived"], json!([ids[3], ids[2]]));
    let skipped: Vec<(String, String)> = check["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["id"].as_str().unwrap().to_owned(),
                s["reason"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert!(
        skipped.contains(&(paused.clone(), "paused".to_owned())),
        "{skipped:?}"
    );
    assert!(skipped.contains(&(ids[1].clone(), "target_reached".to_owned())));
    assert!(skipped.contains(&(ids[0].clone(), "target_reached".to_owned())));
    // Paced: one at once, the other one spacing (2 s built in) later.
    let revived = |server: &TestServer| {
        [&ids[3], &ids[2]]
            .into_iter()
            .filter(|id| starts(server, id) == 2)
            .count()
    };
    wait_until("the first revived", || revived(&server) == 1);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(revived(&server), 1, "the second waits for its slot");
    advance(&server, 2_000);
    wait_until("the second revived", || revived(&server) == 2);
    for id in [&ids[3], &ids[2]] {
        server.wait_for_status(id, "running");
    }
    let listed = server.call("GET", "/governor", None).json();
    assert_eq!(listed["checks"][0]["revived"], check["revived"]);

    // The user's resume is immediate.
    let resumed = server.call("POST", &format!("/sessions/{paused}/resume"), None);
    assert_eq!(resumed.status, 200, "{}", resumed.text());
    wait_until("resumed", || starts(&server, &paused) == 2);
    let again = server.call("POST", &format!("/sessions/{paused}/resume"), None);
    assert_eq!(again.status, 409, "{}", again.text());
}

fn meminfo(path: &Path, used_percent: u64) {
    let total = 16_000_000;
    let available = total * (100 - used_percent) / 100;
    std::fs::write(
        path,
        format!("MemTotal:       {total} kB\nMemFree:         100000 kB\nMemAvailable:   {available} kB\n"),
    )
    .unwrap();
}

#[test]
fn the_memory_guard_holds_an_agents_spawn_and_never_the_users() {
    let files = tempfile::tempdir().unwrap();
    let fake = files.path().join("meminfo");
    meminfo(&fake, 92);
    let server = server(&["--meminfo-file", fake.to_str().unwrap()]);
    server.set_setting("sessionMemoryGuardEnabled", json!(true));
    server.set_setting("sessionMemoryGuardPercent", json!(90));
    server.set_setting("requireSpawnSourceSession", json!(false));
    server.set_setting("agentDrivenSessionsEnabled", json!(true));

    let spawned = server.call(
        "POST",
        "/sessions",
        Some(&json!({"engine": "worker", "prompt": "burst"})),
    );
    assert_eq!(spawned.status, 201, "{}", spawned.text());
    let agents = spawned.json()["id"].as_str().unwrap().to_owned();
    let users = user_spawn(&server, &server.browser_cookie());
    wait_until("the user's session started", || {
        starts(&server, &users) == 1
    });
    wait_until("the agent's spawn is held", || {
        let events = server
            .call("GET", &format!("/sessions/{agents}/transcript"), None)
            .text();
        events.contains("held by the memory guard")
    });
    assert_eq!(status(&server, &agents)["status"], "queued");
    assert_eq!(starts(&server, &agents), 0);

    meminfo(&fake, 60);
    wait_until("the held spawn started", || starts(&server, &agents) == 1);
    server.wait_for_status(&agents, "running");
}

/// A fake Claude Code whose first run ends with `first` (a `result` line, exit
/// 1) and every later run succeeds; each run appends to `runs-<id>`.
fn claude_server(first: &str, args: &[&str]) -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let runs = format!("{}/runs-$APP_SESSION_ID", scratch.path().display());
    let ok = r#"{"type":"result","subtype":"success","is_error":false,"result":"Done.","session_id":"s1","total_cost_usd":0.01}"#;
    let script = format!(
        "echo run >> {runs}; if [ \"$(wc -l < {runs})\" -eq 1 ]; then printf '%s\\n' {first:?}; exit 1; fi; printf '%s\\n' {ok:?}"
    );
    let toml = format!(
        "[engines.claude]\nkind = \"claude\"\ncommand = [\"/bin/sh\", \"-c\", {script:?}, \"claude\"]\n"
    );
    std::fs::write(dir.path().join("engines.toml"), toml).unwrap();
    TestServer::start_in_with(dir, args).keeping(scratch)
}

fn runs(server: &TestServer, id: &str) -> usize {
    std::fs::read_to_string(server.scratch().join(format!("runs-{id}")))
        .map(|text| text.lines().count())
        .unwrap_or(0)
}

fn claude_session(server: &TestServer) -> String {
    let reply = server.browser_spawn(
        &server.browser_cookie(),
        &json!({"engine": "claude", "prompt": "work"}),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()["id"].as_str().unwrap().to_owned()
}

#[test]
fn an_overload_is_retried_after_a_gap_and_a_genuine_error_is_not() {
    let overloaded = r#"{"type":"result","subtype":"success","is_error":true,"result":"API Error: 529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}","session_id":"s1"}"#;
    let server = claude_server(overloaded, &["--manual-clock"]);
    let id = claude_session(&server);
    let session = server.wait_for_status(&id, "interrupted");
    assert!(session["resumeAt"].is_string(), "{session}");
    assert_eq!(runs(&server, &id), 1);
    advance(&server, 29_000);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(runs(&server, &id), 1, "not before its gap");
    advance(&server, 1_000);
    let session = server.wait_for_status(&id, "waiting_for_input");
    assert_eq!(runs(&server, &id), 2);
    assert!(session["resumeAt"].is_null());
    // The retry answered the same prompt.
    let transcript = server
        .call("GET", &format!("/sessions/{id}/transcript"), None)
        .json();
    let inputs: Vec<&str> = transcript["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["input"].as_str().unwrap())
        .collect();
    assert_eq!(inputs, ["work", "work"]);

    let genuine = r#"{"type":"result","subtype":"success","is_error":true,"result":"Invalid API key · Please run /login","session_id":"s1"}"#;
    let server = claude_server(genuine, &["--manual-clock"]);
    let id = claude_session(&server);
    let session = server.wait_for_status(&id, "failed");
    assert_eq!(session["stopReason"], "failed");
    advance(&server, 3_600_000);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(runs(&server, &id), 1);
}

#[test]
fn a_usage_limit_interrupts_until_its_reset_then_resumes() {
    // The clock starts at a known moment, so the limit's reset is known too.
    let start_ms: i64 = 1_800_000_000_000;
    let reset = start_ms / 1000 + 3_600;
    let limited = format!(
        r#"{{"type":"result","subtype":"success","is_error":true,"result":"Claude AI usage limit reached|{reset}","session_id":"s1"}}"#
    );
    let server = claude_server(
        &limited,
        &[
            "--manual-clock",
            "--manual-clock-start-ms",
            &start_ms.to_string(),
        ],
    );
    let id = claude_session(&server);
    let session = server.wait_for_status(&id, "interrupted");
    assert_eq!(session["resumeAt"], "2027-01-15T09:00:00.000Z");
    assert_eq!(session["stopReason"], "interrupted");
    // The governor leaves it: it recovers by itself.
    let check = server.call("POST", "/governor/check", None).json();
    assert_eq!(check["skipped"][0]["reason"], "recovering", "{check}");
    advance(&server, 3_599_000);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(runs(&server, &id), 1);
    advance(&server, 1_000);
    server.wait_for_status(&id, "waiting_for_input");
    assert_eq!(runs(&server, &id), 2);
}

fn entries_text(server: &TestServer, id: &str) -> String {
    server
        .call(
            "GET",
            &format!("/sessions/{id}/transcript?format=json"),
            None,
        )
        .text()
}

#[test]
fn a_silent_idle_turn_is_restarted_with_a_nudge() {
    let server = server(&["--manual-clock"]);
    let id = user_spawn(&server, &server.browser_cookie());
    wait_until("started", || starts(&server, &id) == 1);
    server.wait_for_status(&id, "running");
    // A minute of the clock at a time: the watch looks once a minute, and
    // its first look may still see the engine's start-up CPU.
    let mut restarted_after = None;
    for minute in 1..=12 {
        std::thread::sleep(Duration::from_millis(150));
        advance(&server, 60_000);
        let looked = Instant::now();
        while starts(&server, &id) < 2 && looked.elapsed() < Duration::from_millis(500) {
            std::thread::sleep(Duration::from_millis(20));
        }
        if starts(&server, &id) == 2 {
            restarted_after = Some(minute);
            break;
        }
    }
    let minute = restarted_after.expect("restarted within twelve minutes");
    assert!(
        (10..=11).contains(&minute),
        "restarted after {minute} minutes"
    );
    let entries = entries_text(&server, &id);
    assert!(entries.contains("stopped responding"), "{entries}");
    let events = server
        .call("GET", &format!("/sessions/{id}/transcript"), None)
        .text();
    assert!(
        events.contains("no output and no CPU for 10 minutes"),
        "{events}"
    );

    // Off: a quiet turn is left alone.
    server.set_setting("autoRestartUnresponsiveSessions", json!(false));
    std::thread::sleep(Duration::from_millis(200));
    advance(&server, 60 * 60_000);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(starts(&server, &id), 2);
}

#[test]
fn a_turn_repeating_one_tool_call_is_stopped_and_relaunched_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let runs_file = format!("{}/runs-$APP_SESSION_ID", scratch.path().display());
    let call = r#"{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}"#;
    let ok = r#"{"type":"result","subtype":"success","is_error":false,"result":"Done.","session_id":"s1"}"#;
    let script = format!(
        "echo run >> {runs_file}; if [ \"$(wc -l < {runs_file})\" -eq 1 ]; then for i in 1 2 3 4 5 6; do printf '%s\\n' {call:?}; done; exec sleep 300; fi; printf '%s\\n' {ok:?}"
    );
    let toml = format!(
        "[engines.claude]\nkind = \"claude\"\ncommand = [\"/bin/sh\", \"-c\", {script:?}, \"claude\"]\n"
    );
    std::fs::write(dir.path().join("engines.toml"), toml).unwrap();
    let server = TestServer::start_in_with(dir, &[]).keeping(scratch);
    let id = claude_session(&server);
    server.wait_for_status(&id, "waiting_for_input");
    assert_eq!(runs(&server, &id), 2);
    let entries = entries_text(&server, &id);
    assert!(
        entries.contains("You called Bash with the same input 4 times in a row"),
        "{entries}"
    );
}

#[test]
fn engines_run_below_normal_priority_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    // Field 19 of /proc/<pid>/stat is the niceness (awk's own: a child of sh).
    let nice = format!(
        "awk '{{print $19}}' /proc/self/stat > {}/nice-$APP_SESSION_ID",
        scratch.path().display()
    );
    let toml =
        format!("[engines.nice]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {nice:?}]\n");
    std::fs::write(dir.path().join("engines.toml"), toml).unwrap();
    let server = TestServer::start_in_with(dir, &[]).keeping(scratch);
    let cookie = server.browser_cookie();
    let niceness = |id: &str| -> i64 {
        let path = server.scratch().join(format!("nice-{id}"));
        wait_until("niceness recorded", || {
            std::fs::read_to_string(&path).is_ok_and(|t| !t.trim().is_empty())
        });
        std::fs::read_to_string(&path)
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    };
    let spawn = || {
        let reply = server.browser_spawn(&cookie, &json!({"engine": "nice", "prompt": "p"}));
        assert_eq!(reply.status, 201, "{}", reply.text());
        reply.json()["id"].as_str().unwrap().to_owned()
    };
    let normal = niceness(&spawn());
    server.set_setting("sessionTreeBelowNormalPriority", json!(true));
    let lowered = niceness(&spawn());
    assert_eq!(lowered, (normal + 10).min(19));
}

/// Claude Code states the model's window in its result's `modelUsage`; that
/// window, not the table's, is what the context notes measure against.
#[test]
fn the_context_notes_use_the_window_the_cli_states() {
    let dir = tempfile::tempdir().unwrap();
    // 160,000 tokens read by a model the table lacks (stated: 200,000, so
    // 80 %) or by one it knows at 200,000 (stated: 1,000,000, so 16 %).
    let lines = |model: &str, window: u64| {
        [
            format!(r#"{{"type":"system","subtype":"init","session_id":"s1","model":"{model}"}}"#),
            format!(
                r#"{{"type":"assistant","message":{{"id":"m1","model":"{model}","content":[{{"type":"text","text":"Working."}}],"usage":{{"input_tokens":1000,"cache_creation_input_tokens":9000,"cache_read_input_tokens":150000,"output_tokens":20}}}}}}"#
            ),
            format!(
                r#"{{"type":"result","subtype":"success","is_error":false,"result":"Done.","session_id":"s1","modelUsage":{{"{model}":{{"inputTokens":1000,"outputTokens":20,"cacheReadInputTokens":150000,"cacheCreationInputTokens":9000,"webSearchRequests":0,"costUSD":0.01,"contextWindow":{window},"maxOutputTokens":64000}}}}}}"#
            ),
        ]
        .iter()
        .map(|line| format!("{line:?}"))
        .collect::<Vec<_>>()
        .join(" ")
    };
    let script = format!(
        "case \"$2\" in *FUTURE*) printf '%s\\n' {future} ;; *) printf '%s\\n' {long} ;; esac",
        future = lines("claude-future-9", 200_000),
        long = lines("claude-sonnet-4-5-20250929", 1_000_000),
    );
    let toml = format!(
        "[engines.claude]\nkind = \"claude\"\ncommand = [\"/bin/sh\", \"-c\", {script:?}, \"claude\"]\n"
    );
    std::fs::write(dir.path().join("engines.toml"), toml).unwrap();
    let server = TestServer::start_in_with(dir, &[]);
    server.set_setting("contextWarning75Enabled", json!(true));
    let cookie = server.browser_cookie();
    let spawn = |prompt: &str| {
        let reply = server.browser_spawn(&cookie, &json!({"engine": "claude", "prompt": prompt}));
        assert_eq!(reply.status, 201, "{}", reply.text());
        let id = reply.json()["id"].as_str().unwrap().to_owned();
        // Its note, if any, is stored before the session waits for input.
        server.wait_for_status(&id, "waiting_for_input");
        entries_text(&server, &id)
    };
    let future = spawn("FUTURE work");
    assert!(
        future.contains("Context is 80% full (160,000 of 200,000 tokens)"),
        "{future}"
    );
    let long = spawn("long work");
    assert!(long.contains("Working."), "{long}");
    assert!(!long.contains("Context is"), "{long}");
}

#[test]
fn a_filling_context_is_announced_and_a_full_one_compacted_and_continued() {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let runs_file = format!("{}/runs-$APP_SESSION_ID", scratch.path().display());
    // Run 1 reads 160,000 tokens of a 200,000 window (80 %); run 2 is told
    // the prompt no longer fits; runs 3 (/compact) and 4 (continue) succeed.
    let init = r#"{"type":"system","subtype":"init","session_id":"s1","model":"claude-sonnet-4-5-20250929"}"#;
    let filling = r#"{"type":"assistant","message":{"id":"m1","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":"Working."}],"usage":{"input_tokens":1000,"cache_creation_input_tokens":9000,"cache_read_input_tokens":150000,"output_tokens":20}}}"#;
    let full = r#"{"type":"result","subtype":"success","is_error":true,"result":"API Error: 400 prompt is too long: 201234 tokens > 200000 maximum","session_id":"s1"}"#;
    let ok = r#"{"type":"result","subtype":"success","is_error":false,"result":"Done.","session_id":"s1"}"#;
    let script = format!(
        "printf '%s\\n' \"$(printf '%s' \"$2\" | tr '\\n' ' ')\" >> {runs_file}; n=$(wc -l < {runs_file}); printf '%s\\n' {init:?}; \
         if [ $n -eq 1 ]; then printf '%s\\n' {filling:?}; fi; \
         if [ $n -eq 2 ]; then printf '%s\\n' {full:?}; exit 1; fi; printf '%s\\n' {ok:?}"
    );
    let toml = format!(
        "[engines.claude]\nkind = \"claude\"\ncommand = [\"/bin/sh\", \"-c\", {script:?}, \"claude\"]\n"
    );
    std::fs::write(dir.path().join("engines.toml"), toml).unwrap();
    let server = TestServer::start_in_with(dir, &[]).keeping(scratch);
    server.set_setting("contextWarning75Enabled", json!(true));
    let id = claude_session(&server);
    server.wait_for_status(&id, "waiting_for_input");
    let entries = entries_text(&server, &id);
    assert!(entries.contains("Context is 80% full"), "{entries}");

    // As the user sends it, from the web app.
    let cookie = server.browser_cookie();
    let body = json!({"text": "next step"}).to_string();
    let sent = common::request(
        &server.ui,
        "POST",
        &format!("/api/sessions/{id}/messages"),
        &[("Cookie", &cookie), ("Content-Type", "application/json")],
        Some(body.as_bytes()),
    );
    assert!(sent.status < 300, "{}", sent.text());
    wait_until("compacted and continued", || runs(&server, &id) == 4);
    server.wait_for_status(&id, "waiting_for_input");
    let prompts: Vec<String> = std::fs::read_to_string(server.scratch().join(format!("runs-{id}")))
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    // Each prompt on one line (a first turn's carries Switchboard's preamble).
    assert_eq!(prompts[2].trim(), "/compact");
    assert!(
        prompts[3].contains("Your context was compacted"),
        "{prompts:?}"
    );
    let entries = entries_text(&server, &id);
    assert!(entries.contains("The context window was full"), "{entries}");
}
