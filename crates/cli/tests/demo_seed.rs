//! What a fresh `serve --demo` opens on: an agent running on the demo engine
//! within seconds (its board item says Running), a dashboard over the demo's
//! boards, tasks, a bug report and bookmarks; and every agent task that links
//! to a session names the repository whose folder that session works in.

mod common;

use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::Value;

fn array<'a>(value: &'a Value, key: &str) -> &'a Vec<Value> {
    value[key]
        .as_array()
        .unwrap_or_else(|| panic!("no {key} in {value}"))
}

/// The agent-tasks board's items that link to a session, with its id.
fn agent_tasks(server: &TestServer) -> Vec<(String, Value)> {
    let boards = server.call("GET", "/boards", None).json();
    let board = boards
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "Agent tasks")
        .unwrap_or_else(|| panic!("no agent tasks board in {boards}"));
    let id = board["id"].as_str().unwrap();
    let full = server
        .call("GET", &format!("/boards/{id}/full"), None)
        .json();
    array(&full, "items")
        .iter()
        .filter_map(|item| {
            let link = item["values"]["session"].as_str()?;
            let session = link.strip_prefix("/sessions/")?.to_owned();
            Some((session, item.clone()))
        })
        .collect()
}

#[test]
fn a_fresh_demo_has_a_running_agent_a_dashboard_tasks_a_bug_report_and_bookmarks() {
    let server = TestServer::demo();

    // The queued session's turn starts with the supervisor.
    let deadline = Instant::now() + Duration::from_secs(10);
    let running = loop {
        let sessions = server.call("GET", "/sessions", None).json();
        let found = sessions
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["status"] == "running")
            .cloned();
        if let Some(session) = found {
            break session;
        }
        assert!(Instant::now() < deadline, "nothing runs: {sessions}");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(running["engine"], "demo");
    let id = running["id"].as_str().unwrap();
    let tasks = agent_tasks(&server);
    let (_, item) = tasks
        .iter()
        .find(|(session, _)| session == id)
        .unwrap_or_else(|| panic!("no agent task links {id}"));
    assert_eq!(item["values"]["status"], "Running");

    let workspaces = server.call("GET", "/workspaces", None).json();
    let workspace = workspaces.as_array().unwrap()[0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let dashboards = server
        .call("GET", &format!("/dashboards?workspaceId={workspace}"), None)
        .json();
    let dashboard = &dashboards.as_array().unwrap()[0];
    assert!(!array(&dashboard["config"], "boardIds").is_empty());
    assert!(array(&dashboard["config"], "widgets").len() >= 4);

    let personal = server.call("GET", "/tasks", None).json();
    assert!(array(&personal, "tasks").len() >= 3, "{personal}");
    let shared = server
        .call("GET", &format!("/tasks?workspaceId={workspace}"), None)
        .json();
    assert!(!array(&shared, "tasks").is_empty(), "{shared}");

    let reports = server.call("GET", "/bug-reports", None).json();
    let reports = array(&reports, "reports");
    assert!(!reports.is_empty());
    assert!(reports.iter().all(|r| r["engine"] == "demo"), "{reports:?}");

    let bookmarks = server.call("GET", "/bookmarks", None).json();
    let bookmarks = array(&bookmarks, "bookmarks");
    assert!(bookmarks.iter().any(|b| b["kind"] == "url"));
    assert!(
        bookmarks
            .iter()
            .any(|b| b["kind"] == "session" && b["engine"] == "demo"),
        "{bookmarks:?}"
    );
}

#[test]
fn demo_sessions_work_in_the_folder_of_the_repository_their_task_names() {
    let server = TestServer::demo();
    let tasks = agent_tasks(&server);
    assert_eq!(tasks.len(), 6, "one agent task per demo session");
    for (id, item) in &tasks {
        let repository = item["values"]["repository"]
            .as_str()
            .unwrap_or_else(|| panic!("{id}'s task names no repository"));
        let session = server.call("GET", &format!("/sessions/{id}"), None).json();
        let cwd = std::path::Path::new(session["cwd"].as_str().unwrap());
        assert!(cwd.is_dir(), "{} is no folder", cwd.display());
        assert!(
            cwd.ends_with(repository),
            "{} works in {}, its task names {repository}",
            session["title"],
            cwd.display()
        );
        assert_eq!(session["title"], item["name"]);
    }
}
