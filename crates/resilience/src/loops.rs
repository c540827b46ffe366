//! The read-loop breaker: notices a turn that keeps making the same tool
//! call, or keeps re-reading a file that has not changed, so the runner can
//! stop it and relaunch with a note saying what it was repeating. A stuck
//! agent otherwise burns its context and the plan's usage on calls whose
//! answer it already has.
//!
//! Two rules, fed every tool call of a turn in order:
//! - **Repeats**: the same tool with the same input [`REPEAT_LIMIT`] times in
//!   a row (any other call in between breaks the run).
//! - **Re-reads**: a reading tool (`Read`, `NotebookRead`) reading the same
//!   file with the same input (so paging through a long file with different
//!   offsets is not a loop) while the file's size and modification time stay
//!   the same, [`REREAD_LIMIT`] times after the first read, with no write to
//!   that file in between (`Edit`, `MultiEdit`, `Write` or `NotebookEdit` on
//!   the same path starts the count over). Calls need not be consecutive.

use std::collections::HashMap;
use std::time::SystemTime;

use serde_json::Value;

/// Identical calls in a row that make a loop: three can be a retry after a
/// flaky result, a fourth identical answer is not going to differ.
pub const REPEAT_LIMIT: u32 = 4;

/// Re-reads of an unchanged file (after the first read) that make a loop.
pub const REREAD_LIMIT: u32 = 3;

/// How much of a call's input a note quotes, in characters.
const QUOTED_INPUT_CHARS: usize = 200;

/// What the caller knows of a file when it is read, to tell an unchanged
/// file from one that changed (by the agent's shell, or anyone else).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileFingerprint {
    pub size: u64,
    pub modified: SystemTime,
}

/// Which rule tripped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopKind {
    Repeated,
    Reread,
}

/// A loop, with the note to give the agent when its turn is relaunched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loop {
    pub kind: LoopKind,
    pub tool: String,
    pub note: String,
}

/// Watches one turn's tool calls; start a new one for each turn.
#[derive(Debug, Default)]
pub struct LoopDetector {
    /// The last call and how many times in a row it was made.
    last: Option<(String, Value, u32)>,
    /// Per file path: per read input, the fingerprint seen and the re-reads
    /// of it since.
    reads: HashMap<String, Vec<(Value, FileFingerprint, u32)>>,
}

impl LoopDetector {
    pub fn new() -> LoopDetector {
        LoopDetector::default()
    }

    /// Takes the next tool call (Claude Code's `tool_use` `name` and `input`,
    /// and for a read the file's fingerprint when it could be taken) and
    /// says whether it closes a loop. After a loop is reported its count
    /// starts over.
    pub fn observe(
        &mut self,
        tool: &str,
        input: &Value,
        file_fingerprint: Option<FileFingerprint>,
    ) -> Option<Loop> {
        let repeated = self.count_repeat(tool, input);
        if let Some(path) = written_path(tool, input) {
            self.reads.remove(path);
        }
        let reread = match (read_path(tool, input), file_fingerprint) {
            (Some(path), Some(fingerprint)) => self.count_reread(path, input, fingerprint),
            _ => None,
        };
        if repeated {
            self.last = None;
            return Some(Loop {
                kind: LoopKind::Repeated,
                tool: tool.to_owned(),
                note: format!(
                    "You called {tool} with the same input {REPEAT_LIMIT} times in a row: {}. \
                     It will not change; try something else.",
                    quoted(input)
                ),
            });
        }
        reread.map(|path| Loop {
            kind: LoopKind::Reread,
            tool: tool.to_owned(),
            note: format!(
                "You read {path} {} times and it has not changed since the first time; \
                 what it says is already in this conversation. Use it, or try something else.",
                REREAD_LIMIT + 1
            ),
        })
    }

    /// Counts `tool` with `input` into the run of identical calls; true when
    /// the run reaches [`REPEAT_LIMIT`].
    fn count_repeat(&mut self, tool: &str, input: &Value) -> bool {
        let run = match &mut self.last {
            Some((last_tool, last_input, run)) if last_tool == tool && last_input == input => {
                *run += 1;
                *run
            }
            _ => {
                self.last = Some((tool.to_owned(), input.clone(), 1));
                1
            }
        };
        run >= REPEAT_LIMIT
    }

    /// Counts a read of `path`; the path when it makes [`REREAD_LIMIT`]
    /// re-reads of the same unchanged content.
    fn count_reread(
        &mut self,
        path: &str,
        input: &Value,
        fingerprint: FileFingerprint,
    ) -> Option<String> {
        let reads = self.reads.entry(path.to_owned()).or_default();
        let Some(at) = reads.iter().position(|(seen, _, _)| seen == input) else {
            reads.push((input.clone(), fingerprint, 0));
            return None;
        };
        let (_, seen, rereads) = &mut reads[at];
        if *seen != fingerprint {
            // The file changed: this read is a first read of the new content.
            *seen = fingerprint;
            *rereads = 0;
            return None;
        }
        *rereads += 1;
        if *rereads < REREAD_LIMIT {
            return None;
        }
        *rereads = 0;
        Some(path.to_owned())
    }
}

/// The file a reading tool reads.
fn read_path<'a>(tool: &str, input: &'a Value) -> Option<&'a str> {
    let key = match tool {
        "Read" => "file_path",
        "NotebookRead" => "notebook_path",
        _ => return None,
    };
    input.get(key)?.as_str()
}

