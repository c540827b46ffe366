//! The Ask tutor on the real Claude Code against the stand-in: its
//! session runs at `read_only` in a worktree of the bundled docs, its hook's
//! permission checks and Switchboard's reading tools work with its
//! read-only token, and a tool that writes is refused.

use serde_json::json;
use standins::{Api, Message};

use crate::claude::tool_result;
use crate::rig::Rig;

#[test]
fn the_tutor_finds_the_docs_reads_switchboard_and_changes_nothing() {
    let Some(rig) = Rig::start(Api::Anthropic, &[]) else {
        return;
    };
    let read = "mcp__switchboard__read_setting";
    let change = "mcp__switchboard__change_setting";
    rig.standin.push(Message::tool_call(
        "toolu_doc",
        "Read",
        json!({"file_path": "runners.md"}),
    ));
    rig.standin.push(Message::tool_search(
        "toolu_search_read",
        format!("select:{read}"),
    ));
    rig.standin.push(Message::tool_call(
        "toolu_read",
        read,
        json!({"key": "askAppEnabled"}),
    ));
    rig.standin.push(Message::tool_search(
        "toolu_search_change",
        format!("select:{change}"),
    ));
    rig.standin.push(Message::tool_call(
        "toolu_change",
        change,
        json!({"key": "askAppEnabled", "value": false}),
    ));
    rig.standin
        .push(Message::text("runners.md, \"Adding a runner\", says how."));

    let reply = rig.server.call(
        "POST",
        "/ask",
        Some(&json!({"question": "How do I add a runner?"})),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let id = reply.json()["sessionId"].as_str().unwrap().to_owned();
    let session = rig.wait_turn(&id, 1);
    assert_eq!(session["project"], "ask", "{session}");
    assert_eq!(session["permissionLevel"], "read_only", "{session}");

    let requests = rig.standin.main_requests();
    let first = requests[0].body_text();
    assert!(first.contains("How do I add a runner?"), "{first}");
    assert!(first.contains("## Fact sheet"), "{first}");
    let last = requests.last().unwrap();
    let doc = tool_result(last, "toolu_doc");
    assert_ne!(doc["is_error"], true, "{doc}");
    assert!(doc.to_string().contains("# Runners"), "{doc}");
    let setting = tool_result(last, "toolu_read");
    assert_ne!(setting["is_error"], true, "{setting}");
    assert!(setting.to_string().contains("askAppEnabled"), "{setting}");
    let refused = tool_result(last, "toolu_change");
    assert_eq!(refused["is_error"], true, "{refused}");
    assert_eq!(
        rig.server
            .call("GET", "/settings/askAppEnabled", None)
            .json()["value"],
        true
    );
}
