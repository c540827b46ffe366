//! Switchboard's own reports by email (docs/diagnostics.md), through the
//! real binary on a manual clock against the real SMTP server of the mail
//! rig (aiosmtpd delivering through dovecot): feedback kept while there is
//! no `[reports]` address or its switch is off, then sent once; a crash
//! mailed once while both diagnostics switches are on, content-free, and
//! never one recorded while they were off; the weekly digest at once and a
//! week later, counts only.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::TestServer;
use mail::rig::{ADDRESS, MailServers, Options};
use serde_json::json;

const TO: &str = "reports@team.test";

fn email_toml(dir: &Path, servers: &MailServers, reports: bool) {
    let reports = if reports {
        format!("\n[reports]\nto = {TO:?}\n")
    } else {
        String::new()
    };
    std::fs::write(
        dir.join("email.toml"),
        format!(
            "[[accounts]]\naddress = {ADDRESS:?}\n\
             imap = {{ host = \"localhost\", port = {}, tls = \"none\", username = {ADDRESS:?}, password_key = \"MAIL_PASSWORD\" }}\n\
             smtp = {{ host = \"localhost\", port = {}, tls = \"none\" }}\n{reports}",
            servers.imap_port, servers.smtp_port,
        ),
    )
    .unwrap();
}

/// The mails the rig's mailbox holds whose subject starts with `subject`.
fn mails(servers: &MailServers, subject: &str) -> Vec<String> {
    servers
        .messages()
        .into_iter()
        .map(|raw| String::from_utf8_lossy(&raw).into_owned())
        .filter(|text| text.contains(&format!("Subject: {subject}")))
        .collect()
}

fn wait_mails(servers: &MailServers, subject: &str, count: usize) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let found = mails(servers, subject);
        if found.len() >= count {
            return found;
        }
        assert!(
            Instant::now() < deadline,
            "{count} mails {subject:?} never came: {found:?}\n{}",
            servers.logs()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A minute on: a round of the reports' loop runs; then a moment for it.
fn a_round(server: &TestServer) {
    let moved = server.call("POST", "/test/clock", Some(&json!({"advanceMs": 60_000})));
    assert_eq!(moved.status, 204, "{}", moved.text());
    std::thread::sleep(Duration::from_millis(700));
}

fn server(home: &Path) -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("engines.toml"),
        "[engines.primary]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"echo done\"]\n",
    )
    .unwrap();
    TestServer::start_in_with_env(dir, &["--manual-clock"], &[("HOME", home)])
}

#[test]
fn feedback_waits_for_an_address_and_its_switch_then_goes_once() {
    let Some(servers) = MailServers::start(Options::default()) else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let server = server(home.path());
    email_toml(server.data_dir(), &servers, false);

    for bad in [
        json!({"text": ""}),
        json!({"text": "  \n "}),
        json!({"text": "x".repeat(10_001)}),
        json!({"text": "ok", "extra": 1}),
        json!({}),
    ] {
        let refused = server.call("POST", "/feedback", Some(&bad));
        assert_eq!(refused.status, 400, "{bad}: {}", refused.text());
    }
    assert_eq!(server.call("GET", "/feedback", None).json(), json!([]));

    // On, but no [reports] address: kept here.
    server.set_setting("bugReportEmailEnabled", json!(true));
    let made = server.call(
        "POST",
        "/feedback",
        Some(&json!({"text": "The board is slow\nwith 300 items"})),
    );
    assert_eq!(made.status, 201, "{}", made.text());
    let made = made.json();
    assert_eq!(made["kind"], "feedback");
    assert_eq!(made["subject"], "Switchboard feedback: The board is slow");
    a_round(&server);
    assert!(mails(&servers, "Switchboard feedback").is_empty());

    // An address, but the switch off: still kept.
    server.set_setting("bugReportEmailEnabled", json!(false));
    email_toml(server.data_dir(), &servers, true);
    a_round(&server);
    assert!(mails(&servers, "Switchboard feedback").is_empty());
    let listed = server.call("GET", "/feedback", None).json();
    assert!(listed[0]["sentAt"].is_null(), "{listed}");

    // Both: sent in the next round, once.
    server.set_setting("bugReportEmailEnabled", json!(true));
    a_round(&server);
    let sent = wait_mails(&servers, "Switchboard feedback", 1);
    let mail = &sent[0];
    assert!(mail.contains(&format!("To: {TO}")), "{mail}");
    assert!(mail.contains(&format!("From: {ADDRESS}")), "{mail}");
    assert!(mail.contains("Auto-Submitted: auto-generated"), "{mail}");
    assert!(mail.contains("with 300 items"), "{mail}");
    let listed = server.call("GET", "/feedback", None).json();
    assert!(listed[0]["sentAt"].is_string(), "{listed}");
    a_round(&server);
    a_round(&server);
    assert_eq!(mails(&servers, "Switchboard feedback").len(), 1);
}

