//! The operating system keeps engines away from Switchboard's secrets: a real
//! server (with a fake `HOME` holding `.ssh/id_rsa`) runs engines that try to
//! read the `cli-token`, the SSH key, another session's worktree and their
//! own folder, at every `agentPermissionLevel`, and through a child shell;
//! and they may still create new entries in `$HOME`, as engines do on their
//! first run.

mod common;

use std::path::Path;

use common::TestServer;
use serde_json::{Value, json};

const LEVELS: [&str; 4] = ["read_only", "guarded", "autonomous", "full"];

/// The probe every engine runs: one line per attempt, `read`/`wrote` or the
/// error the system gave.
const PROBE: &str = r#"
try() { if out=$(cat "$1" 2>&1); then echo "$2: read"; else echo "$2: denied: $out"; fi; }
try "$FAKE_HOME/.ssh/id_rsa" ssh
try "$DATA/cli-token" token
try "$PWD/mine.txt" own
sh -c 'if out=$(cat "$DATA/cli-token" 2>&1); then echo "child token: read"; else echo "child token: denied: $out"; fi'
if out=$( (echo planted > "$DATA/planted") 2>&1); then echo "write data: wrote"; else echo "write data: denied: $out"; fi
try "$DATA/worktrees/other/theirs.txt" "other worktree"
sh -c 'mkdir -p "$FAKE_HOME/.engine-state" && echo made > "$FAKE_HOME/.engine-state/first-run" && echo "home: created" || echo "home: denied"'
"#;

struct Setup {
    server: TestServer,
    home: tempfile::TempDir,
    work: tempfile::TempDir,
}

fn setup() -> Setup {
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.path().join(".ssh")).unwrap();
    std::fs::write(home.path().join(".ssh/id_rsa"), "ssh-secret").unwrap();
    let work = tempfile::tempdir().unwrap();
    std::fs::write(work.path().join("mine.txt"), "mine").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("worktrees/other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("theirs.txt"), "theirs").unwrap();
    std::fs::write(work.path().join("probe.sh"), PROBE).unwrap();
    // The fake Claude Code runs the probe and reports it as its reply.
    let claude = format!(
        "#!/bin/sh\nreport=$(sh {probe} | tr '\\n' ';' | tr -d '\"\\\\')\n\
         echo '{{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"c1\",\"cwd\":\"/w\"}}'\n\
         echo \"{{\\\"type\\\":\\\"result\\\",\\\"subtype\\\":\\\"success\\\",\\\"is_error\\\":false,\\\"result\\\":\\\"$report\\\",\\\"session_id\\\":\\\"c1\\\"}}\"\n",
        probe = work.path().join("probe.sh").display()
    );
    std::fs::write(work.path().join("claude.sh"), claude).unwrap();
    let env = format!(
        "env = {{ FAKE_HOME = \"{}\", DATA = \"{}\" }}\n",
        home.path().display(),
        dir.path().display()
    );
    let toml = format!(
        "[engines.probe]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"{probe}\"]\n{env}\n\
         [engines.primary]\nkind = \"claude\"\ncommand = [\"/bin/sh\", \"{claude}\"]\n{env}",
        probe = work.path().join("probe.sh").display(),
        claude = work.path().join("claude.sh").display(),
    );
    std::fs::write(dir.path().join("engines.toml"), toml).unwrap();
    let server = TestServer::start_in_with_env(dir, &[], &[("HOME", home.path())]);
    Setup { server, home, work }
}

fn run(server: &TestServer, engine: &str, cwd: &Path, isolation: Option<&str>) -> (Value, String) {
    let mut body = json!({"engine": engine, "prompt": "probe", "cwd": cwd});
    if let Some(isolation) = isolation {
        body["isolation"] = json!(isolation);
    }
    // Through the web app: a session the user starts, whatever the agent rules.
    let reply = server.browser_spawn(&server.browser_cookie(), &body);
    assert_eq!(reply.status, 201, "{}", reply.text());
    let id = reply.json()["id"].as_str().unwrap().to_owned();
    let session = server.wait_for_status(&id, "waiting_for_input");
    let transcript = server
        .call("GET", &format!("/sessions/{id}/transcript"), None)
        .json();
    let output = transcript["turns"][0]["output"]
        .as_str()
        .unwrap_or("")
        .to_owned();
    (session, output)
}

/// The attempt failed. What the system says depends on the sandbox's mode
/// and the user: `Permission denied` (Landlock, or a covered folder to a
/// user other than root), `No such file or directory` (a root engine looking
/// into an empty cover), `Read-only file system` (writing into one).
fn denied(output: &str, what: &str) -> bool {
    output
        .split(['\n', ';'])
        .any(|line| line.starts_with(&format!("{what}: denied: ")))
}

#[test]
fn a_command_engine_reads_its_folder_but_neither_the_token_nor_ssh_keys_at_any_level() {
    let setup = setup();
    let server = &setup.server;
    for level in LEVELS {
        server.set_setting("agentPermissionLevel", json!(level));
        let (_, output) = run(server, "probe", setup.work.path(), None);
        assert!(output.contains("own: read"), "{level}: {output}");
        assert!(denied(&output, "ssh"), "{level}: {output}");
        assert!(denied(&output, "token"), "{level}: {output}");
        assert!(denied(&output, "child token"), "{level}: {output}");
        assert!(denied(&output, "write data"), "{level}: {output}");
        assert!(denied(&output, "other worktree"), "{level}: {output}");
        assert!(output.contains("home: created"), "{level}: {output}");
    }
    assert!(!server.data_dir().join("planted").exists());
    assert!(setup.home.path().join(".engine-state/first-run").exists());
    // The files are there: only the sandbox kept the engine out.
    assert!(setup.home.path().join(".ssh/id_rsa").exists());
    assert!(server.data_dir().join("cli-token").exists());
}

#[test]
fn a_claude_engine_at_full_reads_ssh_keys_but_never_the_token() {
    let setup = setup();
    let server = &setup.server;
    server.set_setting("agentPermissionLevel", json!("full"));
    let (_, output) = run(server, "primary", setup.work.path(), None);
    assert!(output.contains("ssh: read"), "{output}");
    assert!(output.contains("own: read"), "{output}");
    assert!(denied(&output, "token"), "{output}");
    assert!(denied(&output, "child token"), "{output}");
    assert!(denied(&output, "write data"), "{output}");
    assert!(denied(&output, "other worktree"), "{output}");
    assert!(output.contains("home: created"), "{output}");
}

#[test]
fn a_worktree_session_works_in_its_own_worktree_inside_the_data_directory_only() {
    let setup = setup();
    let server = &setup.server;
    let repo = setup.work.path();
    let git = |args: &[&str]| {
        let status = std::process::Command::new("git")
            .arg("-C")
            .arg(repo)
            .args(["-c", "user.name=T", "-c", "user.email=t@example.com"])
            .args(["-c", "commit.gpgsign=false"])
            .args(args)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .status()
            .unwrap();
        assert!(status.success());
    };
    git(&["init", "--quiet"]);
    git(&["add", "."]);
    git(&["commit", "--quiet", "-m", "init"]);
    let (session, output) = run(server, "probe", repo, Some("worktree"));
    let cwd = session["cwd"].as_str().unwrap();
    assert!(
        Path::new(cwd).starts_with(server.data_dir()),
        "the worktree is under DIR: {cwd}"
    );
    assert!(output.contains("own: read"), "{output}");
    assert!(denied(&output, "token"), "{output}");
    assert!(denied(&output, "ssh"), "{output}");
    assert!(denied(&output, "other worktree"), "{output}");
}
