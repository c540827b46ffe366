//! Bug Intake against a real server: a GitHub `issues` delivery to a
//! bug-intake webhook starts one triage session in the project its
//! repository routes to, with the global instructions and then
//! `bugIntakeAppendPrompt` before the report; a repeat within the day
//! starts nothing more; with `bugIntakeEnabled` off a report is listed and
//! starts nothing; the app's form reports too; held reports wait for the
//! user.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::{Value, json};

fn server() -> (TestServer, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let shop = scratch.path().join("storefront");
    std::fs::create_dir(&shop).unwrap();
    common::conversation_engine(dir.path());
    std::fs::write(
        dir.path().join("bugintake.toml"),
        format!(
            "instructions = \"Reproduce the bug with a failing test, then fix it.\"\n\n\
             [[routes]]\nrepository = \"octo-org/storefront\"\nfolder = {:?}\n",
            shop.display().to_string()
        ),
    )
    .unwrap();
    let server = TestServer::start_in(dir).keeping(scratch);
    server.set_setting("webhooksEnabled", json!(true));
    server.set_setting("agentDrivenSessionsEnabled", json!(true));
    (server, shop)
}

fn issue(title: &str) -> Vec<u8> {
    let path =
        common::workspace_root().join("crates/bugintake/tests/fixtures/github_issues_opened.json");
    let mut payload: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    payload["issue"]["title"] = json!(title);
    payload.to_string().into_bytes()
}

fn deliver(server: &TestServer, url: &str, body: &[u8]) -> common::Reply {
    let path = url
        .split_once("/hooks/")
        .map(|(_, s)| format!("/hooks/{s}"))
        .unwrap();
    common::request(
        server.control(),
        "POST",
        &path,
        &[
            ("Content-Type", "application/json"),
            ("X-GitHub-Event", "issues"),
        ],
        Some(body),
    )
}

fn reports(server: &TestServer) -> Vec<Value> {
    server.call("GET", "/bug-reports", None).json()["reports"]
        .as_array()
        .unwrap()
        .clone()
}

fn sessions(server: &TestServer) -> Vec<Value> {
    server
        .call("GET", "/sessions", None)
        .json()
        .as_array()
        .unwrap()
        .clone()
}

fn wait_for_sessions(server: &TestServer, count: usize) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let all = sessions(server);
        if all.len() >= count {
            return all;
        }
        assert!(Instant::now() < deadline, "{all:?}");
        std::thread::sleep(Duration::from_millis(25));
    }
}

