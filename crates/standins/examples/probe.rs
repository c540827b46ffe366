//! Runs a real engine CLI against a stand-in with a fresh `$HOME` and prints
//! what it printed and what it asked: the reference runs docs/engines.md
//! records, repeatable against a newer CLI.
//!
//! ```text
//! cargo run -p standins --example probe -- ENGINE SCENARIO [--bin PATH] [--save DIR] [-- ARGS...]
//! ```
//! ENGINE is `claude` or `codex`; SCENARIO one of `plain`, `tool`, `resume`,
//! `mcp`, `overloaded`, `rate-limit`, `usage-limit`. The binary defaults to
//! the one `make engines-deps` installs. ARGS go to every run of the CLI,
//! before the prompt (e.g. `--permission-mode acceptEdits`, `--sandbox
//! workspace-write`). `--save DIR` writes each run's stdout to
//! `DIR/ENGINE-SCENARIO[-N].jsonl` and the stand-in's requests to
//! `DIR/ENGINE-SCENARIO.requests.json`.
//!
//! The environment adds: `PROBE_HOOK=allow|deny|ask`, a Claude Code
//! `PreToolUse` hook (the probe itself) that answers so;
//! `PROBE_CLAUDE_AUTH=oauth`, an OAuth token for Claude Code instead of an
//! API key; `PROBE_COMMAND`, the shell command of the `tool` scenario;
//! `PROBE_ENV=NAME=VALUE,...`, more of the engine's environment. Scenario
//! `mcp` gives the engine the probe's own MCP server (`probe`, tool `echo`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use standins::{Api, Message, Recorded, Reply, Reset, Standin, Usage};

struct Scenario {
    replies: Vec<Reply>,
    prompts: Vec<&'static str>,
    /// Whether the engine gets the probe's own MCP server, `probe`, with one
    /// tool, `echo`.
    mcp: bool,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some(MCP_SERVER) => return serve_mcp(),
        Some(HOOK) => return answer_hook(args.get(1).map_or("ask", String::as_str)),
        _ => {}
    }
    let (own, passed) = match args.iter().position(|arg| arg == "--") {
        Some(at) => (&args[..at], args[at + 1..].to_vec()),
        None => (&args[..], Vec::new()),
    };
    let [engine, scenario, rest @ ..] = own else {
        fail("usage: probe claude|codex SCENARIO [--bin PATH] [--save DIR] [-- ARGS...]");
    };
    let mut bin = default_bin(engine);
    let mut save = None;
    let mut options = rest.iter();
    while let Some(option) = options.next() {
        match (option.as_str(), options.next()) {
            ("--bin", Some(path)) => bin = PathBuf::from(path),
            ("--save", Some(dir)) => save = Some(PathBuf::from(dir)),
            _ => fail(&format!("unknown option {option}")),
        }
    }
    if engine != "claude" && engine != "codex" {
        fail(&format!("no engine {engine}: claude or codex"));
    }
    let Some(script) = scenario_for(engine, scenario) else {
        fail(&format!("no scenario {scenario} for {engine}"));
    };
    let api = if engine == "claude" {
        Api::Anthropic
    } else {
        Api::OpenAi
    };
    let standin = Standin::start(api).unwrap_or_else(|error| fail(&error.to_string()));
    for reply in script.replies {
        standin.push(reply);
    }
    let home = tempfile::tempdir().unwrap_or_else(|error| fail(&error.to_string()));
    let workspace = tempfile::tempdir().unwrap_or_else(|error| fail(&error.to_string()));
    if engine == "codex" {
        write_codex_config(home.path(), &standin, script.mcp);
    }
    let mut passed = passed;
    if engine == "claude" && script.mcp {
        passed.extend(["--mcp-config".to_owned(), claude_mcp_config()]);
    }
    if let (true, Ok(decision)) = (engine == "claude", std::env::var("PROBE_HOOK")) {
        passed.extend(["--settings".to_owned(), claude_hook_settings(&decision)]);
    }
    let mut conversation: Option<String> = None;
    let runs = script.prompts.len();
    for (index, prompt) in script.prompts.into_iter().enumerate() {
        let mut command = engine_command(engine, &bin, &standin, home.path(), workspace.path());
        command.args(run_args(engine, &passed, conversation.as_deref(), prompt));
        println!(
            "=== run {}: {:?}",
            index + 1,
            command.get_args().collect::<Vec<_>>()
        );
        let output = command
            .output()
            .unwrap_or_else(|error| fail(&format!("{}: {error}", bin.display())));
        let stdout = String::from_utf8_lossy(&output.stdout);
        for line in stdout.lines() {
            println!("{line}");
            conversation = conversation_id(engine, line).or(conversation);
        }
        println!("--- exit: {:?}", output.status.code());
        println!("--- stderr:\n{}", String::from_utf8_lossy(&output.stderr));
        if let Some(dir) = &save {
            let suffix = if runs > 1 {
                format!("-{}", index + 1)
            } else {
                String::new()
            };
            write(
                &dir.join(format!("{engine}-{scenario}{suffix}.jsonl")),
                &stdout,
            );
        }
    }
    println!("=== requests");
    let requests = standin.requests();
    for request in &requests {
        println!("{}", summary(request));
    }
    println!("=== replies left in the script: {}", standin.remaining());
    if let Some(dir) = &save {
        let log: Vec<Value> = requests
            .iter()
            .map(|r| json!({"method": r.method, "path": r.path, "main": r.main, "headers": r.headers, "body": r.body}))
            .collect();
        let text = serde_json::to_string_pretty(&log).unwrap_or_default();
        write(
            &dir.join(format!("{engine}-{scenario}.requests.json")),
            &text,
        );
    }
}

