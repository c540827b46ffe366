//! Crash recovery with a real crash: the test binary re-runs itself as a child
//! that supervises sessions, the parent SIGKILLs it, then starts a new
//! supervisor on the same database and checks what came back.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::*;
use sessions::{SessionError, Status};

const CHILD_DIR: &str = "SESSIONS_CRASH_CHILD_DIR";

/// Not a test of its own: the body of the child process the crash tests start
/// (ignored, so a normal run neither runs nor counts it). Without the
/// variable it has nothing to do.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "the child process of the crash tests; they run it themselves"]
async fn crash_child() {
    let Some(dir) = std::env::var_os(CHILD_DIR) else {
        return;
    };
    let (data, scratch) = folders(Path::new(&dir));
    let db = std::sync::Arc::new(store::Db::open(&data.join("switchboard.db")).unwrap());
    let issuer = std::sync::Arc::new(Issuer::default());
    let clock = std::sync::Arc::new(clock::ManualClock::starting_now());
    let sup = start(&db, &clock, &data, &issuer, true).await;
    let spawn = |engine: &'static str, prompt: &'static str| {
        let sup = sup.clone();
        async move {
            sup.spawn(
                &ui("a"),
                &open_policy(),
                &sessions::PromptSettings::default(),
                request(engine, prompt),
            )
            .await
            .unwrap()
            .session
            .id
        }
    };
    let running = spawn("long", "work for a long time").await;
    let waiting = spawn("echo", "quick").await;
    wait_status(&sup, "a", &running, Status::Running).await;
    wait_status(&sup, "a", &waiting, Status::WaitingForInput).await;
    read_pid(&scratch.join(format!("orphan-{running}"))).await;
    // Renamed into place whole: the parent kills this process as soon as `ready` exists, and a
    // file written in place can be seen (and this process killed) before its text is in it.
    let written = scratch.join("ready.partial");
    std::fs::write(&written, format!("{running} {waiting}")).unwrap();
    std::fs::rename(&written, scratch.join("ready")).unwrap();
    tokio::time::sleep(Duration::from_secs(600)).await;
}

/// Runs the child on `dir`'s folders, waits until its sessions are set,
/// SIGKILLs it, and returns (running id, waiting id, orphan pid).
async fn crash(dir: &Path) -> (String, String, u32) {
    let (_, scratch) = folders(dir);
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["crash_child", "--exact", "--ignored", "--nocapture"])
        .env(CHILD_DIR, dir)
        .spawn()
        .unwrap();
    let ready = scratch.join("ready");
    eventually("the child's sessions", || ready.exists()).await;
    child.kill().unwrap();
    child.wait().unwrap();
    let text = std::fs::read_to_string(&ready).unwrap();
    let (running, waiting) = text.split_once(' ').unwrap();
    let orphan = read_pid(&scratch.join(format!("orphan-{running}"))).await;
    assert!(alive(orphan), "the dead server's engine should outlive it");
    (running.to_owned(), waiting.to_owned(), orphan)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_crash_running_sessions_resume_with_a_nudge_and_waiting_ones_are_restored() {
    let dir = tempfile::tempdir().unwrap();
    let (running, waiting, orphan) = crash(dir.path()).await;

    let db = std::sync::Arc::new(store::Db::open(&dir.path().join("data/switchboard.db")).unwrap());
    let issuer = std::sync::Arc::new(Issuer::default());
    let clock = std::sync::Arc::new(clock::ManualClock::starting_now());
    let sup = start(&db, &clock, &dir.path().join("data"), &issuer, true).await;
    assert!(
        !alive(orphan),
        "the orphaned engine process must be ended at start"
    );
    assert!(issuer.was_revoked(&running) && issuer.was_revoked(&waiting));

    wait_status(&sup, "a", &running, Status::WaitingForInput).await;
    let turns = sup.transcript("a", &running).await.unwrap().turns;
    assert_eq!(turns.len(), 2);
    assert_eq!(turns[0].status, "interrupted");
    assert_eq!(turns[1].kind, "nudge");
    assert!(turns[1].output.contains("Continue where you left off"));
    assert!(sup.is_live(&running));

    let restored = sup.get("a", &waiting).await.unwrap();
    assert_eq!(restored.status, Status::WaitingForInput);
    assert!(sup.is_live(&waiting));
    sup.send(&ui("a"), &open_policy(), &waiting, "after restart")
        .await
        .unwrap();
    eventually("the restored session's next turn", || {
        issuer.minted.lock().unwrap().contains(&waiting)
    })
    .await;
    sup.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_crash_without_auto_resume_sessions_are_interrupted() {
    let dir = tempfile::tempdir().unwrap();
    let (running, waiting, orphan) = crash(dir.path()).await;

    let db = std::sync::Arc::new(store::Db::open(&dir.path().join("data/switchboard.db")).unwrap());
    let issuer = std::sync::Arc::new(Issuer::default());
    let clock = std::sync::Arc::new(clock::ManualClock::starting_now());
    let sup = start(&db, &clock, &dir.path().join("data"), &issuer, false).await;
    assert!(!alive(orphan));
    for id in [&running, &waiting] {
        let session = sup.get("a", id).await.unwrap();
        assert_eq!(session.status, Status::Interrupted);
        assert!(!sup.is_live(id));
        assert!(issuer.was_revoked(id));
        assert!(matches!(
            sup.send(&ui("a"), &open_policy(), id, "hello").await,
            Err(SessionError::SessionEnded {
                status: Status::Interrupted
            })
        ));
    }
    let events = sup.transcript("a", &running).await.unwrap().events;
    assert_eq!(events.last().unwrap().from, Some(Status::Running));
}
