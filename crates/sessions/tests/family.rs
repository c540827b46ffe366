//! Parents and children: who records a parent, `children` in order, and a
//! tree stop that leaves no process of the tree running.

mod common;

use common::*;
use sessions::{PromptSettings, Status};

async fn spawn_as(h: &Harness, caller: &sessions::Caller, engine: &str) -> String {
    h.sup
        .spawn(
            caller,
            &open_policy(),
            &PromptSettings::default(),
            request(engine, "work"),
        )
        .await
        .unwrap()
        .session
        .id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agent_token_or_a_live_header_session_is_the_parent() {
    let h = Harness::new().await;
    let root = h.spawn_ui("a", "gated", "root").await.id;
    h.wait_status("a", &root, Status::Running).await;
    // An agent token's own session wins over whatever the header says.
    let by_token = spawn_as(&h, &agent("a", &root, Some("elsewhere")), "echo").await;
    let by_header = spawn_as(&h, &cli("a", Some(&root)), "echo").await;
    let by_browser = spawn_as(&h, &ui_with_header("a", &root), "echo").await;
    // A header naming another account's session, or one that ended, is no parent.
    let other = spawn_as(&h, &cli("b", Some(&root)), "echo").await;
    h.wait_status("a", &by_token, Status::WaitingForInput).await;
    h.sup.stop(&ui("a"), &by_token).await.unwrap();
    let after_end = spawn_as(&h, &cli("a", Some(&by_token)), "echo").await;

    for id in [&by_token, &by_header, &by_browser] {
        let session = h.sup.get("a", id).await.unwrap();
        assert_eq!(session.parent_id.as_deref(), Some(root.as_str()), "{id}");
    }
    assert_eq!(h.sup.get("b", &other).await.unwrap().parent_id, None);
    assert_eq!(h.sup.get("a", &after_end).await.unwrap().parent_id, None);
    let root_session = h.sup.get("a", &root).await.unwrap();
    assert_eq!(root_session.children, vec![by_token, by_header, by_browser]);
    assert_eq!(root_session.parent_id, None);
    std::fs::write(h.path().join(format!("gate-{root}")), "").unwrap();
    // The engine ends before the test's folder goes, so it is not left polling for its gate.
    h.wait_status("a", &root, Status::WaitingForInput).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tree_stop_ends_every_descendant_and_nothing_else() {
    let h = Harness::new().await;
    let dir = h.path();
    let root = h.spawn_ui("a", "tree", "root").await.id;
    h.wait_status("a", &root, Status::Running).await;
    let child = spawn_as(&h, &agent("a", &root, None), "tree").await;
    h.wait_status("a", &child, Status::Running).await;
    let grandchild = spawn_as(&h, &cli("a", Some(&child)), "tree").await;
    // Already finished before the stop: left as it was.
    let finished = spawn_as(&h, &agent("a", &child, None), "echo").await;
    h.wait_status("a", &finished, Status::WaitingForInput).await;
    h.sup.archive(&ui("a"), &finished).await.unwrap();
    let bystander = h.spawn_ui("a", "tree", "unrelated").await.id;
    let mut pids = Vec::new();
    for id in [&root, &child, &grandchild, &bystander] {
        h.wait_status("a", id, Status::Running).await;
        pids.push(read_pid(&dir.join(format!("leader-{id}"))).await);
        pids.push(read_pid(&dir.join(format!("grandchild-{id}"))).await);
    }

    let stopped = h.sup.stop_tree(&ui("a"), &root).await.unwrap();
    assert_eq!(stopped.status, Status::Stopped);
    for id in [&child, &grandchild] {
        assert_eq!(h.sup.get("a", id).await.unwrap().status, Status::Stopped);
        assert!(!h.sup.is_live(id));
    }
    let finished = h.sup.get("a", &finished).await.unwrap();
    assert_eq!(
        (finished.status, finished.archived),
        (Status::Finished, true)
    );
    for pid in &pids[..6] {
        assert!(!alive(*pid), "pid {pid} of the tree is still running");
    }
    assert_eq!(
        h.sup.get("a", &bystander).await.unwrap().status,
        Status::Running
    );
    assert!(pids[6..].iter().all(|pid| alive(*pid)));
    h.sup.stop(&ui("a"), &bystander).await.unwrap();

    // Another account cannot stop the tree: it is not found.
    assert!(h.sup.stop_tree(&ui("b"), &root).await.is_err());
}
