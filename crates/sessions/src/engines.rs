//! Engines: reading `DIR/engines.toml`, the PATH defaults, and the argv of one turn.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Result, SessionError};
use crate::model::EngineInfo;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EngineKind {
    Command,
    Claude,
    Codex,
}

impl EngineKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EngineKind::Command => "command",
            EngineKind::Claude => "claude",
            EngineKind::Codex => "codex",
        }
    }

    /// Whether the engine can start a new conversation as a copy of an
    /// earlier one: Claude Code's `--resume <id> --fork-session`, Codex's
    /// `exec fork <id>`. A `command` engine has no conversation to copy.
    pub fn can_fork(self) -> bool {
        matches!(self, EngineKind::Claude | EngineKind::Codex)
    }
}

/// The engine conversation a turn continues.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resume<'a> {
    /// The session's own, from its previous turn.
    Continue(&'a str),
    /// Another session's, continued as a new conversation of its own (the
    /// first turn of a forked session); the original is left as it was.
    Fork(&'a str),
}

/// One engine, resolved. Stored with the session at spawn, so later edits of
/// `engines.toml` never change what a running session is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineSpec {
    pub kind: EngineKind,
    #[serde(default)]
    pub command: Option<Vec<String>>,
    #[serde(default)]
    pub args: Vec<String>,
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Where the kernel cannot confine engine processes (no Landlock), run
    /// this engine unconfined instead of failing its turns. Where it can, the
    /// sandbox applies whatever this says.
    #[serde(default)]
    pub unsafe_allow_unsandboxed: bool,
    /// A second engine's (kind `codex`) own level, in place of
    /// `agentPermissionLevel`; [`parse`] refuses it on other kinds. Stored
    /// with the session like the rest, so it reaches sessions started after
    /// it was written. Left out of the stored spec when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_level: Option<permissions::Level>,
    /// The runner (`runners.toml`) this engine's sessions run on when the
    /// spawn names none; left out of the stored spec when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runner: Option<String>,
    /// The running sessions the person means this login (its credentials)
    /// to carry: the load-balancing card (`loadBalancingNoticeEnabled`,
    /// docs/fleet-cards.md) reads it; nothing refuses a spawn past it. Left
    /// out of the stored spec when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_sessions: Option<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EnginesFile {
    #[serde(default)]
    engines: BTreeMap<String, EngineSpec>,
    /// The engines that review work when it comes back
    /// (`cloudSessionReviewsEnabled`), by name.
    #[serde(default)]
    reviewers: Vec<String>,
}

impl EngineSpec {
    /// The program and the arguments that come before anything per turn.
    pub fn program(&self) -> Vec<String> {
        match (&self.command, self.kind) {
            (Some(command), _) => command.clone(),
            (None, EngineKind::Claude) => vec!["claude".to_owned()],
            (None, EngineKind::Codex) => vec!["codex".to_owned()],
            (None, EngineKind::Command) => Vec::new(),
        }
    }

    /// The full argv of one turn. `resume` is the engine's session or
    /// thread id to continue: the session's own from its previous turn, or
    /// the source's for a fork's first turn; `extra` is what the server
    /// adds (the permission hook, the sandbox flags), placed where the
    /// engine's own arguments go. `command` engines take the text on stdin
    /// and never resume.
    pub fn argv(&self, text: &str, resume: Option<Resume<'_>>, extra: &[String]) -> Vec<String> {
        let mut argv = self.program();
        match self.kind {
            EngineKind::Command => argv.extend(self.args.iter().cloned()),
            EngineKind::Claude => {
                argv.extend(
                    ["-p", text, "--output-format", "stream-json", "--verbose"].map(str::to_owned),
                );
                argv.extend(extra.iter().cloned());
                argv.extend(self.args.iter().cloned());
                match resume {
                    Some(Resume::Continue(id)) => {
                        argv.extend(["--resume".to_owned(), id.to_owned()]);
                    }
                    Some(Resume::Fork(id)) => {
                        argv.extend(["--resume", id, "--fork-session"].map(str::to_owned))
                    }
                    None => {}
                }
            }
            EngineKind::Codex => {
                argv.extend(["exec", "--json", "--skip-git-repo-check"].map(str::to_owned));
                argv.extend(extra.iter().cloned());
                argv.extend(self.args.iter().cloned());
                // Subcommands of `exec`, after its options, which they share.
                match resume {
                    Some(Resume::Continue(id)) => {
                        argv.extend(["resume".to_owned(), id.to_owned()]);
                    }
                    Some(Resume::Fork(id)) => argv.extend(["fork".to_owned(), id.to_owned()]),
                    None => {}
                }
                argv.push(text.to_owned());
            }
        }
        argv
    }
}

