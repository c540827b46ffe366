//! The pinned real Claude Code and Codex on an SSH runner (docs/runners.md):
//! a real sshd on loopback, logged into as a separate local user whose home
//! holds the engines' state, with everything a local session has: resumed
//! follow-ups, the permission hook and approvals through the tunnel,
//! Switchboard's MCP tools with the session's token, and the remote home's
//! sensitive files judged as that home's.

use serde_json::json;
use standins::{Api, Message};

use crate::claude::tool_result;
use crate::rig::Rig;
use crate::sshd::Sshd;

const RUNNER_USER: &str = "sbrunner";

fn rig_on_runner(api: Api, args: &[&str]) -> Option<(Rig, Sshd)> {
    let rig = Rig::start(api, args)?;
    let sshd = Sshd::start(RUNNER_USER)?;
    let rig = rig.on_runner(&sshd);
    Some((rig, sshd))
}

#[test]
fn claude_on_a_runner_resumes_its_conversation_and_calls_back_through_the_tunnel() {
    let Some((rig, sshd)) = rig_on_runner(Api::Anthropic, &[]) else {
        return;
    };
    let id = rig.two_turns_on_the_runner("2.1.330");
    let kept = sshd.as_user("ls -d \"$HOME/.claude\"");
    assert!(kept.contains(".claude"), "{kept}");

    // Switchboard's MCP tool, through the tunnel, with the session's token.
    let tool = "mcp__switchboard__read_session";
    rig.standin.push(Message::tool_search(
        "toolu_search",
        format!("select:{tool}"),
    ));
    rig.standin.push(Message::tool_call(
        "toolu_read",
        tool,
        json!({"sessionId": id}),
    ));
    rig.standin.push(Message::text("Read it."));
    rig.send(&id, "read your own session");
    let session = rig.wait_turn(&id, 3);
    assert_eq!(session["status"], "waiting_for_input", "{session}");
    let read = tool_result(&rig.standin.main_requests()[4], "toolu_read");
    assert_ne!(read["is_error"], true, "{read}");
    assert!(read.to_string().contains("devbox"), "{read}");
}

#[test]
fn an_approval_on_a_runner_answered_a_minute_later_lets_the_command_run_there() {
    let Some((rig, sshd)) = rig_on_runner(Api::Anthropic, &["--manual-clock"]) else {
        return;
    };
    rig.set_level("guarded");
    rig.standin.push(Message::tool_call(
        "toolu_bash",
        "Bash",
        json!({"command": "touch made-on-the-runner", "description": "run it"}),
    ));
    rig.standin.push(Message::text("Done."));
    let id = rig.spawn("make a file");
    // The hook ran on the runner host and reached the server through the
    // tunnel: the approval is here.
    let approval = rig.wait_approval(&id);
    assert_eq!(approval["tool"], "Bash", "{approval}");
    rig.advance_clock(61_000);
    std::thread::sleep(std::time::Duration::from_millis(200));
    rig.decide(&approval, "allow");
    let session = rig.wait_turn(&id, 1);
    assert_eq!(session["status"], "waiting_for_input", "{session}");
    let (_, work) = rig.remote.as_ref().unwrap();
    let made = sshd.as_user(&format!("ls {work}"));
    assert!(made.contains("made-on-the-runner"), "{made}");
    assert_eq!(
        tool_result(&rig.standin.main_requests()[1], "toolu_bash")["is_error"],
        false
    );
}

#[test]
fn a_read_of_the_runner_homes_private_key_asks_and_denied_leaks_nothing() {
    const SECRET: &str = "RUNNER-KEY-MATERIAL-9a7d";
    let Some((rig, sshd)) = rig_on_runner(Api::Anthropic, &[]) else {
        return;
    };
    rig.set_level("guarded");
    sshd.as_user(&format!(
        "mkdir -p \"$HOME/.ssh\" && printf '%s\\n' {SECRET} > \"$HOME/.ssh/id_runner_test\""
    ));
    let key = sshd.home.join(".ssh/id_runner_test");
    rig.standin.push(Message::tool_call(
        "toolu_read",
        "Read",
        json!({"file_path": key}),
    ));
    rig.standin.push(Message::text("I may not read it."));
    let id = rig.spawn("show me the key");
    let approval = rig.wait_approval(&id);
    assert_eq!(approval["rule"], "sensitive_path", "{approval}");
    rig.decide(&approval, "deny");
    rig.wait_turn(&id, 1);
    let denied = tool_result(&rig.standin.main_requests()[1], "toolu_read");
    assert_eq!(denied["is_error"], true, "{denied}");
    let seen = format!("{:?}{}", rig.standin.requests(), rig.transcript(&id));
    assert!(!seen.contains(SECRET), "the key leaked: {seen}");
    sshd.as_user("rm -f \"$HOME/.ssh/id_runner_test\"");
}

#[test]
fn codex_on_a_runner_resumes_its_thread_there() {
    let Some((rig, sshd)) = rig_on_runner(Api::OpenAi, &[]) else {
        return;
    };
    rig.standin.push(Message::text("One."));
    rig.standin.push(Message::text("Two."));
    let id = rig.spawn("first");
    let session = rig.wait_turn(&id, 1);
    assert_eq!(session["status"], "waiting_for_input", "{session}");
    let thread = session["engineSessionId"].as_str().unwrap().to_owned();
    rig.send(&id, "second");
    let session = rig.wait_turn(&id, 2);
    assert_eq!(session["status"], "waiting_for_input", "{session}");
    assert_eq!(session["engineSessionId"], thread.as_str());
    let requests = rig.standin.main_requests();
    let last = requests[1].body["input"].to_string();
    assert!(last.contains("first") && last.contains("One."), "{last}");
    let kept = sshd.as_user("ls \"$HOME/.codex\"");
    assert!(kept.contains("sessions"), "{kept}");
}
