//! What a fresh `serve --demo` opens on: an agent running on the demo engine
//! within seconds (its board item says Running), a dashboard over the demo's
//! boards, tasks, a bug report and bookmarks; every agent task that links
//! to a session names the repository whose folder (or worktree of it) that
//! session works in; the Work page shows the demo's branches in several
//! states; automations, a scheduled message and a drip are there; and no
//! board names two items alike.

mod common;

use std::collections::BTreeSet;
use std::path::Path;
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
    assert_eq!(tasks.len(), 7, "one agent task per demo session");
    let mut in_worktrees = 0;
    for (id, item) in &tasks {
        let repository = item["values"]["repository"]
            .as_str()
            .unwrap_or_else(|| panic!("{id}'s task names no repository"));
        let session = server.call("GET", &format!("/sessions/{id}"), None).json();
        let cwd = Path::new(session["cwd"].as_str().unwrap());
        // A worktree session works in its worktree of the repository.
        let folder = match session["worktree"]["repository"].as_str() {
            Some(root) => {
                in_worktrees += 1;
                let branch = session["worktree"]["branch"].as_str().unwrap();
                assert!(branch_exists(Path::new(root), branch), "no {branch}");
                Path::new(root)
            }
            None => cwd,
        };
        assert!(folder.is_dir(), "{} is no folder", folder.display());
        assert!(
            folder.ends_with(repository),
            "{} works in {}, its task names {repository}",
            session["title"],
            folder.display()
        );
        assert_eq!(session["title"], item["name"]);
    }
    assert!(in_worktrees >= 4, "{in_worktrees} sessions in worktrees");
}

fn branch_exists(repository: &Path, branch: &str) -> bool {
    std::process::Command::new("git")
        .arg("-C")
        .arg(repository)
        .args(["rev-parse", "--verify", "--quiet"])
        .arg(format!("refs/heads/{branch}"))
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn the_demo_work_page_shows_its_branches_in_every_state_git_can_tell() {
    let server = TestServer::demo();
    let work = server.call("GET", "/work", None).json();
    let entries = array(&work, "work");
    let states: BTreeSet<&str> = entries.iter().filter_map(|e| e["state"].as_str()).collect();
    assert_eq!(
        states,
        BTreeSet::from([
            "in_progress",
            "landed",
            "stranded",
            "turned_down",
            "waiting_on_review"
        ]),
        "{work}"
    );
    let titled = |state: &str| {
        entries
            .iter()
            .find(|e| e["state"] == state)
            .and_then(|e| e["title"].as_str())
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(titled("landed"), "Triage flaky CI jobs");
    assert_eq!(
        titled("stranded"),
        "Upgrade the search indexer's dependencies"
    );
}

#[test]
fn the_demo_has_recipes_a_schedule_a_rule_a_scheduled_message_and_a_drip() {
    let server = TestServer::demo();
    let recipes = server.call("GET", "/recipes", None).json();
    assert!(array(&recipes, "recipes").len() >= 2, "{recipes}");
    assert!(
        array(&recipes, "recipes")
            .iter()
            .all(|r| r["engine"] == "demo")
    );

    let schedules = server.call("GET", "/schedules", None).json();
    let schedules = array(&schedules, "schedules");
    assert!(!schedules.is_empty());
    for schedule in schedules {
        assert_eq!(schedule["state"], "active", "{schedule}");
        let next: jiff::Timestamp = schedule["nextAt"]
            .as_str()
            .and_then(|at| at.parse().ok())
            .unwrap_or_else(|| panic!("no next run in {schedule}"));
        let soon = jiff::Timestamp::now() + jiff::SignedDuration::from_mins(30);
        assert!(next > soon, "{schedule} runs during the demo");
    }

    let rules = server.call("GET", "/rules", None).json();
    let rule = &array(&rules, "rules")[0];
    assert_eq!(rule["state"], "active", "{rule}");
    assert_eq!(rule["when"]["status"], "Ready for agent", "{rule}");
    assert_eq!(rule["then"][0]["kind"], "start_recipe", "{rule}");
    assert_eq!(rule["then"][0]["item"]["failedStatus"], "Failed", "{rule}");
    // An agent task moved to "Ready for agent" fires it.
    let board = rule["when"]["boardId"].as_str().unwrap();
    let full = server
        .call("GET", &format!("/boards/{board}/full"), None)
        .json();
    let task = array(&full, "items")
        .iter()
        .find(|i| i["values"]["status"] == "Queued")
        .unwrap_or_else(|| panic!("no queued agent task in {full}"));
    let moved = server.call(
        "PATCH",
        &format!("/items/{}", task["id"].as_str().unwrap()),
        Some(&serde_json::json!({"values": {"status": "Ready for agent"}})),
    );
    assert_eq!(moved.status, 200, "{}", moved.text());
    let rule_id = rule["id"].as_str().unwrap();
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let firings = server
            .call("GET", &format!("/rules/{rule_id}/firings"), None)
            .json();
        if !array(&firings, "firings").is_empty() {
            break;
        }
        assert!(Instant::now() < deadline, "the rule never fired");
        std::thread::sleep(Duration::from_millis(100));
    }

    let messages = server.call("GET", "/scheduled-messages", None).json();
    assert!(!array(&messages, "messages").is_empty(), "{messages}");
    let drips = server.call("GET", "/drips", None).json();
    let drip = &array(&drips, "drips")[0];
    let id = drip["id"].as_str().unwrap();
    let items = server
        .call("GET", &format!("/drips/{id}/items"), None)
        .json();
    assert!(array(&items, "items").len() >= 2, "{items}");
}

#[test]
fn no_demo_board_names_two_items_alike() {
    let server = TestServer::demo();
    let boards = server.call("GET", "/boards", None).json();
    for board in boards.as_array().unwrap() {
        let id = board["id"].as_str().unwrap();
        let full = server
            .call("GET", &format!("/boards/{id}/full"), None)
            .json();
        let mut seen = BTreeSet::new();
        for item in array(&full, "items") {
            let name = item["name"].as_str().unwrap();
            assert!(seen.insert(name), "{} names {name} twice", board["name"]);
        }
    }
}