#[test]
fn a_github_issue_starts_one_triage_session_and_off_starts_none() {
    let (server, shop) = server();
    server.set_setting(
        "bugIntakeAppendPrompt",
        json!("Our tests run with `make check`."),
    );
    let hook = server.call(
        "POST",
        "/webhooks",
        Some(&json!({"name": "GitHub issues", "purpose": "bug_intake"})),
    );
    assert_eq!(hook.status, 201, "{}", hook.text());
    let url = hook.json()["url"].as_str().unwrap().to_owned();
    let listed = server.call("GET", "/webhooks", None).json();
    assert_eq!(listed[0]["purpose"], "bug_intake");

    // Off: listed, nothing started, no inbox row for the delivery.
    let off = deliver(&server, &url, &issue("Cart total is wrong"));
    assert_eq!(off.status, 202, "{}", off.text());
    assert_eq!(off.json()["outcome"], "listed");
    let listed = reports(&server);
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["state"], "new");
    assert_eq!(listed[0]["reason"], "intake_off");
    std::thread::sleep(Duration::from_millis(300));
    assert!(sessions(&server).is_empty());
    let rows = server.call("GET", "/inbox?category=webhook", None).json();
    assert_eq!(rows, json!([]), "a bug report also became a webhook row");

    server.set_setting("bugIntakeEnabled", json!(true));
    let on = deliver(
        &server,
        &url,
        &issue("Checkout button does nothing on Safari 17"),
    );
    assert_eq!(on.status, 202, "{}", on.text());
    assert_eq!(on.json()["outcome"], "started");
    let started = wait_for_sessions(&server, 1);
    assert_eq!(started.len(), 1);
    let session = &started[0];
    assert_eq!(session["trigger"], "bug_intake");
    assert_eq!(session["agentDriven"], true);
    assert_eq!(Path::new(session["cwd"].as_str().unwrap()), shop.as_path());
    let prompt = session["prompt"].as_str().unwrap();
    let instructions = prompt
        .find("Reproduce the bug with a failing test")
        .unwrap();
    let appended = prompt.find("Our tests run with `make check`.").unwrap();
    let title = prompt
        .find("Checkout button does nothing on Safari 17")
        .unwrap();
    assert!(instructions < appended && appended < title, "{prompt}");
    let report = reports(&server)
        .into_iter()
        .find(|r| r["title"] == "Checkout button does nothing on Safari 17")
        .unwrap();
    assert_eq!(report["sessionId"], session["id"]);
    // Its session's first turn ends: the report is triaged.
    let path = format!("/bug-reports/{}", report["id"].as_str().unwrap());
    let deadline = Instant::now() + Duration::from_secs(30);
    while server.call("GET", &path, None).json()["state"] != "triaged" {
        assert!(
            Instant::now() < deadline,
            "{}",
            server.call("GET", &path, None).text()
        );
        std::thread::sleep(Duration::from_millis(25));
    }

    // The same report again within the day: counted, nothing started.
    let again = deliver(
        &server,
        &url,
        &issue("checkout button  does nothing on safari 17"),
    );
    assert_eq!(again.status, 202, "{}", again.text());
    assert_eq!(again.json()["outcome"], "duplicate");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(sessions(&server).len(), 1);
    let counted = server
        .call(
            "GET",
            &format!("/bug-reports/{}", report["id"].as_str().unwrap()),
            None,
        )
        .json();
    assert_eq!(counted["count"], 2);

    // A delivery that is not a report is answered and listed nowhere.
    let ping = common::request(
        server.control(),
        "POST",
        &url.split_once("/hooks/")
            .map(|(_, s)| format!("/hooks/{s}"))
            .unwrap(),
        &[
            ("Content-Type", "application/json"),
            ("X-GitHub-Event", "ping"),
        ],
        Some(br#"{"zen": "Keep it logically awesome.", "hook_id": 1}"#),
    );
    assert_eq!(ping.status, 202, "{}", ping.text());
    assert_eq!(ping.json()["outcome"], "ignored");
    assert_eq!(reports(&server).len(), 2);
}

#[test]
fn the_form_reports_and_a_held_report_waits_for_its_release() {
    let (server, shop) = server();
    server.set_setting("bugIntakeEnabled", json!(true));
    let bad = server.call("POST", "/bug-reports", Some(&json!({"title": ""})));
    assert_eq!(bad.status, 400, "{}", bad.text());
    assert_eq!(bad.json()["error"]["code"], "invalid_request");
    assert!(reports(&server).is_empty());

    // No route claims this project name: listed as unrouted.
    let unrouted = server.call(
        "POST",
        "/bug-reports",
        Some(&json!({"title": "Dark mode flickers", "project": "design"})),
    );
    assert_eq!(unrouted.status, 201, "{}", unrouted.text());
    assert_eq!(unrouted.json()["report"]["state"], "unrouted");

    let made = server.call(
        "POST",
        "/bug-reports",
        Some(&json!({"title": "Search returns nothing", "body": "Since the deploy.", "project": shop})),
    );
    assert_eq!(made.status, 201, "{}", made.text());
    assert_eq!(made.json()["outcome"], "started");
    let started = wait_for_sessions(&server, 1);
    assert_eq!(started[0]["trigger"], "bug_intake");

    // Held, then released: only the release starts it.
    server.set_setting("bugIntakeEnabled", json!(false));
    let later = server.call(
        "POST",
        "/bug-reports",
        Some(&json!({"title": "Emails go out twice", "project": shop})),
    );
    let id = later.json()["report"]["id"].as_str().unwrap().to_owned();
    let held = server.call("POST", &format!("/bug-reports/{id}/hold"), None);
    assert_eq!(held.status, 200, "{}", held.text());
    assert_eq!(held.json()["state"], "held");
    server.set_setting("bugIntakeEnabled", json!(true));
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(sessions(&server).len(), 1);
    let released = server.call("POST", &format!("/bug-reports/{id}/release"), None);
    assert_eq!(released.status, 200, "{}", released.text());
    assert_eq!(released.json()["outcome"], "started");
    wait_for_sessions(&server, 2);
    let dismissed = server.call(
        "POST",
        &format!(
            "/bug-reports/{}/dismiss",
            unrouted.json()["report"]["id"].as_str().unwrap()
        ),
        None,
    );
    assert_eq!(dismissed.json()["state"], "dismissed");
    let missing = server.call("POST", "/bug-reports/nope/dismiss", None);
    assert_eq!(missing.status, 404);
}
