//! tasks.md: a list as a Markdown task list a person can edit in any editor
//! (the format is documented in docs/tasks-md.md).
//!
//! ```text
//! # Tasks
//!
//! - [ ] Ship the release due:2026-12-01 <!-- id:0190c1 -->
//!   > Notes, one `>` line each.
//!   - [x] Write the changelog <!-- id:0190c2 -->
//! - [-] Dropped idea snooze:2026-12-01T09:00Z <!-- id:0190c3 -->
//! ```
//!
//! [`parse`] never fails: a line it does not understand is left out and
//! reported as a [`Warning`]. [`render`] writes what [`parse`] reads back
//! unchanged, so a file nobody edited merges as no change at all. The one
//! escape: a text whose last word would read as a field (`due:…`,
//! `snooze:…`) gets a backslash before its colon, and parsing takes one
//! backslash away again.

use std::collections::HashMap;

use crate::model::{
    Fields, MAX_NOTES_CHARS, MAX_TEXT_CHARS, Task, TaskState, clean_notes, clean_text, parse_due,
    parse_snooze, truncate_chars,
};

/// The first line of every rendered file; reading it back is no warning.
pub const HEADER: &str = "# Tasks";

/// One task line of the file and its notes. `id` is none for a line a
/// person added; `depth` is its nesting, 0 at the top.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub id: Option<String>,
    pub depth: usize,
    pub fields: Fields,
}

/// A line parsing left out or changed, by its number from 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Parsed {
    pub tasks: Vec<Entry>,
    pub warnings: Vec<Warning>,
}

/// The entries of `tasks` given in depth-first order (as `list` gives them).
pub fn entries_of(tasks: &[Task]) -> Vec<Entry> {
    let mut depth: HashMap<&str, usize> = HashMap::with_capacity(tasks.len());
    tasks
        .iter()
        .map(|t| {
            let d = t
                .parent_id
                .as_deref()
                .and_then(|p| depth.get(p))
                .map_or(0, |d| d + 1);
            depth.insert(&t.id, d);
            Entry {
                id: Some(t.id.clone()),
                depth: d,
                fields: t.fields(),
            }
        })
        .collect()
}

pub fn render_tasks(tasks: &[Task]) -> String {
    render(&entries_of(tasks))
}

pub fn render(entries: &[Entry]) -> String {
    let mut out = String::with_capacity(64 + entries.len() * 80);
    out.push_str(HEADER);
    out.push('\n');
    if !entries.is_empty() {
        out.push('\n');
    }
    for e in entries {
        render_entry(&mut out, e);
    }
    out
}

fn render_entry(out: &mut String, e: &Entry) {
    let f = &e.fields;
    push_indent(out, e.depth);
    out.push_str(match f.state {
        TaskState::Open => "- [ ] ",
        TaskState::Done => "- [x] ",
        TaskState::Dropped => "- [-] ",
    });
    out.push_str(&escape_text(&f.text));
    if let Some(due) = &f.due {
        out.push_str(" due:");
        out.push_str(due);
    }
    if let Some(at) = &f.snoozed_until {
        out.push_str(" snooze:");
        out.push_str(&short_time(at));
    }
    if let Some(id) = &e.id {
        out.push_str(" <!-- id:");
        out.push_str(id);
        if f.conflict {
            out.push_str(" conflict");
        }
        out.push_str(" -->");
    }
    out.push('\n');
    if !f.notes.is_empty() {
        for line in f.notes.split('\n') {
            push_indent(out, e.depth + 1);
            out.push('>');
            if !line.is_empty() {
                out.push(' ');
                out.push_str(line);
            }
            out.push('\n');
        }
    }
}

fn push_indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

/// A stored time as a person would write it: `2026-12-01T09:00Z` when it
/// falls on a minute, seconds and milliseconds only when it does not.
fn short_time(at: &str) -> String {
    if let Some(head) = at.strip_suffix(":00.000Z") {
        format!("{head}Z")
    } else if let Some(head) = at.strip_suffix(".000Z") {
        format!("{head}Z")
    } else {
        at.to_owned()
    }
}

/// The text's last word, when it would read as a field: `due`, `snooze`,
/// then any backslashes, then a colon. Returns where the colon is.
fn field_like_last_word(text: &str) -> Option<usize> {
    let start = text.rfind(' ').map_or(0, |i| i + 1);
    let word = &text[start..];
    let name = ["due", "snooze"]
        .into_iter()
        .find(|name| word.starts_with(name))?;
    let rest = &word[name.len()..];
    let slashes = rest.len() - rest.trim_start_matches('\\').len();
    rest[slashes..]
        .starts_with(':')
        .then_some(start + name.len() + slashes)
}

