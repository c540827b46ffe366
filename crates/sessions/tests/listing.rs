//! Reading many sessions at once: `get_many` (the forwarder's one
//! transaction for every changed session) answers as `get` does for each,
//! in the order asked, leaving out what is gone or another account's; and
//! the list shows each session as `get` does, newest first.

mod common;

use common::*;
use sessions::Status;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_read_at_once_are_each_as_one_read_alone() {
    let h = Harness::new().await;
    let mut ids = Vec::new();
    for n in 0..3 {
        let id = h.spawn_ui("a", "echo", &format!("work {n}")).await.id;
        h.wait_status("a", &id, Status::WaitingForInput).await;
        ids.push(id);
    }
    let theirs = h.spawn_ui("b", "echo", "theirs").await.id;
    h.wait_status("b", &theirs, Status::WaitingForInput).await;

    let wanted = vec![
        ("a".to_owned(), ids[2].clone()),
        ("a".to_owned(), "no-such-session".to_owned()),
        ("a".to_owned(), theirs.clone()),
        ("a".to_owned(), ids[0].clone()),
        ("b".to_owned(), theirs.clone()),
    ];
    let read = h.sup.get_many(wanted).await.unwrap();
    let read_ids: Vec<&str> = read.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(
        read_ids,
        [ids[2].as_str(), ids[0].as_str(), theirs.as_str()]
    );
    for session in &read {
        let alone = h.sup.get(&session.account_id, &session.id).await.unwrap();
        assert_eq!(session, &alone);
    }

    let list = h.sup.list("a").await.unwrap();
    let listed: Vec<&str> = list.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(listed, [ids[2].as_str(), ids[1].as_str(), ids[0].as_str()]);
    for session in &list {
        assert_eq!(session, &h.sup.get("a", &session.id).await.unwrap());
    }
}
