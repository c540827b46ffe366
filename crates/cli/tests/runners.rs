//! Sessions on another machine through the system's OpenSSH client
//! (docs/runners.md), against a real sshd on loopback logged into as a
//! separate local user: that user's home, files and processes are the
//! "runner host".

#[path = "runners/apps.rs"]
mod apps;
mod common;
#[path = "runners/sshd.rs"]
mod sshd;
#[path = "runners/turns.rs"]
mod turns;

use std::path::Path;
use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::{Value, json};
use sshd::Sshd;
use turns::{follow_up, output_of, spawn_on, wait_for_output};

/// One separate local user for every test here: its home is the runner's.
const RUNNER_USER: &str = "sbrunner";

/// `runners.toml` naming `ssh -F config` and, on the host `alias`, one
/// `[runners.NAME]` table per `(NAME, its other lines)`.
fn runners_toml(server_dir: &Path, config: &Path, alias: &str, runners: &[(&str, &str)]) {
    let mut text = format!("ssh_config = {:?}\n", config.display().to_string());
    for (name, lines) in runners {
        text.push_str(&format!("\n[runners.{name}]\nssh = {alias:?}\n{lines}\n"));
    }
    std::fs::write(server_dir.join("runners.toml"), text).unwrap();
}

/// The runner most tests use: `devbox`, four sessions at most.
const DEVBOX: &[(&str, &str)] = &[("devbox", "max_sessions = 4\nlabels = [\"test\"]")];

/// A server whose engine `remote` reports who and where it runs, reads
/// its text, then waits for a gate file in the runner's home (so a test
/// can act mid-turn) and says it is done.
fn write_runner_files(dir: &Path, sshd: &Sshd) {
    let script = "echo \"user=$(id -un) home=$HOME\"; echo \"url=$APP_CONTROL_URL\"; cat; echo; echo read; \
        while [ ! -e \"$HOME/gate-$APP_SESSION_ID\" ] && [ -n \"$WAIT_FOR_GATE\" ]; do sleep 0.05; done; \
        echo done";
    std::fs::write(
        dir.join("engines.toml"),
        format!(
            "[engines.remote]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {script:?}]\n\
             [engines.gated]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {script:?}]\nenv = {{ WAIT_FOR_GATE = \"1\" }}\n\
             [engines.sleeper]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"echo started; exec sleep 300\"]\n\
             [engines.worker]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"pwd; git branch --show-current; cat > made.txt\"]\n\
             [engines.pinned]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"id -un\"]\nrunner = \"devbox\"\n"
        ),
    )
    .unwrap();
    runners_toml(dir, &sshd.config(), &sshd.alias, DEVBOX);
}

/// A server with [`write_runner_files`]' engines and runner, runners on.
fn server_with_runner(sshd: &Sshd) -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    write_runner_files(dir.path(), sshd);
    let server = TestServer::start_in(dir);
    server.set_setting("cloudControlPlaneEnabled", json!(true));
    server
}

fn runner<'a>(list: &'a Value, name: &str) -> &'a Value {
    list.as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("no runner {name} in {list}"))
}

