//! Typed transcripts against a real server: fake `claude` and `codex`
//! programs print realistic streams (thinking, to-do lists, tool calls and
//! results, a cost), and the typed entries come back from
//! `GET /sessions/<id>/transcript?format=json` page by page, in the `output`
//! events of the stream, and as the session's `activity`. A command engine's
//! multi-megabyte transcript pages through every line exactly once.

mod common;

use common::sse::Stream;
use common::{TestServer, fixture};
use serde_json::{Value, json};

fn server_with_engines() -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let lines = "awk 'BEGIN { for (i = 1; i <= 100000; i++) \
                 printf \"line %06d abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz\\n\", i }'";
    let toml = format!(
        "[engines.claude]\nkind = \"claude\"\ncommand = [\"/bin/sh\", {claude:?}]\n\n\
         [engines.codex]\nkind = \"codex\"\ncommand = [\"/bin/sh\", {codex:?}]\n\n\
         [engines.lines]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {lines:?}]\n",
        claude = fixture("typed-claude"),
        codex = fixture("typed-codex"),
    );
    std::fs::write(dir.path().join("engines.toml"), toml).unwrap();
    TestServer::start_in(dir)
}

/// One page of the typed transcript; anything but 200 fails the test.
fn page(server: &TestServer, id: &str, query: &str) -> Value {
    let reply = server.call(
        "GET",
        &format!("/sessions/{id}/transcript?format=json&{query}"),
        None,
    );
    assert_eq!(reply.status, 200, "{query}: {}", reply.text());
    reply.json()
}

