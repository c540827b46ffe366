//! The typed entries the decoder makes of each engine's real line formats
//! (`adapters.rs` driving `entries.rs`), kept apart so neither file imports the other.

use serde_json::json;

use crate::adapters::Decoder;
use crate::engines::EngineKind;
use crate::model::{EntryBody, NoticeSource, TodoItem, TodoStatus};

use crate::entries::{LineBuffer, MAX_PARTIAL_LINE, MAX_TOOL_OUTPUT, truncate_output};

/// Feeds `lines` (one JSON object each) in awkward chunks and returns every entry and the reply.
fn decode(kind: EngineKind, lines: &[&str]) -> (Vec<EntryBody>, String) {
    let stream = lines.join("\n") + "\n";
    let mut decoder = Decoder::new(kind);
    let mut text = String::new();
    let mut entries = Vec::new();
    for chunk in stream.as_bytes().chunks(37) {
        decoder.feed(chunk, &mut text);
        entries.extend(decoder.take_entries());
    }
    decoder.finish(&mut text);
    entries.extend(decoder.take_entries());
    (entries, text)
}

/// A `todo` entry of `(text, status)` items (the activity tests use it too).
pub(crate) fn todo(items: &[(&str, TodoStatus)]) -> EntryBody {
    EntryBody::Todo {
        items: items
            .iter()
            .map(|(text, status)| TodoItem {
                text: (*text).to_owned(),
                status: *status,
            })
            .collect(),
    }
}

#[test]
fn claude_blocks_tools_todos_and_result_become_entries() {
    let (entries, text) = decode(
        EngineKind::Claude,
        &[
            r#"{"type":"system","subtype":"init","session_id":"c1","cwd":"/w","model":"claude-sonnet-4-5","tools":["Bash","Read"],"permissionMode":"default"}"#,
            r#"{"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"thinking","thinking":"The user wants a fix.","signature":"abc"}],"usage":{"input_tokens":3,"output_tokens":8}},"parent_tool_use_id":null,"session_id":"c1"}"#,
            r#"{"type":"assistant","message":{"id":"msg_1","content":[{"type":"tool_use","id":"toolu_1","name":"TodoWrite","input":{"todos":[{"content":"Read the code","status":"in_progress","activeForm":"Reading the code"},{"content":"Fix the bug","status":"pending","activeForm":"Fixing the bug"}]}}]},"session_id":"c1"}"#,
            r#"{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"Todos have been modified successfully."}]},"session_id":"c1"}"#,
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"toolu_2","name":"Read","input":{"file_path":"/w/src/lib.rs"}}]},"session_id":"c1"}"#,
            r#"{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_2","type":"tool_result","content":[{"type":"text","text":"1\tfn main() {}"},{"type":"text","text":"2\t"}]}]}}"#,
            r#"{"type":"rate_limit_event","rate_limit_info":{}}"#,
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"toolu_3","name":"Bash","input":{"command":"cargo test","description":"Run tests"}}]}}"#,
            r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_3","content":"error: could not compile","is_error":true}]}}"#,
            r#"{"type":"assistant","message":{"content":[{"type":"text","text":"Fixed the bug."},{"type":"future_block","x":1}]}}"#,
            r#"{"type":"result","subtype":"success","is_error":false,"duration_ms":1234,"num_turns":4,"result":"Fixed the bug.","session_id":"c1","total_cost_usd":0.0123}"#,
        ],
    );
    use TodoStatus::*;
    assert_eq!(
        entries,
        vec![
            EntryBody::Thinking {
                text: "The user wants a fix.".into()
            },
            todo(&[("Read the code", InProgress), ("Fix the bug", Pending)]),
            EntryBody::ToolCall {
                tool_id: Some("toolu_2".into()),
                name: "Read".into(),
                input: json!({"file_path": "/w/src/lib.rs"}),
            },
            EntryBody::ToolResult {
                tool_id: Some("toolu_2".into()),
                output: "1\tfn main() {}\n2\t".into(),
                is_error: false,
            },
            EntryBody::ToolCall {
                tool_id: Some("toolu_3".into()),
                name: "Bash".into(),
                input: json!({"command": "cargo test", "description": "Run tests"}),
            },
            EntryBody::ToolResult {
                tool_id: Some("toolu_3".into()),
                output: "error: could not compile".into(),
                is_error: true,
            },
            EntryBody::Text {
                text: "Fixed the bug.".into()
            },
            EntryBody::Final {
                text: "Fixed the bug.".into()
            },
        ]
    );
    assert_eq!(text, "Fixed the bug.", "the reply text is unchanged");
}

