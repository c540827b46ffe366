//! `switchboard demo-engine`: the built-in demo engine that `serve --demo`
//! registers as `demo` ("Demo engine (scripted, no model)").
//!
//! It speaks exactly the part of Claude Code's CLI that the sessions crate
//! drives (`-p TEXT --output-format stream-json --verbose`, `--resume ID`,
//! `--fork-session`, `--version`; every other flag, such as the permission
//! hook's `--settings` or `--mcp-config`, is accepted and ignored) and prints
//! the stream-json lines the Claude adapter reads: `system`/`init`,
//! `assistant` messages with `text` and `tool_use` blocks, `user` messages
//! with `tool_result` blocks, and the final `result`. No model is asked and
//! nothing is reached or run: each reply, tool step included, is scripted
//! from the prompt, deterministically, and paced by real sleeps so a session
//! is visibly running: each tool "runs" its own time, and a first prompt to
//! migrate something (the demo's session that starts with the server) takes
//! a minute or two. Conversations are kept per session id, so `--resume`
//! continues one.
//!
//! Claude Code's flags are not Switchboard's, so `main` hands this module the
//! raw arguments before clap sees them; it is not listed in `--help`.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use serde_json::{Value, json};

/// The model the lines name: what the transcript and the cost figures show.
const MODEL: &str = "switchboard-demo";
/// The pause between two steps of a reply, unless the reply says otherwise.
const PACE: Duration = Duration::from_millis(350);
/// Turns kept per conversation: a follow-up needs the topic and whether
/// it is one, not an unbounded file.
const KEPT_TURNS: usize = 20;

/// What the command line asked for.
#[derive(Debug, Default, PartialEq)]
struct Args {
    prompt: Option<String>,
    resume: Option<String>,
    fork: bool,
    version: bool,
}

/// Claude Code's options that take a value, so their value is skipped and
/// not read as a prompt or another flag.
const VALUED: &[&str] = &[
    "--output-format",
    "--input-format",
    "--settings",
    "--mcp-config",
    "--model",
    "--fallback-model",
    "--permission-mode",
    "--allowedTools",
    "--allowed-tools",
    "--disallowedTools",
    "--disallowed-tools",
    "--tools",
    "--system-prompt",
    "--append-system-prompt",
    "--max-turns",
    "--add-dir",
    "--session-id",
    "--setting-sources",
];

fn parse(args: &[String]) -> Args {
    let mut parsed = Args::default();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "-p" | "--print" => parsed.prompt = words.next().cloned(),
            "-r" | "--resume" => parsed.resume = words.next().cloned(),
            "--fork-session" => parsed.fork = true,
            "-v" | "--version" => parsed.version = true,
            flag if VALUED.contains(&flag) => {
                words.next();
            }
            // `--flag=value`, a switch (`--verbose`), or a flag of a newer
            // CLI: none changes what a scripted reply says.
            flag if flag.starts_with('-') => {}
            // Claude Code also takes the prompt as a bare word after `-p`.
            text => {
                parsed.prompt.get_or_insert_with(|| text.to_owned());
            }
        }
    }
    parsed
}

/// One earlier exchange of a conversation: what was asked (its reply is
/// scripted from it, so it is not kept).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct Exchange {
    prompt: String,
}

/// A conversation as the demo engine keeps it between its runs.
#[derive(Debug, Default, Clone, serde::Serialize, serde::Deserialize)]
struct Conversation {
    turns: Vec<Exchange>,
}

/// One step of a scripted reply.
#[derive(Debug, Clone, PartialEq)]
enum Step {
    Say(String),
    /// A tool call and what it gave back after `took`; `failed` is `is_error`.
    Tool {
        name: &'static str,
        input: Value,
        output: String,
        failed: bool,
        took: Duration,
    },
}

/// A tool step that "runs" `millis` milliseconds.
fn tool(name: &'static str, input: Value, output: &str, failed: bool, millis: u64) -> Step {
    Step::Tool {
        name,
        input,
        output: output.to_owned(),
        failed,
        took: Duration::from_millis(millis),
    }
}

/// A whole scripted reply: its steps, its final message, and the pause
/// before each step (the model "thinking").
#[derive(Debug, Clone, PartialEq)]
struct Reply {
    steps: Vec<Step>,
    last: String,
    pace: Duration,
}

