//! One test's world: a fresh `$HOME`, a work folder, a stand-in of the
//! engine's model API and a real `switchboard serve` whose `engines.toml`
//! names the real CLI.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use standins::{Api, Standin};

use crate::common::TestServer;
use crate::common::serve::{Addresses, serve_command, wait_for_server_file};

/// Where the pinned CLIs are: `SWITCHBOARD_ENGINES_DIR`, else
/// `target/engines/node_modules/.bin` of this workspace. `None` (the test
/// skips) when they are not installed and nobody required them.
pub fn engines_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("SWITCHBOARD_ENGINES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            crate::common::workspace_root().join("target/engines/node_modules/.bin")
        });
    if dir.join("claude").exists() && dir.join("codex").exists() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("SWITCHBOARD_ENGINES_REQUIRED").is_none(),
        "the real CLIs are required but not in {} (run `make engines-deps`)",
        dir.display()
    );
    eprintln!(
        "skipped: the real CLIs are not in {} (run `make engines-deps`)",
        dir.display()
    );
    None
}

pub struct Rig {
    pub server: TestServer,
    pub standin: Standin,
    pub home: tempfile::TempDir,
    pub work: tempfile::TempDir,
    /// Where sessions run when not here: the runner's name and the work
    /// folder on its host ([`Rig::on_runner`]).
    pub remote: Option<(String, String)>,
}

impl Rig {
    /// A server whose engine `primary` (Claude Code) or `second` (Codex)
    /// is the real CLI pointed at a fresh stand-in; `args` go to `serve`
    /// (`--manual-clock`). Agents may start sessions without a source
    /// session, so tests spawn through the control server.
    pub fn start(api: Api, args: &[&str]) -> Option<Rig> {
        Rig::launch(api, args, None, false)
    }

    /// [`Rig::start`] of Claude Code signed in with an OAuth token (a plan's
    /// subscriber) instead of an API key.
    pub fn start_oauth(args: &[&str]) -> Option<Rig> {
        Rig::launch(Api::Anthropic, args, None, true)
    }

    /// [`Rig::start`] with the server's log, at debug level, in the file
    /// `log` (which must outlive the rig's use of it).
    pub fn start_logging(api: Api, args: &[&str], log: &Path) -> Option<Rig> {
        Rig::launch(api, args, Some(log), false)
    }

    fn launch(api: Api, args: &[&str], log: Option<&Path>, oauth: bool) -> Option<Rig> {
        let bin = engines_dir()?;
        let standin = Standin::start(api).unwrap();
        let home = tempfile::tempdir().unwrap();
        let work = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let toml = match api {
            Api::Anthropic => format!(
                "[engines.primary]\nkind = \"claude\"\ncommand = [\"{claude}\"]\n\
                 env = {{ ANTHROPIC_BASE_URL = \"{url}\", {auth}, \
                 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC = \"1\", DISABLE_AUTOUPDATER = \"1\" }}\n",
                claude = bin.join("claude").display(),
                url = standin.url(),
                auth = if oauth {
                    "CLAUDE_CODE_OAUTH_TOKEN = \"sk-ant-oat01-standin\""
                } else {
                    "ANTHROPIC_API_KEY = \"sk-ant-standin\""
                },
            ),
            Api::OpenAi => {
                write_codex_config(home.path(), &standin);
                format!(
                    "[engines.second]\nkind = \"codex\"\ncommand = [\"{codex}\"]\n\
                     env = {{ STANDIN_API_KEY = \"sk-standin\" }}\n",
                    codex = bin.join("codex").display(),
                )
            }
        };
        std::fs::write(dir.path().join("engines.toml"), toml).unwrap();
        if api == Api::OpenAi {
            // Codex is the primary engine here, and every request it makes
            // offers tools: the session titles it is asked for are answered
            // by their phrase, so they leave the conversation's script alone.
            standin.answer(
                app::titles::NAME_PHRASE,
                standins::Message::text("Codex session"),
            );
        }
        let server = serve(dir, args, home.path(), log);
        server.set_setting("agentDrivenSessionsEnabled", json!(true));
        server.set_setting("requireSpawnSourceSession", json!(false));
        Some(Rig {
            server,
            standin,
            home,
            work,
            remote: None,
        })
    }

    /// Sessions of this rig run on the SSH runner `sshd` serves (`devbox`),
    /// in a fresh work folder of the runner user's home; for Codex, that
    /// home's `~/.codex/config.toml` names this rig's stand-in.
    pub fn on_runner(mut self, sshd: &crate::sshd::Sshd) -> Rig {
        std::fs::write(
            self.server.data_dir().join("runners.toml"),
            format!(
                "ssh_config = {:?}\n[runners.devbox]\nssh = {:?}\n",
                sshd.config().display().to_string(),
                sshd.alias
            ),
        )
        .unwrap();
        self.server
            .set_setting("cloudControlPlaneEnabled", json!(true));
        // The session's title is asked of the engine here, on this machine,
        // while its turn starts over SSH: answered by its phrase, the title
        // leaves the conversation's script alone.
        self.standin.answer(
            app::titles::NAME_PHRASE,
            standins::Message::text("Runner session"),
        );
        let work = sshd
            .as_user("d=$(mktemp -d \"$HOME/work-XXXXXX\") && echo \"$d\"")
            .trim()
            .to_owned();
        if self.standin.api() == Api::OpenAi {
            write_codex_config(&sshd.home, &self.standin);
            sshd.give_home();
        }
        self.remote = Some(("devbox".to_owned(), work));
        self
    }

