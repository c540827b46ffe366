//! A permission level pinned at spawn: kept on the session, handed to every
//! turn's `TurnArgs` (a trigger of `email` beside it), and never read from a
//! request's JSON, so no caller of `POST /sessions` can pin one.

mod common;

use std::sync::{Arc, Mutex};

use common::*;
use permissions::Level;
use sessions::{
    EngineSpec, Hooks, PromptSettings, RemotePlace, Session, SpawnRequest, Status, Supervisor,
    Trigger, TurnArgs,
};

/// Records what each turn was asked with.
#[derive(Default)]
struct Recorder {
    asked: Mutex<Vec<(Option<Trigger>, Option<Level>)>>,
}

impl TurnArgs for Recorder {
    fn turn_args(
        &self,
        _session_id: &str,
        _engine: &EngineSpec,
        trigger: Option<Trigger>,
        session_level: Option<Level>,
        _remote: Option<&RemotePlace>,
    ) -> Vec<String> {
        self.asked.lock().unwrap().push((trigger, session_level));
        Vec::new()
    }
}

async fn spawn(sup: &Supervisor, request: SpawnRequest) -> Session {
    sup.spawn(
        &ui("a"),
        &open_policy(),
        &PromptSettings::default(),
        request,
    )
    .await
    .unwrap()
    .session
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pinned_level_is_kept_and_reaches_every_turn() {
    let dir = tempfile::tempdir().unwrap();
    let (data, _) = folders(dir.path());
    let db = Arc::new(store::Db::open(&data.join("switchboard.db")).unwrap());
    let clock: Arc<dyn clock::Clock> = Arc::new(clock::ManualClock::starting_now());
    let recorder = Arc::new(Recorder::default());
    let issuer: Arc<dyn sessions::TokenIssuer> = Arc::new(Issuer::default());
    let sup = Supervisor::start(
        Arc::clone(&db),
        clock,
        data.clone(),
        Some(CONTROL_URL.to_owned()),
        issuer,
        Hooks {
            turn_args: Some(recorder.clone() as Arc<dyn TurnArgs>),
            ..Hooks::default()
        },
        true,
    )
    .await
    .unwrap();

    let pinned = spawn(
        &sup,
        SpawnRequest {
            permission_level: Some(Level::ReadOnly),
            ..request("echo", "look")
        },
    )
    .await;
    assert_eq!(pinned.permission_level, Some(Level::ReadOnly));
    wait_status(&sup, "a", &pinned.id, Status::WaitingForInput).await;
    sup.send(&ui("a"), &open_policy(), &pinned.id, "again")
        .await
        .unwrap();
    eventually("the second turn", || {
        recorder.asked.lock().unwrap().len() == 2
    })
    .await;
    assert_eq!(
        *recorder.asked.lock().unwrap(),
        vec![(None, Some(Level::ReadOnly)); 2]
    );
    let read = sup.get("a", &pinned.id).await.unwrap();
    assert_eq!(read.permission_level, Some(Level::ReadOnly));
    let json = serde_json::to_value(&read).unwrap();
    assert_eq!(json["permissionLevel"], "read_only");

    // Unpinned: nothing, and an email trigger is handed on beside it.
    let plain = spawn(
        &sup,
        SpawnRequest {
            trigger: Some(Trigger::Email),
            ..request("echo", "mail")
        },
    )
    .await;
    assert_eq!(plain.permission_level, None);
    eventually("the email session's turn", || {
        recorder.asked.lock().unwrap().len() == 3
    })
    .await;
    assert_eq!(
        recorder.asked.lock().unwrap()[2],
        (Some(Trigger::Email), None)
    );
    assert_eq!(
        serde_json::to_value(&plain).unwrap()["permissionLevel"],
        serde_json::Value::Null
    );
}

#[test]
fn a_request_cannot_pin_a_level() {
    let request: SpawnRequest = serde_json::from_value(serde_json::json!({
        "engine": "echo",
        "prompt": "p",
        "permissionLevel": "full",
    }))
    .unwrap();
    assert_eq!(request.permission_level, None);
}
