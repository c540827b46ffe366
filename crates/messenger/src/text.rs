//! The agent's Markdown as Telegram messages: cut to the platform's limit
//! (4096 UTF-16 code units of text after entity parsing) on paragraph and
//! line boundaries, then written in Telegram's HTML parse mode.
//!
//! HTML rather than MarkdownV2 because only three characters need escaping
//! (`&`, `<`, `>`) and an unknown construct stays plain text, where
//! MarkdownV2 rejects a whole message for one unescaped `.` or `!`.
//!
//! Each part is measured as Markdown, which is never shorter than the text
//! Telegram counts (fences, backticks and `**` disappear, `&amp;` counts as
//! one), so a part that fits as Markdown fits as a message. A fenced code
//! block cut between parts is closed at the end of one and reopened, with
//! its language, at the start of the next.

/// The most text one message may hold, in UTF-16 code units.
pub const MESSAGE_LIMIT: usize = 4096;

/// A language name longer than this is cut: it is only a highlighting hint.
const MAX_LANGUAGE: usize = 32;

pub fn utf16_len(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

/// The byte index at `units` UTF-16 code units into `text`, if that falls
/// between characters (an entity's offset from the Bot API).
pub fn byte_at_utf16(text: &str, units: usize) -> Option<usize> {
    let mut seen = 0;
    for (index, c) in text.char_indices() {
        if seen == units {
            return Some(index);
        }
        if seen > units {
            return None;
        }
        seen += c.len_utf16();
    }
    (seen == units).then_some(text.len())
}

/// Text made safe for the HTML parse mode.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// The agent's final message as the HTML messages to send, in order; none
/// for a blank message (Telegram refuses empty text).
pub fn render_reply(markdown: &str) -> Vec<String> {
    split_markdown(markdown, MESSAGE_LIMIT)
        .iter()
        .map(|part| to_html(part))
        .collect()
}

/// A fenced code block, as each of its lines remembers it.
#[derive(Debug, Clone, PartialEq)]
struct Block {
    /// Which block of the message: two blocks side by side stay two.
    id: usize,
    language: String,
    /// How many backticks opened it, so a shorter run inside stays content.
    fence: usize,
}

#[derive(Debug, Clone)]
struct Line {
    text: String,
    code: Option<Block>,
}

impl Line {
    fn is_blank_text(&self) -> bool {
        self.code.is_none() && self.text.trim().is_empty()
    }

    fn block_id(&self) -> Option<usize> {
        self.code.as_ref().map(|block| block.id)
    }
}

/// An opening fence: its backtick count and language.
fn opening_fence(line: &str) -> Option<(usize, String)> {
    let trimmed = line.trim_start();
    if line.len() - trimmed.len() > 3 {
        return None;
    }
    let fence = trimmed.bytes().take_while(|&b| b == b'`').count();
    if fence < 3 || trimmed[fence..].contains('`') {
        return None;
    }
    let language = trimmed[fence..]
        .split_whitespace()
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || "_+-#.".contains(*c))
        .take(MAX_LANGUAGE)
        .collect();
    Some((fence, language))
}

fn closes(line: &str, fence: usize) -> bool {
    let trimmed = line.trim();
    trimmed.len() >= fence && trimmed.bytes().all(|b| b == b'`')
}

/// The message's lines, each knowing the code block it is in; the fence
/// lines themselves are implied by that. An unclosed block runs to the end.
fn lines(markdown: &str) -> Vec<Line> {
    let mut out = Vec::new();
    let mut open: Option<(Block, bool)> = None;
    let mut blocks = 0;
    for text in markdown.lines() {
        match open.take() {
            Some((block, has_lines)) if closes(text, block.fence) => {
                if !has_lines {
                    // An empty block keeps one empty line, so it is not lost.
                    out.push(Line {
                        text: String::new(),
                        code: Some(block),
                    });
                }
            }
            Some((block, _)) => {
                out.push(Line {
                    text: text.to_owned(),
                    code: Some(block.clone()),
                });
                open = Some((block, true));
            }
            None => match opening_fence(text) {
                Some((fence, language)) => {
                    blocks += 1;
                    let block = Block {
                        id: blocks,
                        language,
                        fence,
                    };
                    open = Some((block, false));
                }
                None => out.push(Line {
                    text: text.to_owned(),
                    code: None,
                }),
            },
        }
    }
    if let Some((block, false)) = open {
        out.push(Line {
            text: String::new(),
            code: Some(block),
        });
    }
    out
}

