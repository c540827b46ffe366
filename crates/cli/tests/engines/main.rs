//! The conformance suite: the pinned real Claude Code and Codex CLIs
//! (`tools/engines`, installed by `make engines-deps`) run as Switchboard
//! engines against the scripted stand-ins of their model APIs
//! (`crates/standins`), each test with a fresh `$HOME` and a real server.
//!
//! Without the CLIs the suite says it skipped, unless
//! `SWITCHBOARD_ENGINES_REQUIRED` is set (as `make test` does), when it fails.

#[path = "../common/mod.rs"]
mod common;

mod ask;
mod board_loop;
mod claude;
mod codex;
mod email;
mod find_batching;
mod forks;
mod image_bridge;
#[path = "../runners/pool.rs"]
mod pool;
mod pool_runner;
mod reviews;
mod rig;
mod runners;
mod shell_nudge;
mod skills;
#[path = "../runners/sshd.rs"]
mod sshd;
mod summaries;
mod utility;
