//! One CLI run: the argv of a tool-less, non-interactive question for each
//! engine, the process (prompt on stdin, killed with its group at the time
//! limit), and the reading of what the CLI printed.
//!
//! The shapes read here are the pinned CLIs' own (docs/engines.md):
//! Claude Code's `--output-format json` prints one `result` object
//! (`result`, `is_error`, `total_cost_usd`, `usage`, `modelUsage`); Codex's
//! `exec --json` prints JSONL events, of which `item.completed` with an
//! `agent_message` item carries the text and `turn.completed` the usage
//! (`turn.failed` and `error` the failure). Codex reports no price.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use tokio::io::AsyncWriteExt;
use tokio::process::Command;

use crate::answer::Answer;
use crate::model::Model;

/// Which CLI the engine is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineKind {
    Claude,
    Codex,
}

/// The engine a call runs: its name in `engines.toml`, the program with its
/// leading arguments, the engine's own arguments and environment.
#[derive(Debug, Clone, PartialEq)]
pub struct Engine {
    pub name: String,
    pub kind: EngineKind,
    pub program: Vec<String>,
    pub args: Vec<String>,
    pub env: BTreeMap<String, String>,
    /// Where the kernel cannot confine the CLI, run it unconfined rather
    /// than fail the call (the engine's own `unsafe_allow_unsandboxed`).
    pub unsafe_allow_unsandboxed: bool,
}

/// An image a call carries, as the CLI can read it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ImageInput<'a> {
    pub path: &'a Path,
    pub media_type: &'a str,
}

/// What one run produced.
#[derive(Debug)]
pub(crate) struct Reply {
    pub answer: Answer,
    pub model: Option<String>,
}

/// The model a feature with no model setting of its own is asked on:
/// the spec's "global utility model" is the engine's small one, so a title
/// never runs on the person's default (often the largest) model. Claude
/// Code resolves the `haiku` alias to its current Haiku; Codex names no
/// small model that every login can use, so its default model is asked at
/// low reasoning effort instead.
const CLAUDE_SMALL_MODEL: &str = "haiku";
const CODEX_SMALL_EFFORT: &str = "model_reasoning_effort=\"low\"";

/// Short and fixed: the utility model answers one question, not a project.
const SYSTEM_PROMPT: &str = "You answer one short question for Switchboard, a tool that runs coding \
agents. You have no tools. Answer exactly in the format asked, with nothing else.";

impl Engine {
    /// The engine's own arguments come first, so that the ones a utility
    /// call depends on (no tools, the feature's model) win over a model or
    /// format the engine's sessions are configured with. `image` is the
    /// file Codex attaches (`--image`); Claude Code takes an image as a
    /// content block of a stream-json message on stdin instead.
    pub(crate) fn argv(&self, model: Model<'_>, image: Option<&ImageInput<'_>>) -> Vec<String> {
        let mut argv = self.program.clone();
        match self.kind {
            EngineKind::Claude => {
                argv.push("-p".to_owned());
                argv.extend(self.args.iter().cloned());
                // Stream-json input needs stream-json output, which `-p`
                // prints only with `--verbose`; the last line is the same
                // `result` object `json` prints alone.
                let formats: &[&str] = if image.is_some() {
                    &[
                        "--input-format",
                        "stream-json",
                        "--output-format",
                        "stream-json",
                        "--verbose",
                    ]
                } else {
                    &["--output-format", "json"]
                };
                argv.extend(formats.iter().map(|word| (*word).to_owned()));
                argv.extend(
                    [
                        "--tools",
                        "",
                        "--strict-mcp-config",
                        "--no-session-persistence",
                        "--system-prompt",
                        SYSTEM_PROMPT,
                    ]
                    .map(str::to_owned),
                );
                match model {
                    Model::Small => argv.extend(["--model", CLAUDE_SMALL_MODEL].map(str::to_owned)),
                    Model::Named(model) => argv.extend(["--model".to_owned(), model.to_owned()]),
                    Model::EngineDefault => {}
                }
            }
            EngineKind::Codex => {
                argv.extend(
                    ["exec", "--json", "--skip-git-repo-check", "--ephemeral"].map(str::to_owned),
                );
                // Codex refuses `--model` given twice: a model the call
                // names replaces the one of the engine's arguments.
                let named = matches!(model, Model::Named(_));
                argv.extend(without_model(&self.args, named));
                argv.extend(["--sandbox", "read-only"].map(str::to_owned));
                if let Some(image) = image {
                    // One `=` word: `--image` takes several files, and would
                    // read the `-` that follows as one.
                    argv.push(format!("--image={}", image.path.display()));
                }
                match model {
                    Model::Named(model) => argv.extend(["--model".to_owned(), model.to_owned()]),
                    Model::Small => argv.extend(["-c".to_owned(), CODEX_SMALL_EFFORT.to_owned()]),
                    Model::EngineDefault => {}
                }
                // `-` reads the prompt from stdin.
                argv.push("-".to_owned());
            }
        }
        argv
    }

