//! Claude Code 2.1.330 as the `primary` engine.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use standins::{Api, Message, Recorded, Reply, Reset, Usage};

use crate::common::sse::Stream;
use crate::rig::Rig;

fn usage(input: u64, output: u64) -> Usage {
    Usage {
        input,
        cache_read: 1000,
        cache_write: 500,
        output,
    }
}

/// A plain turn and three follow-ups on a `$HOME` where Claude Code never
/// ran: each follow-up resumes the same conversation (the stand-in sees the
/// earlier messages), the session's cost is the CLI's own last cumulative
/// total and its tokens the sum of each process's usage.
#[test]
fn a_turn_and_three_follow_ups_resume_one_conversation() {
    let Some(rig) = Rig::start(Api::Anthropic, &[]) else {
        return;
    };
    assert!(!rig.home().join(".claude").exists());
    for (n, reply) in ["One.", "Two.", "Three.", "Four."].iter().enumerate() {
        let n = n as u64;
        rig.standin
            .push(Message::text(*reply).usage(usage(100 * (n + 1), 10 * (n + 1))));
    }
    let id = rig.spawn("first");
    let mut session = rig.wait_turn(&id, 1);
    assert_eq!(session["status"], "waiting_for_input", "{session}");
    let engine_id = session["engineSessionId"].as_str().unwrap().to_owned();
    let mut costs = vec![];
    for (turn, text) in [(2, "second"), (3, "third"), (4, "fourth")] {
        costs.push(session["costUsd"].as_f64().unwrap());
        rig.send(&id, text);
        session = rig.wait_turn(&id, turn);
        assert_eq!(session["status"], "waiting_for_input", "{session}");
        assert_eq!(session["engineSessionId"], engine_id.as_str());
    }
    costs.push(session["costUsd"].as_f64().unwrap());
    // The conversation grew: each request carried all earlier messages.
    let requests = rig.standin.main_requests();
    assert_eq!(requests.len(), 4);
    let user_texts = |body: &Value| -> String { body["messages"].to_string() };
    let last = user_texts(&requests[3].body);
    for earlier in ["first", "second", "third", "One.", "Two.", "Three."] {
        assert!(last.contains(earlier), "{earlier} missing from {last}");
    }
    // The CLI's result lines restate the cumulative total; Switchboard takes
    // the last one instead of adding them up.
    let transcript = rig.transcript(&id);
    let reported: Vec<f64> = transcript["turns"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|turn| turn["costUsd"].as_f64())
        .collect();
    assert_eq!(reported.len(), 4, "{transcript}");
    assert!(costs.windows(2).all(|w| w[1] > w[0]), "{costs:?}");
    let summed: f64 = reported.iter().sum();
    assert!(
        (summed - costs[3]).abs() < 1e-9,
        "{reported:?} vs {costs:?}"
    );
    assert_eq!(session["tokens"]["output"], 10 + 20 + 30 + 40);
    assert!(rig.home().join(".claude").is_dir());
    assert_eq!(session["engineVersion"], "2.1.330");
}

