//! The typed transcript: what each line of Claude Code's stream-json and
//! Codex's JSONL means as an [`EntryBody`], and the whole-line splitting of a
//! `command` engine's output.
//!
//! Like the rest of the adapters this is tolerant: a block or item of a type
//! we do not know is skipped, a missing field reads as empty, so a new engine
//! version can add things without failing a session.

use std::collections::HashSet;

use serde_json::{Value, json};

use crate::model::{EntryBody, TodoItem, TodoStatus};

/// A tool's output longer than this is cut (the rest is said to be cut): a
/// `cat` of a large file must not become one multi-megabyte entry that every
/// live view then receives.
pub(crate) const MAX_TOOL_OUTPUT: usize = 64 << 10;
/// A `command` engine's line longer than this is written out before its newline
/// comes, so one endless line cannot grow our memory.
pub(crate) const MAX_PARTIAL_LINE: usize = 64 << 10;

fn str_of<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value.get(key).and_then(Value::as_str)
}

/// Cuts `text` to at most [`MAX_TOOL_OUTPUT`] bytes on a character boundary, saying how much went.
pub(crate) fn truncate_output(mut text: String) -> String {
    if text.len() <= MAX_TOOL_OUTPUT {
        return text;
    }
    let mut cut = MAX_TOOL_OUTPUT;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let dropped = text.len() - cut;
    text.truncate(cut);
    text.push_str(&format!("\n… [{dropped} more bytes not kept]"));
    text
}

/// Claude's per-call state: which calls were `TodoWrite`s, whose results are not shown.
#[derive(Debug, Default)]
pub(crate) struct ClaudeEntries {
    todo_calls: HashSet<String>,
}

impl ClaudeEntries {
    /// An `assistant` line: its content blocks in order, then its `error`.
    pub(crate) fn assistant(&mut self, value: &Value, out: &mut Vec<EntryBody>) {
        let blocks = value
            .pointer("/message/content")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        for block in blocks {
            match str_of(block, "type") {
                Some("text") => {
                    if let Some(text) = str_of(block, "text").filter(|t| !t.is_empty()) {
                        out.push(EntryBody::Text {
                            text: text.to_owned(),
                        });
                    }
                }
                Some("thinking") => {
                    if let Some(text) = str_of(block, "thinking").filter(|t| !t.is_empty()) {
                        out.push(EntryBody::Thinking {
                            text: text.to_owned(),
                        });
                    }
                }
                Some("tool_use") => {
                    let tool_id = str_of(block, "id").map(str::to_owned);
                    let name = str_of(block, "name").unwrap_or("tool").to_owned();
                    let input = block.get("input").cloned().unwrap_or(Value::Null);
                    if name == "TodoWrite" {
                        if let Some(id) = &tool_id {
                            self.todo_calls.insert(id.clone());
                        }
                        out.push(EntryBody::Todo {
                            items: claude_todos(&input),
                        });
                    } else {
                        out.push(EntryBody::ToolCall {
                            tool_id,
                            name,
                            input,
                        });
                    }
                }
                _ => {}
            }
        }
        if let Some(message) = str_of(value, "error") {
            out.push(EntryBody::Error {
                message: message.to_owned(),
            });
        }
    }

    /// A `user` line: the tool results it carries (a `TodoWrite`'s is dropped:
    /// the `todo` entry already says everything).
    pub(crate) fn user(&mut self, value: &Value, out: &mut Vec<EntryBody>) {
        let Some(blocks) = value.pointer("/message/content").and_then(Value::as_array) else {
            return;
        };
        for block in blocks {
            if str_of(block, "type") != Some("tool_result") {
                continue;
            }
            let tool_id = str_of(block, "tool_use_id").map(str::to_owned);
            if tool_id
                .as_ref()
                .is_some_and(|id| self.todo_calls.contains(id))
            {
                continue;
            }
            out.push(EntryBody::ToolResult {
                tool_id,
                output: truncate_output(content_text(block.get("content"))),
                is_error: block.get("is_error").and_then(Value::as_bool) == Some(true),
            });
        }
    }
}

