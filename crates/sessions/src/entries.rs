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
    /// An `assistant` line: its content blocks in order (its `error` is a
    /// notice, see `notices.rs`).
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
            decode_utf8_prefix(&mut self.pending, text);
        }
    }

    /// The stream ended: a last line without its newline counts too.
    pub(crate) fn finish(&mut self, text: &mut String) {
        text.push_str(&String::from_utf8_lossy(&std::mem::take(&mut self.pending)));
    }
}

/// Moves the longest valid UTF-8 prefix of `bytes` into `text`, keeping an
/// incomplete trailing character for the next chunk; invalid bytes become U+FFFD.
fn decode_utf8_prefix(bytes: &mut Vec<u8>, text: &mut String) {
    let mut start = 0;
    loop {
        match std::str::from_utf8(&bytes[start..]) {
            Ok(valid) => {
                text.push_str(valid);
                bytes.clear();
                return;
            }
            Err(e) => {
                let valid_end = start + e.valid_up_to();
                text.push_str(&String::from_utf8_lossy(&bytes[start..valid_end]));
                match e.error_len() {
                    Some(bad) => {
                        text.push('\u{FFFD}');
                        start = valid_end + bad;
                    }
                    None => {
                        bytes.drain(..valid_end);
                        return;
                    }
                }
            }
        }
    }
}