/// Every scenario's replies carry distinct token figures, so each run's
/// usage and cost in the output can be traced to the reply that caused it.
fn scenario_for(engine: &str, name: &str) -> Option<Scenario> {
    let claude = engine == "claude";
    let usage = |input, output| Usage {
        input,
        cache_read: 1000,
        cache_write: 500,
        output,
    };
    let shell = std::env::var("PROBE_COMMAND")
        .unwrap_or_else(|_| "echo probe-output > probe.txt && cat probe.txt".to_owned());
    let (tool, input) = if claude {
        (
            "Bash",
            json!({"command": shell, "description": "Write and read a file"}),
        )
    } else {
        ("exec_command", json!({"cmd": shell}))
    };
    let call_id = if claude {
        "toolu_probe_1"
    } else {
        "call_probe_1"
    };
    let again = |reply: Reply| std::iter::repeat_n(reply, 12).collect::<Vec<_>>();
    let scenario = match name {
        "plain" => Scenario {
            replies: vec![
                Message::text("Hello from the stand-in.")
                    .usage(usage(100, 10))
                    .into(),
            ],
            prompts: vec!["Say hello."],
            mcp: false,
        },
        "tool" => Scenario {
            replies: vec![
                Message::text("I will run it.")
                    .and_tool_call(call_id, tool, input)
                    .usage(usage(100, 20))
                    .into(),
                Message::text("The command printed probe-output.")
                    .usage(usage(200, 10))
                    .into(),
            ],
            prompts: vec!["Write probe-output to probe.txt and show it."],
            mcp: false,
        },
        "resume" => Scenario {
            replies: vec![
                Message::text("First answer.").usage(usage(100, 10)).into(),
                Message::text("Second answer.").usage(usage(200, 20)).into(),
                Message::text("Third answer.").usage(usage(300, 30)).into(),
            ],
            prompts: vec!["First question.", "Second question.", "Third question."],
            mcp: false,
        },
        "mcp" if claude => Scenario {
            replies: vec![
                Message::tool_search("toolu_probe_search", "select:mcp__probe__echo").into(),
                Message::tool_call("toolu_probe_mcp", "mcp__probe__echo", json!({"text": "hi"}))
                    .into(),
                Message::text("The tool said: echo: hi").into(),
            ],
            prompts: vec!["Call the echo tool with hi."],
            mcp: true,
        },
        "mcp" => Scenario {
            replies: vec![
                Message::tool_search("call_probe_search", "echo").into(),
                Message::tool_call("call_probe_mcp", CODEX_MCP_TOOL, json!({"text": "hi"})).into(),
                Message::text("The tool said: echo: hi").into(),
            ],
            prompts: vec!["Call the echo tool with hi."],
            mcp: true,
        },
        "overloaded" => Scenario {
            replies: again(Reply::Overloaded),
            prompts: vec!["Say hello."],
            mcp: false,
        },
        // Claude Code gives up at once when `retry-after` is over a minute
        // and retries ten times below; Codex waits for the "try again in"
        // delay, five times.
        "rate-limit" => Scenario {
            replies: again(Reply::RateLimited(Reset::after(if claude {
                120
            } else {
                2
            }))),
            prompts: vec!["Say hello."],
            mcp: false,
        },
        "usage-limit" => Scenario {
            replies: again(Reply::UsageLimit(Reset::after(3600))),
            prompts: vec!["Say hello."],
            mcp: false,
        },
        _ => return None,
    };
    Some(scenario)
}