/// A helper session's cost counts in its parent's `treeCostUsd`: each
/// session's `costUsd` is its own conversation's last cumulative total (two
/// turns each here), and the tree's is their sum.
#[test]
fn a_childs_cost_adds_to_its_parents_tree_cost() {
    let Some(rig) = Rig::start(Api::Anthropic, &[]) else {
        return;
    };
    for n in 1..=4 {
        rig.standin
            .push(Message::text(format!("Reply {n}.")).usage(usage(100 * n, 10 * n)));
    }
    let parent = rig.spawn("parent");
    rig.wait_turn(&parent, 1);
    rig.send(&parent, "parent again");
    let parent_read = rig.wait_turn(&parent, 2);
    let child = rig.spawn_child(&parent, "child");
    rig.wait_turn(&child, 1);
    rig.send(&child, "child again");
    let child_read = rig.wait_turn(&child, 2);
    assert_eq!(child_read["status"], "waiting_for_input", "{child_read}");
    let cost = |session: &Value| session["costUsd"].as_f64().unwrap();
    let (parent_cost, child_cost) = (cost(&parent_read), cost(&child_read));
    // Each is the CLI's own total for its conversation: the sum of its
    // turns' parts, and the child's later, larger replies cost more.
    for (id, total) in [(&parent, parent_cost), (&child, child_cost)] {
        let parts: f64 = rig.transcript(id)["turns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|turn| turn["costUsd"].as_f64().unwrap())
            .sum();
        assert!((parts - total).abs() < 1e-9, "{parts} vs {total}");
    }
    assert!(child_cost > parent_cost, "{child_cost} vs {parent_cost}");
    let parent_read = rig
        .server
        .call("GET", &format!("/sessions/{parent}"), None)
        .json();
    assert_eq!(parent_read["children"][0], child.as_str(), "{parent_read}");
    assert_eq!(parent_read["costUsd"].as_f64().unwrap(), parent_cost);
    let tree = parent_read["treeCostUsd"].as_f64().unwrap();
    assert!(
        (tree - (parent_cost + child_cost)).abs() < 1e-9,
        "{tree} is not {parent_cost} + {child_cost}"
    );
    assert_eq!(child_read["treeCostUsd"].as_f64().unwrap(), child_cost);
}

/// Scripts a `Bash` call of `command` (id `toolu_bash`), then a text reply.
pub fn bash_then_done(rig: &Rig, command: &str) {
    rig.standin.push(Message::tool_call(
        "toolu_bash",
        "Bash",
        json!({"command": command, "description": "run it"}),
    ));
    rig.standin.push(Message::text("Done."));
}

/// The `tool_result` block for `tool_id` in a request's messages.
pub(crate) fn tool_result(request: &Recorded, tool_id: &str) -> Value {
    request.body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|message| message["content"].as_array())
        .flatten()
        .find(|block| block["type"] == "tool_result" && block["tool_use_id"] == tool_id)
        .cloned()
        .unwrap_or_else(|| panic!("no tool_result for {tool_id} in {}", request.body_text()))
}

fn entries_of<'a>(entries: &'a [Value], kind: &str) -> Vec<&'a Value> {
    entries
        .iter()
        .filter(|entry| entry["kind"] == kind)
        .collect()
}

/// At `autonomous` the hook allows the call: the command runs, the
/// transcript shows the call and its result, and the model gets the result.
#[test]
fn a_tool_call_allowed_at_autonomous_runs() {
    let Some(rig) = Rig::start(Api::Anthropic, &[]) else {
        return;
    };
    rig.set_level("autonomous");
    bash_then_done(&rig, "touch made-by-bash");
    let id = rig.spawn("make a file");
    let session = rig.wait_turn(&id, 1);
    assert_eq!(session["status"], "waiting_for_input", "{session}");
    assert!(rig.work.path().join("made-by-bash").exists());
    let entries = rig.entries(&id);
    let calls = entries_of(&entries, "tool_call");
    assert_eq!(calls.len(), 1, "{entries:#?}");
    assert_eq!(calls[0]["toolId"], "toolu_bash");
    assert_eq!(calls[0]["name"], "Bash");
    assert_eq!(calls[0]["input"]["command"], "touch made-by-bash");
    let results = entries_of(&entries, "tool_result");
    assert_eq!(results.len(), 1, "{entries:#?}");
    assert_eq!(results[0]["toolId"], "toolu_bash");
    assert_eq!(results[0]["isError"], false);
    assert_eq!(entries_of(&entries, "final")[0]["text"], "Done.");
    let requests = rig.standin.main_requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(tool_result(&requests[1], "toolu_bash")["is_error"], false);
    assert!(rig.approvals(&id).is_empty());
}

/// At `read_only` the hook denies a command: it never runs, and the model
/// is told why in the call's `tool_result`.
#[test]
fn a_tool_call_denied_at_read_only_never_runs() {
    let Some(rig) = Rig::start(Api::Anthropic, &[]) else {
        return;
    };
    rig.set_level("read_only");
    bash_then_done(&rig, "touch made-by-bash");
    let id = rig.spawn("make a file");
    let session = rig.wait_turn(&id, 1);
    assert_eq!(session["status"], "waiting_for_input", "{session}");
    assert!(!rig.work.path().join("made-by-bash").exists());
    let requests = rig.standin.main_requests();
    assert_eq!(requests.len(), 2);
    let denied = tool_result(&requests[1], "toolu_bash");
    assert_eq!(denied["is_error"], true, "{denied}");
    assert!(denied.to_string().contains("read-only"), "{denied}");
    let entries = rig.entries(&id);
    let results = entries_of(&entries, "tool_result");
    assert_eq!(results.len(), 1, "{entries:#?}");
    assert_eq!(results[0]["isError"], true);
    assert!(rig.approvals(&id).is_empty());
}