/// `line` cut into pieces that each fit a part of their own, fences
/// included; a text line at the last space of a piece's second half when
/// it has one.
fn cut_line(line: Line, limit: usize) -> Vec<Line> {
    let fences = line
        .code
        .as_ref()
        .map_or(0, |block| 2 * block.fence + utf16_len(&block.language) + 2);
    let max = limit.saturating_sub(fences).max(1);
    if utf16_len(&line.text) <= max {
        return vec![line];
    }
    let mut pieces = Vec::new();
    let mut rest = line.text.as_str();
    while utf16_len(rest) > max {
        let hard = byte_at_utf16_floor(rest, max);
        let at = match line.code {
            Some(_) => hard,
            None => rest[..hard]
                .rfind(' ')
                .filter(|&space| utf16_len(&rest[..space]) >= max / 2)
                .map_or(hard, |space| space + 1),
        };
        pieces.push(Line {
            text: rest[..at].to_owned(),
            code: line.code.clone(),
        });
        rest = &rest[at..];
    }
    pieces.push(Line {
        text: rest.to_owned(),
        code: line.code,
    });
    pieces
}

/// The byte index of the last character boundary at or before `units`
/// UTF-16 code units, so a surrogate pair is never cut in two.
fn byte_at_utf16_floor(text: &str, units: usize) -> usize {
    let mut seen = 0;
    for (index, c) in text.char_indices() {
        seen += c.len_utf16();
        if seen > units {
            return index;
        }
    }
    text.len()
}

/// How much longer a part's Markdown grows when `line` is added to `part`.
fn growth(part: &[Line], line: &Line) -> usize {
    let newline = usize::from(!part.is_empty());
    let text = utf16_len(&line.text);
    match &line.code {
        None => newline + text,
        Some(block) if part.last().and_then(Line::block_id) == Some(block.id) => 1 + text,
        Some(block) => {
            let fence = block.fence;
            newline + fence + utf16_len(&block.language) + 1 + text + 1 + fence
        }
    }
}

/// How long each prefix of `part` is as Markdown: `lengths[j]` for `part[..j]`.
fn prefix_lengths(part: &[Line]) -> Vec<usize> {
    let mut lengths = vec![0];
    let mut total = 0;
    for (index, line) in part.iter().enumerate() {
        total += growth(&part[..index], line);
        lengths.push(total);
    }
    lengths
}

/// Where to end a full part: after the last paragraph break or at a code
/// block's edge, if that keeps at least half a message; else after its
/// last line.
fn cut_point(part: &[Line], limit: usize) -> usize {
    let lengths = prefix_lengths(part);
    (1..part.len())
        .rev()
        .find(|&j| {
            let (before, after) = (&part[j - 1], &part[j]);
            let paragraph = before.is_blank_text() || before.block_id() != after.block_id();
            paragraph && lengths[j] * 2 >= limit
        })
        .unwrap_or(part.len())
}

/// The message cut into well-formed Markdown parts of at most `limit`
/// UTF-16 code units each.
pub fn split_markdown(markdown: &str, limit: usize) -> Vec<String> {
    let mut parts: Vec<Vec<Line>> = Vec::new();
    let mut current: Vec<Line> = Vec::new();
    let mut length = 0;
    for line in lines(markdown)
        .into_iter()
        .flat_map(|line| cut_line(line, limit))
    {
        loop {
            let grows = growth(&current, &line);
            if current.is_empty() || length + grows <= limit {
                length += grows;
                current.push(line);
                break;
            }
            let rest = current.split_off(cut_point(&current, limit));
            parts.push(std::mem::replace(&mut current, rest));
            length = prefix_lengths(&current).last().copied().unwrap_or(0);
        }
    }
    parts.push(current);
    parts
        .iter()
        .map(|part| write_markdown(trim_blank(part)))
        .filter(|part| !part.is_empty())
        .collect()
}

fn trim_blank(part: &[Line]) -> &[Line] {
    let start = part
        .iter()
        .position(|line| !line.is_blank_text())
        .unwrap_or(part.len());
    let end = part
        .iter()
        .rposition(|line| !line.is_blank_text())
        .map_or(start, |last| last + 1);
    &part[start..end]
}

fn write_markdown(part: &[Line]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut open: Option<&Block> = None;
    for line in part {
        if open.map(|block| block.id) != line.block_id() {
            if let Some(block) = open.take() {
                out.push("`".repeat(block.fence));
            }
            if let Some(block) = &line.code {
                out.push(format!("{}{}", "`".repeat(block.fence), block.language));
                open = Some(block);
            }
        }
        out.push(line.text.clone());
    }
    if let Some(block) = open {
        out.push("`".repeat(block.fence));
    }
    out.join("\n")
}

