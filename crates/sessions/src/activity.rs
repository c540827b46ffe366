//! What a session is doing now, for the agent board, computed from its
//! transcript's entries as they are stored: the current item of its latest
//! to-do list when it has one, else its latest step (thinking, writing, a tool).
//!
//! It is a fold over entries ([`Tracker`]) so the pump keeps it up to date as
//! each batch is flushed and stores the result on the session row: listing
//! sessions then reads one column instead of scanning transcripts.

use serde_json::Value;

use crate::model::{ActivityKind, EntryBody, TodoItem, TodoStatus};

/// One line on the board: longer texts are cut with an ellipsis.
const MAX_CHARS: usize = 120;

/// The activity so far of a stream of entries.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Tracker {
    todo: Option<Vec<TodoItem>>,
    step: Option<(ActivityKind, String)>,
}

impl Tracker {
    pub(crate) fn observe(&mut self, entry: &EntryBody) {
        if let EntryBody::Todo { items } = entry {
            self.todo = Some(items.clone());
        } else if let Some(step) = step_of(entry) {
            self.step = Some(step);
        }
    }

    /// The to-do item under way (else the first not started), else the latest step.
    pub(crate) fn current(&self) -> Option<(ActivityKind, String)> {
        let todo = self.todo.as_deref().unwrap_or_default();
        let item = todo
            .iter()
            .find(|i| i.status == TodoStatus::InProgress)
            .or_else(|| todo.iter().find(|i| i.status == TodoStatus::Pending));
        match item {
            Some(item) => Some((ActivityKind::Todo, one_line(&item.text))),
            None => self.step.clone(),
        }
    }
}

/// The activity of a whole list of entries, oldest first.
#[cfg(test)]
pub(crate) fn activity_of(entries: &[EntryBody]) -> Option<(ActivityKind, String)> {
    let mut tracker = Tracker::default();
    entries.iter().for_each(|e| tracker.observe(e));
    tracker.current()
}

/// The step an entry shows; `None` for those that say nothing new about what
/// the session does (a tool's result, stderr, an error, the final message).
fn step_of(entry: &EntryBody) -> Option<(ActivityKind, String)> {
    match entry {
        EntryBody::Thinking { text } => Some((ActivityKind::Thinking, first_line(text))),
        EntryBody::Text { text } => Some((ActivityKind::Writing, first_line(text))),
        // A plain program's progress is its latest line of output.
        EntryBody::Stdout { text } => {
            let last = text.lines().rev().find(|l| !l.trim().is_empty())?;
            Some((ActivityKind::Writing, one_line(last)))
        }
        EntryBody::ToolCall { name, input, .. } => Some(tool_step(name, input)),
        EntryBody::Input { .. }
        | EntryBody::Stderr { .. }
        | EntryBody::ToolResult { .. }
        | EntryBody::Todo { .. }
        | EntryBody::Error { .. }
        | EntryBody::Permission { .. }
        | EntryBody::Notice { .. }
        | EntryBody::Final { .. } => None,
    }
}

fn tool_step(name: &str, input: &Value) -> (ActivityKind, String) {
    let field = |keys: &[&str]| {
        keys.iter()
            .find_map(|k| input.get(*k).and_then(Value::as_str))
            .map(one_line)
    };
    let or_name = |text: Option<String>| text.unwrap_or_else(|| name.to_owned());
    match name {
        "Read" | "LS" => (
            ActivityKind::Reading,
            or_name(field(&["file_path", "path"])),
        ),
        "Grep" | "Glob" => (
            ActivityKind::Searching,
            or_name(field(&["pattern", "path"])),
        ),
        "Edit" | "MultiEdit" | "Write" | "NotebookEdit" => (
            ActivityKind::Editing,
            or_name(field(&["file_path", "notebook_path", "path"])),
        ),
        "file_change" => (ActivityKind::Editing, or_name(changed_files(input))),
        "Bash" | "command" => (ActivityKind::Running, or_name(command_text(input))),
        "WebSearch" | "web_search" => (ActivityKind::Searching, or_name(field(&["query"]))),
        "WebFetch" => (ActivityKind::Searching, or_name(field(&["url"]))),
        _ => (ActivityKind::Tool, one_line(name)),
    }
}

/// Codex writes a command as a string; an argument list is joined with spaces.
fn command_text(input: &Value) -> Option<String> {
    match input.get("command")? {
        Value::String(command) => Some(one_line(command)),
        Value::Array(parts) => {
            let words: Vec<&str> = parts.iter().filter_map(Value::as_str).collect();
            Some(one_line(&words.join(" ")))
        }
        _ => None,
    }
}