    /// Runs the CLI in `workdir`, confined to `policy` as an agent's turn
    /// is: the data directory (the `cli-token`, the database) is out of its
    /// reach but for the empty folder it runs in.
    pub(crate) async fn run(
        &self,
        prompt: &str,
        image: Option<&ImageInput<'_>>,
        model: Model<'_>,
        workdir: &Path,
        policy: &sandbox::Policy,
        timeout: Duration,
    ) -> Result<Reply, String> {
        let argv = self.argv(model, image);
        let stdin = match (self.kind, image) {
            (EngineKind::Claude, Some(image)) => claude_image_message(prompt, image)?,
            _ => prompt.to_owned(),
        };
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| format!("engine `{}` has no command", self.name))?;
        std::fs::create_dir_all(workdir)
            .map_err(|e| format!("cannot make {}: {e}", workdir.display()))?;
        let mut command = Command::new(program);
        command
            .args(args)
            .envs(&self.env)
            .current_dir(workdir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        let policy = policy.clone();
        let prepared = tokio::task::spawn_blocking(move || policy.prepare())
            .await
            .map_err(|e| format!("the sandbox could not be prepared: {e}"))?;
        match prepared {
            Ok(prepared) => {
                let hook = prepared.into_pre_exec(workdir);
                // SAFETY: the hook runs in the child between fork and exec
                // and only makes system calls on what was built before it.
                unsafe { command.pre_exec(hook) };
            }
            Err(sandbox::SandboxError::Unsupported { .. }) if self.unsafe_allow_unsandboxed => {}
            Err(error) => return Err(format!("the CLI cannot be confined here: {error}")),
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start {program}: {e}"))?;
        let stdin_text = stdin;
        if let Some(mut stdin) = child.stdin.take() {
            // A CLI that exits before reading (a bad key, a bad flag) closes
            // the pipe: its exit and output say why, not the broken pipe.
            match stdin.write_all(stdin_text.as_bytes()).await {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    return Err(format!("cannot write the prompt to {program}: {e}"));
                }
                _ => {}
            }
        }
        let pid = child.id();
        let output = match tokio::time::timeout(timeout, child.wait_with_output()).await {
            Ok(output) => output.map_err(|e| format!("{program} failed: {e}"))?,
            Err(_) => {
                kill_group(pid);
                return Err(format!(
                    "{program} gave no answer in {} s",
                    timeout.as_secs()
                ));
            }
        };
        let stdout = String::from_utf8_lossy(&output.stdout);
        let parsed = match self.kind {
            EngineKind::Claude => read_claude(&stdout),
            EngineKind::Codex => read_codex(&stdout),
        };
        match parsed {
            Ok(reply) if output.status.success() => Ok(reply),
            Ok(_) => Err(failure(&output.status, &output.stderr, &stdout)),
            Err(reason) if output.status.success() => Err(reason),
            Err(reason) => Err(format!(
                "{reason}; {}",
                failure(&output.status, &output.stderr, &stdout)
            )),
        }
    }
}

/// `args` without their `-m X`, `--model X` and `--model=X` when `drop`.
fn without_model(args: &[String], drop: bool) -> Vec<String> {
    if !drop {
        return args.to_vec();
    }
    let mut kept = Vec::with_capacity(args.len());
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if word == "-m" || word == "--model" {
            words.next();
        } else if !word.starts_with("--model=") {
            kept.push(word.clone());
        }
    }
    kept
}

/// The one user message of a stream-json input: the image as a base64
/// content block, then the question, as the Messages API takes them.
fn claude_image_message(prompt: &str, image: &ImageInput<'_>) -> Result<String, String> {
    use base64::Engine as _;
    let bytes = std::fs::read(image.path)
        .map_err(|e| format!("cannot read the image {}: {e}", image.path.display()))?;
    let data = base64::engine::general_purpose::STANDARD.encode(bytes);
    let message = serde_json::json!({
        "type": "user",
        "message": {
            "role": "user",
            "content": [
                {"type": "image", "source": {"type": "base64", "media_type": image.media_type, "data": data}},
                {"type": "text", "text": prompt},
            ],
        },
    });
    Ok(format!("{message}\n"))
}