#[test]
fn a_claude_api_error_is_a_notice_and_a_failed_result_the_error() {
    let (entries, _) = decode(
        EngineKind::Claude,
        &[
            r#"{"type":"system","subtype":"api_retry","attempt":1,"max_retries":10,"retry_delay_ms":500,"error_status":529,"error":"overloaded"}"#,
            r#"{"type":"assistant","message":{"content":[{"type":"text","text":"API Error: Rate limited"}]},"error":"rate_limit"}"#,
            r#"{"type":"result","subtype":"success","is_error":true,"result":"API Error: 529 overloaded","total_cost_usd":0}"#,
        ],
    );
    let engine = |text: &str| EntryBody::Notice {
        text: text.into(),
        source: NoticeSource::Engine,
    };
    assert_eq!(
        entries,
        [
            engine(
                "An API request failed (overloaded, status 529); retrying in 0.5 s (attempt 1 of 10)."
            ),
            EntryBody::Text {
                text: "API Error: Rate limited".into()
            },
            engine("The model's API answered with an error (rate_limit)."),
            EntryBody::Error {
                message: "API Error: 529 overloaded".into()
            },
        ]
    );
}

#[test]
fn codex_items_become_entries() {
    let (entries, text) = decode(
        EngineKind::Codex,
        &[
            r#"{"type":"thread.started","thread_id":"t1"}"#,
            r#"{"type":"turn.started"}"#,
            r#"{"type":"item.completed","item":{"id":"item_0","type":"reasoning","text":"**Planning** the change"}}"#,
            r#"{"type":"item.started","item":{"id":"item_1","type":"todo_list","items":[{"text":"Inspect","completed":false},{"text":"Patch","completed":false}]}}"#,
            r#"{"type":"item.started","item":{"id":"item_2","type":"command_execution","command":"bash -lc ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}"#,
            r#"{"type":"item.completed","item":{"id":"item_2","type":"command_execution","command":"bash -lc ls","aggregated_output":"src\n","exit_code":0,"status":"completed"}}"#,
            r#"{"type":"item.completed","item":{"id":"item_3","type":"command_execution","command":"bash -lc 'cargo test'","aggregated_output":"failed","exit_code":101,"status":"failed"}}"#,
            r#"{"type":"item.updated","item":{"id":"item_1","type":"todo_list","items":[{"text":"Inspect","completed":true},{"text":"Patch","completed":false}]}}"#,
            r#"{"type":"item.started","item":{"id":"item_4","type":"file_change","changes":[{"path":"src/lib.rs","kind":"update"}],"status":"in_progress"}}"#,
            r#"{"type":"item.completed","item":{"id":"item_4","type":"file_change","changes":[{"path":"src/lib.rs","kind":"update"}],"status":"completed"}}"#,
            r#"{"type":"item.completed","item":{"id":"item_5","type":"web_search","query":"rust lifetimes"}}"#,
            r#"{"type":"item.completed","item":{"id":"item_6","type":"mcp_tool_call","server":"docs","tool":"search","arguments":{"q":"x"},"result":{"content":[{"type":"text","text":"found"}]},"error":null,"status":"completed"}}"#,
            r#"{"type":"error","message":"Reconnecting... 1/5"}"#,
            r#"{"type":"item.completed","item":{"id":"item_7","type":"error","message":"Model metadata for `gpt-x` not found. Defaulting to fallback metadata; this can degrade performance and cause issues."}}"#,
            r#"{"type":"item.completed","item":{"id":"item_8","type":"agent_message","text":"First."}}"#,
            r#"{"type":"item.completed","item":{"id":"item_9","type":"agent_message","text":"Done."}}"#,
            r#"{"type":"turn.completed","usage":{"input_tokens":5,"cached_input_tokens":1,"output_tokens":7}}"#,
            r#"{"type":"turn.started"}"#,
            r#"{"type":"turn.failed","error":{"message":"stream disconnected"}}"#,
        ],
    );
    use TodoStatus::*;
    let call = |id: &str, name: &str, input| EntryBody::ToolCall {
        tool_id: Some(id.into()),
        name: name.into(),
        input,
    };
    let result = |id: &str, output: &str, is_error| EntryBody::ToolResult {
        tool_id: Some(id.into()),
        output: output.into(),
        is_error,
    };
    assert_eq!(
        entries,
        vec![
            EntryBody::Thinking {
                text: "**Planning** the change".into()
            },
            todo(&[("Inspect", Pending), ("Patch", Pending)]),
            call("item_2", "command", json!({"command": "bash -lc ls"})),
            result("item_2", "src\n", false),
            call(
                "item_3",
                "command",
                json!({"command": "bash -lc 'cargo test'"})
            ),
            result("item_3", "failed", true),
            todo(&[("Inspect", Completed), ("Patch", Pending)]),
            call(
                "item_4",
                "file_change",
                json!({"changes": [{"path": "src/lib.rs", "kind": "update"}]})
            ),
            call("item_5", "web_search", json!({"query": "rust lifetimes"})),
            call(
                "item_6",
                "search",
                json!({"server": "docs", "arguments": {"q": "x"}})
            ),
            result("item_6", "found", false),
            EntryBody::Notice {
                text: "Reconnecting... 1/5".into(),
                source: NoticeSource::Engine,
            },
            EntryBody::Notice {
                text: "Model metadata for `gpt-x` not found. Defaulting to fallback metadata; this can degrade performance and cause issues.".into(),
                source: NoticeSource::Engine,
            },
            EntryBody::Text {
                text: "First.".into()
            },
            EntryBody::Text {
                text: "Done.".into()
            },
            EntryBody::Final {
                text: "Done.".into()
            },
            EntryBody::Error {
                message: "stream disconnected".into()
            },
        ]
    );
    assert_eq!(text, "First.\n\nDone.");
}

