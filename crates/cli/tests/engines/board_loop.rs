//! The board-to-agent loop with the real Claude Code CLI: an item of a
//! `first-agent-board` board moved to "Ready for agent" starts a session
//! (the rule's recipe, its prompt the item's name and prompt), the item
//! shows "Running" and links the session, and when Claude Code's turn ends
//! it moves to "Review" with Claude's answer (from the stand-in model API)
//! as its summary.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use standins::{Api, Message};

use crate::rig::Rig;

/// What the stand-in model answers a turn whose prompt holds the item.
const ITEM_PHRASE: &str = "Rotate the signing keys";
const ANSWER: &str = "Rotated the signing keys and updated the two callers.";

fn created(rig: &Rig, path: &str, body: Value) -> Value {
    let reply = rig.server.call("POST", path, Some(&body));
    assert_eq!(reply.status, 201, "{path}: {}", reply.text());
    reply.json()
}

#[test]
fn an_item_ready_for_an_agent_is_worked_by_claude_code_and_comes_back_for_review() {
    let Some(rig) = Rig::start(Api::Anthropic, &[]) else {
        return;
    };
    rig.server
        .set_setting("agentDrivenSessionsEnabled", json!(true));
    rig.server
        .set_setting("requireSpawnSourceSession", json!(false));
    rig.standin.answer(ITEM_PHRASE, Message::text(ANSWER));
    let workspace = created(&rig, "/workspaces", json!({"name": "Agents"}));
    let board = created(
        &rig,
        "/boards",
        json!({"workspaceId": workspace["id"], "name": "Agent tasks", "preset": "first-agent-board"}),
    );
    let item = created(
        &rig,
        &format!("/boards/{}/items", board["id"].as_str().unwrap()),
        json!({"name": ITEM_PHRASE, "values": {"prompt": "The old key leaked in a log.", "status": "Queued"}}),
    );
    let recipe = created(
        &rig,
        "/recipes",
        json!({"name": "Work an item", "engine": rig.engine(), "cwd": rig.work.path(),
               "prompt": "{{item.name}}\n\n{{item.prompt}}"}),
    );
    let rule = created(
        &rig,
        "/rules",
        json!({"name": "Agent loop",
               "when": {"kind": "item_status", "boardId": board["id"], "status": "Ready for agent"},
               "then": [{"kind": "start_recipe", "recipeId": recipe["id"],
                         "item": {"runningStatus": "Running", "finishedStatus": "Review",
                                  "failedStatus": "Failed"}}]}),
    );
    let item_path = format!("/items/{}", item["id"].as_str().unwrap());
    let moved = rig.server.call(
        "PATCH",
        &item_path,
        Some(&json!({"values": {"status": "Ready for agent"}})),
    );
    assert_eq!(moved.status, 200, "{}", moved.text());

    let deadline = Instant::now() + Duration::from_secs(120);
    let done = loop {
        let now = rig.server.call("GET", &item_path, None).json();
        if now["values"]["status"] == "Review" {
            break now;
        }
        assert!(
            Instant::now() < deadline,
            "never reviewed: {now}\nfirings: {}",
            rig.server
                .call(
                    "GET",
                    &format!("/rules/{}/firings", rule["id"].as_str().unwrap()),
                    None
                )
                .text()
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(done["values"]["summary"], ANSWER, "{done}");
    let firings = rig
        .server
        .call(
            "GET",
            &format!("/rules/{}/firings", rule["id"].as_str().unwrap()),
            None,
        )
        .json();
    let firing = &firings["firings"][0];
    assert_eq!(firing["outcome"], "done", "{firings}");
    let session = firing["sessionId"].as_str().unwrap();
    assert!(
        done["values"]["session"]
            .as_str()
            .unwrap()
            .contains(session),
        "{done}"
    );
    // Claude Code was asked with the item as its prompt.
    let asked = rig.standin.answered(ITEM_PHRASE);
    assert!(!asked.is_empty());
    assert!(
        asked[0]
            .body_text()
            .contains("The old key leaked in a log."),
        "{}",
        asked[0].body_text()
    );
    let session = rig
        .server
        .call("GET", &format!("/sessions/{session}"), None)
        .json();
    assert_eq!(session["agentDriven"], true, "{session}");
}
