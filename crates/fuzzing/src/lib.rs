//! The bodies of the fuzz targets: one function per parser that reads input
//! from outside (servers, engines, senders, files a person edits), fed the
//! fuzzer's bytes. Each calls the real parser and asserts its contract: a
//! value or the parser's own error, never a panic, and memory and time
//! bounded by the parser's documented limits. A panic (a failed assertion
//! included) is the failure the fuzzer looks for.
//!
//! `fuzz/fuzz_targets/<name>.rs` calls one of these under cargo-fuzz
//! (`make fuzz`); `tests/replay.rs` runs every saved input of
//! `fuzz/corpus/<name>` and `fuzz/artifacts/<name>` through the same
//! function as an ordinary test on stable.

mod calendars;
mod deliveries;
mod edited_files;
mod engine_output;
mod feeds;
mod files;
mod input;
mod mailbox;
mod phone;
mod runner_wire;

pub use calendars::{caldav, ical};
pub use deliveries::{bug_intake, webhook};
pub use edited_files::{setting_value, tasks_md};
pub use engine_output::{claude_stream, codex_stream, engines_toml};
pub use feeds::{feed, opml};
pub use files::{spreadsheet, webdav};
pub use mailbox::{email_toml, imap, mime};
pub use phone::{matrix_toml, push_subscription, sms_toml, sms_webhook};
pub use runner_wire::{runner_frames, runners_toml};

/// A target's body: the fuzzer's bytes in, a panic when the contract breaks.
pub type Target = fn(&[u8]);

/// Every target by the name of its folders in `fuzz/corpus` and
/// `fuzz/artifacts` and of its file in `fuzz/fuzz_targets`.
pub const TARGETS: [(&str, Target); 22] = [
    ("ical", ical),
    ("caldav", caldav),
    ("mime", mime),
    ("imap", imap),
    ("email_toml", email_toml),
    ("claude_stream", claude_stream),
    ("codex_stream", codex_stream),
    ("engines_toml", engines_toml),
    ("webhook", webhook),
    ("bug_intake", bug_intake),
    ("runner_frames", runner_frames),
    ("runners_toml", runners_toml),
    ("tasks_md", tasks_md),
    ("setting_value", setting_value),
    ("webdav", webdav),
    ("spreadsheet", spreadsheet),
    ("sms_webhook", sms_webhook),
    ("sms_toml", sms_toml),
    ("matrix_toml", matrix_toml),
    ("push_subscription", push_subscription),
    ("feed", feed),
    ("opml", opml),
];