#[test]
fn long_tool_output_is_cut_on_a_character_boundary() {
    let long = "é".repeat(MAX_TOOL_OUTPUT);
    let cut = truncate_output(long.clone());
    assert!(cut.len() < MAX_TOOL_OUTPUT + 100);
    assert!(cut.ends_with(&format!(
        "[{} more bytes not kept]",
        long.len() - MAX_TOOL_OUTPUT
    )));
    assert_eq!(truncate_output("short".into()), "short");
}

#[test]
fn command_output_comes_in_whole_lines() {
    let mut lines = LineBuffer::default();
    let mut text = String::new();
    lines.push(b"one\ntw", &mut text);
    assert_eq!(text, "one\n");
    lines.push(b"o\nthree\nfo", &mut text);
    assert_eq!(text, "one\ntwo\nthree\n");
    lines.push(b"ur", &mut text);
    assert_eq!(text, "one\ntwo\nthree\n", "a partial line waits");
    lines.finish(&mut text);
    assert_eq!(text, "one\ntwo\nthree\nfour", "until the end");

    let mut text = String::new();
    lines.push(&vec![b'x'; MAX_PARTIAL_LINE + 1], &mut text);
    assert_eq!(text.len(), MAX_PARTIAL_LINE + 1, "or until it is too long");
}