/// `path` for one file, `path and N more` for several.
fn changed_files(input: &Value) -> Option<String> {
    let changes = input.get("changes")?.as_array()?;
    let first = changes.first()?.get("path")?.as_str()?;
    Some(match changes.len() {
        1 => one_line(first),
        n => one_line(&format!("{first} and {} more", n - 1)),
    })
}

fn first_line(text: &str) -> String {
    one_line(text.lines().find(|l| !l.trim().is_empty()).unwrap_or(""))
}

/// Whitespace runs become one space and the text is cut at [`MAX_CHARS`].
pub(crate) fn one_line(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let joined = words.join(" ");
    if joined.chars().count() <= MAX_CHARS {
        return joined;
    }
    let mut cut: String = joined.chars().take(MAX_CHARS - 1).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::entry_tests::todo;

    fn call(name: &str, input: Value) -> EntryBody {
        EntryBody::ToolCall {
            tool_id: None,
            name: name.to_owned(),
            input,
        }
    }

    fn text(s: &str) -> EntryBody {
        EntryBody::Text { text: s.to_owned() }
    }

    #[test]
    fn nothing_yet_is_no_activity() {
        assert_eq!(activity_of(&[]), None);
        assert_eq!(
            activity_of(&[EntryBody::Stderr {
                text: "warn".into()
            }]),
            None
        );
    }

    #[test]
    fn the_latest_step_wins_and_results_do_not_count() {
        let entries = [
            EntryBody::Thinking {
                text: "\n  Let me look\nmore".into(),
            },
            call("Read", json!({"file_path": "/src/main.rs"})),
            EntryBody::ToolResult {
                tool_id: None,
                output: "fn main".into(),
                is_error: false,
            },
        ];
        assert_eq!(
            activity_of(&entries[..1]),
            Some((ActivityKind::Thinking, "Let me look".into()))
        );
        assert_eq!(
            activity_of(&entries),
            Some((ActivityKind::Reading, "/src/main.rs".into()))
        );
    }

    #[test]
    fn each_tool_has_its_kind_and_subject() {
        let cases = [
            (
                call("Edit", json!({"file_path": "a.rs"})),
                ActivityKind::Editing,
                "a.rs",
            ),
            (
                call("Bash", json!({"command": "cargo  test\n-p x"})),
                ActivityKind::Running,
                "cargo test -p x",
            ),
            (
                call("command", json!({"command": "bash -lc ls"})),
                ActivityKind::Running,
                "bash -lc ls",
            ),
            (
                call("Grep", json!({"pattern": "TODO"})),
                ActivityKind::Searching,
                "TODO",
            ),
            (
                call("web_search", json!({"query": "rust sse"})),
                ActivityKind::Searching,
                "rust sse",
            ),
            (
                call(
                    "file_change",
                    json!({"changes": [{"path": "x.rs", "kind": "add"}, {"path": "y.rs"}]}),
                ),
                ActivityKind::Editing,
                "x.rs and 1 more",
            ),
            (
                call("mcp__github__create_issue", json!({})),
                ActivityKind::Tool,
                "mcp__github__create_issue",
            ),
            (call("Read", json!({})), ActivityKind::Reading, "Read"),
            (
                EntryBody::Stdout {
                    text: "step 1\nstep 2\n\n".into(),
                },
                ActivityKind::Writing,
                "step 2",
            ),
            (text("## Plan\nfirst"), ActivityKind::Writing, "## Plan"),
        ];
        for (entry, kind, subject) in cases {
            assert_eq!(
                activity_of(std::slice::from_ref(&entry)),
                Some((kind, subject.to_owned())),
                "{entry:?}"
            );
        }
    }

    #[test]
    fn the_todo_list_comes_first_while_it_has_work_left() {
        use TodoStatus::*;
        let list = todo(&[
            ("Read code", Completed),
            ("Fix bug", InProgress),
            ("Test", Pending),
        ]);
        assert_eq!(
            activity_of(&[list.clone(), text("working")]),
            Some((ActivityKind::Todo, "Fix bug".into()))
        );
        let none_started = todo(&[("Read code", Completed), ("Test", Pending)]);
        assert_eq!(
            activity_of(&[list, none_started]),
            Some((ActivityKind::Todo, "Test".into())),
            "the latest list counts"
        );
        let all_done = todo(&[("Read code", Completed)]);
        assert_eq!(
            activity_of(&[all_done, text("Done.")]),
            Some((ActivityKind::Writing, "Done.".into()))
        );
    }

    #[test]
    fn long_text_is_cut_to_one_line() {
        let long = "word ".repeat(100);
        let (_, shown) = activity_of(&[text(&long)]).unwrap_or((ActivityKind::Tool, String::new()));
        assert_eq!(shown.chars().count(), MAX_CHARS);
        assert!(shown.ends_with('…'));
        assert!(!shown.contains('\n'));
    }
}
