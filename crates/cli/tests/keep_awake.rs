//! `keepAwakeWhileSessionsRunning` (docs/resources.md) against a real
//! `dbus-daemon` with logind's `Inhibit` on it (`standins::logind`): a
//! sleep inhibitor held while a session runs and released when none does or
//! when the setting is turned off, and the doctor naming a machine where no
//! logind is.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::json;
use standins::logind::Bus;

fn server_on(bus: &Bus) -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("engines.toml"),
        "[engines.sleeper]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"[ \\\"$0\\\" = --version ] && exit 0; echo started; exec sleep 300\"]\n",
    )
    .unwrap();
    TestServer::start_in_with_env(
        dir,
        &[],
        &[("DBUS_SYSTEM_BUS_ADDRESS", Path::new(bus.address()))],
    )
}

fn eventually(what: &str, check: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !check() {
        assert!(Instant::now() < deadline, "{what} within 5 s");
        std::thread::sleep(Duration::from_millis(25));
    }
}

#[test]
fn an_inhibitor_is_held_while_sessions_run_and_released_when_none_does_or_the_setting_is_off() {
    let bus = Bus::start().unwrap();
    let server = server_on(&bus);
    // Nothing runs: the machine may sleep.
    std::thread::sleep(Duration::from_millis(1500));
    assert!(bus.inhibitors().is_empty(), "{:?}", bus.inhibitors());

    let first = server.browser_session("sleeper", "go")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    eventually("a sleep inhibitor", || bus.held().len() == 1);
    let held = &bus.held()[0];
    assert_eq!(
        (held.what.as_str(), held.mode.as_str(), held.who.as_str()),
        ("sleep", "block", "Switchboard")
    );
    assert_eq!(held.why, "an agent session is running");

    // A second session shares the one inhibitor.
    let second = server.browser_session("sleeper", "go")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(bus.inhibitors().len(), 1, "{:?}", bus.inhibitors());

    server.set_setting("keepAwakeWhileSessionsRunning", json!(false));
    eventually("released when turned off", || bus.held().is_empty());
    server.set_setting("keepAwakeWhileSessionsRunning", json!(true));
    eventually("held again when turned on", || bus.held().len() == 1);
    assert_eq!(bus.held()[0].why, "2 agent sessions are running");

    server.call("POST", &format!("/sessions/{first}/stop"), None);
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(bus.held().len(), 1, "one session still runs");
    server.call("POST", &format!("/sessions/{second}/stop"), None);
    eventually("released when no session runs", || bus.held().is_empty());
    assert_eq!(bus.inhibitors().len(), 2);
}

#[test]
fn the_doctor_says_whether_logind_can_keep_the_machine_awake() {
    let bus = Bus::start().unwrap();
    let server = server_on(&bus);
    let report = server.call("GET", "/doctor", None).json();
    assert_eq!(
        report["resources"]["keepAwake"]["available"], true,
        "{report}"
    );
    assert!(
        !report["warnings"].to_string().contains("keepAwake"),
        "{report}"
    );
    drop(server);

    let empty = Bus::without_logind().unwrap();
    let server = server_on(&empty);
    let report = server.call("GET", "/doctor", None).json();
    let keep_awake = &report["resources"]["keepAwake"];
    assert_eq!(keep_awake["available"], false, "{report}");
    assert!(
        keep_awake["why"].as_str().unwrap().contains("no logind"),
        "{report}"
    );
    let warned = report["warnings"].as_array().unwrap().iter().any(|w| {
        w.as_str()
            .unwrap()
            .contains("keepAwakeWhileSessionsRunning")
    });
    assert!(warned, "{report}");
    let text = std::process::Command::new(common::binary())
        .args(["doctor", "--data-dir"])
        .arg(server.data_dir())
        .env("DBUS_SYSTEM_BUS_ADDRESS", empty.address())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(stdout.contains("keep awake:  no (no logind"), "{stdout}");
}
