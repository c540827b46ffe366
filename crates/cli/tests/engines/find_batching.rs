//! `agentFindBatchingEnabled` with the real Claude Code: the model asks for
//! `find … -exec echo {} \;`, the permission hook answers `updatedInput`,
//! and the command that ran was the batched one: one `echo` for every file
//! prints the names on one line, where one per file prints a line each.

use serde_json::json;

use crate::claude::{bash_then_done, tool_result};
use crate::rig::Rig;
use standins::Api;

const ASKED: &str = r"find . -name '*.txt' -exec echo {} \;";

/// What the command printed, as the model was told.
fn printed(rig: &Rig) -> String {
    let requests = rig.standin.main_requests();
    let result = tool_result(requests.last().unwrap(), "toolu_bash");
    assert_eq!(result["is_error"], false, "{result}");
    match &result["content"] {
        serde_json::Value::String(text) => text.clone(),
        blocks => blocks
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|block| block["text"].as_str())
            .collect(),
    }
}

#[test]
fn a_find_exec_runs_batched_while_the_setting_is_on() {
    let Some(rig) = Rig::start(Api::Anthropic, &[]) else {
        return;
    };
    rig.set_level("autonomous");
    for name in ["a.txt", "b.txt"] {
        std::fs::write(rig.work.path().join(name), "x").unwrap();
    }

    bash_then_done(&rig, ASKED);
    let first = rig.spawn("list the text files");
    rig.wait_turn(&first, 1);
    let batched = printed(&rig);
    let lines: Vec<&str> = batched.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "one echo for both files: {batched:?}");
    let mut names: Vec<&str> = lines[0].split_whitespace().collect();
    names.sort_unstable();
    assert_eq!(names, ["./a.txt", "./b.txt"], "{batched:?}");

    // Off, a new session runs the command as the model wrote it.
    rig.server
        .set_setting("agentFindBatchingEnabled", json!(false));
    bash_then_done(&rig, ASKED);
    let id = rig.spawn("list the text files again");
    rig.wait_turn(&id, 1);
    let per_file = printed(&rig);
    let mut lines: Vec<&str> = per_file.lines().filter(|l| !l.trim().is_empty()).collect();
    lines.sort_unstable();
    assert_eq!(
        lines,
        ["./a.txt", "./b.txt"],
        "one echo per file: {per_file:?}"
    );

    // The first session started while it was on: it keeps batching.
    bash_then_done(&rig, ASKED);
    rig.send(&first, "list them once more");
    rig.wait_turn(&first, 2);
    let still = printed(&rig);
    assert_eq!(
        still.lines().filter(|l| !l.trim().is_empty()).count(),
        1,
        "the setting is pinned at the session's start: {still:?}"
    );
}