/// Markdown as Telegram HTML: fenced blocks become `<pre><code>` (with the
/// language as `class="language-…"`), inline code `<code>`, paired `**`
/// bold, and everything else is escaped text, so every tag is closed in
/// the part that opens it.
pub fn to_html(markdown: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut block: Option<(String, Vec<&str>)> = None;
    let source = lines(markdown);
    for (index, line) in source.iter().enumerate() {
        match &line.code {
            Some(code) => {
                let (_, body) = block.get_or_insert_with(|| (code.language.clone(), Vec::new()));
                body.push(&line.text);
                let last = source.get(index + 1).and_then(Line::block_id) != Some(code.id);
                if last && let Some((language, body)) = block.take() {
                    out.push(pre(&language, &body.join("\n")));
                }
            }
            None => out.push(inline(&line.text)),
        }
    }
    out.join("\n")
}

fn pre(language: &str, body: &str) -> String {
    let class = if language.is_empty() {
        String::new()
    } else {
        format!(" class=\"language-{}\"", escape_html(language))
    };
    format!("<pre><code{class}>{}</code></pre>", escape_html(body))
}

/// One line of text: code spans first (a run of backticks closed by a run
/// as long), then bold in what is left.
fn inline(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        let run = rest[start..].bytes().take_while(|&b| b == b'`').count();
        let fence = &rest[start..start + run];
        let after = &rest[start + run..];
        let close = after
            .match_indices(fence)
            .find(|(at, _)| !after[at + run..].starts_with('`') && !after[..*at].ends_with('`'));
        match close {
            Some((at, _)) if at > 0 => {
                out.push_str(&bold(&rest[..start]));
                out.push_str(&format!("<code>{}</code>", escape_html(&after[..at])));
                rest = &after[at + run..];
            }
            _ => {
                out.push_str(&bold(&rest[..start + run]));
                rest = after;
            }
        }
    }
    out.push_str(&bold(rest));
    out
}

