//! `switchboard doctor` and `GET /doctor`: the engines of an `engines.toml`
//! (one present, one missing), their versions against the covered ones, the
//! ports of a running server or those `serve` would bind, the exit code.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output};

use common::TestServer;
use serde_json::Value;

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

fn doctor(data: &Path, args: &[&str]) -> Output {
    Command::new(common::binary())
        .arg("doctor")
        .args(args)
        .arg("--data-dir")
        .arg(data)
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
