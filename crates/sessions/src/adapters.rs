//! Turning an engine's stdout into reply text, typed transcript entries and
//! figures: whole lines of text for `command` engines, the stream-json of
//! Claude Code and the JSONL events of Codex (their entries: `entries.rs`).
//!
//! Parsing is tolerant on purpose: unknown line types and fields are skipped,
//! a line that is not JSON is skipped, and a line longer than [`MAX_LINE`] is
//! dropped rather than held, so a misbehaving engine cannot grow our memory.

use serde_json::Value;

use crate::engines::EngineKind;
use crate::entries::{ClaudeEntries, CodexEntries, LineBuffer};
use crate::model::{EntryBody, NoticeSource};
use crate::notices::{self, Said};

const MAX_LINE: usize = 16 << 20;

/// What a turn's stdout said besides its text.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TurnMeta {
    /// The engine's own session (Claude) or thread (Codex) id, the latest seen.
    pub engine_session_id: Option<String>,
    pub cost_usd: Option<f64>,
    pub engine_turns: Option<i64>,
    /// Every input token the model read, cached ones included (see [`Decoder::tokens`]).
    pub input_tokens: Option<i64>,
    /// The part of `input_tokens` served from the engine's prompt cache.
    pub cached_input_tokens: Option<i64>,
    pub output_tokens: Option<i64>,
    /// The three token counts are the conversation's running totals, not
    /// this process's own: Codex's `turn.completed.usage` on a resumed thread
    /// covers the whole thread, so a turn's own part is read against the
    /// thread's earlier total (`cost.rs`), as Claude Code's cost is.
    pub tokens_cover_conversation: bool,
    /// The engine declared the turn failed (Claude `is_error`, Codex `turn.failed`).
    pub failure: Option<String>,
    /// An error the engine reported that is not fatal by itself (Codex's
    /// `error` event, Claude's `assistant` line's `error`): what a turn that
    /// exits badly without declaring a failure is said to have died of.
    pub last_error: Option<String>,
    /// The model answering (Claude's `init` line or an assistant message).
    pub model: Option<String>,
    /// The prompt of the latest model call, cached parts included: how full
    /// the context window is. Claude reports it per assistant message;
    /// Codex only sums a turn's calls, which says nothing of the window.
    pub context_tokens: Option<i64>,
    /// The model's context window as the engine states it (Claude's
    /// `result.modelUsage.<model>.contextWindow`), in tokens.
    pub context_window: Option<i64>,
}

/// One turn's stdout, decoded as it arrives ([`Decoder::feed`]).
pub struct Decoder {
    kind: EngineKind,
    pending: Vec<u8>,
    skipping_long_line: bool,
    wrote_text: bool,
    /// A `command` engine's stdout, cut into whole lines.
    lines: LineBuffer,
    claude: ClaudeEntries,
    codex: CodexEntries,
    /// Typed entries decoded and not yet taken (Claude and Codex only: a
    /// `command` engine's entries are its text, see [`Decoder::feed`]).
    entries: Vec<EntryBody>,
    /// The size of the lines `entries` came from: the pump flushes early when
    /// it grows, so a fast engine's entries never pile up for long in memory.
    entry_bytes: usize,
    pub meta: TurnMeta,
}

impl Decoder {
    pub fn new(kind: EngineKind) -> Self {
        Self {
            kind,
            pending: Vec::new(),
            skipping_long_line: false,
            wrote_text: false,
            lines: LineBuffer::default(),
            claude: ClaudeEntries::default(),
            codex: CodexEntries::default(),
            entries: Vec::new(),
            entry_bytes: 0,
            meta: TurnMeta::default(),
        }
    }

    /// The entries decoded since the last call, oldest first.
    pub fn take_entries(&mut self) -> Vec<EntryBody> {
        self.entry_bytes = 0;
        std::mem::take(&mut self.entries)
    }

    /// About how many bytes the entries waiting to be taken hold.
    pub fn waiting_bytes(&self) -> usize {
        self.entry_bytes
    }

