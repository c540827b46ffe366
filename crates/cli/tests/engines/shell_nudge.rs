//! `shellCwdPersistNudgeEnabled` with the real Claude Code: a new session's
//! first request to the model carries the sentence of docs/instructions.md
//! while the setting is on, and a session started after it is turned off
//! does not.

use serde_json::json;
use standins::{Api, Message};

use crate::rig::Rig;

const NUDGE: &str = "Your shell keeps its working folder between commands";

#[test]
fn new_sessions_are_told_their_shell_keeps_its_folder_while_the_setting_is_on() {
    let Some(rig) = Rig::start(Api::Anthropic, &[]) else {
        return;
    };
    rig.standin.push(Message::text("Noted."));
    let id = rig.spawn("build it");
    rig.wait_turn(&id, 1);
    let told = rig.standin.main_requests();
    assert!(
        told.last().unwrap().body_text().contains(NUDGE),
        "{}",
        told.last().unwrap().body_text()
    );

    rig.server
        .set_setting("shellCwdPersistNudgeEnabled", json!(false));
    rig.standin.push(Message::text("Noted."));
    let id = rig.spawn("build it again");
    rig.wait_turn(&id, 1);
    let untold = rig.standin.main_requests();
    assert_eq!(untold.len(), told.len() + 1);
    assert!(!untold.last().unwrap().body_text().contains(NUDGE));
}