const MCP_SERVER: &str = "__mcp";
const HOOK: &str = "__hook";

/// Claude Code's `--settings` with a `PreToolUse` hook for every tool, as
/// Switchboard passes it (crates/permissions/src/engine.rs), that answers
/// `decision` (`allow`, `deny` or `ask`).
fn claude_hook_settings(decision: &str) -> String {
    let command = format!("'{}' {HOOK} {decision}", probe_exe());
    json!({"hooks": {"PreToolUse": [{"matcher": "*",
        "hooks": [{"type": "command", "command": command, "timeout": 660}]}]}})
    .to_string()
}

fn answer_hook(decision: &str) {
    let _ = std::io::copy(&mut std::io::stdin(), &mut std::io::sink());
    println!(
        "{}",
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": decision, "permissionDecisionReason": format!("probe: {decision}")}})
    );
}

/// The function name Codex gives the MCP server's tool in its request.
const CODEX_MCP_TOOL: &str = "mcp__probe__echo";

fn probe_exe() -> String {
    std::env::current_exe()
        .map(|path| path.display().to_string())
        .unwrap_or_else(|error| fail(&error.to_string()))
}

fn claude_mcp_config() -> String {
    json!({"mcpServers": {"probe": {"command": probe_exe(), "args": [MCP_SERVER]}}}).to_string()
}

/// A stdio MCP server with one tool, `echo`: enough to see how each engine
/// names, loads and calls an MCP tool.
fn serve_mcp() {
    use std::io::{BufRead, Write};
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let Some(id) = message.get("id") else {
            continue;
        };
        let params = &message["params"];
        let result = match message["method"].as_str().unwrap_or_default() {
            "initialize" => json!({
                "protocolVersion": params["protocolVersion"].as_str().unwrap_or("2025-06-18"),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "probe", "version": "1"},
            }),
            "tools/list" => json!({"tools": [{
                "name": "echo",
                "description": "Echo a text back",
                "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
            }]}),
            "tools/call" => json!({"content": [{"type": "text",
                "text": format!("echo: {}", params["arguments"]["text"].as_str().unwrap_or_default())}]}),
            _ => json!({}),
        };
        let reply = json!({"jsonrpc": "2.0", "id": id, "result": result});
        if writeln!(stdout, "{reply}")
            .and_then(|()| stdout.flush())
            .is_err()
        {
            return;
        }
    }
}

fn default_bin(engine: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../target/engines/node_modules/.bin")
        .join(engine)
}