    /// Takes the next bytes of stdout and appends the reply text they complete
    /// to `text`. For a `command` engine that text is whole lines of stdout
    /// (the caller stores it as the `stdout` entry); the other engines' typed
    /// entries wait in [`Decoder::take_entries`].
    pub fn feed(&mut self, bytes: &[u8], text: &mut String) {
        match self.kind {
            EngineKind::Command => self.lines.push(bytes, text),
            EngineKind::Claude | EngineKind::Codex => {
                let mut rest = bytes;
                while let Some(newline) = rest.iter().position(|b| *b == b'\n') {
                    if !self.skipping_long_line {
                        self.pending.extend_from_slice(&rest[..newline]);
                        let line = std::mem::take(&mut self.pending);
                        self.line(&line, text);
                    }
                    self.skipping_long_line = false;
                    rest = &rest[newline + 1..];
                }
                if !self.skipping_long_line {
                    self.pending.extend_from_slice(rest);
                    if self.pending.len() > MAX_LINE {
                        self.pending = Vec::new();
                        self.skipping_long_line = true;
                    }
                }
            }
        }
    }

    /// Stdout has closed: whatever is left counts.
    pub fn finish(&mut self, text: &mut String) {
        let rest = std::mem::take(&mut self.pending);
        match self.kind {
            EngineKind::Command => self.lines.finish(text),
            EngineKind::Claude | EngineKind::Codex => {
                if !self.skipping_long_line {
                    self.line(&rest, text);
                }
            }
        }
    }

    fn line(&mut self, line: &[u8], text: &mut String) {
        let Ok(value) = serde_json::from_slice::<Value>(line) else {
            return;
        };
        let before = self.entries.len();
        match self.kind {
            EngineKind::Claude => self.claude(&value, text),
            EngineKind::Codex => self.codex(&value, text),
            EngineKind::Command => {}
        }
        match notices::classify(self.kind, &value) {
            Some(Said::Notice(text)) => self.entries.push(EntryBody::Notice {
                text,
                source: NoticeSource::Engine,
            }),
            Some(Said::Failure(message)) => {
                self.entries.push(EntryBody::Error {
                    message: message.clone(),
                });
                self.meta.failure = Some(message);
            }
            None => {}
        }
        if self.entries.len() > before {
            self.entry_bytes += line.len();
        }
    }

    /// Appends the `text` entries decoded since `before` to the reply: the
    /// reply is the turn's prose, read off its entries rather than parsed twice.
    fn reply_from(&mut self, before: usize, text: &mut String) {
        for entry in &self.entries[before..] {
            if let EntryBody::Text { text: piece } = entry {
                push_reply(&mut self.wrote_text, piece, text);
            }
        }
    }

    fn claude(&mut self, value: &Value, text: &mut String) {
        let str_field =
            |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
        match value.get("type").and_then(Value::as_str) {
            Some("system") if value.get("subtype").and_then(Value::as_str) == Some("init") => {
                if let Some(id) = str_field(value, "session_id") {
                    self.meta.engine_session_id = Some(id);
                }
                if let Some(model) = str_field(value, "model") {
                    self.meta.model = Some(model);
                }
            }
            Some("assistant") => {
                if let Some(message) = value.get("message") {
                    if let Some(model) = str_field(message, "model") {
                        self.meta.model = Some(model);
                    }
                    if let Some(used) = prompt_tokens(message.get("usage")) {
                        self.meta.context_tokens = Some(used);
                    }
                }
                let before = self.entries.len();
                self.claude.assistant(value, &mut self.entries);
                self.reply_from(before, text);
                if let Some(error) = str_field(value, "error") {
                    self.meta.last_error = Some(error);
                }
            }
            Some("user") => self.claude.user(value, &mut self.entries),
            Some("result") => {
                if let Some(id) = str_field(value, "session_id") {
                    self.meta.engine_session_id = Some(id);
                }
                if let Some(turns) = value.get("num_turns").and_then(Value::as_i64) {
                    self.meta.engine_turns = Some(turns);
                }
                if let Some(cost) = value
                    .get("total_cost_usd")
                    .or_else(|| value.get("cost_usd"))
                    .and_then(Value::as_f64)
                {
                    self.meta.cost_usd = Some(cost);
                }
                self.tokens(value.get("usage"));
                if let Some(window) =
                    stated_window(value.get("modelUsage"), self.meta.model.as_deref())
                {
                    self.meta.context_window = Some(window);
                }
                let result = str_field(value, "result").filter(|r| !r.trim().is_empty());
                // A failed result is the turn's `error` (see `notices.rs`).
                let failed = value.get("is_error").and_then(Value::as_bool) == Some(true);
                if let Some(result) = result.filter(|_| !failed) {
                    self.entries.push(EntryBody::Final {
                        text: result.clone(),
                    });
                    if !self.wrote_text {
                        push_reply(&mut self.wrote_text, &result, text);
                    }
                }
            }
            _ => {}
        }
    }