    /// Sessions of this rig run on the pool runner `runner`, in a work
    /// folder of its home.
    pub fn on_pool(mut self, runner: &crate::pool::PoolRunner) -> Rig {
        self.standin.answer(
            app::titles::NAME_PHRASE,
            standins::Message::text("Pool session"),
        );
        let work = runner.home.path().join("work");
        std::fs::create_dir(&work).unwrap();
        if let Some((uid, gid)) = crate::pool::pool_user() {
            std::os::unix::fs::chown(&work, Some(uid), Some(gid)).unwrap();
        }
        self.remote = Some((runner.name.clone(), work.display().to_string()));
        self
    }

    /// A first turn and a follow-up on this rig's runner, the follow-up
    /// resuming the conversation the runner's home keeps; the session's id.
    pub fn two_turns_on_the_runner(&self, version: &str) -> String {
        let (runner, _) = self.remote.clone().expect("a rig on a runner");
        self.standin.push(standins::Message::text("One."));
        self.standin.push(standins::Message::text("Two."));
        let id = self.spawn("first");
        let session = self.wait_turn(&id, 1);
        assert_eq!(session["status"], "waiting_for_input", "{session}");
        assert_eq!(session["runner"], runner.as_str());
        assert_eq!(session["engineVersion"], version, "{session}");
        let engine_id = session["engineSessionId"].as_str().unwrap().to_owned();
        self.send(&id, "second");
        let session = self.wait_turn(&id, 2);
        assert_eq!(session["status"], "waiting_for_input", "{session}");
        assert_eq!(session["engineSessionId"], engine_id.as_str());
        let requests = self.standin.main_requests();
        let last = requests[1].body["messages"].to_string();
        assert!(last.contains("first") && last.contains("One."), "{last}");
        id
    }