/// A clean environment: only what the engine needs to find its tools and
/// the stand-in, so nothing of the caller's setup leaks into the record.
fn engine_command(
    engine: &str,
    bin: &Path,
    standin: &Standin,
    home: &Path,
    workspace: &Path,
) -> Command {
    let mut command = Command::new(bin);
    command
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .current_dir(workspace)
        .stdin(Stdio::null());
    if engine == "claude" {
        // With an OAuth token Claude Code behaves as for a subscriber: it
        // reads the `anthropic-ratelimit-unified-*` headers.
        let (auth, key) = match std::env::var("PROBE_CLAUDE_AUTH").as_deref() {
            Ok("oauth") => ("CLAUDE_CODE_OAUTH_TOKEN", "sk-ant-oat01-standin"),
            _ => ("ANTHROPIC_API_KEY", "sk-ant-standin"),
        };
        command
            .env("ANTHROPIC_BASE_URL", standin.url())
            .env(auth, key)
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
    } else {
        command.env("STANDIN_API_KEY", "sk-standin");
    }
    for pair in std::env::var("PROBE_ENV").unwrap_or_default().split(',') {
        if let Some((name, value)) = pair.split_once('=') {
            command.env(name, value);
        }
    }
    command
}

fn run_args(
    engine: &str,
    passed: &[String],
    conversation: Option<&str>,
    prompt: &str,
) -> Vec<String> {
    let mut args: Vec<String> = Vec::new();
    if engine == "claude" {
        args.extend(
            ["-p", prompt, "--output-format", "stream-json", "--verbose"].map(String::from),
        );
        args.extend(passed.iter().cloned());
        if let Some(session) = conversation {
            args.extend(["--resume".to_owned(), session.to_owned()]);
        }
    } else {
        args.extend(["exec", "--json", "--skip-git-repo-check"].map(String::from));
        args.extend(passed.iter().cloned());
        if let Some(thread) = conversation {
            args.extend(["resume".to_owned(), thread.to_owned()]);
        }
        args.push(prompt.to_owned());
    }
    args
}

/// The id a follow-up resumes: the latest Claude `session_id`, Codex's
/// `thread_id`.
fn conversation_id(engine: &str, line: &str) -> Option<String> {
    let value: Value = serde_json::from_str(line).ok()?;
    let field = if engine == "claude" {
        "session_id"
    } else {
        "thread_id"
    };
    value.get(field)?.as_str().map(str::to_owned)
}

/// `$HOME/.codex/config.toml`: the stand-in as the model provider, and the
/// two switches that keep Codex off the network (analytics, and the plugin
/// sync that calls github.com and chatgpt.com).
fn write_codex_config(home: &Path, standin: &Standin, mcp: bool) {
    let mut config = format!(
        r#"model = "gpt-5.5"
model_provider = "standin"

[analytics]
enabled = false

[features]
plugins = false

[model_providers.standin]
name = "Stand-in"
base_url = "{}/v1"
wire_api = "responses"
env_key = "STANDIN_API_KEY"
"#,
        standin.url()
    );
    // `codex exec` never asks, so an MCP tool not approved in advance fails
    // ("MCP tool call requires approval, but approval policy is never").
    if mcp {
        config.push_str(&format!(
            "\n[mcp_servers.probe]\ncommand = {:?}\nargs = [{MCP_SERVER:?}]\ndefault_tools_approval_mode = \"approve\"\n",
            probe_exe()
        ));
    }
    write(&home.join(".codex/config.toml"), &config);
}

fn summary(request: &Recorded) -> String {
    let body = &request.body;
    let tools: Vec<&str> = body
        .get("tools")
        .and_then(Value::as_array)
        .map(|tools| {
            tools
                .iter()
                .filter_map(|tool| tool.get("name").or_else(|| tool.get("type"))?.as_str())
                .collect()
        })
        .unwrap_or_default();
    let turns = body
        .get("messages")
        .or_else(|| body.get("input"))
        .and_then(Value::as_array)
        .map(Vec::len);
    format!(
        "{} {} main={} model={} items={:?} tools={:?}",
        request.method,
        request.path,
        request.main,
        body.get("model").and_then(Value::as_str).unwrap_or("-"),
        turns,
        tools
    )
}

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    if let Err(error) = std::fs::write(path, text) {
        fail(&format!("{}: {error}", path.display()));
    }
}

fn fail(message: &str) -> ! {
    eprintln!("probe: {message}");
    std::process::exit(2)
}