fn escape_text(text: &str) -> std::borrow::Cow<'_, str> {
    match field_like_last_word(text) {
        Some(colon) => format!("{}\\{}", &text[..colon], &text[colon..]).into(),
        None => text.into(),
    }
}

fn unescape_text(text: String) -> String {
    match field_like_last_word(&text) {
        Some(colon) if text[..colon].ends_with('\\') => {
            format!("{}{}", &text[..colon - 1], &text[colon..])
        }
        _ => text,
    }
}

/// What a line is, once its indentation is off.
enum Line<'a> {
    Task { mark: char, body: &'a str },
    Note(&'a str),
    Other,
}

fn classify(rest: &str) -> Line<'_> {
    if let Some(note) = rest.strip_prefix('>') {
        return Line::Note(note.strip_prefix(' ').unwrap_or(note));
    }
    let Some(after_bullet) = rest
        .strip_prefix("- ")
        .or_else(|| rest.strip_prefix("* "))
        .or_else(|| rest.strip_prefix("+ "))
    else {
        return Line::Other;
    };
    let Some(boxed) = after_bullet.trim_start_matches(' ').strip_prefix('[') else {
        return Line::Other;
    };
    let mut chars = boxed.chars();
    let (Some(mark), Some(']')) = (chars.next(), chars.next()) else {
        return Line::Other;
    };
    let after = chars.as_str();
    if after.is_empty() || after.starts_with([' ', '\t']) {
        Line::Task { mark, body: after }
    } else {
        Line::Other
    }
}

/// Indentation in columns: a space is one, a tab one level (two).
fn indentation(line: &str) -> (usize, &str) {
    let rest = line.trim_start_matches([' ', '\t']);
    let lead = &line[..line.len() - rest.len()];
    let cols = lead.chars().map(|c| if c == '\t' { 2 } else { 1 }).sum();
    (cols, rest)
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A line's trailing `<!-- id:… -->` comment, and the body before it.
struct IdComment<'a> {
    id: &'a str,
    conflict: bool,
    body: &'a str,
}

/// The trailing id comment, if any. `Err` is a comment that says `id:` but
/// names none.
fn split_id(body: &str) -> Result<Option<IdComment<'_>>, String> {
    let Some(open) = body.strip_suffix("-->").and_then(|b| b.rfind("<!--")) else {
        return Ok(None);
    };
    let inner = body[open + 4..body.len() - 3].trim();
    let Some(named) = inner.strip_prefix("id:") else {
        return Ok(None);
    };
    let mut words = named.split_whitespace();
    let id = words.next().unwrap_or_default();
    let conflict = match (words.next(), words.next()) {
        (None, _) => false,
        (Some("conflict"), None) => true,
        _ => return Err(format!("the comment <!-- {inner} --> is not an id")),
    };
    if !valid_id(id) {
        return Err(format!("{id:?} is not a task id"));
    }
    Ok(Some(IdComment {
        id,
        conflict,
        body: body[..open].trim_end(),
    }))
}

/// Parses a whole file. Never fails; see the module's notes.
pub fn parse(text: &str) -> Parsed {
    let mut parsed = Parsed::default();
    let mut notes: Vec<Vec<String>> = Vec::new();
    // Which entry `>` lines belong to: the last task, until an unknown line.
    let mut noting: Option<usize> = None;
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (n, raw) in text.split('\n').enumerate() {
        let line_no = n + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim().is_empty() {
            continue;
        }
        let (cols, rest) = indentation(line);
        let mut warn = |message: String| {
            parsed.warnings.push(Warning {
                line: line_no,
                message,
            })
        };
        match classify(rest) {
            Line::Note(note) => match noting {
                Some(i) => notes[i].push(note.to_owned()),
                None => warn("a note (>) under no task was left out".to_owned()),
            },
            Line::Task { mark, body } => {
                let depth = parsed
                    .tasks
                    .last()
                    .map_or(0, |prev| (cols / 2).min(prev.depth + 1));
                let Some(entry) = task_entry(mark, body, depth, &mut seen, line_no, &mut warn)
                else {
                    noting = None;
                    continue;
                };
                parsed.tasks.push(entry);
                notes.push(Vec::new());
                noting = Some(parsed.tasks.len() - 1);
            }
            Line::Other => {
                noting = None;
                if rest.trim_end() != HEADER {
                    warn(format!(
                        "not a task line, left out: {}",
                        truncate_chars(rest.trim_end(), 80)
                    ));
                }
            }
        }
    }
    for ((entry, lines), i) in parsed.tasks.iter_mut().zip(notes).zip(1..) {
        let joined = clean_notes(&lines.join("\n"));
        if joined.chars().count() > MAX_NOTES_CHARS {
            parsed.warnings.push(Warning {
                line: 0,
                message: format!("task {i}'s notes were cut to 20,000 characters"),
            });
            entry.fields.notes = truncate_chars(&joined, MAX_NOTES_CHARS)
                .trim_end()
                .to_owned();
        } else {
            entry.fields.notes = joined;
        }
    }
    parsed
}