pub fn run(args: Vec<OsString>) -> ExitCode {
    let args: Vec<String> = args
        .into_iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    match turn(&parse(&args)) {
        Ok(code) => code,
        Err(error) => {
            // stdout may be what failed; stderr is where the turn's failure
            // is read from when no result line came.
            eprintln!("demo engine: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn turn(args: &Args) -> Result<ExitCode> {
    let mut out = Out::new(std::io::stdout().lock());
    if args.version {
        out.raw(&format!(
            "{} (Switchboard demo engine: scripted, no model)",
            env!("CARGO_PKG_VERSION")
        ))?;
        return Ok(ExitCode::SUCCESS);
    }
    let Some(prompt) = args.prompt.as_deref().filter(|p| !p.trim().is_empty()) else {
        eprintln!(
            "Error: Input must be provided either through stdin or as a prompt argument when using --print"
        );
        return Ok(ExitCode::FAILURE);
    };
    let started = Instant::now();
    let store = Store::locate();
    let (session_id, mut conversation) = match args.resume.as_deref() {
        Some(id) if !valid_id(id) => {
            out.session_id = id.to_owned();
            out.result_error(
                &format!("No conversation found with session ID: {id}"),
                started,
            )?;
            return Ok(ExitCode::FAILURE);
        }
        // An id it has not seen is a conversation that began elsewhere (the
        // demo's seeded sessions, whose history is Switchboard's, not
        // this engine's): it goes on under that id, knowing no more.
        Some(id) => {
            let kept = store.as_ref().and_then(|s| s.read(id)).unwrap_or_default();
            if args.fork {
                (new_id(), kept)
            } else {
                (id.to_owned(), kept)
            }
        }
        None => (new_id(), Conversation::default()),
    };
    out.session_id = session_id.clone();
    out.line(json!({
        "type": "system",
        "subtype": "init",
        "cwd": std::env::current_dir().map(|d| d.display().to_string()).unwrap_or_default(),
        "session_id": session_id,
        "tools": ["Bash", "Edit", "Glob", "Grep", "Read", "TodoWrite", "Write"],
        "mcp_servers": [],
        "model": MODEL,
        "permissionMode": "default",
        "apiKeySource": "none",
        "claude_code_version": format!("{} (Switchboard demo engine)", env!("CARGO_PKG_VERSION")),
    }))?;
    let words = own_words(prompt);
    let reply = script(words, &conversation);
    let mut calls = 0;
    for step in &reply.steps {
        std::thread::sleep(reply.pace);
        match step {
            Step::Say(text) => out.assistant(json!([{ "type": "text", "text": text }]), text)?,
            Step::Tool {
                name,
                input,
                output,
                failed,
                took,
            } => {
                calls += 1;
                let id = format!("toolu_demo_{}_{calls:02}", conversation.turns.len() + 1);
                out.assistant(
                    json!([{ "type": "tool_use", "id": id, "name": name, "input": input }]),
                    name,
                )?;
                std::thread::sleep(*took);
                out.line(json!({
                    "type": "user",
                    "message": {
                        "role": "user",
                        "content": [{
                            "type": "tool_result",
                            "tool_use_id": id,
                            "content": output,
                            "is_error": failed,
                        }],
                    },
                    "parent_tool_use_id": null,
                    "session_id": out.session_id,
                }))?;
            }
        }
    }
    std::thread::sleep(reply.pace);
    out.assistant(json!([{ "type": "text", "text": reply.last }]), &reply.last)?;
    conversation.turns.push(Exchange {
        prompt: words.to_owned(),
    });
    let excess = conversation.turns.len().saturating_sub(KEPT_TURNS);
    conversation.turns.drain(..excess);
    // A conversation that cannot be kept only makes the next follow-up
    // start afresh; this turn's reply stands.
    if let Some(store) = &store
        && let Err(error) = store.write(&session_id, &conversation)
    {
        eprintln!("demo engine: the conversation was not kept: {error:#}");
    }
    out.result(&reply.last, calls + 1, started)?;
    Ok(ExitCode::SUCCESS)
}

/// The user's own words: what comes after the preamble Switchboard adds to a
/// turn's text (`prompts::compose` joins them with a `---` line).
fn own_words(prompt: &str) -> &str {
    prompt
        .rsplit_once("\n---\n")
        .map_or(prompt, |(_, words)| words)
        .trim()
}

/// The reply to `words`, given the conversation so far. Deterministic: the
/// same words in the same conversation always get the same reply.
fn script(words: &str, conversation: &Conversation) -> Reply {
    let lower = words.to_lowercase();
    let has = |needles: &[&str]| needles.iter().any(|n| lower.contains(n));
    let topic = conversation
        .turns
        .first()
        .map(|t| short(&t.prompt, 80))
        .unwrap_or_else(|| short(words, 80));
    if has(&[
        "thank",
        "that's all",
        "that is all",
        "we're done",
        "all done",
        "nothing else",
    ]) {
        return Reply {
            steps: Vec::new(),
            last: format!(
                "Glad it helped. Nothing is left open on my side for \"{topic}\". \
                 (Switchboard's scripted demo engine: no model ran and nothing on disk changed.)"
            ),
            pace: PACE,
        };
    }
    if has(&["migrat"]) && conversation.turns.is_empty() {
        return migrate(&topic);
    }
    if has(&[
        "decide",
        "should i",
        "should we",
        "which ",
        "choose",
        "pick ",
        "or not",
    ]) {
        return decide(words, &topic);
    }
    if has(&[
        "what ", "why ", "how ", "explain", "summar", "describe", "tell me",
    ]) && !has(&[
        "fix", "change", "add ", "write", "run ", "make ", "request", "approve",
    ]) {
        return answer(words);
    }
    work(words, &topic, !conversation.turns.is_empty())
}

/// It reads a little, weighs two ways and asks which one to take.
fn decide(words: &str, topic: &str) -> Reply {
    let files = "src/config.rs\nsrc/server/routes.rs\ndocs/setup.md";
    let setup = "## Setup\n\nThe defaults suit one machine; teams override them.";
    Reply {
        steps: vec![
            Step::Say("Before choosing I will look at what each option touches.".to_owned()),
            grep(&keyword(words), files, 450),
            read("docs/setup.md", setup, 180),
        ],
        last: format!(
            "Two ways to go for \"{topic}\": keep the current behaviour and document it (small, \
             nothing breaks), or change the default in `src/config.rs` (cleaner, but every \
             existing setup notices). Which do you want: document it, or change the default?"
        ),
        pace: PACE,
    }
}

/// It answers from one file it reads.
fn answer(words: &str) -> Reply {
    let readme = "# Project\n\nA small service with a CLI, an HTTP API and a web app.";
    Reply {
        steps: vec![read("README.md", readme, 240)],
        last: format!(
            "About \"{}\": the README describes a service with a CLI, an HTTP API and a web app; \
             the part you ask about lives in the API. (Scripted demo answer: no model read your files.)",
            short(words, 80)
        ),
        pace: PACE,
    }
}

/// It does the work: a plan, a command that fails, the fix, and a command
/// that passes.
fn work(words: &str, topic: &str, follow_up: bool) -> Reply {
    let opening = if follow_up {
        format!("Continuing with \"{topic}\": {}.", short(words, 80))
    } else {
        "I'll make a plan, then check the current state before changing anything.".to_owned()
    };
    Reply {
        steps: vec![
            Step::Say(opening),
            todos(&["Check the state", "Make the change", "Run the tests"], 0),
            bash(
                "make check",
                "Exit code 2\nmake: *** No rule to make target 'check'.  Stop.",
                true,
                1_300,
            ),
            Step::Say(
                "There is no `check` target here; the tests run through `make test`.".to_owned(),
            ),
            edit(
                "src/config.rs",
                "const RETRIES: u32 = 1;",
                "const RETRIES: u32 = 3;",
                520,
            ),
            bash(
                "make test",
                "running 42 tests\n..........................................\ntest result: ok. 42 passed; 0 failed",
                false,
                2_700,
            ),
        ],
        last: format!(
            "Done: \"{}\". `make check` does not exist here, so I ran `make test` after the \
             change: 42 passed. (Switchboard's scripted demo engine: these steps are a \
             rehearsal, no model ran and nothing on disk changed.)",
            short(words, 80)
        ),
        pace: PACE,
    }
}

/// A `TodoWrite` of `items`, the ones before `done` completed and that one under way.
fn todos(items: &[&str], done: usize) -> Step {
    let todos: Vec<Value> = items
        .iter()
        .enumerate()
        .map(|(n, item)| {
            let status = ["completed", "in_progress", "pending"]
                [usize::from(n >= done) + usize::from(n > done)];
            json!({ "content": item, "status": status, "activeForm": item })
        })
        .collect();
    let saved = "Todos have been modified successfully.";
    tool("TodoWrite", json!({ "todos": todos }), saved, false, 150)
}

/// A `Bash` step running `command`.
fn bash(command: &str, output: &str, failed: bool, millis: u64) -> Step {
    tool(
        "Bash",
        json!({ "command": command }),
        output,
        failed,
        millis,
    )
}

/// A `Grep` for `pattern` that lists files.
fn grep(pattern: &str, files: &str, millis: u64) -> Step {
    let input = json!({ "pattern": pattern, "output_mode": "files_with_matches" });
    tool("Grep", input, files, false, millis)
}

/// A `Read` of `path`.
fn read(path: &str, output: &str, millis: u64) -> Step {
    tool("Read", json!({ "file_path": path }), output, false, millis)
}

/// An `Edit` of `path` from `old` to `new`.
fn edit(path: &str, old: &str, new: &str, millis: u64) -> Step {
    let input = json!({ "file_path": path, "old_string": old, "new_string": new });
    let output = format!("The file {path} has been updated.");
    tool("Edit", input, &output, false, millis)
}

/// A migration: a long piece of work, a minute and a half of reading,
/// editing and test runs (one of which fails), ending with a question.
fn migrate(topic: &str) -> Reply {
    const PLAN: [&str; 3] = ["Find the retries", "Queue them", "Run the tests"];
    Reply {
        steps: vec![
            Step::Say("I'll find where deliveries retry inline, move them onto the queue, then run the tests.".to_owned()),
            todos(&PLAN, 0),
            grep(
                "retryDelivery",
                "internal/billing/webhooks.go\ninternal/billing/webhooks_test.go\ninternal/billing/stripe.go",
                1_900,
            ),
            read(
                "internal/billing/webhooks.go",
                "func (h *Handler) deliver(ctx context.Context, e Event) error {\n\tfor attempt := 0; attempt < 3; attempt++ {\n\t\tif err := h.send(ctx, e); err == nil {\n\t\t\treturn nil\n\t\t}\n\t\ttime.Sleep(backoff(attempt))\n\t}\n\treturn errGaveUp\n}",
                700,
            ),
            todos(&PLAN, 1),
            edit("internal/billing/webhooks.go", "return h.deliver(ctx, e)", "return h.queue.Enqueue(ctx, \"billing.webhook\", e, queue.Key(e.CustomerID))", 2_600),
            edit("internal/queue/consumer.go", "Workers: 8,", "Workers: 8,\n\tOrderedBy: queue.KeyOrder,", 3_400),
            bash("go build ./...", "", false, 8_800),
            todos(&PLAN, 2),
            bash("go test ./internal/billing/...", "Exit code 1\n--- FAIL: TestWebhookRetry (0.31s)\n    webhooks_test.go:112: deliveries = 1, want 3\nFAIL\tacme/platform/internal/billing\t20.7s", true, 21_300),
            Step::Say("The retry test expects the handler to retry inline; retries are the queue's now, so the test should check the enqueued job instead.".to_owned()),
            edit("internal/billing/webhooks_test.go", "if got := sender.calls; got != 3 {", "if got := q.Enqueued(\"billing.webhook\"); got != 1 {", 2_200),
            bash("go test ./internal/billing/... ./internal/queue/...", "ok  \tacme/platform/internal/billing\t18.9s\nok  \tacme/platform/internal/queue\t7.4s", false, 27_400),
            todos(&PLAN, PLAN.len()),
        ],
        last: format!(
            "Done with \"{topic}\": deliveries are enqueued per customer, so each customer's \
             webhooks stay in order, and retries are the queue's (3 attempts, backoff kept). \
             The billing and queue tests pass; one test now checks the enqueued job instead of \
             inline retries. Shall I open a pull request, or keep it on this branch for now? \
             (Switchboard's scripted demo engine: no model ran and nothing on disk changed.)"
        ),
        pace: Duration::from_secs(3),
    }
}

/// The time since `started`, in milliseconds.
fn millis(started: Instant) -> u64 {
    u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// A word of the prompt worth searching for.
fn keyword(words: &str) -> String {
    words
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 4)
        .max_by_key(|w| w.len())
        .unwrap_or("config")
        .to_lowercase()
}

/// `text` on one line, at most `max` characters.
fn short(text: &str, max: usize) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &line[..end]),
        None => line,
    }
}