fn seqs(page: &Value) -> Vec<i64> {
    page["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_i64().unwrap())
        .collect()
}

/// Every entry, read forwards `limit` at a time.
fn all_entries(server: &TestServer, id: &str, limit: u32) -> Vec<Value> {
    let mut after = 0;
    let mut entries = Vec::new();
    loop {
        let page = page(server, id, &format!("after={after}&limit={limit}"));
        let got = page["entries"].as_array().unwrap();
        assert!(got.len() <= limit as usize);
        entries.extend(got.iter().cloned());
        if page["more"] == false {
            return entries;
        }
        assert!(!got.is_empty(), "a page with more after it holds some");
        after = got.last().unwrap()["seq"].as_i64().unwrap();
    }
}

/// An entry without its place and time (what the `output` event's `entry`
/// holds); the time must be there, in the stored form
/// (`2026-01-05T09:00:00.000Z`).
fn body(entry: &Value) -> Value {
    let mut body = entry.clone();
    let object = body.as_object_mut().unwrap();
    object.remove("seq");
    object.remove("turn");
    let at = object.remove("at");
    let at = at.as_ref().and_then(Value::as_str).unwrap_or_default();
    assert!(at.len() == 24 && at.ends_with('Z'), "{entry}");
    body
}

#[test]
fn claude_and_codex_transcripts_are_typed_paged_and_streamed() {
    let server = server_with_engines();
    let mut stream = Stream::bearer(&server, &server.token, None);
    let id = server.browser_session("claude", "fix the test")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let session = server.wait_for_status(&id, "waiting_for_input");
    assert_eq!(session["costUsd"], 0.0421);

    let entries = all_entries(&server, &id, 1000);
    let kinds: Vec<&str> = entries
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "input",
            "thinking",
            "todo",
            "tool_call",
            "tool_result",
            "tool_call",
            "tool_result",
            "tool_call",
            "tool_result",
            "todo",
            "text",
            "final"
        ]
    );
    let seq = seqs(&json!({ "entries": entries }));
    assert!(
        seq.is_sorted() && seq.windows(2).all(|w| w[0] < w[1]),
        "{seq:?}"
    );
    assert!(entries.iter().all(|e| e["turn"] == 1));
    assert_eq!(
        body(&entries[0]),
        json!({"kind": "input", "text": "fix the test", "source": "prompt"}),
        "the turn opens with what started it"
    );
    assert_eq!(
        entries[2]["items"],
        json!([
            {"text": "Read the code", "status": "in_progress"},
            {"text": "Fix the bug", "status": "pending"}
        ])
    );
    assert_eq!(
        body(&entries[3]),
        json!({"kind": "tool_call", "toolId": "toolu_2", "name": "Read",
               "input": {"file_path": "/w/src/lib.rs"}})
    );
    assert_eq!(entries[4]["toolId"], "toolu_2");
    assert_eq!(
        entries[4]["output"],
        "     1\tpub fn add(a: i32, b: i32) -> i32 { a - b }"
    );
    assert_eq!(
        (&entries[6]["output"], &entries[6]["isError"]),
        (&json!("test add ... FAILED"), &json!(true))
    );
    assert_eq!(entries[7]["input"]["new_string"], "a + b");
    let reply = "Fixed `add`: it subtracted.\nThe tests pass now.";
    assert_eq!(entries[10]["text"], reply);
    assert_eq!(entries[11]["text"], reply);

    // The plain transcript is what it was: the reply text.
    let plain = server
        .call("GET", &format!("/sessions/{id}/transcript"), None)
        .json();
    assert_eq!(plain["turns"][0]["output"], reply);

    // Every to-do item is done, so the activity is the latest step.
    assert_eq!(session["activity"]["kind"], "writing");
    assert_eq!(session["activity"]["text"], "Fixed `add`: it subtracted.");
    assert!(session["activity"]["at"].is_string());
    assert_eq!(session["stopReason"], "waiting_for_user");

    // Forwards in small pages, backwards from a seq, and the tail.
    assert_eq!(all_entries(&server, &id, 3), entries);
    let first = page(&server, &id, "limit=4");
    assert_eq!(
        (seqs(&first), &first["more"]),
        (seq[..4].to_vec(), &json!(true))
    );
    let before = page(&server, &id, &format!("before={}&limit=3", seq[5]));
    assert_eq!(seqs(&before), seq[2..5]);
    assert_eq!(before["more"], true, "earlier entries exist");
    let start = page(&server, &id, &format!("before={}&limit=3", seq[2]));
    assert_eq!(
        (seqs(&start), &start["more"]),
        (seq[..2].to_vec(), &json!(false))
    );
    let tail = page(&server, &id, "tail=true&limit=2");
    assert_eq!(
        (seqs(&tail), &tail["more"]),
        (seq[10..].to_vec(), &json!(true))
    );
    let end = page(&server, &id, &format!("after={}", seq[11]));
    assert_eq!((seqs(&end), &end["more"]), (vec![], &json!(false)));
    for bad in [
        "limit=0",
        "limit=1001",
        "after=-1",
        "after=1&before=9",
        "limit=ten",
    ] {
        let reply = server.call(
            "GET",
            &format!("/sessions/{id}/transcript?format=json&{bad}"),
            None,
        );
        assert_eq!(reply.status, 400, "{bad}");
        assert_eq!(reply.error_code(), "invalid_request", "{bad}");
    }
    let missing = server.call("GET", "/sessions/nope/transcript?format=json", None);
    assert_eq!(missing.status, 404);

    // The stream carried the same entries, one per `output` event, with the same seq and time.
    let events = stream.until(|e| e.is_waiting(&id));
    let streamed: Vec<Value> = events
        .iter()
        .filter(|e| e.name == "output" && e.data["sessionId"] == id.as_str())
        .map(|e| {
            let mut entry = e.data["entry"].clone();
            entry["seq"] = e.data["seq"].clone();
            entry["turn"] = e.data["turn"].clone();
            entry["at"] = e.data["at"].clone();
            entry
        })
        .collect();
    assert_eq!(streamed, entries);
    let last = &events.last().unwrap().data;
    assert_eq!(last["activity"], session["activity"]);

    // Codex: the same kinds from its items; its unfinished list is the activity.
    let codex = server.browser_session("codex", "fix it")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let session = server.wait_for_status(&codex, "waiting_for_input");
    let entries = all_entries(&server, &codex, 200);
    let typed: Vec<Value> = entries
        .iter()
        .filter(|e| e["kind"] != "stderr")
        .map(body)
        .collect();
    assert_eq!(
        typed,
        [
            json!({"kind": "input", "text": "fix it", "source": "prompt"}),
            json!({"kind": "thinking", "text": "**Planning** the fix"}),
            json!({"kind": "todo", "items": [
                {"text": "Inspect the code", "status": "pending"},
                {"text": "Patch add", "status": "pending"}]}),
            json!({"kind": "tool_call", "toolId": "item_2", "name": "command",
                   "input": {"command": "bash -lc ls"}}),
            json!({"kind": "tool_result", "toolId": "item_2", "output": "Cargo.toml\nsrc\n",
                   "isError": false}),
            json!({"kind": "tool_call", "toolId": "item_3", "name": "command",
                   "input": {"command": "bash -lc 'cargo test'"}}),
            json!({"kind": "tool_result", "toolId": "item_3", "output": "test add ... FAILED\n",
                   "isError": true}),
            json!({"kind": "todo", "items": [
                {"text": "Inspect the code", "status": "completed"},
                {"text": "Patch add", "status": "pending"}]}),
            json!({"kind": "tool_call", "toolId": "item_4", "name": "file_change",
                   "input": {"changes": [{"path": "src/lib.rs", "kind": "update"}]}}),
            json!({"kind": "text", "text": "Patched `add`."}),
            json!({"kind": "text", "text": "Done: the tests pass."}),
            json!({"kind": "final", "text": "Done: the tests pass."}),
        ]
    );
    let stderr: Vec<&Value> = entries.iter().filter(|e| e["kind"] == "stderr").collect();
    assert_eq!(stderr.len(), 1);
    assert_eq!(stderr[0]["text"], "Reading prompt from stdin...\n");
    assert_eq!(
        (&session["activity"]["kind"], &session["activity"]["text"]),
        (&json!("todo"), &json!("Patch add"))
    );
}