/// One task line's entry, or none when it has no text and no id to keep.
fn task_entry(
    mark: char,
    body: &str,
    depth: usize,
    seen: &mut HashMap<String, usize>,
    line_no: usize,
    warn: &mut impl FnMut(String),
) -> Option<Entry> {
    let state = match mark {
        ' ' => TaskState::Open,
        'x' | 'X' => TaskState::Done,
        '-' | '~' => TaskState::Dropped,
        other => {
            warn(format!(
                "[{other}] is not a box this file knows; read as open"
            ));
            TaskState::Open
        }
    };
    let cleaned = clean_text(body);
    // A comment that is no id, or an id seen on an earlier line, is taken
    // off and the one before it (if any) is tried: what stays in the text
    // never ends in an id comment, so writing it back reads the same.
    let mut body = cleaned.as_str();
    let (mut id, mut conflict) = (None, false);
    loop {
        match split_id(body) {
            Ok(None) => break,
            Ok(Some(c)) => {
                body = c.body;
                match seen.get(c.id) {
                    Some(first) => warn(format!(
                        "the id of line {first} again; this line is read as a new task"
                    )),
                    None => {
                        seen.insert(c.id.to_owned(), line_no);
                        (id, conflict) = (Some(c.id.to_owned()), c.conflict);
                        break;
                    }
                }
            }
            Err(message) => {
                warn(format!("{message}; read as a new task"));
                let cut = body.rfind("<!--").unwrap_or(body.len());
                body = body[..cut].trim_end();
            }
        }
    }
    let (text, due, snoozed_until) = split_fields(body, warn);
    let mut text = unescape_text(text);
    if text.chars().count() > MAX_TEXT_CHARS {
        warn("the text was cut to 2,000 characters".to_owned());
        text = truncate_chars(&text, MAX_TEXT_CHARS).trim_end().to_owned();
    }
    if text.is_empty() {
        if id.is_none() {
            warn("a task without text was left out".to_owned());
            return None;
        }
        warn("a task without text keeps the text it had".to_owned());
    }
    Some(Entry {
        id,
        depth,
        fields: Fields {
            text,
            notes: String::new(),
            state,
            due,
            snoozed_until,
            conflict,
        },
    })
}

/// Takes the trailing `due:` and `snooze:` fields off a body, each at most
/// once, never the last word (a body of one word is all text).
fn split_fields(
    mut body: &str,
    warn: &mut impl FnMut(String),
) -> (String, Option<String>, Option<String>) {
    let (mut due, mut snooze) = (None, None);
    while let Some((head, word)) = body.rsplit_once(' ') {
        let head = head.trim_end();
        if head.is_empty() {
            break;
        }
        if let Some(value) = word.strip_prefix("due:").filter(|_| due.is_none()) {
            match parse_due(value) {
                Some(d) => due = Some(d),
                None => {
                    warn(format!(
                        "due:{value} is not a date YYYY-MM-DD; kept in the text"
                    ));
                    break;
                }
            }
        } else if let Some(value) = word.strip_prefix("snooze:").filter(|_| snooze.is_none()) {
            match parse_snooze(value) {
                Some(at) => snooze = Some(at),
                None => {
                    warn(format!(
                        "snooze:{value} is not a time like 2026-12-01T09:00Z; kept in the text"
                    ));
                    break;
                }
            }
        } else {
            break;
        }
        body = head;
    }
    (body.to_owned(), due, snooze)
}