/// The engines whose versions each runner host reports: the programs of
/// the engines in force (none when `engines.toml` cannot be read).
pub fn probe_list(data_dir: &Path) -> Vec<runners::ProbeEngine> {
    load(data_dir)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|(name, spec)| {
            let program = spec.program().into_iter().next()?;
            Some(runners::ProbeEngine { name, program })
        })
        .collect()
}

pub fn engines_path(data_dir: &Path) -> PathBuf {
    data_dir.join("engines.toml")
}

/// The engines in force: `engines.toml` when it exists, else `primary` (claude)
/// and `second` (codex) for those found on PATH.
pub fn load(data_dir: &Path) -> Result<BTreeMap<String, EngineSpec>> {
    let path = engines_path(data_dir);
    match std::fs::read_to_string(&path) {
        Ok(text) => parse(&path, &text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(path_defaults()),
        Err(e) if resources::is_exhausted(&e) => Err(out_of_files()),
        Err(e) => Err(SessionError::EnginesConfig {
            path,
            detail: e.to_string(),
        }),
    }
}

/// The reviewers `engines.toml` names, each with its engine; none without
/// the file.
pub fn reviewers(data_dir: &Path) -> Result<Vec<(String, EngineSpec)>> {
    let path = engines_path(data_dir);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) if resources::is_exhausted(&e) => return Err(out_of_files()),
        Err(e) => {
            return Err(SessionError::EnginesConfig {
                path,
                detail: e.to_string(),
            });
        }
    };
    let mut file = parse_file(&path, &text)?;
    Ok(file
        .reviewers
        .iter()
        .filter_map(|name| Some((name.clone(), file.engines.remove(name)?)))
        .collect())
}

/// Not the file's fault: the process (or the system) has no descriptor
/// left to open it with.
fn out_of_files() -> SessionError {
    let files = resources::OpenFiles::now();
    SessionError::OpenFileLimit {
        open: files.map_or(0, |f| f.open),
        limit: files.map_or(0, |f| f.limit),
    }
}

/// Reads and checks `engines.toml`'s text; `path` names the file in errors.
pub fn parse(path: &Path, text: &str) -> Result<BTreeMap<String, EngineSpec>> {
    parse_file(path, text).map(|file| file.engines)
}

fn parse_file(path: &Path, text: &str) -> Result<EnginesFile> {
    let bad = |detail: String| SessionError::EnginesConfig {
        path: path.to_owned(),
        detail,
    };
    let file: EnginesFile = toml::from_str(text).map_err(|e| bad(e.to_string()))?;
    for name in &file.reviewers {
        // A review is a question asked of a coding assistant's CLI; a
        // `command` engine has no way to answer one.
        match file.engines.get(name) {
            Some(spec) if spec.kind != EngineKind::Command => {}
            Some(_) => {
                return Err(bad(format!(
                    "reviewer `{name}` is a command engine; a reviewer must be kind claude or codex"
                )));
            }
            None => return Err(bad(format!("reviewer `{name}` names no engine"))),
        }
    }
    for (name, spec) in &file.engines {
        if spec.program().first().is_none_or(|p| p.is_empty()) {
            return Err(bad(format!(
                "engine `{name}` needs a non-empty `command` array"
            )));
        }
        // The setting is the one level for Claude Code and external engines
        // (the hook and the OS sandbox read it); only Codex's sandbox flags
        // can follow a level of their own.
        if spec.permission_level.is_some() && spec.kind != EngineKind::Codex {
            return Err(bad(format!(
                "engine `{name}` has a `permission_level`, but only the second engine (kind codex) \
                 has a level of its own; claude and command engines follow agentPermissionLevel"
            )));
        }
    }
    Ok(file)
}