/// The CLI's group goes with it: a node CLI may have started helpers.
fn kill_group(pid: Option<u32>) {
    if let Some(pid) = pid.and_then(|pid| i32::try_from(pid).ok()) {
        // SAFETY: killpg only reads its two integer arguments; the group is
        // the child's own (`process_group(0)`).
        unsafe {
            libc::killpg(pid, libc::SIGKILL);
        }
    }
}

fn failure(status: &std::process::ExitStatus, stderr: &[u8], stdout: &str) -> String {
    let stderr = String::from_utf8_lossy(stderr);
    let said = [stderr.trim(), stdout.trim()]
        .into_iter()
        .find(|text| !text.is_empty())
        .unwrap_or("nothing");
    let said: String = said.chars().take(500).collect();
    format!("exited with {status}: {said}")
}

fn read_claude(stdout: &str) -> Result<Reply, String> {
    let result = stdout
        .lines()
        .rev()
        .filter_map(|line| serde_json::from_str::<Value>(line.trim()).ok())
        .find(|value| value["type"] == "result")
        .ok_or_else(|| "Claude Code printed no result".to_owned())?;
    let text = result["result"].as_str().unwrap_or_default().to_owned();
    if result["is_error"].as_bool() == Some(true) {
        let subtype = result["subtype"].as_str().unwrap_or("error");
        return Err(format!("Claude Code reported {subtype}: {text}"));
    }
    let usage = &result["usage"];
    let count = |key: &str| usage[key].as_u64().unwrap_or(0);
    // One meaning of input across engines: it includes the cached part.
    let input_tokens = count("input_tokens")
        + count("cache_read_input_tokens")
        + count("cache_creation_input_tokens");
    let model = result["modelUsage"]
        .as_object()
        .and_then(|models| models.keys().next().cloned());
    Ok(Reply {
        answer: Answer {
            text,
            cost_usd: result["total_cost_usd"].as_f64(),
            input_tokens,
            output_tokens: count("output_tokens"),
        },
        model,
    })
}

