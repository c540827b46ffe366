//! Reading a question out of what an engine wrote: the explicit question
//! tool's input, and a reply's last paragraph when it asks without the tool.

use serde_json::Value;

/// How a paragraph that asks without a question mark starts (lowercase).
const ASKING_STARTS: &[&str] = &[
    "should i ",
    "shall i ",
    "do you want",
    "would you like",
    "which ",
];

/// The text of Claude Code's `AskUserQuestion` input
/// (`{"questions": [{"question", "header"?, "options"?: [{"label"}]}]}`):
/// each question, then its options as a list, questions a blank line apart.
/// Empty when the input holds no question text (the call alone still asks).
pub fn explicit_question(input: &Value) -> String {
    let questions = match input.get("questions").and_then(Value::as_array) {
        Some(list) => list.iter().collect(),
        // A single question object, as a tolerant reading of older shapes.
        None => vec![input],
    };
    let mut parts = Vec::new();
    for question in questions {
        let Some(text) = question.get("question").and_then(Value::as_str) else {
            continue;
        };
        let mut part = text.trim().to_owned();
        let options = question.get("options").and_then(Value::as_array);
        for option in options.into_iter().flatten() {
            let label = option
                .get("label")
                .and_then(Value::as_str)
                .or_else(|| option.as_str());
            if let Some(label) = label {
                part.push_str("\n- ");
                part.push_str(label.trim());
            }
        }
        parts.push(part);
    }
    parts.join("\n\n")
}

/// The reply's last paragraph when it asks the user something: it ends with
/// `?`, or it (or its last line) starts like a question ("Should I", "Do you
/// want", "Would you like", "Which"). Code blocks, inline code and quoted
/// lines are left out first, so a `?` in code or in a quote asks nothing.
pub fn asks_a_question(reply: &str) -> Option<String> {
    let paragraph = last_paragraph(reply)?;
    let plain = without_inline_code(&paragraph);
    let plain = plain.trim_end_matches(|c: char| c.is_whitespace() || "*_~".contains(c));
    let starts_asking = |line: &str| {
        let line = line
            .trim_start()
            .trim_start_matches(|c: char| "-*+>#".contains(c) || c.is_ascii_digit() || c == '.')
            .trim_start_matches(|c: char| c.is_whitespace() || "*_".contains(c))
            .to_lowercase();
        ASKING_STARTS.iter().any(|start| line.starts_with(start))
    };
    let last_line = plain.lines().last().unwrap_or_default();
    (plain.ends_with('?') || starts_asking(plain) || starts_asking(last_line)).then_some(paragraph)
}

/// The question itself in a paragraph that asks one, for a title: its last
/// sentence that ends with `?`, else its last line that starts like a
/// question, else its first line. "I looked at the failing migration. Should
/// I drop the column?" is titled by its second sentence, not its first.
pub fn the_question(paragraph: &str) -> &str {
    let lines: Vec<&str> = paragraph
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect();
    let mut sentences = lines.iter().flat_map(|line| sentences_of(line));
    if let Some(asking) = sentences.rfind(|s| s.ends_with('?')) {
        return asking;
    }
    let starts_asking = |line: &str| {
        let lower = line.to_lowercase();
        ASKING_STARTS.iter().any(|start| lower.starts_with(start))
    };
    lines
        .iter()
        .rev()
        .find(|line| starts_asking(line))
        .or(lines.first())
        .copied()
        .unwrap_or_default()
}

/// A line's sentences: split after `.`, `!` or `?` followed by a space.
fn sentences_of(line: &str) -> Vec<&str> {
    let mut sentences = Vec::new();
    let mut start = 0;
    let bytes = line.as_bytes();
    for (at, byte) in bytes.iter().enumerate() {
        if matches!(byte, b'.' | b'!' | b'?') && bytes.get(at + 1) == Some(&b' ') {
            sentences.push(line[start..=at].trim());
            start = at + 1;
        }
    }
    sentences.push(line[start..].trim());
    sentences.retain(|sentence| !sentence.is_empty());
    sentences
}

/// The last non-empty paragraph outside fenced code, quote lines left out.
fn last_paragraph(reply: &str) -> Option<String> {
    let mut paragraphs: Vec<Vec<&str>> = vec![Vec::new()];
    let mut in_fence = false;
    for line in reply.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            paragraphs.push(Vec::new());
            continue;
        }
        if in_fence || trimmed.starts_with('>') {
            continue;
        }
        if trimmed.is_empty() {
            paragraphs.push(Vec::new());
        } else if let Some(last) = paragraphs.last_mut() {
            last.push(line.trim_end());
        }
    }
    paragraphs
        .into_iter()
        .rev()
        .find(|p| !p.is_empty())
        .map(|p| p.join("\n").trim().to_owned())
}

/// The text with every `inline code` span taken out.
fn without_inline_code(text: &str) -> String {
    text.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 0)
        .map(|(_, part)| part)
        .collect()
}