/// A session id as Claude Code's look (a UUID), unique enough for one user's
/// conversations: the time and the process id.
fn new_id() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mixed = nanos ^ (u128::from(std::process::id()) << 64);
    let hex = format!("{mixed:032x}");
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// Whether `id` can name a file: it becomes one, so no separators or dots.
fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 128
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Where conversations are kept: `$XDG_CACHE_HOME` (or `~/.cache`)
/// `/switchboard-demo-engine`, one JSON file per session id. Outside
/// Switchboard's data directory, which the sandbox hides from engines.
struct Store {
    dir: PathBuf,
}

impl Store {
    fn locate() -> Option<Store> {
        let base = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(dirs::cache_dir)?;
        Some(Store {
            dir: base.join("switchboard-demo-engine"),
        })
    }

    fn read(&self, id: &str) -> Option<Conversation> {
        let text = std::fs::read_to_string(self.dir.join(format!("{id}.json"))).ok()?;
        // A file another version wrote, or a torn one, is no conversation.
        serde_json::from_str(&text).ok()
    }

    fn write(&self, id: &str, conversation: &Conversation) -> Result<()> {
        std::fs::create_dir_all(&self.dir)
            .with_context(|| format!("cannot create {}", self.dir.display()))?;
        let path = self.dir.join(format!("{id}.json"));
        let temp = self.dir.join(format!(".{id}.{}.tmp", std::process::id()));
        let text = serde_json::to_string(conversation)?;
        std::fs::write(&temp, text).with_context(|| format!("cannot write {}", temp.display()))?;
        // Renamed into place, so a reader never sees half a conversation.
        std::fs::rename(&temp, &path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(())
    }
}

/// stdout, one JSON line at a time, flushed: the server reads it as it comes.
struct Out<W: Write> {
    w: W,
    session_id: String,
    messages: u32,
    output_tokens: u64,
}

impl<W: Write> Out<W> {
    fn new(w: W) -> Self {
        Out {
            w,
            session_id: String::new(),
            messages: 0,
            output_tokens: 0,
        }
    }