fn path_defaults() -> BTreeMap<String, EngineSpec> {
    let mut engines = BTreeMap::new();
    for (name, program, kind) in [
        ("primary", "claude", EngineKind::Claude),
        ("second", "codex", EngineKind::Codex),
    ] {
        if on_path(program) {
            engines.insert(
                name.to_owned(),
                EngineSpec {
                    kind,
                    command: None,
                    args: Vec::new(),
                    env: BTreeMap::new(),
                    unsafe_allow_unsandboxed: false,
                    permission_level: None,
                    runner: None,
                    max_sessions: None,
                },
            );
        }
    }
    engines
}

fn on_path(program: &str) -> bool {
    locate(program, None).is_some()
}

/// Where `program` is, as a spawn with `search_path` (the engine's own
/// `PATH`, else the server's) would find it: a word with a slash is a path,
/// any other the first executable file of that name on the search path.
pub fn locate(program: &str, search_path: Option<&str>) -> Option<PathBuf> {
    if program.contains('/') {
        let path = PathBuf::from(program);
        return path.is_file().then_some(path);
    }
    let path = search_path
        .map(std::ffi::OsString::from)
        .or_else(|| std::env::var_os("PATH"))?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
}

/// A regular file someone may execute (links followed).
pub fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Engine `name` among the ones in force ([`load_with`]), or the error
/// that lists the ones there are.
pub fn resolve(
    data_dir: &Path,
    builtin: &BTreeMap<String, EngineSpec>,
    name: &str,
) -> Result<EngineSpec> {
    let mut engines = load_with(data_dir, builtin)?;
    engines
        .remove(name)
        .ok_or_else(|| SessionError::UnknownEngine {
            name: name.to_owned(),
            known: if engines.is_empty() {
                "none (write engines.toml, or put claude or codex on PATH)".to_owned()
            } else {
                engines.keys().cloned().collect::<Vec<_>>().join(", ")
            },
        })
}

/// The engines in force ([`load`]) with the server's built-in ones beside
/// them (the demo engine under `serve --demo`); one of `engines.toml` of
/// the same name wins, since the user wrote it.
pub fn load_with(
    data_dir: &Path,
    builtin: &BTreeMap<String, EngineSpec>,
) -> Result<BTreeMap<String, EngineSpec>> {
    let mut engines = load(data_dir)?;
    for (name, spec) in builtin {
        engines.entry(name.clone()).or_insert_with(|| spec.clone());
    }
    Ok(engines)
}

/// The name `serve --demo` gives its built-in demo engine.
pub const DEMO_ENGINE: &str = "demo";
/// How the demo engine is shown: what it is, so nobody takes its replies
/// for a model's.
pub const DEMO_ENGINE_LABEL: &str = "Demo engine (scripted, no model)";
/// The hidden subcommand of the `switchboard` binary that is the demo engine.
pub const DEMO_ENGINE_SUBCOMMAND: &str = "demo-engine";

/// The built-in demo engine: `program` (the running `switchboard`) with
/// its hidden `demo-engine` subcommand, which speaks the part of Claude
/// Code's CLI the sessions drive, so it is kind `claude` and every turn,
/// follow-up and fork goes the way a real one's does.
pub fn demo_spec(program: &Path) -> EngineSpec {
    EngineSpec {
        kind: EngineKind::Claude,
        command: Some(vec![
            program.to_string_lossy().into_owned(),
            DEMO_ENGINE_SUBCOMMAND.to_owned(),
        ]),
        args: Vec::new(),
        env: BTreeMap::new(),
        // It runs no tool and reaches nothing (its tool steps are scripted),
        // so a kernel without Landlock must not keep a demo from running.
        unsafe_allow_unsandboxed: true,
        permission_level: None,
        runner: None,
        max_sessions: None,
    }
}