#[test]
fn a_large_command_transcript_pages_through_every_line_exactly_once() {
    let server = server_with_engines();
    let id = server.browser_session("lines", "go")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let session = server.wait_for_status(&id, "waiting_for_input");
    assert_eq!(session["activity"]["kind"], "writing");
    assert!(
        session["activity"]["text"]
            .as_str()
            .unwrap()
            .starts_with("line 100000 "),
        "{}",
        session["activity"]
    );

    let entries = all_entries(&server, &id, 7);
    assert!(entries.len() > 50, "several flushes: {}", entries.len());
    assert_eq!(all_entries(&server, &id, 1000), entries);
    assert_eq!(entries[0]["kind"], "input");
    let mut text = String::new();
    let mut last_seq = 0;
    for entry in &entries[1..] {
        assert_eq!(entry["kind"], "stdout");
        let seq = entry["seq"].as_i64().unwrap();
        assert!(seq > last_seq);
        last_seq = seq;
        let piece = entry["text"].as_str().unwrap();
        assert!(piece.ends_with('\n'), "entries hold whole lines");
        text.push_str(piece);
    }
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 100_000);
    for (n, line) in lines.iter().enumerate() {
        assert!(
            line.starts_with(&format!("line {:06} ", n + 1)),
            "line {}: {line:?}",
            n + 1
        );
    }

    // Backwards from the end, the same entries.
    let mut before: Option<i64> = None;
    let mut backwards = Vec::new();
    loop {
        let query = match before {
            None => "tail=true&limit=7".to_owned(),
            Some(seq) => format!("before={seq}&limit=7"),
        };
        let page = page(&server, &id, &query);
        let mut got = page["entries"].as_array().unwrap().clone();
        before = got.first().map(|e| e["seq"].as_i64().unwrap());
        got.extend(backwards);
        backwards = got;
        if page["more"] == false {
            break;
        }
    }
    assert_eq!(backwards, entries);

    // The plain transcript still holds it all, once.
    let plain = server
        .call("GET", &format!("/sessions/{id}/transcript"), None)
        .json();
    assert_eq!(plain["turns"][0]["output"].as_str().unwrap(), text);
}