    fn raw(&mut self, text: &str) -> Result<()> {
        writeln!(self.w, "{text}")?;
        self.w.flush()?;
        Ok(())
    }

    fn line(&mut self, value: Value) -> Result<()> {
        self.raw(&value.to_string())
    }

    /// An `assistant` line with `content`; `said` sizes its usage.
    fn assistant(&mut self, content: Value, said: &str) -> Result<()> {
        self.messages += 1;
        let output = u64::try_from(said.len() / 4 + 1).unwrap_or(1);
        self.output_tokens += output;
        self.line(json!({
            "type": "assistant",
            "message": {
                "id": format!("msg_demo_{:03}", self.messages),
                "type": "message",
                "role": "assistant",
                "model": MODEL,
                "content": content,
                "stop_reason": null,
                "usage": {
                    "input_tokens": 120 + 40 * u64::from(self.messages),
                    "cache_creation_input_tokens": 0,
                    "cache_read_input_tokens": 0,
                    "output_tokens": output,
                },
            },
            "parent_tool_use_id": null,
            "session_id": self.session_id,
        }))
    }

    fn result(&mut self, text: &str, turns: u32, started: Instant) -> Result<()> {
        let input = 120 * u64::from(self.messages.max(1));
        let output = self.output_tokens;
        self.line(json!({
            "type": "result",
            "subtype": "success",
            "is_error": false,
            "duration_ms": millis(started),
            "duration_api_ms": 0,
            "num_turns": turns,
            "result": text,
            "session_id": self.session_id,
            "total_cost_usd": 0,
            "usage": {
                "input_tokens": input,
                "cache_creation_input_tokens": 0,
                "cache_read_input_tokens": 0,
                "output_tokens": output,
            },
            "modelUsage": { MODEL: {
                "inputTokens": input,
                "outputTokens": output,
                "costUSD": 0,
                "contextWindow": 200_000,
            }},
        }))
    }

