//! `switchboard doctor` and `GET /doctor`: the engines of an `engines.toml`
//! (one present, one missing), their versions against the covered ones, the
//! ports of a running server or those `serve` would bind, the runners of a
//! `runners.toml` (one unreachable, one invalid, one reached over a real
//! sshd beside a server that keeps its own connection), the exit code.

mod common;
#[path = "runners/sshd.rs"]
mod sshd;

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::{Command, Output};

use common::TestServer;
use serde_json::{Value, json};

/// A Claude Code stand-in that answers `--version` as `version` says.
fn fake_claude(dir: &Path, version: &str) -> String {
    let path = dir.join("claude");
    std::fs::write(
        &path,
        format!("#!/bin/sh\n[ \"$1\" = --version ] && echo '{version} (Claude Code)'\n"),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

/// `engines.toml` with a present Claude Code of `version` as `primary` and a
/// missing Codex as `second`.
fn write_engines(data: &Path, bin: &Path, version: &str) {
    let claude = fake_claude(bin, version);
    std::fs::write(
        data.join("engines.toml"),
        format!(
            "[engines.primary]\nkind = \"claude\"\ncommand = [{claude:?}]\n\n\
             [engines.second]\nkind = \"codex\"\ncommand = [\"/nonexistent/codex\"]\n"
        ),
    )
    .unwrap();
}

/// The doctor as run on a machine with logind (a private bus with its
/// stand-in), so keeping the machine awake is no warning.
fn doctor(data: &Path, args: &[&str]) -> Output {
    let bus = standins::logind::Bus::start().unwrap();
    Command::new(common::binary())
        .arg("doctor")
        .args(args)
        .arg("--data-dir")
        .arg(data)
        .env("DBUS_SYSTEM_BUS_ADDRESS", bus.address())
        .output()
        .unwrap()
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {output:?}"))
}

fn engine<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["engines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {report}"))
}

/// Whether this machine can confine engines at all; where it cannot, no
/// version is read and no session can start, as the report then says.
fn confined(report: &Value) -> bool {
    report["sandbox"]["error"].is_null()
}