/// At `guarded` a command asks the user. The user answers after more than a
/// minute on the server's clock, so the hook has asked again (a body-less
/// `POST .../permission-check/<approval>`) several times meanwhile; the
/// approval still reaches Claude Code and the command runs.
#[test]
fn a_tool_call_asked_at_guarded_runs_once_approved_a_minute_later() {
    let logs = tempfile::tempdir().unwrap();
    let log = logs.path().join("server.log");
    let Some(rig) = Rig::start_logging(Api::Anthropic, &["--manual-clock"], &log) else {
        return;
    };
    rig.set_level("guarded");
    bash_then_done(&rig, "touch made-by-bash");
    let id = rig.spawn("make a file");
    let approval = rig.wait_approval(&id);
    assert_eq!(approval["tool"], "Bash", "{approval}");
    // The hook's requests: the check, then body-less polls of the approval.
    let asked = format!("/sessions/{id}/permission-check");
    let count = |phase: &str| {
        std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .filter(|line| line.contains(&asked) && line.contains(phase))
            .count()
    };
    let wait_for = |what: &str, done: &dyn Fn() -> bool| {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !done() {
            assert!(
                Instant::now() < deadline,
                "{what}: {}",
                std::fs::read_to_string(&log).unwrap()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    // Four waits of 20 s on the server's clock, each ended by the clock
    // (not by an answer), each followed by the hook asking again. A request
    // is logged a moment before its wait begins on the clock, and a move
    // made in that moment does not end it: move again until it ends (the
    // approval's ten minutes stay far off).
    let mut advanced = 0;
    for _ in 0..4 {
        wait_for("no request of the hook waits", &|| {
            count("started processing") > count("finished processing")
        });
        let answered = count("finished processing");
        loop {
            rig.advance_clock(20_000);
            advanced += 20_000;
            assert!(advanced < 300_000, "the hook's waits never ended");
            let deadline = Instant::now() + Duration::from_secs(1);
            while count("finished processing") == answered && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
            }
            if count("finished processing") > answered {
                break;
            }
        }
    }
    wait_for("the hook stopped asking", &|| {
        count("started processing") > count("finished processing")
    });
    assert!(!rig.work.path().join("made-by-bash").exists());
    rig.decide(&approval, "allow");
    let session = rig.wait_turn(&id, 1);
    assert_eq!(session["status"], "waiting_for_input", "{session}");
    assert!(rig.work.path().join("made-by-bash").exists());
    let requests = rig.standin.main_requests();
    assert_eq!(tool_result(&requests[1], "toolu_bash")["is_error"], false);
}

/// A `Read` of a private key asks even at `guarded`, where reading is
/// otherwise allowed; denied, the key's content reaches neither the model,
/// the transcript, the event stream nor the server's log.
#[test]
fn a_denied_read_of_a_sensitive_file_leaks_nowhere() {
    const SECRET: &str = "SECRET-KEY-MATERIAL-4f1c9e";
    let logs = tempfile::tempdir().unwrap();
    let log = logs.path().join("server.log");
    let Some(rig) = Rig::start_logging(Api::Anthropic, &[], &log) else {
        return;
    };
    rig.set_level("guarded");
    let key = rig.home().join(".ssh/id_rsa");
    std::fs::create_dir_all(key.parent().unwrap()).unwrap();
    std::fs::write(
        &key,
        format!("-----BEGIN KEY-----\n{SECRET}\n-----END KEY-----\n"),
    )
    .unwrap();
    rig.standin.push(Message::tool_call(
        "toolu_read",
        "Read",
        json!({"file_path": key}),
    ));
    rig.standin.push(Message::text("I may not read it."));
    let mut stream = Stream::bearer(&rig.server, &rig.server.token, None);
    let id = rig.spawn("show me the key");
    let approval = rig.wait_approval(&id);
    assert_eq!(approval["tool"], "Read", "{approval}");
    assert_eq!(approval["rule"], "sensitive_path", "{approval}");
    rig.decide(&approval, "deny");
    let session = rig.wait_turn(&id, 1);
    assert_eq!(session["status"], "waiting_for_input", "{session}");
    let events = stream.until(|event| event.is_waiting(&id));

    let requests = rig.standin.main_requests();
    assert_eq!(requests.len(), 2);
    let denied = tool_result(&requests[1], "toolu_read");
    assert_eq!(denied["is_error"], true, "{denied}");
    let entries = rig.entries(&id);
    assert_eq!(entries_of(&entries, "tool_result")[0]["isError"], true);
    let text = rig
        .server
        .call(
            "GET",
            &format!("/sessions/{id}/transcript?format=text"),
            None,
        )
        .text();
    for (place, seen) in [
        ("the model", format!("{:?}", rig.standin.requests())),
        (
            "the transcript",
            format!("{entries:?}{text}{}", rig.transcript(&id)),
        ),
        ("the stream", format!("{events:?}")),
        ("the log", std::fs::read_to_string(&log).unwrap()),
    ] {
        assert!(!seen.contains(SECRET), "the key reached {place}: {seen}");
    }
    // The stream did carry the turn's output, so its silence means something.
    assert!(
        format!("{events:?}").contains("I may not read it."),
        "{events:?}"
    );
}

/// Switchboard's own MCP tools are deferred: Claude Code loads one through
/// `ToolSearch`, then calls it. At `guarded` neither call asks the user
/// (both are allowed by the hook, the second because its route applies the
/// session's token rules), and the tool reaches the real route with the
/// session's token: the model gets the session itself.
#[test]
fn switchboards_own_mcp_tool_loads_through_tool_search_without_asking() {
    let Some(rig) = Rig::start(Api::Anthropic, &[]) else {
        return;
    };
    rig.set_level("guarded");
    rig.standin.push(Message::text("Ready."));
    let id = rig.spawn("wait");
    rig.wait_turn(&id, 1);
    let tool = "mcp__switchboard__read_session";
    rig.standin.push(Message::tool_search(
        "toolu_search",
        format!("select:{tool}"),
    ));
    rig.standin.push(Message::tool_call(
        "toolu_read",
        tool,
        json!({"sessionId": id}),
    ));
    rig.standin.push(Message::text("Read it."));
    rig.send(&id, "read your own session");
    let session = rig.wait_turn(&id, 2);
    assert_eq!(session["status"], "waiting_for_input", "{session}");
    let listed = rig.server.call("GET", "/approvals?state=all", None).json();
    assert_eq!(listed["approvals"], json!([]), "{listed}");
    let requests = rig.standin.main_requests();
    assert_eq!(requests.len(), 4);
    // The search loaded the tool: the next request offers it.
    let offered = requests[2].body["tools"].to_string();
    assert!(offered.contains(tool), "{offered}");
    let searched = tool_result(&requests[2], "toolu_search");
    assert_ne!(searched["is_error"], true, "{searched}");
    let read = tool_result(&requests[3], "toolu_read");
    assert_ne!(read["is_error"], true, "{read}");
    let read = read.to_string();
    assert!(read.contains(&id), "{read}");
    assert!(read.contains("primary"), "{read}");
    let entries = rig.entries(&id);
    let names: Vec<&Value> = entries_of(&entries, "tool_call")
        .iter()
        .map(|call| &call["name"])
        .collect();
    assert_eq!(names, [&json!("ToolSearch"), &json!(tool)], "{entries:#?}");
}

/// The time of day of a `…THH:MM:SS.mmmZ` timestamp, in milliseconds.
fn millis_of_day(at: &Value) -> i64 {
    let time = at.as_str().unwrap().split_once('T').unwrap().1;
    let time = time.trim_end_matches('Z');
    let (hms, ms) = time.split_once('.').unwrap_or((time, "0"));
    let parts: Vec<i64> = hms.split(':').map(|part| part.parse().unwrap()).collect();
    ((parts[0] * 60 + parts[1]) * 60 + parts[2]) * 1000 + ms.parse::<i64>().unwrap()
}

/// Pids of the live (not zombie) processes whose command line holds `marker`.
pub fn processes_with(marker: &str) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            String::from_utf8_lossy(&cmdline).contains(marker) && alive(*pid)
        })
        .collect()
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let state = stat.rsplit_once(')')?.1.trim_start().chars().next()?;
            Some(state != 'Z')
        })
        .unwrap_or(false)
}