/// The file a writing tool writes.
fn written_path<'a>(tool: &str, input: &'a Value) -> Option<&'a str> {
    let key = match tool {
        "Edit" | "MultiEdit" | "Write" => "file_path",
        "NotebookEdit" => "notebook_path",
        _ => return None,
    };
    input.get(key)?.as_str()
}

/// The input as compact JSON, cut at [`QUOTED_INPUT_CHARS`] characters so a
/// large `Write` does not fill the note.
fn quoted(input: &Value) -> String {
    let text = input.to_string();
    match text.char_indices().nth(QUOTED_INPUT_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use serde_json::json;

    use super::*;

    fn fingerprint(size: u64, seconds: u64) -> Option<FileFingerprint> {
        Some(FileFingerprint {
            size,
            modified: SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_000_000 + seconds),
        })
    }

    #[test]
    fn the_same_call_four_times_in_a_row_is_a_loop() {
        let mut detector = LoopDetector::new();
        let ls = json!({"command": "ls"});
        for _ in 1..REPEAT_LIMIT {
            assert_eq!(detector.observe("Bash", &ls, None), None);
        }
        let found = detector.observe("Bash", &ls, None).expect("a loop");
        assert_eq!(found.kind, LoopKind::Repeated);
        assert_eq!(found.tool, "Bash");
        assert_eq!(
            found.note,
            "You called Bash with the same input 4 times in a row: {\"command\":\"ls\"}. \
             It will not change; try something else."
        );
        // The count starts over once reported.
        assert_eq!(detector.observe("Bash", &ls, None), None);
    }

    #[test]
    fn a_different_call_breaks_the_run() {
        let mut detector = LoopDetector::new();
        let test = json!({"command": "cargo test -p boards", "description": "Run the tests"});
        for _ in 0..3 {
            assert_eq!(detector.observe("Bash", &test, None), None);
        }
        let status = json!({"command": "git status"});
        assert_eq!(detector.observe("Bash", &status, None), None);
        for _ in 0..3 {
            assert_eq!(detector.observe("Bash", &test, None), None);
        }
        // Same input, another tool: not the same call either.
        assert_eq!(detector.observe("Grep", &test, None), None);
    }

    #[test]
    fn re_reading_an_unchanged_file_is_a_loop() {
        let mut detector = LoopDetector::new();
        let read = json!({"file_path": "/home/ana/proj/src/lib.rs"});
        let grep = json!({"pattern": "fn main", "path": "/home/ana/proj"});
        assert_eq!(detector.observe("Read", &read, fingerprint(4096, 0)), None);
        for _ in 1..REREAD_LIMIT {
            assert_eq!(detector.observe("Grep", &grep, None), None);
            assert_eq!(detector.observe("Read", &read, fingerprint(4096, 0)), None);
        }
        assert_eq!(detector.observe("Grep", &grep, None), None);
        let found = detector
            .observe("Read", &read, fingerprint(4096, 0))
            .expect("a loop");
        assert_eq!(found.kind, LoopKind::Reread);
        assert_eq!(
            found.note,
            "You read /home/ana/proj/src/lib.rs 4 times and it has not changed since the \
             first time; what it says is already in this conversation. Use it, or try \
             something else."
        );
    }

    #[test]
    fn a_write_to_the_file_starts_the_count_over() {
        let mut detector = LoopDetector::new();
        let path = "/home/ana/proj/src/lib.rs";
        let read = json!({"file_path": path});
        for _ in 0..REREAD_LIMIT {
            assert_eq!(detector.observe("Read", &read, fingerprint(4096, 0)), None);
        }
        let edit = json!({"file_path": path, "old_string": "a", "new_string": "b"});
        assert_eq!(detector.observe("Edit", &edit, None), None);
        // An edit that left size and time as they were still resets the count.
        for _ in 0..REREAD_LIMIT {
            assert_eq!(detector.observe("Read", &read, fingerprint(4096, 0)), None);
        }
    }

    #[test]
    fn a_file_changed_by_someone_else_starts_the_count_over() {
        let mut detector = LoopDetector::new();
        let read = json!({"file_path": "/home/ana/proj/build.log"});
        for _ in 0..REREAD_LIMIT {
            assert_eq!(detector.observe("Read", &read, fingerprint(100, 0)), None);
            assert_eq!(
                detector.observe("Bash", &json!({"command": "sleep 5"}), None),
                None
            );
        }
        assert_eq!(detector.observe("Read", &read, fingerprint(180, 5)), None);
    }

    #[test]
    fn paging_through_a_file_is_not_a_loop() {
        let mut detector = LoopDetector::new();
        let path = "/home/ana/proj/src/big.rs";
        for offset in [1, 2001, 4001, 6001, 8001] {
            let read = json!({"file_path": path, "offset": offset, "limit": 2000});
            assert_eq!(
                detector.observe("Read", &read, fingerprint(400_000, 0)),
                None
            );
        }
    }

    #[test]
    fn a_long_input_is_cut_in_the_note() {
        let mut detector = LoopDetector::new();
        let write = json!({"file_path": "/tmp/x", "content": "é".repeat(1_000)});
        let mut found = None;
        for _ in 0..REPEAT_LIMIT {
            found = detector.observe("Write", &write, None);
        }
        let note = found.expect("a loop").note;
        assert!(note.contains("…. It will not change"), "{note}");
        assert!(note.chars().count() < 300, "{note}");
    }
}