    fn result_error(&mut self, message: &str, started: Instant) -> Result<()> {
        self.line(json!({
            "type": "result",
            "subtype": "error_during_execution",
            "is_error": true,
            "duration_ms": millis(started),
            "num_turns": 0,
            "result": message,
            "session_id": self.session_id,
            "total_cost_usd": 0,
            "usage": { "input_tokens": 0, "output_tokens": 0 },
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn it_reads_the_argv_the_sessions_pass_and_ignores_the_rest() {
        let parsed = parse(&args(&[
            "-p",
            "fix it",
            "--output-format",
            "stream-json",
            "--verbose",
            "--settings",
            "{\"hooks\":{}}",
            "--mcp-config",
            "{}",
            "--strict-mcp-config",
            "--resume",
            "abc-1",
            "--fork-session",
        ]));
        assert_eq!(
            parsed,
            Args {
                prompt: Some("fix it".to_owned()),
                resume: Some("abc-1".to_owned()),
                fork: true,
                version: false,
            }
        );
        assert!(parse(&args(&["--version"])).version);
    }

    #[test]
    fn the_users_words_come_after_the_preamble() {
        assert_eq!(
            own_words("Be brief.\n\n---\n\nfix the build"),
            "fix the build"
        );
        assert_eq!(own_words("fix the build"), "fix the build");
    }

    #[test]
    fn work_has_a_failed_step_and_a_successful_one() {
        let reply = script("Request changes on #1432", &Conversation::default());
        let failed: Vec<bool> = reply
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Tool {
                    name: "Bash",
                    failed,
                    output,
                    ..
                } => {
                    assert!(!*failed || output.starts_with("Exit code "));
                    Some(*failed)
                }
                _ => None,
            })
            .collect();
        assert_eq!(failed, [true, false]);
        assert_eq!(
            reply,
            script("Request changes on #1432", &Conversation::default())
        );
    }

    #[test]
    fn a_first_migration_takes_a_minute_or_two_and_a_follow_up_does_not() {
        let time = |reply: &Reply| -> Duration {
            let tools = reply.steps.iter().map(|s| match s {
                Step::Tool { took, .. } => *took,
                Step::Say(_) => Duration::ZERO,
            });
            tools.sum::<Duration>() + reply.pace * u32::try_from(reply.steps.len() + 1).unwrap()
        };
        let ask = "Migrate the webhooks to the queue";
        let first = script(ask, &Conversation::default());
        assert!((60..=150).contains(&time(&first).as_secs()), "{first:?}");
        assert!(first.last.ends_with("changed.)") && first.last.contains('?'));
        let turns = vec![Exchange { prompt: ask.into() }];
        let again = script(ask, &Conversation { turns });
        assert!(time(&again) < Duration::from_secs(10), "{again:?}");
    }

    #[test]
    fn a_decision_ends_with_a_question() {
        let reply = script(
            "Should we keep the old API or drop it?",
            &Conversation::default(),
        );
        assert!(reply.last.ends_with('?'), "{}", reply.last);
        let answered = script("what does the API do", &Conversation::default());
        assert!(!answered.last.ends_with('?'));
        let thanks = script("Thanks, that's all", &Conversation::default());
        assert!(thanks.steps.is_empty());
    }

    #[test]
    fn ids_that_cannot_name_a_file_are_refused() {
        assert!(valid_id(&new_id()));
        assert!(valid_id("demo-0123abc"));
        assert!(!valid_id("../x") && !valid_id("") && !valid_id("a/b"));
    }

    #[test]
    fn a_conversation_is_kept_per_id() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store {
            dir: dir.path().join("demo"),
        };
        assert!(store.read("s1").is_none());
        let conversation = Conversation {
            turns: vec![Exchange {
                prompt: "p".to_owned(),
            }],
        };
        store.write("s1", &conversation).unwrap();
        assert_eq!(store.read("s1").unwrap().turns.len(), 1);
        let follow_up = script("now add a test", &conversation);
        assert!(matches!(&follow_up.steps[0], Step::Say(text) if text.starts_with("Continuing")));
    }
}