/// A tool result's `content`: a string, or a list of blocks whose text parts count.
fn content_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter_map(|b| match str_of(b, "type") {
                Some("text") => str_of(b, "text").map(str::to_owned),
                Some(other) => Some(format!("[{other}]")),
                None => None,
            })
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

fn claude_todos(input: &Value) -> Vec<TodoItem> {
    let todos = input
        .get("todos")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    todos
        .iter()
        .filter_map(|todo| {
            let text = str_of(todo, "content")?.to_owned();
            let status = match str_of(todo, "status") {
                Some("in_progress") => TodoStatus::InProgress,
                Some("completed") => TodoStatus::Completed,
                _ => TodoStatus::Pending,
            };
            Some(TodoItem { text, status })
        })
        .collect()
}

/// Codex's per-turn state: the items whose call is already shown, and the
/// turn's last message (its `final`).
#[derive(Debug, Default)]
pub(crate) struct CodexEntries {
    shown_calls: HashSet<String>,
    last_message: Option<String>,
}

impl CodexEntries {
    pub(crate) fn turn_started(&mut self) {
        self.last_message = None;
    }

    /// `turn.completed`: the turn's last message, once more, as its `final`.
    pub(crate) fn turn_completed(&mut self, out: &mut Vec<EntryBody>) {
        if let Some(text) = self.last_message.take() {
            out.push(EntryBody::Final { text });
        }
    }

    /// `item.started`, `item.updated` or `item.completed` (`completed` true for the last).
    pub(crate) fn item(&mut self, item: &Value, completed: bool, out: &mut Vec<EntryBody>) {
        let id = str_of(item, "id").map(str::to_owned);
        let text = || str_of(item, "text").unwrap_or_default().to_owned();
        match str_of(item, "type") {
            Some("agent_message") if completed => {
                let text = text();
                if !text.is_empty() {
                    self.last_message = Some(text.clone());
                    out.push(EntryBody::Text { text });
                }
            }
            Some("reasoning") if completed => {
                let text = text();
                if !text.is_empty() {
                    out.push(EntryBody::Thinking { text });
                }
            }
            Some("command_execution") => {
                let input =
                    json!({ "command": item.get("command").cloned().unwrap_or(Value::Null) });
                self.call_once(id.as_ref(), "command", input, out);
                if completed {
                    let exit_code = item.get("exit_code").and_then(Value::as_i64);
                    let status_failed = str_of(item, "status") == Some("failed");
                    out.push(EntryBody::ToolResult {
                        tool_id: id,
                        output: truncate_output(
                            str_of(item, "aggregated_output")
                                .unwrap_or_default()
                                .to_owned(),
                        ),
                        is_error: exit_code.is_some_and(|c| c != 0) || status_failed,
                    });
                }
            }
            Some("file_change") => {
                let input =
                    json!({ "changes": item.get("changes").cloned().unwrap_or(Value::Null) });
                self.call_once(id.as_ref(), "file_change", input, out);
            }
            Some("mcp_tool_call") => {
                let name = str_of(item, "tool").unwrap_or("mcp_tool_call");
                let input = json!({
                    "server": item.get("server").cloned().unwrap_or(Value::Null),
                    "arguments": item.get("arguments").cloned().unwrap_or(Value::Null),
                });
                self.call_once(id.as_ref(), name, input, out);
                if completed && let Some((output, is_error)) = mcp_result(item) {
                    out.push(EntryBody::ToolResult {
                        tool_id: id,
                        output: truncate_output(output),
                        is_error,
                    });
                }
            }
            Some("web_search") => {
                let input = json!({ "query": item.get("query").cloned().unwrap_or(Value::Null) });
                self.call_once(id.as_ref(), "web_search", input, out);
            }
            Some("todo_list") => {
                let items = item
                    .get("items")
                    .and_then(Value::as_array)
                    .map(Vec::as_slice)
                    .unwrap_or_default();
                let items = items
                    .iter()
                    .filter_map(|i| {
                        Some(TodoItem {
                            text: str_of(i, "text")?.to_owned(),
                            status: if i.get("completed").and_then(Value::as_bool) == Some(true) {
                                TodoStatus::Completed
                            } else {
                                TodoStatus::Pending
                            },
                        })
                    })
                    .collect();
                out.push(EntryBody::Todo { items });
            }
            Some("error") if completed => {
                let message = str_of(item, "message").unwrap_or("error").to_owned();
                out.push(EntryBody::Error { message });
            }
            _ => {}
        }
    }