    fn codex(&mut self, value: &Value, text: &mut String) {
        let message = |v: Option<&Value>| {
            v.and_then(|v| v.get("message"))
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        match value.get("type").and_then(Value::as_str) {
            Some("thread.started") => {
                if let Some(id) = value.get("thread_id").and_then(Value::as_str) {
                    self.meta.engine_session_id = Some(id.to_owned());
                }
            }
            Some("turn.started") => self.codex.turn_started(),
            Some("item.started" | "item.updated") => {
                if let Some(item) = value.get("item") {
                    self.codex.item(item, false, &mut self.entries);
                }
            }
            Some("item.completed") => {
                if let Some(item) = value.get("item") {
                    let before = self.entries.len();
                    self.codex.item(item, true, &mut self.entries);
                    self.reply_from(before, text);
                }
            }
            Some("turn.completed") => {
                self.codex.turn_completed(&mut self.entries);
                self.tokens(value.get("usage"));
            }
            // Codex's own "last critical error": what a turn that ends badly
            // without a `turn.failed` died of. Its warning items are not.
            Some("error") => self.meta.last_error = message(Some(value)),
            _ => {}
        }
    }

    /// Takes a usage report as the turn's counts, in one meaning for both engines:
    /// `input` is every input token the model read and `cached_input` the part
    /// of it read from the prompt cache. Codex already counts that way
    /// (`cached_input_tokens` is a subset of `input_tokens`); Claude's
    /// `input_tokens` leaves out both the cache reads and the cache writes, so
    /// they are added back. A field missing or of another type counts as absent.
    ///
    /// Every usage report restates a running total, so a later one replaces
    /// an earlier one: Claude's `result` that of its process (every turn is a
    /// process of its own, so the last is the turn's figure), Codex's
    /// `turn.completed` that of its thread, resumes included (docs/engines.md:
    /// 1600/10, then 3300/30, then 5100/60), which `cost.rs` turns into the
    /// turn's own part.
    fn tokens(&mut self, usage: Option<&Value>) {
        let Some(usage) = usage else { return };
        let field = |key: &str| usage.get(key).and_then(Value::as_i64);
        let (input, cached) = match self.kind {
            EngineKind::Claude => {
                let read = field("cache_read_input_tokens");
                let parts = [
                    field("input_tokens"),
                    field("cache_creation_input_tokens"),
                    read,
                ];
                let input = parts.iter().flatten().copied().reduce(i64::saturating_add);
                (input, read)
            }
            EngineKind::Codex | EngineKind::Command => {
                self.meta.tokens_cover_conversation = true;
                (field("input_tokens"), field("cached_input_tokens"))
            }
        };
        let set = |slot: &mut Option<i64>, n: Option<i64>| {
            if n.is_some() {
                *slot = n;
            }
        };
        set(&mut self.meta.input_tokens, input);
        set(&mut self.meta.cached_input_tokens, cached);
        set(&mut self.meta.output_tokens, field("output_tokens"));
    }
}

/// A Claude message's whole prompt: new, cache-written and cache-read input.
fn prompt_tokens(usage: Option<&Value>) -> Option<i64> {
    let usage = usage?;
    [
        "input_tokens",
        "cache_creation_input_tokens",
        "cache_read_input_tokens",
    ]
    .iter()
    .filter_map(|key| usage.get(*key).and_then(Value::as_i64))
    .reduce(i64::saturating_add)
}

/// The context window Claude Code states for `model` in a result's
/// `modelUsage` (one entry per model the run called, the main one and any
/// helper): the entry named like the model answering, else the only entry.
/// A window of 0 or less states nothing.
fn stated_window(model_usage: Option<&Value>, model: Option<&str>) -> Option<i64> {
    let entries = model_usage?.as_object()?;
    let entry = match model.and_then(|m| entries.get(m)) {
        Some(entry) => entry,
        None if entries.len() == 1 => entries.values().next()?,
        None => return None,
    };
    entry
        .get("contextWindow")
        .and_then(Value::as_i64)
        .filter(|w| *w > 0)
}

/// Appends one piece of reply text, a blank line apart from the one before.
fn push_reply(wrote_text: &mut bool, piece: &str, text: &mut String) {
    if piece.is_empty() {
        return;
    }
    if *wrote_text {
        text.push_str("\n\n");
    }
    text.push_str(piece);
    *wrote_text = true;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(kind: EngineKind, chunks: &[&[u8]]) -> (String, TurnMeta) {
        let mut decoder = Decoder::new(kind);
        let mut text = String::new();
        for chunk in chunks {
            decoder.feed(chunk, &mut text);
        }
        decoder.finish(&mut text);
        (text, decoder.meta)
    }

    #[test]
    fn a_character_split_across_chunks_survives() {
        let euro = "€".as_bytes();
        let (text, _) = run(
            EngineKind::Command,
            &[b"a", &euro[..1], &euro[1..], b"\xffb"],
        );
        assert_eq!(text, "a€\u{FFFD}b");
    }

    #[test]
    fn claude_lines_split_anywhere_and_unknown_ones_skipped() {
        let stream = concat!(
            r#"{"type":"system","subtype":"init","session_id":"s1","model":"m"}"#,
            "\n",
            r#"{"type":"rate_limit_event","whatever":1}"#,
            "\nnot json\n",
            r#"{"type":"assistant","message":{"content":[{"type":"thinking","thinking":"x"},{"type":"text","text":"Hi"}]}}"#,
            "\n",
            r#"{"type":"result","subtype":"success","is_error":false,"result":"Hi","session_id":"s2","num_turns":3,"cost_usd":0.5,"usage":{"input_tokens":10,"cache_creation_input_tokens":4,"cache_read_input_tokens":30,"output_tokens":2,"server_tool_use":{"web_search_requests":0}}}"#,
        );
        let bytes = stream.as_bytes();
        let (text, meta) = run(
            EngineKind::Claude,
            &[&bytes[..7], &bytes[7..100], &bytes[100..]],
        );
        assert_eq!(text, "Hi");
        assert_eq!(meta.engine_session_id.as_deref(), Some("s2"));
        assert_eq!(meta.engine_turns, Some(3));
        assert_eq!(meta.cost_usd, Some(0.5));
        assert_eq!(
            (
                meta.input_tokens,
                meta.cached_input_tokens,
                meta.output_tokens
            ),
            (Some(44), Some(30), Some(2))
        );
        assert_eq!(meta.failure, None);
    }

    #[test]
    fn a_later_claude_result_restates_the_process_total() {
        let stream = concat!(
            r#"{"type":"result","total_cost_usd":0.25,"usage":{"input_tokens":10,"output_tokens":2}}"#,
            "\n",
            r#"{"type":"result","total_cost_usd":0.3,"usage":{"input_tokens":15,"output_tokens":3}}"#,
        );
        let (_, meta) = run(EngineKind::Claude, &[stream.as_bytes()]);
        assert_eq!(meta.cost_usd, Some(0.3));
        assert_eq!((meta.input_tokens, meta.output_tokens), (Some(15), Some(3)));
    }

    #[test]
    fn the_context_window_is_the_answering_models_entry() {
        let usage = serde_json::json!({
            "claude-haiku-4-5-20251001": {"inputTokens": 10, "contextWindow": 200_000},
            "claude-sonnet-4-5-20250929[1m]": {"inputTokens": 900, "contextWindow": 1_000_000,
                "maxOutputTokens": 64_000, "costUSD": 0.1},
        });
        assert_eq!(
            stated_window(Some(&usage), Some("claude-sonnet-4-5-20250929[1m]")),
            Some(1_000_000)
        );
        assert_eq!(
            stated_window(Some(&usage), Some("claude-opus-4-1")),
            None,
            "two entries and neither is the model: not a guess"
        );
        let one = serde_json::json!({"claude-sonnet-4-5": {"contextWindow": 200_000}});
        assert_eq!(stated_window(Some(&one), Some("sonnet")), Some(200_000));
        assert_eq!(stated_window(Some(&one), None), Some(200_000));
        for stated_nothing in [
            serde_json::json!({"m": {"contextWindow": 0}}),
            serde_json::json!({"m": {"inputTokens": 5}}),
            serde_json::json!({}),
            serde_json::json!([1]),
        ] {
            assert_eq!(stated_window(Some(&stated_nothing), Some("m")), None);
        }
        assert_eq!(stated_window(None, Some("m")), None);

        let stream = concat!(
            r#"{"type":"system","subtype":"init","session_id":"s1","model":"claude-sonnet-4-5"}"#,
            "\n",
            r#"{"type":"assistant","message":{"model":"claude-sonnet-4-5","content":[],"usage":{"input_tokens":5,"cache_read_input_tokens":150000}}}"#,
            "\n",
            r#"{"type":"result","subtype":"success","is_error":false,"result":"ok","modelUsage":{"claude-sonnet-4-5":{"contextWindow":180000}}}"#,
        );
        let (_, meta) = run(EngineKind::Claude, &[stream.as_bytes()]);
        assert_eq!(
            (meta.context_tokens, meta.context_window),
            (Some(150_005), Some(180_000))
        );
    }

    #[test]
    fn claude_is_error_wins_over_a_success_subtype() {
        let line = br#"{"type":"result","subtype":"success","is_error":true,"result":"API Error: 529 overloaded"}"#;
        let (_, meta) = run(EngineKind::Claude, &[line]);
        assert_eq!(meta.failure.as_deref(), Some("API Error: 529 overloaded"));
    }

    #[test]
    fn codex_reply_tokens_and_failure() {
        let stream = concat!(
            r#"{"type":"thread.started","thread_id":"t1"}"#,
            "\n",
            r#"{"type":"item.completed","item":{"id":"item_0","type":"reasoning","text":"hmm"}}"#,
            "\n",
            r#"{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"Done."}}"#,
            "\n",
            r#"{"type":"turn.completed","usage":{"input_tokens":5,"cached_input_tokens":1,"output_tokens":7}}"#,
            "\n",
            r#"{"type":"turn.failed","error":{"message":"stream disconnected"}}"#,
            "\n"
        );
        let (text, meta) = run(EngineKind::Codex, &[stream.as_bytes()]);
        assert_eq!(text, "Done.");
        assert_eq!(meta.engine_session_id.as_deref(), Some("t1"));
        assert_eq!(
            (
                meta.input_tokens,
                meta.cached_input_tokens,
                meta.output_tokens
            ),
            (Some(5), Some(1), Some(7))
        );
        assert!(meta.tokens_cover_conversation);
        assert_eq!(meta.cost_usd, None);
        assert_eq!(meta.failure.as_deref(), Some("stream disconnected"));
    }

    #[test]
    fn an_overlong_line_is_dropped_and_the_next_one_read() {
        let mut decoder = Decoder::new(EngineKind::Codex);
        let mut text = String::new();
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..17 {
            decoder.feed(&chunk, &mut text);
        }
        assert!(decoder.pending.len() <= MAX_LINE);
        decoder.feed(
            b"yyy\n{\"type\":\"item.completed\",\"item\":{\"type\":\"agent_message\",\"text\":\"ok\"}}\n",
            &mut text,
        );
        assert_eq!(text, "ok");
    }
}