#[test]
fn a_session_runs_on_the_runner_host_as_its_user_and_reaches_the_server_back() {
    let Some(sshd) = Sshd::start(RUNNER_USER) else {
        return;
    };
    let server = server_with_runner(&sshd);

    let list = server.call("GET", "/runners?refresh=true", None).json();
    let local = runner(&list, "local");
    assert_eq!(local["kind"], "local");
    assert_eq!(local["state"], "connected");
    let devbox = runner(&list, "devbox");
    assert_eq!(devbox["kind"], "ssh", "{devbox}");
    assert_eq!(devbox["state"], "connected", "{devbox}");
    assert_eq!(devbox["maxSessions"], 4);
    assert_eq!(devbox["labels"], json!(["test"]));
    assert_eq!(devbox["switchboardVersion"], env!("CARGO_PKG_VERSION"));
    assert!(
        devbox["memory"]["totalMb"].as_u64().unwrap() > 0,
        "{devbox}"
    );
    assert!(
        devbox["engines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["name"] == "remote")
    );
    // The helper was installed under the remote user's home, by content hash.
    let installed = sshd.as_user("ls \"$HOME/.local/share/switchboard-runner/bin\"");
    assert!(installed.starts_with("switchboard-"), "{installed}");

    let id = spawn_on(&server, "devbox", "remote", "hello from the server");
    server.wait_for_status(&id, "waiting_for_input");
    let output = output_of(&server, &id);
    assert!(
        output.contains(&format!("user={RUNNER_USER} home={}", sshd.home.display())),
        "{output}"
    );
    assert!(output.contains("hello from the server"), "{output}");
    assert!(output.contains("done"), "{output}");
    // The engine's control URL is the tunnel's end on the runner host, and
    // the server answers there with the session's own token.
    let url = output
        .lines()
        .find_map(|l| l.strip_prefix("url="))
        .unwrap()
        .to_owned();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    assert_ne!(url, format!("http://{}", server.control()));

    // An engine that names a runner sends its sessions there.
    let cookie = server.browser_cookie();
    let pinned = server
        .browser_spawn(&cookie, &json!({"engine": "pinned", "prompt": "who"}))
        .json();
    assert_eq!(pinned["runner"], "devbox", "{pinned}");
    let pinned_id = pinned["id"].as_str().unwrap();
    assert!(wait_for_output(&server, pinned_id, RUNNER_USER).contains(RUNNER_USER));

    // A follow-up is a second turn on the same host.
    follow_up(&server, &id, "and again");
    wait_for_output(&server, &id, "and again");

    // What the turns spooled on the host is gone once the server has it.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        // This session's turns only: other tests' run beside it.
        let left = sshd.as_user(&format!(
            "ls \"$HOME/.local/share/switchboard-runner/turns\" 2>/dev/null | grep {id} || true"
        ));
        if left.trim().is_empty() {
            break;
        }
        assert!(Instant::now() < deadline, "spools left: {left}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn stop_ends_the_remote_process_tree() {
    let Some(sshd) = Sshd::start(RUNNER_USER) else {
        return;
    };
    let server = server_with_runner(&sshd);
    let id = spawn_on(&server, "devbox", "sleeper", "sleep");
    wait_for_output(&server, &id, "started");
    let session = server.call("GET", &format!("/sessions/{id}"), None).json();
    assert_eq!(session["status"], "running");
    let stopped = server.call("POST", &format!("/sessions/{id}/stop"), None);
    assert!(stopped.status < 300, "{}", stopped.text());
    server.wait_for_status(&id, "stopped");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        // This session's processes only: others of the runner user's may run.
        let left = sshd.as_user(&format!(
            "for p in /proc/[0-9]*; do grep -qa APP_SESSION_ID={id} $p/environ 2>/dev/null && echo $p; done; true"
        ));
        if left.trim().is_empty() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "still running on the host: {left}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn sshd_killed_mid_turn_loses_no_line() {
    let Some(mut sshd) = Sshd::start(RUNNER_USER) else {
        return;
    };
    let server = server_with_runner(&sshd);
    let id = spawn_on(&server, "devbox", "gated", "before the drop");
    wait_for_output(&server, &id, "read\n");

    // The host goes away mid-turn; the engine keeps running there and
    // finishes while the server cannot see it.
    sshd.kill();
    sshd.as_user(&format!("touch \"$HOME/gate-{id}\""));
    std::thread::sleep(Duration::from_millis(500));
    sshd.restart();

    let session = {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let session = server.call("GET", &format!("/sessions/{id}"), None).json();
            if session["status"] == "waiting_for_input" {
                break session;
            }
            assert!(Instant::now() < deadline, "stuck at {}", session["status"]);
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    assert_eq!(session["runner"], "devbox");
    let output = output_of(&server, &id);
    assert!(output.contains("before the drop"), "{output}");
    assert!(output.contains("done"), "{output}");
    sshd.as_user(&format!("rm -f \"$HOME/gate-{id}\""));
}

#[test]
fn bad_runners_are_refused_with_the_reason_and_change_nothing() {
    let Some(sshd) = Sshd::start(RUNNER_USER) else {
        return;
    };
    let server = server_with_runner(&sshd);

    let cookie = server.browser_cookie();
    let unknown = server.browser_spawn(
        &cookie,
        &json!({"engine": "remote", "prompt": "x", "runner": "nowhere"}),
    );
    assert_eq!(unknown.status, 400);
    assert_eq!(unknown.error_code(), "unknown_runner");
    assert!(unknown.text().contains("devbox"), "{}", unknown.text());

    // A changed host key and an unknown one: ssh's own refusal, never a
    // connection.
    for config in [
        sshd.config_with_changed_key(),
        sshd.config_with_unknown_key(),
    ] {
        runners_toml(server.data_dir(), &config, &sshd.alias, DEVBOX);
        let list = server.call("GET", "/runners?refresh=true", None).json();
        let devbox = runner(&list, "devbox");
        assert_eq!(devbox["state"], "unreachable", "{devbox}");
        assert!(
            devbox["reason"]
                .as_str()
                .unwrap()
                .contains("Host key verification failed"),
            "{devbox}"
        );
    }

    // A malformed file names the place; `local` still works.
    std::fs::write(
        server.data_dir().join("runners.toml"),
        "[runners.devbox]\nssh = \"x\"\nmax_sesions = 3\n",
    )
    .unwrap();
    let list = server.call("GET", "/runners?refresh=true", None).json();
    let devbox = runner(&list, "devbox");
    assert_eq!(devbox["state"], "invalid");
    assert!(
        devbox["reason"].as_str().unwrap().contains("line 1"),
        "{devbox}"
    );
    assert_eq!(runner(&list, "local")["state"], "connected");

    // An unreachable host: the session fails within seconds with ssh's words.
    std::fs::write(
        server.data_dir().join("runners.toml"),
        "[runners.devbox]\nssh = \"nobody@127.0.0.1:1\"\n",
    )
    .unwrap();
    server.call("GET", "/runners?refresh=true", None);
    let id = spawn_on(&server, "devbox", "remote", "x");
    let failed = server.wait_for_status(&id, "failed");
    assert!(
        failed["error"]
            .as_str()
            .unwrap()
            .contains("Connection refused"),
        "{failed}"
    );

    // With the switch off, no session goes anywhere but here.
    server.set_setting("cloudControlPlaneEnabled", json!(false));
    let off = server.browser_spawn(
        &cookie,
        &json!({"engine": "remote", "prompt": "x", "runner": "devbox"}),
    );
    assert_eq!(off.status, 403);
    assert_eq!(off.error_code(), "runners_disabled");
}

#[test]
fn the_server_killed_mid_turn_picks_the_remote_turn_up_again() {
    let Some(sshd) = Sshd::start(RUNNER_USER) else {
        return;
    };
    let server = server_with_runner(&sshd);
    let id = spawn_on(&server, "devbox", "gated", "said before the crash");
    wait_for_output(&server, &id, "read\n");

    // The server dies; the engine runs on and finishes on the host.
    let server = server.crash_and_restart();
    sshd.as_user(&format!("touch \"$HOME/gate-{id}\""));

    let deadline = Instant::now() + Duration::from_secs(60);
    let session = loop {
        let session = server.call("GET", &format!("/sessions/{id}"), None).json();
        if session["status"] == "waiting_for_input" {
            break session;
        }
        assert!(Instant::now() < deadline, "stuck at {session}");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(session["runner"], "devbox");
    let output = output_of(&server, &id);
    assert!(output.contains("done"), "{output}");
    // Read again from the spool's start, and stored once.
    assert_eq!(
        output.matches("said before the crash").count(),
        1,
        "{output}"
    );
    let transcript = server
        .call("GET", &format!("/sessions/{id}/transcript"), None)
        .json();
    assert_eq!(transcript["turns"][0]["status"], "done", "{transcript}");
    sshd.as_user(&format!("rm -f \"$HOME/gate-{id}\""));
}

#[test]
fn a_full_runner_queues_the_next_session_with_the_reason_until_one_ends() {
    let Some(sshd) = Sshd::start(RUNNER_USER) else {
        return;
    };
    let server = server_with_runner(&sshd);
    runners_toml(
        server.data_dir(),
        &sshd.config(),
        &sshd.alias,
        &[("devbox", "max_sessions = 1")],
    );
    let first = spawn_on(&server, "devbox", "sleeper", "one");
    wait_for_output(&server, &first, "started");
    let second = spawn_on(&server, "devbox", "sleeper", "two");
    server.wait_for_status(&second, "queued");
    let list = server.call("GET", "/runners", None).json();
    assert_eq!(runner(&list, "devbox")["sessions"], 1, "{list}");
    let events = server
        .call("GET", &format!("/sessions/{second}/transcript"), None)
        .json()["events"]
        .to_string();
    assert!(
        events.contains("waiting for room on runner devbox"),
        "{events}"
    );
    let stopped = server.call("POST", &format!("/sessions/{first}/stop"), None);
    assert!(stopped.status < 300, "{}", stopped.text());
    wait_for_output(&server, &second, "started");
    server.call("POST", &format!("/sessions/{second}/stop"), None);
    server.wait_for_status(&second, "stopped");
}

#[test]
fn a_worktree_session_gets_its_worktree_on_the_runner_and_archiving_keeps_unsaved_work() {
    let Some(sshd) = Sshd::start(RUNNER_USER) else {
        return;
    };
    let server = server_with_runner(&sshd);
    let repo = sshd
        .as_user(
            "r=$(mktemp -d \"$HOME/repo-XXXXXX\") && cd \"$r\" && git init -q && \
             git -c user.name=t -c user.email=t@t commit -q --allow-empty -m first && echo \"$r\"",
        )
        .trim()
        .to_owned();
    let cookie = server.browser_cookie();
    let reply = server.browser_spawn(
        &cookie,
        &json!({"engine": "worker", "prompt": "work", "runner": "devbox",
                "cwd": repo, "isolation": "worktree"}),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let session = reply.json();
    let id = session["id"].as_str().unwrap().to_owned();
    let path = session["worktree"]["path"].as_str().unwrap().to_owned();
    assert_eq!(
        path,
        sshd.home
            .join(".local/share/switchboard-runner/worktrees")
            .join(&id)
            .display()
            .to_string()
    );
    server.wait_for_status(&id, "waiting_for_input");
    let output = output_of(&server, &id);
    assert!(output.contains(&path), "{output}");
    assert!(
        output.contains(session["worktree"]["branch"].as_str().unwrap()),
        "{output}"
    );
    // The engine wrote a file: archiving keeps the worktree and says why.
    let archived = server.call("POST", &format!("/sessions/{id}/archive"), None);
    assert!(archived.status < 300, "{}", archived.text());
    let archived = archived.json();
    assert_eq!(archived["worktree"]["removed"], false, "{archived}");
    assert!(
        archived["worktree"]["keptReason"]
            .as_str()
            .unwrap()
            .contains("uncommitted"),
        "{archived}"
    );
    assert!(
        sshd.as_user(&format!("cat {path}/made.txt"))
            .contains("work")
    );
    sshd.as_user(&format!(
        "git -C {repo} worktree remove --force {path}; rm -rf {repo}"
    ));
}

#[test]
fn a_host_away_past_the_grace_period_leaves_its_session_interrupted_with_the_reason() {
    let Some(mut sshd) = Sshd::start(RUNNER_USER) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    write_runner_files(dir.path(), &sshd);
    let server = TestServer::start_in_with(dir, &["--manual-clock"]);
    server.set_setting("cloudControlPlaneEnabled", json!(true));
    let id = spawn_on(&server, "devbox", "gated", "before the host goes");
    wait_for_output(&server, &id, "read\n");
    sshd.kill();
    // Two minutes on the server's clock, a reconnect attempt every 2 s.
    let deadline = Instant::now() + Duration::from_secs(60);
    let session = loop {
        let session = server.call("GET", &format!("/sessions/{id}"), None).json();
        if session["status"] == "interrupted" {
            break session;
        }
        assert!(Instant::now() < deadline, "stuck at {session}");
        let moved = server.call("POST", "/test/clock", Some(&json!({"advanceMs": 2_000})));
        assert_eq!(moved.status, 204);
        std::thread::sleep(Duration::from_millis(20));
    };
    let error = session["error"].as_str().unwrap_or_default().to_owned();
    let transcript = server
        .call("GET", &format!("/sessions/{id}/transcript"), None)
        .json();
    let said = format!("{error}{transcript}");
    assert!(said.contains("runner `devbox`"), "{said}");
    assert!(said.contains("stayed unreachable"), "{said}");
    // The keeper outlived the host's absence: open its gate and leave it
    // open, so its engine ends rather than waiting on after the test.
    sshd.restart();
    sshd.as_user(&format!("touch \"$HOME/gate-{id}\""));
}

#[test]
fn a_hardened_session_reaches_only_the_tunnel_from_a_home_of_its_own_that_goes_with_it() {
    let Some(sshd) = Sshd::start(RUNNER_USER) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    write_runner_files(dir.path(), &sshd);
    // Tries the control tunnel and another port of the host (sshd's).
    let check = "import socket, sys, urllib.parse\n\
                 def reach(name, port):\n    \
                     try:\n        \
                         socket.create_connection((\"127.0.0.1\", port), 2).close()\n        \
                         print(name, \"reached\")\n    \
                     except OSError as e:\n        \
                         print(name, \"refused\", e.errno)\n\
                 reach(\"tunnel\", urllib.parse.urlparse(sys.argv[1]).port)\n\
                 reach(\"other\", int(sys.argv[2]))\n";
    let probe = format!(
        "echo \"home=$HOME\"; touch \"$HOME/mine\"; python3 -c '{check}' \"$APP_CONTROL_URL\" {port}; exec sleep 300",
        port = sshd.port
    );
    let mut engines = std::fs::read_to_string(dir.path().join("engines.toml")).unwrap();
    engines.push_str(&format!(
        "[engines.probe]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {probe:?}]\n"
    ));
    std::fs::write(dir.path().join("engines.toml"), engines).unwrap();
    let server = TestServer::start_in(dir);
    server.set_setting("cloudControlPlaneEnabled", json!(true));
    server.set_setting("cloudHardenedSessionEnabled", json!(true));
    let id = spawn_on(&server, "devbox", "probe", "probe");
    let output = wait_for_output(&server, &id, "other ");
    let home = sshd
        .home
        .join(".local/share/switchboard-runner/homes")
        .join(&id);
    assert!(
        output.contains(&format!("home={}", home.display())),
        "{output}"
    );
    assert!(output.contains("tunnel reached"), "{output}");
    assert!(output.contains("other refused"), "{output}");
    assert!(
        sshd.as_user(&format!("ls {}", home.display()))
            .contains("mine")
    );
    let stopped = server.call("POST", &format!("/sessions/{id}/stop"), None);
    assert!(stopped.status < 300, "{}", stopped.text());
    server.wait_for_status(&id, "stopped");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !sshd
        .as_user(&format!("test -e {} || echo gone", home.display()))
        .contains("gone")
    {
        assert!(
            Instant::now() < deadline,
            "{} is still there",
            home.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_runner_carries_more_turns_at_once_than_one_ssh_connection_may() {
    let Some(sshd) = Sshd::start(RUNNER_USER) else {
        return;
    };
    let server = server_with_runner(&sshd);
    // No max_sessions; sshd keeps its default MaxSessions of 10 a connection.
    runners_toml(
        server.data_dir(),
        &sshd.config(),
        &sshd.alias,
        &[("devbox", "")],
    );
    let ids: Vec<String> = (0..14)
        .map(|n| spawn_on(&server, "devbox", "sleeper", &format!("sleeper {n}")))
        .collect();
    for id in &ids {
        wait_for_output(&server, id, "started");
    }
    for id in &ids {
        server.call("POST", &format!("/sessions/{id}/stop"), None);
    }
    for id in &ids {
        server.wait_for_status(id, "stopped");
    }
}

#[test]
fn a_session_on_a_runner_starts_another_only_as_allowed_and_each_waits_for_approval() {
    let Some(sshd) = Sshd::start(RUNNER_USER) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    write_runner_files(dir.path(), &sshd);
    // Starts a helper session through the tunnel with its own token, as
    // `switchboard spawn` does, and prints what the server answered.
    let spawner = "import json, os, urllib.request, urllib.error\n\
                   body = json.dumps({\"engine\": \"remote\", \"prompt\": \"the child\"}).encode()\n\
                   request = urllib.request.Request(os.environ[\"APP_CONTROL_URL\"] + \"/sessions\", data=body, \
                   headers={\"Authorization\": \"Bearer \" + os.environ[\"APP_CLI_TOKEN\"], \"Content-Type\": \"application/json\", \
                   \"X-App-Source-Session-Id\": os.environ[\"APP_SESSION_ID\"]})\n\
                   try:\n    \
                       reply = urllib.request.urlopen(request)\n    \
                       print(\"status\", reply.status, reply.read().decode())\n\
                   except urllib.error.HTTPError as e:\n    \
                       print(\"status\", e.code, e.read().decode())\n";
    let mut engines = std::fs::read_to_string(dir.path().join("engines.toml")).unwrap();
    engines.push_str(&format!(
        "[engines.spawner]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {:?}]\n",
        format!("python3 -c '{spawner}'")
    ));
    std::fs::write(dir.path().join("engines.toml"), engines).unwrap();
    let server = TestServer::start_in(dir);
    server.set_setting("cloudControlPlaneEnabled", json!(true));
    server.set_setting("agentDrivenSessionsEnabled", json!(true));
    server.set_setting("allowAgentTokenSpawn", json!(true));

    let refused = spawn_on(&server, "devbox", "spawner", "try");
    let output = wait_for_output(&server, &refused, "status ");
    assert!(output.contains("status 403"), "{output}");
    assert!(
        output.contains("remote_started_sessions_disabled"),
        "{output}"
    );

    server.set_setting("cloudStartedSessionsEnabled", json!(true));
    let parent = spawn_on(&server, "devbox", "spawner", "try again");
    let output = wait_for_output(&server, &parent, "status ");
    assert!(output.contains("status 202"), "{output}");
    let child = server
        .call("GET", &format!("/sessions/{parent}"), None)
        .json()["children"][0]
        .as_str()
        .unwrap()
        .to_owned();
    let held = server
        .call("GET", &format!("/sessions/{child}"), None)
        .json();
    assert_eq!(held["status"], "queued", "{held}");
    assert_eq!(held["awaitingApproval"], true, "{held}");
    assert_eq!(held["runner"], "devbox", "{held}");
    let inbox = server
        .call("GET", "/inbox?category=cli_pending", None)
        .text();
    assert!(inbox.contains("approve_session_start"), "{inbox}");
    assert!(inbox.contains(&child), "{inbox}");

    // The user approves it; it runs where its parent does.
    let approve = json!({"approve": true});
    let by_cli = server.call(
        "POST",
        &format!("/sessions/{child}/start-decision"),
        Some(&approve),
    );
    assert_eq!(by_cli.status, 200, "{}", by_cli.text());
    let output = wait_for_output(&server, &child, "done");
    assert!(output.contains(&format!("user={RUNNER_USER}")), "{output}");
    let again = server.call(
        "POST",
        &format!("/sessions/{child}/start-decision"),
        Some(&approve),
    );
    assert_eq!(again.status, 409, "{}", again.text());
}

#[test]
fn auto_places_sessions_only_where_there_is_room() {
    let Some(sshd) = Sshd::start(RUNNER_USER) else {
        return;
    };
    // This machine says it has 1 GiB free: the runners (the same machine
    // read through /proc) have more, so `auto` fills them first.
    let dir = tempfile::tempdir().unwrap();
    write_runner_files(dir.path(), &sshd);
    let meminfo = dir.path().join("meminfo");
    std::fs::write(
        &meminfo,
        "MemTotal: 16777216 kB\nMemAvailable: 1048576 kB\n",
    )
    .unwrap();
    let server = TestServer::start_in_with(dir, &["--meminfo-file", meminfo.to_str().unwrap()]);
    server.set_setting("cloudControlPlaneEnabled", json!(true));
    // Two runners of one host, one session each at most.
    runners_toml(
        server.data_dir(),
        &sshd.config(),
        &sshd.alias,
        &[
            ("devbox", "max_sessions = 1"),
            ("spare", "max_sessions = 1"),
        ],
    );
    let list = server.call("GET", "/runners?refresh=true", None).json();
    for name in ["devbox", "spare"] {
        assert_eq!(runner(&list, name)["state"], "connected", "{list}");
    }
    let mut placed = Vec::new();
    for n in 0..4 {
        let cookie = server.browser_cookie();
        let reply = server.browser_spawn(
            &cookie,
            &json!({"engine": "sleeper", "prompt": format!("auto {n}"), "runner": "auto"}),
        );
        assert_eq!(reply.status, 201, "{}", reply.text());
        let session = reply.json();
        let id = session["id"].as_str().unwrap().to_owned();
        wait_for_output(&server, &id, "started");
        placed.push((id, session["runner"].as_str().unwrap().to_owned()));
    }
    // The runners first, one each, then here: never past a runner's room.
    let count = |name: &str| placed.iter().filter(|(_, r)| r == name).count();
    assert_eq!(
        (count("devbox"), count("spare"), count("local")),
        (1, 1, 2),
        "{placed:?}"
    );
    assert_ne!(placed[0].1, "local", "{placed:?}");
    assert_ne!(placed[1].1, "local", "{placed:?}");
    let list = server.call("GET", "/runners", None).json();
    assert_eq!(runner(&list, "devbox")["sessions"], 1, "{list}");
    assert_eq!(
        runner(&list, "local")["memory"]["availableMb"],
        1024,
        "{list}"
    );
    for (id, _) in &placed {
        server.call("POST", &format!("/sessions/{id}/stop"), None);
    }
    for (id, _) in &placed {
        server.wait_for_status(id, "stopped");
    }
}