/// `**x**` as `<b>x</b>`; a `**` left without a partner stays as written.
fn bold(text: &str) -> String {
    let pieces: Vec<&str> = text.split("**").collect();
    let paired = if pieces.len() % 2 == 1 {
        pieces.len()
    } else {
        pieces.len() - 1
    };
    let mut out = String::new();
    for (index, piece) in pieces.iter().enumerate() {
        if index > 0 {
            out.push_str(match index < paired {
                true if index % 2 == 1 => "<b>",
                true => "</b>",
                false => "**",
            });
        }
        out.push_str(&escape_html(piece));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What Telegram counts: the text once tags and entities are parsed.
    fn visible(html: &str) -> String {
        let mut out = String::new();
        let mut in_tag = false;
        for c in html.chars() {
            match c {
                '<' => in_tag = true,
                '>' if in_tag => in_tag = false,
                c if !in_tag => out.push(c),
                _ => {}
            }
        }
        out.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&amp;", "&")
    }

    #[test]
    fn utf16_offsets_fall_between_characters_only() {
        let text = "a😀b";
        assert_eq!(utf16_len(text), 4);
        assert_eq!(byte_at_utf16(text, 0), Some(0));
        assert_eq!(byte_at_utf16(text, 1), Some(1));
        assert_eq!(byte_at_utf16(text, 2), None, "inside the surrogate pair");
        assert_eq!(byte_at_utf16(text, 3), Some(5));
        assert_eq!(byte_at_utf16(text, 4), Some(6));
        assert_eq!(byte_at_utf16(text, 5), None);
    }

    #[test]
    fn everything_but_the_markup_is_escaped() {
        assert_eq!(
            escape_html("a < b && c > \"d\""),
            "a &lt; b &amp;&amp; c &gt; &quot;d&quot;"
        );
        assert_eq!(
            to_html("Run `ls <dir>` & **look** at x**2 <b>"),
            "Run <code>ls &lt;dir&gt;</code> &amp; <b>look</b> at x**2 &lt;b&gt;"
        );
        assert_eq!(
            to_html("Intro:\n```rust\nfn f() -> Vec<u8> { b\"&\".to_vec() }\n```\nDone."),
            "Intro:\n<pre><code class=\"language-rust\">fn f() -&gt; Vec&lt;u8&gt; { b&quot;&amp;&quot;.to_vec() }</code></pre>\nDone."
        );
        // A language cannot break out of its attribute.
        assert_eq!(
            to_html("```x\"><script>\nhi\n```"),
            "<pre><code class=\"language-xscript\">hi</code></pre>"
        );
        assert_eq!(
            to_html("a ``two `inner` ticks`` and a lone ` here"),
            "a <code>two `inner` ticks</code> and a lone ` here"
        );
        assert_eq!(to_html("```\nplain\n```"), "<pre><code>plain</code></pre>");
    }

    #[test]
    fn an_unclosed_block_is_closed_and_an_empty_one_kept() {
        assert_eq!(split_markdown("```sh\nls", 100), ["```sh\nls\n```"]);
        assert_eq!(
            to_html("```sh\nls"),
            "<pre><code class=\"language-sh\">ls</code></pre>"
        );
        assert_eq!(split_markdown("a\n```\n```\nb", 100), ["a\n```\n\n```\nb"]);
        assert!(render_reply(" \n\n ").is_empty());
    }

    #[test]
    fn a_short_reply_is_one_message() {
        let reply = "Done.\n\n- one\n- two\n\n```py\nprint(1)\n```";
        assert_eq!(split_markdown(reply, MESSAGE_LIMIT), [reply]);
    }

    #[test]
    fn a_long_reply_is_cut_at_a_paragraph() {
        let first = "word ".repeat(600).trim_end().to_owned();
        let second = "more ".repeat(600).trim_end().to_owned();
        let parts = split_markdown(&format!("{first}\n\n{second}"), MESSAGE_LIMIT);
        assert_eq!(parts, [first, second]);
    }

    #[test]
    fn a_ten_thousand_character_code_block_is_closed_and_reopened() {
        let body: Vec<String> = (0..100)
            .map(|i| format!("{i:04} {}", "x".repeat(94)))
            .collect();
        let reply = format!(
            "Here:\n\n```python\n{}\n```\n\nThat is all.",
            body.join("\n")
        );
        assert!(utf16_len(&reply) > 10_000);
        let parts = split_markdown(&reply, MESSAGE_LIMIT);
        assert_eq!(parts.len(), 3);
        let mut lines_seen = Vec::new();
        for part in &parts {
            assert!(utf16_len(part) <= MESSAGE_LIMIT);
            assert_eq!(part.matches("```python").count(), 1, "{part}");
            assert_eq!(part.matches("```").count(), 2, "opened and closed: {part}");
            let html = to_html(part);
            assert!(utf16_len(&visible(&html)) <= MESSAGE_LIMIT);
            assert_eq!(
                html.matches("<pre>").count(),
                html.matches("</pre>").count()
            );
            lines_seen.extend(
                part.lines()
                    .filter(|line| line.len() == 99)
                    .map(str::to_owned),
            );
        }
        assert!(parts[0].starts_with("Here:\n\n```python\n0000 "));
        assert!(parts[2].ends_with("```\n\nThat is all."));
        assert_eq!(lines_seen, body, "every line once, in order");
    }

    #[test]
    fn emoji_count_as_two_units_and_are_never_cut_in_half() {
        // 3,000 characters, but 6,000 UTF-16 units: two messages.
        let reply = "😀".repeat(3000);
        let parts = render_reply(&reply);
        assert_eq!(parts.len(), 2);
        for part in &parts {
            assert!(utf16_len(&visible(part)) <= MESSAGE_LIMIT);
            assert!(part.chars().all(|c| c == '😀'));
        }
        assert_eq!(parts.concat(), reply);
    }

    #[test]
    fn a_long_code_line_is_cut_inside_its_block() {
        let reply = format!("```js\n{}\n```", "ab".repeat(3000));
        let parts = split_markdown(&reply, MESSAGE_LIMIT);
        assert_eq!(parts.len(), 2);
        for part in &parts {
            assert!(utf16_len(part) <= MESSAGE_LIMIT);
            assert!(part.starts_with("```js\n") && part.ends_with("\n```"));
        }
    }

    #[test]
    fn a_longer_fence_keeps_a_short_run_inside_as_content() {
        let reply = format!("````md\n```\ninner\n```\n{}\n````", "y\n".repeat(60));
        let parts = split_markdown(&reply, 100);
        assert!(parts.len() > 1);
        for part in &parts {
            assert!(utf16_len(part) <= 100, "{part}");
            assert!(
                part.starts_with("````md\n") && part.ends_with("\n````"),
                "{part}"
            );
        }
        assert!(to_html(&parts[0]).contains("```\ninner\n```"));
    }
}