    pub fn engine(&self) -> &'static str {
        match self.standin.api() {
            Api::Anthropic => "primary",
            Api::OpenAi => "second",
        }
    }

    /// Starts a session on this rig's engine in the work folder (on its
    /// runner, when it has one).
    pub fn spawn(&self, prompt: &str) -> String {
        let body = match &self.remote {
            Some((runner, work)) => {
                json!({"engine": self.engine(), "prompt": prompt, "cwd": work, "runner": runner})
            }
            None => json!({"engine": self.engine(), "prompt": prompt, "cwd": self.work.path()}),
        };
        let reply = self.server.call("POST", "/sessions", Some(&body));
        assert_eq!(reply.status, 201, "{}", reply.text());
        reply.json()["id"].as_str().unwrap().to_owned()
    }

    /// Starts a helper session of `parent`, as its agent does
    /// (`X-App-Source-Session-Id`), on this rig's engine in the work folder.
    pub fn spawn_child(&self, parent: &str, prompt: &str) -> String {
        let body = json!({"engine": self.engine(), "prompt": prompt, "cwd": self.work.path()});
        let auth = format!("Bearer {}", self.server.token);
        let reply = crate::common::request(
            self.server.control(),
            "POST",
            "/sessions",
            &[
                ("Authorization", auth.as_str()),
                ("Content-Type", "application/json"),
                ("X-App-Source-Session-Id", parent),
            ],
            Some(body.to_string().as_bytes()),
        );
        assert_eq!(reply.status, 201, "{}", reply.text());
        assert_eq!(reply.json()["parentId"], parent);
        reply.json()["id"].as_str().unwrap().to_owned()
    }

    /// Starts a fork of session `source` (`forkFrom`) with `prompt`, on
    /// the source's engine and in its folder; returns the new session.
    pub fn fork(&self, source: &str, prompt: &str) -> Value {
        let body = json!({"prompt": prompt, "forkFrom": source});
        let reply = self.server.call("POST", "/sessions", Some(&body));
        assert_eq!(reply.status, 201, "{}", reply.text());
        reply.json()
    }

    pub fn send(&self, id: &str, text: &str) {
        let reply = self.server.call(
            "POST",
            &format!("/sessions/{id}/messages"),
            Some(&json!({"text": text})),
        );
        assert!(reply.status < 300, "{}", reply.text());
    }

    /// Waits for the session's `turn`-th turn to end (its transcript row has
    /// an end, and the session has moved on from running it), and returns
    /// the session.
    pub fn wait_turn(&self, id: &str, turn: u64) -> Value {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(90);
        loop {
            let transcript = self.transcript(id);
            let ended = transcript["turns"]
                .as_array()
                .and_then(|turns| turns.iter().find(|t| t["turn"] == turn))
                .is_some_and(|t| !t["endedAt"].is_null());
            let session = self
                .server
                .call("GET", &format!("/sessions/{id}"), None)
                .json();
            let settled = !matches!(
                session["status"].as_str(),
                Some("running" | "starting" | "queued")
            );
            if ended && settled {
                return session;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "turn {turn} of {id} did not end: {session}\n{transcript}\nstand-in: {:?}",
                self.standin.requests()
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }

    pub fn transcript(&self, id: &str) -> Value {
        self.server
            .call("GET", &format!("/sessions/{id}/transcript"), None)
            .json()
    }

    pub fn home(&self) -> &Path {
        self.home.path()
    }

    /// Stops the server and starts another on the same data directory and
    /// `$HOME` with `args` (a manual clock's new start: the server was down
    /// in between).
    pub fn restart_with(&mut self, args: &[&str]) {
        self.server.stop();
        let dir = std::mem::replace(&mut self.server.dir, tempfile::tempdir().unwrap());
        let _ = std::fs::remove_file(dir.path().join("server.json"));
        self.server = serve(dir, args, self.home.path(), None);
    }

    /// Sets `agentPermissionLevel` (`read_only`, `guarded`, `autonomous`, `full`).
    pub fn set_level(&self, level: &str) {
        self.server
            .set_setting("agentPermissionLevel", json!(level));
    }

    /// The session's typed transcript entries (`?format=json`), every page.
    pub fn entries(&self, id: &str) -> Vec<Value> {
        let mut entries: Vec<Value> = Vec::new();
        loop {
            let after = entries
                .last()
                .map_or(0, |entry| entry["seq"].as_u64().unwrap());
            let page = self
                .server
                .call(
                    "GET",
                    &format!("/sessions/{id}/transcript?format=json&after={after}&limit=1000"),
                    None,
                )
                .json();
            entries.extend(page["entries"].as_array().unwrap().iter().cloned());
            if page["more"] != true {
                return entries;
            }
        }
    }

    /// Moves the server's manual clock (`--manual-clock`) on by `ms`.
    pub fn advance_clock(&self, ms: i64) {
        let reply = self
            .server
            .call("POST", "/test/clock", Some(&json!({"advanceMs": ms})));
        assert_eq!(reply.status, 204, "{}", reply.text());
    }

    /// The pending approvals (`GET /approvals`) of session `id`.
    pub fn approvals(&self, id: &str) -> Vec<Value> {
        let list = self.server.call("GET", "/approvals", None).json();
        list["approvals"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|approval| approval["sessionId"] == id)
            .cloned()
            .collect()
    }

    /// Waits for session `id`'s first approval to show up, and returns it.
    pub fn wait_approval(&self, id: &str) -> Value {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        loop {
            if let Some(approval) = self.approvals(id).into_iter().next() {
                return approval;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "no approval for {id}: {}\nstand-in: {:?}",
                self.transcript(id),
                self.standin.requests()
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }

    /// Answers an approval as the user does (`allow` or `deny`).
    pub fn decide(&self, approval: &Value, decision: &str) {
        let path = format!("/approvals/{}", approval["id"].as_str().unwrap());
        let reply = self
            .server
            .call("POST", &path, Some(&json!({"decision": decision})));
        assert_eq!(reply.status, 200, "{}", reply.text());
    }
}

/// `switchboard serve` with the test's `$HOME`, its log at debug level in
/// `log` when given. `IS_SANDBOX` is not passed on: Claude Code reads it
/// (set, it retries an overloaded API ten times instead of giving up after
/// three requests), and the suite must not depend on the machine it runs on.
fn serve(dir: tempfile::TempDir, args: &[&str], home: &Path, log: Option<&Path>) -> TestServer {
    let mut command = serve_command(dir.path());
    command
        .args(args)
        .env("HOME", home)
        .env_remove("IS_SANDBOX");
    match log {
        Some(log) => command
            .env("RUST_LOG", "debug")
            .stderr(std::fs::File::create(log).unwrap()),
        // Not a pipe: one that nobody reads would stop the server once it filled up.
        None => command.stderr(std::process::Stdio::null()),
    };
    let child = command.spawn().unwrap();
    wait_for_server_file(dir.path(), &child);
    let Addresses { control, ui, token } = Addresses::read(dir.path());
    TestServer {
        dir,
        child: Some(child),
        control,
        ui,
        token,
        scratch: None,
    }
}

/// `$HOME/.codex/config.toml` (docs/engines.md): the stand-in as the model
/// provider, and the two switches that keep Codex off the network.
pub fn write_codex_config(home: &Path, standin: &Standin) {
    let config = format!(
        "model = \"gpt-5.5\"\nmodel_provider = \"standin\"\n\n[analytics]\nenabled = false\n\n\
         [features]\nplugins = false\n\n[model_providers.standin]\nname = \"Stand-in\"\n\
         base_url = \"{}/v1\"\nwire_api = \"responses\"\nenv_key = \"STANDIN_API_KEY\"\n\
         request_max_retries = 0\nstream_max_retries = 1\n",
        standin.url()
    );
    std::fs::create_dir_all(home.join(".codex")).unwrap();
    std::fs::write(home.join(".codex/config.toml"), config).unwrap();
}