fn panic_once(server: &TestServer) {
    let started = server.call("POST", "/test/panic", None);
    assert_eq!(started.status, 202, "{}", started.text());
    std::thread::sleep(Duration::from_millis(500));
}

fn run_a_session(server: &TestServer) {
    let cookie = server.browser_cookie();
    let reply = server.browser_spawn(&cookie, &json!({"engine": "primary", "prompt": "count me"}));
    assert_eq!(reply.status, 201, "{}", reply.text());
    let id = reply.json()["id"].as_str().unwrap().to_owned();
    server.wait_for_status(&id, "waiting_for_input");
}

#[test]
fn crashes_and_the_weekly_digest_go_only_while_diagnostics_are_on() {
    let Some(servers) = MailServers::start(Options::default()) else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let server = server(home.path());
    email_toml(server.data_dir(), &servers, true);
    run_a_session(&server);

    // Off (the default): a crash is kept, never mailed, not even later.
    panic_once(&server);
    a_round(&server);
    assert!(mails(&servers, "Switchboard crashed").is_empty());
    assert!(mails(&servers, "Switchboard weekly digest").is_empty());

    // On: the first digest at once, counts only; then each crash once.
    server.set_setting("telemetryEmailEnabled", json!(true));
    a_round(&server);
    let digest = wait_mails(&servers, "Switchboard weekly digest", 1);
    assert!(digest[0].contains("command | 1 | 1"), "{}", digest[0]);
    assert!(digest[0].contains("Crashes: 1"), "{}", digest[0]);
    assert!(!digest[0].contains("count me"), "{}", digest[0]);
    assert!(mails(&servers, "Switchboard crashed").is_empty());

    panic_once(&server);
    a_round(&server);
    let crashed = wait_mails(&servers, "Switchboard crashed", 1);
    let mail = &crashed[0];
    assert!(
        mail.contains("a test panic reading ~/private/plans.md"),
        "{mail}"
    );
    assert!(
        !mail.contains(&home.path().display().to_string()),
        "the home folder is named: {mail}"
    );
    assert!(mail.contains("crates/app/src/report_mail.rs:"), "{mail}");
    a_round(&server);
    assert_eq!(mails(&servers, "Switchboard crashed").len(), 1);

    // Crash mail off: the digest goes on, crashes stay here.
    server.set_setting("crashAlertEmailEnabled", json!(false));
    panic_once(&server);
    a_round(&server);
    assert_eq!(mails(&servers, "Switchboard crashed").len(), 1);
    let moved = server.call(
        "POST",
        "/test/clock",
        Some(&json!({"advanceMs": 7 * 24 * 3_600_000_u64})),
    );
    assert_eq!(moved.status, 204);
    a_round(&server);
    let digests = wait_mails(&servers, "Switchboard weekly digest", 2);
    assert!(
        digests.iter().any(|d| d.contains("Crashes: 2")),
        "{digests:?}"
    );
}