fn read_codex(stdout: &str) -> Result<Reply, String> {
    let mut text = None;
    let mut input_tokens = 0;
    let mut output_tokens = 0;
    for event in stdout
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line.trim()).ok())
    {
        match event["type"].as_str() {
            Some("item.completed") if event["item"]["type"] == "agent_message" => {
                text = event["item"]["text"].as_str().map(str::to_owned);
            }
            Some("turn.completed") => {
                input_tokens += event["usage"]["input_tokens"].as_u64().unwrap_or(0);
                output_tokens += event["usage"]["output_tokens"].as_u64().unwrap_or(0);
            }
            Some("turn.failed") => {
                let message = event["error"]["message"].as_str().unwrap_or("turn failed");
                return Err(format!("Codex reported: {message}"));
            }
            Some("error") => {
                let message = event["message"].as_str().unwrap_or("error");
                return Err(format!("Codex reported: {message}"));
            }
            _ => {}
        }
    }
    let text = text.ok_or_else(|| "Codex printed no message".to_owned())?;
    Ok(Reply {
        answer: Answer {
            text,
            cost_usd: None,
            input_tokens,
            output_tokens,
        },
        model: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_result_gives_text_cost_and_tokens_with_cache() {
        let line = r#"{"type":"result","subtype":"success","is_error":false,"result":"Fix login","total_cost_usd":0.0021,"usage":{"input_tokens":10,"cache_read_input_tokens":100,"cache_creation_input_tokens":5,"output_tokens":4},"modelUsage":{"claude-haiku-4-5":{}}}"#;
        let reply = read_claude(&format!("noise\n{line}\n")).unwrap();
        assert_eq!(reply.answer.text, "Fix login");
        assert_eq!(reply.answer.cost_usd, Some(0.0021));
        assert_eq!(reply.answer.input_tokens, 115);
        assert_eq!(reply.answer.output_tokens, 4);
        assert_eq!(reply.model.as_deref(), Some("claude-haiku-4-5"));
    }

    #[test]
    fn claude_error_result_is_a_failure() {
        let line = r#"{"type":"result","subtype":"error_during_execution","is_error":true,"result":"Invalid API key"}"#;
        let error = read_claude(line).unwrap_err();
        assert!(error.contains("Invalid API key"), "{error}");
        assert!(read_claude("not json").is_err());
    }

    #[test]
    fn codex_events_give_the_last_message_and_usage() {
        let out = [
            r#"{"type":"thread.started","thread_id":"t"}"#,
            r#"{"type":"item.completed","item":{"id":"i0","type":"reasoning","text":"hm"}}"#,
            r#"{"type":"item.completed","item":{"id":"i1","type":"agent_message","text":"Fix login"}}"#,
            r#"{"type":"turn.completed","usage":{"input_tokens":50,"cached_input_tokens":20,"output_tokens":3}}"#,
        ]
        .join("\n");
        let reply = read_codex(&out).unwrap();
        assert_eq!(reply.answer.text, "Fix login");
        assert_eq!(reply.answer.cost_usd, None);
        assert_eq!(
            (reply.answer.input_tokens, reply.answer.output_tokens),
            (50, 3)
        );
        let failed = r#"{"type":"turn.failed","error":{"message":"unauthorized"}}"#;
        assert!(read_codex(failed).unwrap_err().contains("unauthorized"));
    }

    #[test]
    fn the_calls_own_arguments_come_after_the_engines() {
        let engine = Engine {
            name: "primary".into(),
            kind: EngineKind::Claude,
            program: vec!["claude".into()],
            args: vec!["--model".into(), "opus".into()],
            env: BTreeMap::new(),
            unsafe_allow_unsandboxed: false,
        };
        let argv = engine.argv(Model::Named("haiku"), None);
        let models: Vec<usize> = argv
            .iter()
            .enumerate()
            .filter(|(_, a)| *a == "--model")
            .map(|(i, _)| i)
            .collect();
        assert_eq!(argv[models[1] + 1], "haiku");
        let tools = argv.iter().position(|a| a == "--tools").unwrap();
        assert_eq!(argv[tools + 1], "");
        let codex = Engine {
            kind: EngineKind::Codex,
            program: vec!["codex".into()],
            args: vec![],
            ..engine
        };
        let argv = codex.argv(Model::Small, None);
        assert_eq!(argv.last().map(String::as_str), Some("-"));
        assert!(argv.contains(&"read-only".to_owned()));
    }

    #[test]
    fn a_feature_without_a_model_of_its_own_asks_the_small_one() {
        let claude = Engine {
            name: "primary".into(),
            kind: EngineKind::Claude,
            program: vec!["claude".into()],
            args: vec!["--model".into(), "opus".into()],
            env: BTreeMap::new(),
            unsafe_allow_unsandboxed: false,
        };
        let argv = claude.argv(Model::Small, None);
        let last_model = argv.iter().rposition(|a| a == "--model").unwrap();
        assert_eq!(argv[last_model + 1], "haiku");
        let codex = Engine {
            kind: EngineKind::Codex,
            program: vec!["codex".into()],
            args: vec![],
            ..claude
        };
        let argv = codex.argv(Model::Small, None);
        let config = argv.iter().position(|a| a == "-c").unwrap();
        assert_eq!(argv[config + 1], "model_reasoning_effort=\"low\"");
        assert!(!argv.contains(&"--model".to_owned()));
        let named = codex.argv(Model::Named("gpt-5.5"), None);
        assert!(!named.contains(&"-c".to_owned()));
        assert!(named.contains(&"gpt-5.5".to_owned()));
        let text_only = Engine {
            args: vec!["-m".into(), "gpt-oss-20b".into(), "--model=o3-mini".into()],
            ..codex.clone()
        };
        let named = text_only.argv(Model::Named("gpt-5"), None);
        assert_eq!(
            named.iter().filter(|a| *a == "--model").count(),
            1,
            "{named:?}"
        );
        assert!(
            !named
                .iter()
                .any(|a| a.contains("gpt-oss") || a.contains("o3-mini"))
        );
        let own = text_only.argv(Model::EngineDefault, None);
        assert!(own.contains(&"gpt-oss-20b".to_owned()));
    }

    #[test]
    fn a_named_engine_asked_without_a_model_keeps_its_own() {
        let reviewer = Engine {
            name: "reviewer".into(),
            kind: EngineKind::Claude,
            program: vec!["claude".into()],
            args: vec!["--model".into(), "opus".into()],
            env: BTreeMap::new(),
            unsafe_allow_unsandboxed: false,
        };
        let argv = reviewer.argv(Model::EngineDefault, None);
        let last_model = argv.iter().rposition(|a| a == "--model").unwrap();
        assert_eq!(argv[last_model + 1], "opus");
        let codex = Engine {
            kind: EngineKind::Codex,
            args: vec![],
            ..reviewer
        };
        let argv = codex.argv(Model::EngineDefault, None);
        assert!(!argv.contains(&"-c".to_owned()) && !argv.contains(&"--model".to_owned()));
    }
}