    /// A call is shown once, when first seen (its start, or its end when no start came).
    fn call_once(
        &mut self,
        id: Option<&String>,
        name: &str,
        input: Value,
        out: &mut Vec<EntryBody>,
    ) {
        if let Some(id) = id
            && !self.shown_calls.insert(id.clone())
        {
            return;
        }
        out.push(EntryBody::ToolCall {
            tool_id: id.cloned(),
            name: name.to_owned(),
            input,
        });
    }
}

/// An MCP call's answer: its `error` (a message or an object with one), else its `result`.
fn mcp_result(item: &Value) -> Option<(String, bool)> {
    match item.get("error") {
        Some(Value::Null) | None => {}
        Some(error) => {
            let message = str_of(error, "message")
                .map(str::to_owned)
                .or_else(|| error.as_str().map(str::to_owned))
                .unwrap_or_else(|| error.to_string());
            return Some((message, true));
        }
    }
    match item.get("result")? {
        Value::Null => None,
        Value::String(text) => Some((text.clone(), false)),
        result => {
            // MCP results are `{content: [{type: "text", text}]}`; anything else is shown as JSON.
            let text = result
                .get("content")
                .filter(|c| c.is_array())
                .map(|c| content_text(Some(c)))
                .unwrap_or_else(|| result.to_string());
            Some((text, false))
        }
    }
}

/// Splits a byte stream into whole lines: complete lines are appended to the
/// text at once, a trailing partial line waits for its newline (or the end,
/// or [`MAX_PARTIAL_LINE`]).
#[derive(Debug, Default)]
pub(crate) struct LineBuffer {
    pending: Vec<u8>,
}

impl LineBuffer {
    pub(crate) fn push(&mut self, bytes: &[u8], text: &mut String) {
        // Only the new bytes can hold a newline: the held part has none.
        if let Some(newline) = bytes.iter().rposition(|b| *b == b'\n') {
            self.pending.extend_from_slice(&bytes[..=newline]);
            // A newline never splits a UTF-8 character, so whole lines decode on their own.
            text.push_str(&String::from_utf8_lossy(&self.pending));
            self.pending.clear();
            self.pending.extend_from_slice(&bytes[newline + 1..]);
        } else {
            self.pending.extend_from_slice(bytes);
        }
        if self.pending.len() > MAX_PARTIAL_LINE {
            crate::adapters::decode_utf8_prefix(&mut self.pending, text);
        }
    }

    /// The stream ended: a last line without its newline counts too.
    pub(crate) fn finish(&mut self, text: &mut String) {
        text.push_str(&String::from_utf8_lossy(&std::mem::take(&mut self.pending)));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::adapters::Decoder;
    use crate::engines::EngineKind;
    use crate::model::{EntryBody, TodoItem, TodoStatus};

    use super::{LineBuffer, MAX_PARTIAL_LINE, MAX_TOOL_OUTPUT, truncate_output};

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

    fn todo(items: &[(&str, TodoStatus)]) -> EntryBody {
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
    fn claude_errors_are_entries() {
        let (entries, _) = decode(
            EngineKind::Claude,
            &[
                r#"{"type":"assistant","message":{"content":[{"type":"text","text":"API Error: Rate limited"}]},"error":"rate_limit"}"#,
                r#"{"type":"result","subtype":"success","is_error":true,"result":"API Error: 529 overloaded","total_cost_usd":0}"#,
            ],
        );
        assert_eq!(
            entries[1..],
            [
                EntryBody::Error {
                    message: "rate_limit".into()
                },
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
                r#"{"type":"item.completed","item":{"id":"item_7","type":"error","message":"command timed out"}}"#,
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
                EntryBody::Error {
                    message: "Reconnecting... 1/5".into()
                },
                EntryBody::Error {
                    message: "command timed out".into()
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
}