/// Whether `spec` is a demo engine's, whichever binary it named.
pub fn is_demo(spec: &EngineSpec) -> bool {
    spec.kind == EngineKind::Claude
        && spec
            .command
            .as_deref()
            .is_some_and(|c| c.len() == 2 && c[1] == DEMO_ENGINE_SUBCOMMAND)
}

/// The engines in force ([`load_with`]), as the API lists them.
pub fn list(data_dir: &Path, builtin: &BTreeMap<String, EngineSpec>) -> Result<Vec<EngineInfo>> {
    Ok(load_with(data_dir, builtin)?
        .into_iter()
        .map(|(name, spec)| EngineInfo {
            name,
            kind: spec.kind.as_str().to_owned(),
            command: spec.program(),
            can_fork: spec.kind.can_fork(),
            label: is_demo(&spec).then(|| DEMO_ENGINE_LABEL.to_owned()),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_contract_example_parses() {
        let text = r#"
            [engines.echo]
            kind = "command"
            command = ["/usr/bin/cat"]

            [engines.primary]
            kind = "claude"
            command = ["/opt/tools/bin/claude"]
            args = ["--model", "sonnet"]
            env = { ANTHROPIC_BASE_URL = "http://127.0.0.1:4000" }
        "#;
        let engines = parse(Path::new("engines.toml"), text).unwrap();
        assert_eq!(engines["echo"].argv("hi", None, &[]), ["/usr/bin/cat"]);
        assert_eq!(
            engines["primary"].argv("hi", Some(Resume::Continue("s1")), &[]),
            [
                "/opt/tools/bin/claude",
                "-p",
                "hi",
                "--output-format",
                "stream-json",
                "--verbose",
                "--model",
                "sonnet",
                "--resume",
                "s1"
            ]
        );
        assert_eq!(
            engines["primary"].env["ANTHROPIC_BASE_URL"],
            "http://127.0.0.1:4000"
        );
    }

    #[test]
    fn the_servers_arguments_come_before_the_engines_own_and_the_resume() {
        let extra = ["--sandbox".to_owned(), "read-only".to_owned()];
        let spec = EngineSpec {
            kind: EngineKind::Codex,
            command: None,
            args: vec!["-m".into(), "o4".into()],
            env: BTreeMap::new(),
            unsafe_allow_unsandboxed: false,
            permission_level: None,
            runner: None,
            max_sessions: None,
        };
        assert_eq!(
            spec.argv("go", Some(Resume::Continue("t1")), &extra)[4..],
            ["--sandbox", "read-only", "-m", "o4", "resume", "t1", "go"]
        );
        let spec = EngineSpec {
            kind: EngineKind::Claude,
            ..spec
        };
        assert_eq!(
            spec.argv("go", Some(Resume::Continue("s1")), &extra)[5..],
            [
                "--verbose",
                "--sandbox",
                "read-only",
                "-m",
                "o4",
                "--resume",
                "s1"
            ]
        );
    }

    #[test]
    fn codex_resumes_by_thread_id() {
        let spec = EngineSpec {
            kind: EngineKind::Codex,
            command: None,
            args: vec!["-m".into(), "o4".into()],
            env: BTreeMap::new(),
            unsafe_allow_unsandboxed: false,
            permission_level: None,
            runner: None,
            max_sessions: None,
        };
        assert_eq!(
            spec.argv("go", Some(Resume::Continue("t1")), &[]),
            [
                "codex",
                "exec",
                "--json",
                "--skip-git-repo-check",
                "-m",
                "o4",
                "resume",
                "t1",
                "go"
            ]
        );
    }

    #[test]
    fn a_forks_first_turn_copies_the_sources_conversation() {
        let extra = ["--settings".to_owned(), "{}".to_owned()];
        let mut spec = EngineSpec {
            kind: EngineKind::Claude,
            command: None,
            args: vec!["--model".into(), "sonnet".into()],
            env: BTreeMap::new(),
            unsafe_allow_unsandboxed: false,
            permission_level: None,
            runner: None,
            max_sessions: None,
        };
        assert_eq!(
            spec.argv("go", Some(Resume::Fork("s1")), &extra),
            [
                "claude",
                "-p",
                "go",
                "--output-format",
                "stream-json",
                "--verbose",
                "--settings",
                "{}",
                "--model",
                "sonnet",
                "--resume",
                "s1",
                "--fork-session"
            ]
        );
        spec.kind = EngineKind::Codex;
        assert_eq!(
            spec.argv("go", Some(Resume::Fork("t1")), &extra),
            [
                "codex",
                "exec",
                "--json",
                "--skip-git-repo-check",
                "--settings",
                "{}",
                "--model",
                "sonnet",
                "fork",
                "t1",
                "go"
            ]
        );
        assert!(EngineKind::Claude.can_fork() && EngineKind::Codex.can_fork());
        assert!(!EngineKind::Command.can_fork());
    }

    #[test]
    fn only_the_second_engine_has_a_level_of_its_own() {
        let codex = "[engines.second]\nkind = \"codex\"\npermission_level = \"read_only\"\n";
        let engines = parse(Path::new("e"), codex).unwrap();
        assert_eq!(
            engines["second"].permission_level,
            Some(permissions::Level::ReadOnly)
        );
        let plain = parse(Path::new("e"), "[engines.second]\nkind = \"codex\"\n").unwrap();
        assert_eq!(plain["second"].permission_level, None);

        for (kind, command) in [
            ("claude", ""),
            ("command", "command = [\"/usr/bin/cat\"]\n"),
        ] {
            let text =
                format!("[engines.x]\nkind = \"{kind}\"\n{command}permission_level = \"full\"\n");
            let error = parse(Path::new("e"), &text).unwrap_err().to_string();
            assert!(error.contains("engine `x`"), "{error}");
            assert!(error.contains("agentPermissionLevel"), "{error}");
        }

        let unknown = "[engines.second]\nkind = \"codex\"\npermission_level = \"yolo\"\n";
        let error = parse(Path::new("e"), unknown).unwrap_err().to_string();
        assert!(error.contains("yolo"), "{error}");
    }

    #[test]
    fn a_spec_stored_before_the_level_existed_still_reads() {
        let stored = r#"{"kind":"codex","command":null,"args":[],"env":{},"unsafe_allow_unsandboxed":false}"#;
        let spec: EngineSpec = serde_json::from_str(stored).unwrap();
        assert_eq!(spec.permission_level, None);
        assert_eq!(serde_json::to_string(&spec).unwrap(), stored);
    }

    #[test]
    fn a_command_engine_without_command_or_an_unknown_kind_is_refused() {
        let no_command = "[engines.x]\nkind = \"command\"\n";
        assert!(parse(Path::new("e"), no_command).is_err());
        let bad_kind = "[engines.x]\nkind = \"gemini\"\ncommand = [\"g\"]\n";
        assert!(parse(Path::new("e"), bad_kind).is_err());
    }

    #[test]
    fn reviewers_name_assistant_engines_only() {
        let dir = tempfile::tempdir().unwrap();
        let write = |text: &str| std::fs::write(dir.path().join("engines.toml"), text).unwrap();
        assert!(reviewers(dir.path()).unwrap().is_empty());
        let engines = "[engines.echo]\nkind = \"command\"\ncommand = [\"/usr/bin/cat\"]\n\
                       [engines.critic]\nkind = \"claude\"\n";
        write(&format!("reviewers = [\"critic\"]\n{engines}"));
        let found = reviewers(dir.path()).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "critic");
        assert_eq!(found[0].1.kind, EngineKind::Claude);
        write(&format!("reviewers = [\"echo\"]\n{engines}"));
        let refused = reviewers(dir.path()).unwrap_err().to_string();
        assert!(refused.contains("command engine"), "{refused}");
        write(&format!("reviewers = [\"nobody\"]\n{engines}"));
        assert!(
            load(dir.path())
                .unwrap_err()
                .to_string()
                .contains("names no engine")
        );
    }
}
