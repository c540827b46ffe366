//! The script a test gives a stand-in: the replies its main requests get,
//! in the terms both APIs share (text, tool calls, tokens, limits).

use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::Value;

/// What the next main request gets.
#[derive(Clone, Debug)]
pub enum Reply {
    /// A streamed assistant turn.
    Message(Message),
    /// The API is overloaded: Anthropic's 529 `overloaded_error`, OpenAI's
    /// 503 `server_is_overloaded`.
    Overloaded,
    /// A per-minute rate limit (an API key's): 429 with `retry-after` and the
    /// API's own reset headers.
    RateLimited(Reset),
    /// A plan's usage limit: 429 with Anthropic's
    /// `anthropic-ratelimit-unified-*` headers, or OpenAI's
    /// `usage_limit_reached` body with `resets_at` (what Codex reads).
    UsageLimit(Reset),
    /// Any other reply, as given.
    Raw {
        status: u16,
        headers: Vec<(String, String)>,
        body: Value,
    },
}

/// An assistant turn: its blocks in order, and the tokens it reports.
#[derive(Clone, Debug)]
pub struct Message {
    pub blocks: Vec<Block>,
    pub usage: Usage,
}

/// One block of an assistant turn.
#[derive(Clone, Debug)]
pub enum Block {
    Text(String),
    /// A `tool_use` block (Anthropic) or a `function_call` item (OpenAI);
    /// `id` is the `tool_use` id or the `call_id`.
    ToolCall {
        id: String,
        name: String,
        input: Value,
    },
    /// A search of the deferred tools (MCP tools among them), which both
    /// engines load only on demand: Codex's client-run `tool_search_call`
    /// item, or Claude Code's `ToolSearch` tool (for which `query` takes
    /// `select:<name>`).
    ToolSearch {
        id: String,
        query: String,
    },
}

/// Tokens of one reply, in Anthropic's terms: `input` excludes what was read
/// from or written to the cache. OpenAI's `input_tokens` is the sum of the
/// three, its `cached_tokens` the cache reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    pub input: u64,
    pub cache_read: u64,
    pub cache_write: u64,
    pub output: u64,
}

/// When a limit resets: `at` in Unix seconds for the headers and bodies that
/// give a moment, `after_seconds` for those that give a delay. Both are given
/// so a test on a manual clock states them in its own time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reset {
    pub at: i64,
    pub after_seconds: u64,
}

/// A typical small turn's tokens, so a reply with no usage given still costs
/// something and its figures can be told apart from zero.
const DEFAULT_USAGE: Usage = Usage {
    input: 100,
    cache_read: 0,
    cache_write: 0,
    output: 10,
};

impl Message {
    pub fn text(text: impl Into<String>) -> Message {
        Message {
            blocks: vec![Block::Text(text.into())],
            usage: DEFAULT_USAGE,
        }
    }

    pub fn tool_call(id: impl Into<String>, name: impl Into<String>, input: Value) -> Message {
        Message {
            blocks: Vec::new(),
            usage: DEFAULT_USAGE,
        }
        .and_tool_call(id, name, input)
    }

    pub fn tool_search(id: impl Into<String>, query: impl Into<String>) -> Message {
        Message {
            blocks: vec![Block::ToolSearch {
                id: id.into(),
                query: query.into(),
            }],
            usage: DEFAULT_USAGE,
        }
    }

    pub fn and_text(mut self, text: impl Into<String>) -> Message {
        self.blocks.push(Block::Text(text.into()));
        self
    }

    pub fn and_tool_call(
        mut self,
        id: impl Into<String>,
        name: impl Into<String>,
        input: Value,
    ) -> Message {
        self.blocks.push(Block::ToolCall {
            id: id.into(),
            name: name.into(),
            input,
        });
        self
    }

    pub fn usage(mut self, usage: Usage) -> Message {
        self.usage = usage;
        self
    }

    pub(crate) fn calls_tools(&self) -> bool {
        self.blocks
            .iter()
            .any(|block| matches!(block, Block::ToolCall { .. } | Block::ToolSearch { .. }))
    }
}

impl From<Message> for Reply {
    fn from(message: Message) -> Reply {
        Reply::Message(message)
    }
}

impl Reset {
    /// `seconds` from now on the system clock.
    pub fn after(seconds: u64) -> Reset {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| since.as_secs());
        Reset {
            at: i64::try_from(now + seconds).unwrap_or(i64::MAX),
            after_seconds: seconds,
        }
    }
}