#[test]
fn a_present_engine_and_a_missing_one_without_a_server() {
    let data = tempfile::tempdir().unwrap();
    let bin = tempfile::tempdir().unwrap();
    write_engines(data.path(), bin.path(), "2.1.330");
    let output = doctor(
        data.path(),
        &["--json", "--control-port", "0", "--ui-port", "0"],
    );
    let report = json(&output);

    let primary = engine(&report, "primary");
    assert_eq!(primary["kind"], "claude");
    assert_eq!(primary["executable"], true);
    assert_eq!(primary["coveredVersion"], "2.1.330");
    let second = engine(&report, "second");
    assert_eq!(second["path"], Value::Null);
    assert_eq!(second["executable"], false);
    assert_eq!(second["version"], Value::Null);
    assert_eq!(second["coverage"], "unknown");
    assert!(
        second["blockers"][0]
            .as_str()
            .unwrap()
            .contains("/nonexistent/codex does not exist"),
        "{second}"
    );
    assert_eq!(report["enginesFile"]["present"], true);
    assert_eq!(report["ports"]["serverPid"], Value::Null);
    assert_eq!(report["ports"]["control"]["state"], "free");
    // tempfile makes folders 0755, which `serve` keeps: the doctor says so.
    assert_eq!(report["dataDir"]["mode"], "0755");
    assert_eq!(report["dataDir"]["ownerOnly"], false);
    assert!(
        report["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w.as_str().unwrap().contains("`chmod 700`")),
        "{report}"
    );

    if confined(&report) {
        assert_eq!(primary["version"], "2.1.330");
        assert_eq!(primary["coverage"], "covered");
        assert_eq!(primary["blockers"], Value::Array(Vec::new()));
        // One engine that can run is enough.
        assert_eq!(report["canStart"], true, "{report}");
        assert_eq!(output.status.code(), Some(0), "{output:?}");
    } else {
        assert_eq!(report["canStart"], false, "{report}");
        assert_eq!(output.status.code(), Some(1), "{output:?}");
    }

    std::fs::set_permissions(data.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let report = json(&doctor(
        data.path(),
        &["--json", "--control-port", "0", "--ui-port", "0"],
    ));
    assert_eq!(report["dataDir"]["ownerOnly"], true);
    assert_eq!(report["warnings"], Value::Array(Vec::new()), "{report}");

    // The same facts for people.
    let text = doctor(data.path(), &["--control-port", "0", "--ui-port", "0"]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("second (codex) not found"), "{text}");
    if confined(&report) {
        assert!(text.contains("2.1.330 (covered by the suite)"), "{text}");
        assert!(text.ends_with("A session can start.\n"), "{text}");
    }
}

#[test]
fn an_uncovered_version_warns_and_no_engine_at_all_fails() {
    let data = tempfile::tempdir().unwrap();
    let bin = tempfile::tempdir().unwrap();
    write_engines(data.path(), bin.path(), "2.2.0");
    let output = doctor(data.path(), &["--json"]);
    let report = json(&output);
    if confined(&report) {
        let primary = engine(&report, "primary");
        assert_eq!(primary["version"], "2.2.0");
        assert_eq!(primary["coverage"], "not_covered");
        assert!(
            primary["warnings"][0]
                .as_str()
                .unwrap()
                .contains("@anthropic-ai/claude-code 2.1.330"),
            "{primary}"
        );
        assert_eq!(
            output.status.code(),
            Some(0),
            "an uncovered version still runs"
        );
    }

    std::fs::write(
        data.path().join("engines.toml"),
        "[engines.second]\nkind = \"codex\"\ncommand = [\"/nonexistent/codex\"]\n",
    )
    .unwrap();
    let output = doctor(data.path(), &["--json"]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let report = json(&output);
    assert_eq!(report["canStart"], false);
    assert!(
        report["blockers"][0]
            .as_str()
            .unwrap()
            .starts_with("Engine `second`: /nonexistent/codex does not exist"),
        "{report}"
    );
    let text = doctor(data.path(), &[]);
    assert_eq!(text.status.code(), Some(1));
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("No session can start:"), "{text}");
}

#[test]
fn the_route_and_the_command_see_the_running_server() {
    let dir = tempfile::tempdir().unwrap();
    let bin = tempfile::tempdir().unwrap();
    write_engines(dir.path(), bin.path(), "2.1.330");
    let server = TestServer::start_in(dir);
    let port = |address: &str| -> u64 { address.rsplit(':').next().unwrap().parse().unwrap() };
    let pid = u64::from(server.child.as_ref().unwrap().id());

    let reply = server.call("GET", "/doctor", None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    let report = reply.json();
    assert_eq!(report["ports"]["serverPid"], pid);
    assert_eq!(report["ports"]["control"]["port"], port(server.control()));
    assert_eq!(report["ports"]["control"]["state"], "switchboard");
    assert_eq!(report["ports"]["ui"]["port"], port(&server.ui));
    assert_eq!(engine(&report, "second")["path"], Value::Null);
    if confined(&report) {
        assert_eq!(engine(&report, "primary")["coverage"], "covered");
        assert_eq!(report["canStart"], true, "{report}");
    }
    assert_eq!(report["dataDir"]["files"][0]["name"], "cli-token");
    assert_eq!(report["dataDir"]["files"][0]["mode"], "0600");
    assert_eq!(report["dataDir"]["files"][0]["ownerOnly"], true);

    // The browser's listener has it too, and it needs a credential.
    let cookie = server.browser_cookie();
    let ui = common::request(
        &server.ui,
        "GET",
        "/api/doctor",
        &[("Cookie", &cookie)],
        None,
    );
    assert_eq!(ui.status, 200, "{}", ui.text());
    assert_eq!(ui.json()["engines"], report["engines"]);
    let anonymous = common::request(server.control(), "GET", "/doctor", &[], None);
    assert_eq!(anonymous.status, 401);

    // Without a server of its own, the command finds this one through server.json.
    let output = server.cli(&["doctor", "--json"]);
    let local = json(&output);
    assert_eq!(local["ports"]["serverPid"], pid);
    assert_eq!(local["ports"]["control"]["state"], "switchboard");
    assert_eq!(local["ports"]["ui"]["port"], port(&server.ui));
    assert_eq!(local["engines"], report["engines"]);
}

#[test]
fn an_unreachable_runner_is_a_warning_not_a_blocker() {
    let data = tempfile::tempdir().unwrap();
    let bin = tempfile::tempdir().unwrap();
    write_engines(data.path(), bin.path(), "2.1.330");
    let args = ["--json", "--control-port", "0", "--ui-port", "0"];
    let before = doctor(data.path(), &args);
    assert_eq!(json(&before)["runners"], Value::Array(Vec::new()));

    std::fs::write(
        data.path().join("runners.toml"),
        "[runners.devbox]\nssh = \"nobody@127.0.0.1:1\"\nmax_sessions = 2\n\n\
         [runners.typo]\nssh = \"h\"\nmax_sesions = 2\n",
    )
    .unwrap();
    let output = doctor(data.path(), &args);
    let report = json(&output);
    assert_eq!(
        output.status.code(),
        before.status.code(),
        "a runner never changes the verdict: {report}"
    );
    assert_eq!(report["canStart"], json(&before)["canStart"]);
    let runners = report["runners"].as_array().unwrap();
    assert_eq!(runners.len(), 2, "{report}");
    let devbox = &runners[0];
    assert_eq!(devbox["name"], "devbox");
    assert_eq!(devbox["kind"], "ssh");
    assert_eq!(devbox["state"], "unreachable", "{devbox}");
    assert_eq!(devbox["destination"], "nobody@127.0.0.1:1");
    assert_eq!(devbox["maxSessions"], 2);
    let reason = devbox["reason"].as_str().unwrap();
    assert!(reason.contains("Connection refused"), "{reason}");
    let typo = &runners[1];
    assert_eq!(typo["state"], "invalid");
    assert!(
        typo["reason"]
            .as_str()
            .unwrap()
            .contains("line 5, column 1"),
        "{typo}"
    );
    let warnings = report["warnings"].as_array().unwrap();
    assert!(
        warnings.iter().any(|w| w
            .as_str()
            .unwrap()
            .starts_with("Runner `devbox` (nobody@127.0.0.1:1) is unreachable: ")),
        "{report}"
    );
    assert!(
        report["blockers"]
            .as_array()
            .unwrap()
            .iter()
            .all(|b| !b.as_str().unwrap().contains("devbox")),
        "{report}"
    );
    // The doctor's ssh sockets live elsewhere: a running server's are left alone.
    assert!(!data.path().join("runners").exists());

    // The same for people.
    let text = doctor(data.path(), &args[1..]);
    assert_eq!(text.status.code(), before.status.code());
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("\nRunners ("), "{text}");
    assert!(
        text.contains("warn devbox (nobody@127.0.0.1:1) unreachable\n"),
        "{text}"
    );
    assert!(text.contains("Connection refused"), "{text}");
    assert!(text.contains("warn typo invalid\n"), "{text}");
}

/// The runner tests' separate local user: its home is the runner host's.
const RUNNER_USER: &str = "sbrunner";

#[test]
fn a_reachable_runner_is_listed_and_the_servers_connection_is_kept() {
    let Some(sshd) = sshd::Sshd::start(RUNNER_USER) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("engines.toml"),
        "[engines.remote]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"echo ran as $(id -un)\"]\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("runners.toml"),
        format!(
            "ssh_config = {:?}\n\n[runners.devbox]\nssh = {:?}\n",
            sshd.config().display().to_string(),
            sshd.alias
        ),
    )
    .unwrap();
    let server = TestServer::start_in(dir);
    server.set_setting("cloudControlPlaneEnabled", json!(true));
    server.set_setting("agentDrivenSessionsEnabled", json!(true));
    server.set_setting("requireSpawnSourceSession", json!(false));
    let spawn = || {
        let output = server.cli(&[
            "spawn", "--engine", "remote", "--runner", "devbox", "--json", "hi",
        ]);
        assert!(output.status.success(), "{output:?}");
        let session = json(&output);
        assert_eq!(session["runner"], "devbox", "{session}");
        let id = session["id"].as_str().unwrap().to_owned();
        server.wait_for_status(&id, "waiting_for_input");
        let transcript = server.call("GET", &format!("/sessions/{id}/transcript"), None);
        assert!(
            transcript.text().contains(&format!("ran as {RUNNER_USER}")),
            "{}",
            transcript.text()
        );
    };
    // `switchboard spawn --runner` places the session there.
    spawn();
    let refused = server.cli(&["spawn", "--runner", "nowhere", "--json", "hi"]);
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");
    assert_eq!(json(&refused)["error"]["code"], "unknown_runner");

    // `switchboard runners` prints `GET /runners`.
    let listed = json(&server.cli(&["runners", "--json"]));
    let states = |list: &Value| -> Vec<(String, String)> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|r| (r["name"].to_string(), r["state"].to_string()))
            .collect()
    };
    assert_eq!(
        states(&listed),
        states(&server.call("GET", "/runners", None).json())
    );
    let text = String::from_utf8(server.cli(&["runners"]).stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("local "), "{text}");
    assert!(lines[1].starts_with("devbox "), "{text}");
    assert!(
        lines[1].contains(" ssh   connected   sessions 0/-"),
        "{text}"
    );

    // The server's master connection, which its turns ride on.
    let socket = server.data_dir().join("runners").join("devbox.sock");
    let master = || std::fs::metadata(&socket).map(|m| m.ino()).ok();
    let before = master();
    assert!(before.is_some(), "no {}", socket.display());

    // The command and the route each reach the runner themselves.
    let output = server.cli(&["doctor", "--json"]);
    let from_route = server.call("GET", "/doctor", None);
    assert_eq!(from_route.status, 200, "{}", from_route.text());
    for report in [json(&output), from_route.json()] {
        let runners = report["runners"].as_array().unwrap();
        assert_eq!(runners.len(), 1, "{report}");
        let devbox = &runners[0];
        assert_eq!(devbox["name"], "devbox");
        assert_eq!(devbox["state"], "connected", "{devbox}");
        assert_eq!(devbox["reason"], Value::Null);
        assert_eq!(devbox["destination"], sshd.alias.as_str());
        assert_eq!(devbox["switchboardVersion"], env!("CARGO_PKG_VERSION"));
        assert!(devbox["sandbox"].is_string(), "{devbox}");
        assert!(
            devbox["engines"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["name"] == "remote"),
            "{devbox}"
        );
    }
    let text = String::from_utf8(server.cli(&["doctor"]).stdout).unwrap();
    assert!(
        text.contains(&format!("devbox ({}) connected, sandbox ", sshd.alias)),
        "{text}"
    );
    assert!(text.contains("      engines there: remote"), "{text}");

    // On connections of their own: the server's is the one it had, and its
    // next turn there runs on it.
    assert_eq!(master(), before, "the doctor replaced the server's master");
    spawn();
    assert_eq!(master(), before);
}
