//! The ceiling of one machine: how a release `switchboard serve` holds up as
//! the number of concurrent sessions doubles, until a failure criterion trips.
//!
//! Part 1 (`command` engines): each session is a Perl loop printing a
//! `tick <seq> <wall-clock ns>` line every 200 ms; one `GET /stream` client
//! measures line-to-client latency and lost lines, while keep-alive clients
//! time `GET /sessions` and `GET /settings` (20 a second each) and
//! `POST /governor/check` is timed (a check records no duration of its
//! own). N = 8, 16, 32, ...
//!
//! Part 2 (the real Claude Code CLI against the Anthropic stand-in): each
//! session runs text-only turns back to back; the bench times each turn
//! from the message to its `final` entry on the stream and samples the
//! engine processes' memory. N = 1, 2, 4, ...
//!
//! Both parts print a table row per step and the first criterion that
//! tripped, and under each row where the API's requests waited: how many
//! took over 25 ms at the client and on the server's own clock, and the
//! run-queue delay per wake of the server's threads and of the requesting
//! ones. Environment: `SCALE_PART` (`command`, `claude`, default both),
//! `SCALE_MAX` (part 1's cap, default 1024), `SCALE_CLAUDE_MAX` (default
//! 64; part 2 also stops a step early when the engines' memory would not
//! fit), `SCALE_STEP_SECS` (measured seconds per step, default 12),
//! `SCALE_KEEP_GOING` (part 1 carries on past its first failure, to see what
//! breaks next), `SCALE_BELOW_NORMAL` (engines at nice 10),
//! `SCALE_WITHOUT_TREES` (`serve --without-session-trees`: the baseline of
//! the fair-share comparison),
//! `SWITCHBOARD_ENGINES_DIR` (where `claude` is). The load generators run
//! in this process, on the same cores as the server: the bench's own CPU is
//! printed beside the server's.

#[path = "scale/claude.rs"]
mod claude;
#[path = "scale/command.rs"]
mod command;
#[path = "scale/feed.rs"]
mod feed;
#[path = "scale/probe.rs"]
mod probe;
#[path = "scale/step.rs"]
mod step;
mod support;
#[path = "scale/waits.rs"]
mod waits;

use std::time::Duration;

use step::{Config, env_number};

fn main() {
    let config = Config {
        step: Duration::from_secs(env_number("SCALE_STEP_SECS", 12)),
        max_command: env_number("SCALE_MAX", 1024) as usize,
        max_claude: env_number("SCALE_CLAUDE_MAX", 64) as usize,
    };
    let part = std::env::var("SCALE_PART").unwrap_or_default();
    println!(
        "switchboard scale bench: {} cores, {:.1} GiB memory, {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        meminfo_total_gib(),
        std::fs::read_to_string("/proc/sys/kernel/osrelease")
            .unwrap_or_default()
            .trim()
    );
    if part.is_empty() || part == "command" {
        command::run(&config);
    }
    if part.is_empty() || part == "claude" {
        claude::run(&config);
    }
}

fn meminfo_total_gib() -> f64 {
    std::fs::read_to_string("/proc/meminfo")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .unwrap_or(0.0)
        / 1024.0
        / 1024.0
}