/// Stop while a command runs: Claude Code and the command it started are
/// gone within 5 s, and the session is `stopped`.
#[test]
fn stop_mid_command_ends_the_cli_and_its_children() {
    let Some(rig) = Rig::start(Api::Anthropic, &[]) else {
        return;
    };
    rig.set_level("autonomous");
    // A fractional duration no other process uses marks this test's sleep;
    // Claude Code refuses a sleep on its own ("Blocked: standalone sleep").
    let marker = format!("sleep 30.{}", std::process::id());
    bash_then_done(&rig, &format!("echo started && {marker}"));
    let id = rig.spawn("wait a while");
    let deadline = Instant::now() + Duration::from_secs(30);
    while processes_with(&marker).is_empty() {
        assert!(
            Instant::now() < deadline,
            "the command never started: {:?}",
            rig.entries(&id)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let engine: u32 = rig.transcript(&id)["events"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|event| {
            let reason = event["reason"].as_str()?;
            reason
                .split_once("(pid ")?
                .1
                .strip_suffix(')')?
                .parse()
                .ok()
        })
        .unwrap();
    assert!(alive(engine));
    let reply = rig
        .server
        .call("POST", &format!("/sessions/{id}/stop"), None);
    assert!(reply.status < 300, "{}", reply.text());
    let deadline = Instant::now() + Duration::from_secs(5);
    while alive(engine) || !processes_with(&marker).is_empty() {
        assert!(
            Instant::now() < deadline,
            "still running 5 s after the stop: engine {} {:?}",
            alive(engine),
            processes_with(&marker)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let session = rig.server.wait_for_status(&id, "stopped");
    assert_eq!(session["stopReason"], "stopped", "{session}");
    assert_eq!(rig.standin.main_requests().len(), 1);
}

/// Runs a turn whose requests all get `failure` until Claude Code gives up
/// (`requests` of them), then checks that Switchboard read the CLI's words
/// (`said`) as a transient overload: the session waits 30 s on the server's
/// clock, then the same input goes again and is answered.
fn retried_30_s_later(failure: Reply, requests: usize, said: &str) {
    let Some(rig) = Rig::start(Api::Anthropic, &["--manual-clock"]) else {
        return;
    };
    for _ in 0..requests {
        rig.standin.push(failure.clone());
    }
    rig.standin.push(Message::text("Back."));
    let id = rig.spawn("are you there");
    let session = rig.wait_turn(&id, 1);
    assert_eq!(session["status"], "interrupted", "{session}");
    assert_eq!(rig.standin.main_requests().len(), requests);
    let entries = rig.entries(&id);
    let error = entries_of(&entries, "error");
    let message = error[0]["message"].as_str().unwrap();
    assert!(message.starts_with(said), "{entries:#?}");
    let scheduled = *entries_of(&entries, "notice").last().unwrap();
    assert_eq!(scheduled["source"], "switchboard", "{entries:#?}");
    assert!(
        scheduled["text"]
            .as_str()
            .unwrap()
            .starts_with("Interrupted by a transient overload"),
        "{scheduled}"
    );
    let gap = millis_of_day(&session["resumeAt"]) - millis_of_day(&session["startsAt"]);
    assert_eq!(gap.rem_euclid(86_400_000), 30_000, "{session}");
    rig.advance_clock(30_000);
    let session = rig.wait_turn(&id, 2);
    assert_eq!(session["status"], "waiting_for_input", "{session}");
    assert_eq!(session["resumeAt"], Value::Null);
    let seen = rig.standin.main_requests();
    assert_eq!(seen.len(), requests + 1);
    assert!(seen[requests].body_text().contains("are you there"));
    let entries = rig.entries(&id);
    assert_eq!(
        entries_of(&entries, "final").last().unwrap()["text"],
        "Back."
    );
}

/// An overloaded API (529): Claude Code gives up after three requests.
#[test]
fn an_overloaded_api_is_retried_by_switchboard_after_the_delay() {
    retried_30_s_later(
        Reply::Overloaded,
        3,
        "API Error: Repeated 529 Overloaded errors.",
    );
}

/// A plan's usage limit seen with an API key: Claude Code ignores the
/// `anthropic-ratelimit-unified-*` headers, gives up at once (`retry-after`
/// over a minute) and prints no reset time, only "Request rejected (429)",
/// a rate limit; docs/governor.md retries that as an overload.
#[test]
fn a_usage_limit_seen_with_an_api_key_is_retried_as_a_rate_limit() {
    retried_30_s_later(
        Reply::UsageLimit(Reset::after(120)),
        1,
        "API Error: Request rejected (429) · This request would exceed your account's rate limit.",
    );
}

/// A plan's usage limit seen with an OAuth token: Claude Code says when it
/// resets ("You've hit your 5-hour limit · resets 1:30pm (UTC)"), and
/// Switchboard waits for that moment on its clock, then sends the same
/// input again.
#[test]
fn a_usage_limit_with_a_reset_time_is_waited_out() {
    let Some(rig) = Rig::start_oauth(&["--manual-clock"]) else {
        return;
    };
    let reset = Reset::after(3 * 3600);
    rig.standin.push(Reply::UsageLimit(reset));
    rig.standin.push(Message::text("Back."));
    let id = rig.spawn("are you there");
    let session = rig.wait_turn(&id, 1);
    assert_eq!(session["status"], "interrupted", "{session}");
    assert_eq!(rig.standin.main_requests().len(), 1);
    let entries = rig.entries(&id);
    let message = entries_of(&entries, "error")[0]["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(message.contains("limit · resets"), "{entries:#?}");
    // The CLI shows the reset to the minute.
    let reset_ms = (reset.at % 86_400) * 1000;
    let resume_ms = millis_of_day(&session["resumeAt"]);
    let off = (resume_ms - reset_ms).rem_euclid(86_400_000);
    assert!(
        !(60_000..=86_400_000 - 60_000).contains(&off),
        "{message}: resumes at {} for a reset at {}",
        session["resumeAt"],
        reset.at
    );
    let wait = (resume_ms - millis_of_day(&session["startsAt"])).rem_euclid(86_400_000);
    assert!(wait > 3 * 3_600_000 - 60_000, "{session}");
    rig.advance_clock(wait + 1000);
    let session = rig.wait_turn(&id, 2);
    assert_eq!(session["status"], "waiting_for_input", "{session}");
    assert_eq!(rig.standin.main_requests().len(), 2);
}

/// The context notes measure against the window Claude Code states in its
/// `result` line (`modelUsage.<model>.contextWindow`: 1,000,000 for
/// `claude-opus-5-5`), not the table's 200,000: a 180,000-token prompt
/// (90 % of the table's) gets no note, an 800,000-token one the 75 % note.
#[test]
fn the_context_notes_use_the_window_the_cli_states() {
    let Some(rig) = Rig::start(Api::Anthropic, &[]) else {
        return;
    };
    rig.server
        .set_setting("contextWarning75Enabled", json!(true));
    rig.server
        .set_setting("contextWarning90Enabled", json!(true));
    let prompt = |input| Usage {
        input,
        cache_read: 0,
        cache_write: 0,
        output: 10,
    };
    rig.standin
        .push(Message::text("Big.").usage(prompt(180_000)));
    rig.standin
        .push(Message::text("Bigger.").usage(prompt(800_000)));
    let id = rig.spawn("read a lot");
    rig.wait_turn(&id, 1);
    let switchboard_notices = |entries: &[Value]| -> Vec<String> {
        entries_of(entries, "notice")
            .iter()
            .filter(|notice| notice["source"] == "switchboard")
            .map(|notice| notice["text"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(switchboard_notices(&rig.entries(&id)), Vec::<String>::new());
    rig.send(&id, "read more");
    rig.wait_turn(&id, 2);
    let notices = switchboard_notices(&rig.entries(&id));
    assert_eq!(
        notices,
        [
            "Context is 80% full (800,000 of 1,000,000 tokens). Consider finishing the current step and compacting soon."
        ],
        "{notices:?}"
    );
}
