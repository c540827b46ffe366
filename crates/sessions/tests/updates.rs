//! What the supervisor's updates say about archiving: every update of a
//! session's life (its spawn, its status moves, its output) says it is not
//! the archiving, and archiving it sends exactly one that is, with the
//! status it was left in.

mod common;

use common::*;
use sessions::Status;
use tokio::sync::broadcast::error::TryRecvError;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_archiving_update_says_archived() {
    let h = Harness::new().await;
    let mut updates = h.sup.subscribe();
    let id = h.spawn_ui("a", "echo", "hello").await.id;
    h.wait_status("a", &id, Status::WaitingForInput).await;
    h.sup.archive(&ui("a"), &id).await.unwrap();

    let mut seen = Vec::new();
    loop {
        match updates.try_recv() {
            Ok(update) if update.session_id == id => seen.push(update),
            Ok(_) => {}
            Err(TryRecvError::Empty) => break,
            Err(other) => panic!("{other:?}"),
        }
    }
    let (last, before) = seen.split_last().expect("updates for the session");
    assert!(before.len() >= 2, "a spawn and a move at least: {seen:?}");
    assert!(before.iter().all(|u| !u.archived), "{seen:?}");
    assert!(before.iter().any(|u| u.moved), "{seen:?}");
    assert!(last.archived, "{seen:?}");
    assert_eq!((last.status, last.moved), (Status::Finished, false));
}
