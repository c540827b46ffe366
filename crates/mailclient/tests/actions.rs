//! Triage, snooze, IDLE and the thread list's pages against a real dovecot
//! (`mail::rig`): each action checked on the server through a login of its
//! own and in the store; a refused action leaves the store as it was;
//! snoozed mail wakes once, where it came from, unread and on top.

mod support;

use std::collections::HashSet;
use std::time::Duration;

use futures_util::TryStreamExt;
use mail::rig::{MailServers, Options};
use mailclient::{Action, ClientError, MailStore, Syncer};
use support::{ACCOUNT, append, ids_on_server, login, message, on_server, open_store};

/// October 2025, after every generated message's date.
const LATER: i64 = 1_760_000_000;

fn thread_of(store: &MailStore, folder: &str, message_id: &str) -> String {
    store
        .uids(ACCOUNT, folder)
        .unwrap()
        .into_iter()
        .filter_map(|uid| store.message(ACCOUNT, folder, uid).unwrap())
        .find(|m| m.header.message_id.as_deref() == Some(message_id))
        .and_then(|m| m.thread_id)
        .unwrap_or_else(|| panic!("{message_id} is not stored in {folder}"))
}

/// Where the store has the thread's messages: (folder, Message-ID, flags).
fn stored(store: &MailStore, thread: &str) -> Vec<(String, String, Vec<String>)> {
    let mut rows: Vec<_> = store
        .thread(ACCOUNT, thread)
        .unwrap()
        .into_iter()
        .map(|m| {
            let mut flags = m.header.flags.clone();
            flags.sort();
            (m.folder, m.header.message_id.unwrap_or_default(), flags)
        })
        .collect();
    rows.sort();
    rows
}

#[tokio::test]
async fn actions_apply_on_the_server_then_in_the_store() {
    let Some(servers) = MailServers::start(Options::default()) else {
        return;
    };
    let login = login(&servers);
    let mut other = login.open().await.unwrap();
    for folder in ["Archive", "Junk", "Projects", "Doomed"] {
        other.create(folder).await.unwrap();
    }
    let ann = "Ann <ann@friends.test>";
    append(
        &mut other,
        "INBOX",
        &message("p1@t", &[], ann, "Picnic", "Lake?", 0),
    )
    .await;
    append(
        &mut other,
        "INBOX",
        &message("p2@t", &["p1@t"], ann, "Re: Picnic", "Bring bread", 1),
    )
    .await;
    append(
        &mut other,
        "INBOX",
        &message("junk@t", &[], "Deals <d@spam.test>", "WIN", "Click", 2),
    )
    .await;
    append(
        &mut other,
        "INBOX",
        &message("plan@t", &[], ann, "Plan", "Roadmap", 3),
    )
    .await;

    let dir = tempfile::tempdir().unwrap();
    let store = open_store(dir.path());
    let syncer = Syncer::new(store.clone());
    syncer.sync(ACCOUNT, &login).await.unwrap();
    let picnic = thread_of(&store, "INBOX", "p1@t");
    assert_eq!(thread_of(&store, "INBOX", "p2@t"), picnic);

    // Star and read the whole thread, then take both back.
    for (action, flag, on) in [
        (Action::Star, "Flagged", true),
        (Action::Read, "Seen", true),
        (Action::Unstar, "Flagged", false),
        (Action::Unread, "Seen", false),
    ] {
        let acted = syncer
            .apply(ACCOUNT, &login, "INBOX", &picnic, &action)
            .await
            .unwrap();
        assert_eq!(acted, 2, "{action:?}");
        let server = on_server(&mut other, "INBOX").await;
        for (id, flags) in server.iter().filter(|(id, _)| id == "p1@t" || id == "p2@t") {
            assert_eq!(
                flags.contains(flag),
                on,
                "{action:?} on the server: {id} {flags:?}"
            );
        }
        for (_, id, flags) in stored(&store, &picnic) {
            assert_eq!(
                flags.contains(&format!("\\{flag}")),
                on,
                "{action:?} in the store: {id} {flags:?}"
            );
        }
        let row = store
            .thread_page(ACCOUNT, "INBOX", None, None, 10)
            .unwrap()
            .threads
            .into_iter()
            .find(|t| t.id == picnic)
            .unwrap();
        match action {
            Action::Star | Action::Unstar => assert_eq!(row.starred, on),
            _ => assert_eq!(row.unread, if on { 0 } else { 2 }),
        }
    }
    let junk_flags = on_server(&mut other, "INBOX").await;
    assert!(
        junk_flags
            .iter()
            .filter(|(id, _)| id == "junk@t" || id == "plan@t")
            .all(|(_, flags)| flags.is_empty()),
        "other threads untouched: {junk_flags:?}"
    );

    // Archive: the thread leaves the Inbox for the Archive, keeping its id.
    syncer
        .apply(ACCOUNT, &login, "INBOX", &picnic, &Action::Archive)
        .await
        .unwrap();
    assert_eq!(ids_on_server(&mut other, "Archive").await, ["p1@t", "p2@t"]);
    assert_eq!(
        ids_on_server(&mut other, "INBOX").await,
        ["junk@t", "plan@t"]
    );
    let archived = stored(&store, &picnic);
    assert!(
        archived.iter().all(|(folder, _, _)| folder == "Archive"),
        "{archived:?}"
    );
    assert_eq!(archived.len(), 2);
    let inbox = store.thread_page(ACCOUNT, "INBOX", None, None, 10).unwrap();
    assert!(inbox.threads.iter().all(|t| t.id != picnic));
    let archive = store
        .thread_page(ACCOUNT, "Archive", None, None, 10)
        .unwrap();
    assert_eq!(archive.threads.len(), 1);
    assert_eq!(
        (archive.threads[0].id.as_str(), archive.threads[0].count),
        (picnic.as_str(), 2)
    );
    // The store's new UIDs are the server's: a sync finds nothing to change.
    let again = syncer.sync(ACCOUNT, &login).await.unwrap();
    assert_eq!(
        (again.fetched, again.dropped, again.flags_changed),
        (0, 0, 0),
        "{again:?}"
    );
    assert_eq!(stored(&store, &picnic), archived);

    // Spam, then not spam: to Junk and back to the Inbox.
    let junk = thread_of(&store, "INBOX", "junk@t");
    syncer
        .apply(ACCOUNT, &login, "INBOX", &junk, &Action::Spam)
        .await
        .unwrap();
    assert_eq!(ids_on_server(&mut other, "Junk").await, ["junk@t"]);
    assert_eq!(stored(&store, &junk)[0].0, "Junk");
    syncer
        .apply(ACCOUNT, &login, "Junk", &junk, &Action::NotSpam)
        .await
        .unwrap();
    assert!(ids_on_server(&mut other, "Junk").await.is_empty());
    assert_eq!(
        ids_on_server(&mut other, "INBOX").await,
        ["junk@t", "plan@t"]
    );
    assert_eq!(stored(&store, &junk)[0].0, "INBOX");

    // Move to a named folder.
    let plan = thread_of(&store, "INBOX", "plan@t");
    syncer
        .apply(
            ACCOUNT,
            &login,
            "INBOX",
            &plan,
            &Action::Move("Projects".to_owned()),
        )
        .await
        .unwrap();
    assert_eq!(ids_on_server(&mut other, "Projects").await, ["plan@t"]);
    assert_eq!(stored(&store, &plan)[0].0, "Projects");

    // A folder another client deleted: the server refuses, in its words,
    // and the store stays as it was.
    other.delete("Doomed").await.unwrap();
    let before = stored(&store, &plan);
    let refused = syncer
        .apply(
            ACCOUNT,
            &login,
            "Projects",
            &plan,
            &Action::Move("Doomed".to_owned()),
        )
        .await
        .unwrap_err();
    match &refused {
        ClientError::Refused { detail, .. } => {
            assert!(detail.contains("Doomed"), "the server's words: {refused}")
        }
        other => panic!("expected the server's refusal, got {other:?}"),
    }
    assert_eq!(stored(&store, &plan), before);
    assert_eq!(ids_on_server(&mut other, "Projects").await, ["plan@t"]);
    // The connection that failed is not reused broken: the next action works.
    syncer
        .apply(ACCOUNT, &login, "Projects", &plan, &Action::Star)
        .await
        .unwrap();

    let unknown = syncer
        .apply(ACCOUNT, &login, "INBOX", "no-such-thread", &Action::Archive)
        .await
        .unwrap_err();
    assert!(
        matches!(unknown, ClientError::NoSuchThread(_)),
        "{unknown:?}"
    );
    other.logout().await.unwrap();
}

#[tokio::test]
async fn snoozed_mail_wakes_once_where_it_came_from_unread_and_on_top() {
    let Some(servers) = MailServers::start(Options::default()) else {
        return;
    };
    let login = login(&servers);
    let mut other = login.open().await.unwrap();
    other.create("Projects").await.unwrap();
    let ann = "Ann <ann@friends.test>";
    append(
        &mut other,
        "INBOX",
        &message("s1@t", &[], ann, "Later", "first", 0),
    )
    .await;
    append(
        &mut other,
        "INBOX",
        &message("s2@t", &["s1@t"], ann, "Re: Later", "second", 1),
    )
    .await;
    append(
        &mut other,
        "INBOX",
        &message("new@t", &[], ann, "Fresh", "newest", 50),
    )
    .await;
    append(
        &mut other,
        "INBOX",
        &message("gone@t", &[], ann, "Gone", "bye", 5),
    )
    .await;
    append(
        &mut other,
        "Projects",
        &message("pr@t", &[], ann, "Spec", "draft", 6),
    )
    .await;

    let dir = tempfile::tempdir().unwrap();
    let store = open_store(dir.path());
    let syncer = Syncer::new(store.clone());
    syncer.sync(ACCOUNT, &login).await.unwrap();
    let later = thread_of(&store, "INBOX", "s1@t");
    let spec = thread_of(&store, "Projects", "pr@t");
    let gone = thread_of(&store, "INBOX", "gone@t");
    syncer
        .apply(ACCOUNT, &login, "INBOX", &later, &Action::Read)
        .await
        .unwrap();

    let wake_later = LATER;
    let wake_spec = LATER + 3_600;
    for (folder, thread, until) in [
        ("INBOX", &later, wake_later),
        ("Projects", &spec, wake_spec),
        ("INBOX", &gone, wake_later),
    ] {
        syncer
            .apply(ACCOUNT, &login, folder, thread, &Action::Snooze { until })
            .await
            .unwrap();
    }
    assert_eq!(
        ids_on_server(&mut other, "Snoozed").await,
        ["gone@t", "pr@t", "s1@t", "s2@t"]
    );
    assert_eq!(ids_on_server(&mut other, "INBOX").await, ["new@t"]);
    assert!(ids_on_server(&mut other, "Projects").await.is_empty());
    let rows = store.snoozed(ACCOUNT).unwrap();
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert!(
        rows.iter()
            .any(|r| r.source == "Projects" && r.wake_at == wake_spec)
    );
    let snoozed_list = store
        .thread_page(ACCOUNT, "Snoozed", None, None, 10)
        .unwrap();
    assert_eq!(
        snoozed_list.threads.len(),
        3,
        "the Snoozed folder lists them"
    );
    let again = syncer
        .apply(
            ACCOUNT,
            &login,
            "Snoozed",
            &later,
            &Action::Snooze { until: 1 },
        )
        .await;
    assert!(matches!(again, Err(ClientError::BadAction(_))), "{again:?}");

    // Another client deletes one snoozed mail: its row goes, nothing wakes.
    other.select("Snoozed").await.unwrap();
    let doomed = other
        .uid_search("HEADER Message-ID \"gone@t\"")
        .await
        .unwrap();
    let doomed: Vec<String> = doomed.iter().map(u32::to_string).collect();
    other
        .uid_store(doomed.join(","), "+FLAGS (\\Deleted)")
        .await
        .unwrap()
        .try_collect::<Vec<_>>()
        .await
        .unwrap();
    other
        .expunge()
        .await
        .unwrap()
        .try_collect::<Vec<_>>()
        .await
        .unwrap();

    // Not due yet.
    assert_eq!(
        syncer
            .wake_due(ACCOUNT, &login, wake_later - 1)
            .await
            .unwrap(),
        0
    );
    assert_eq!(store.snoozed(ACCOUNT).unwrap().len(), 4);

    // Due: the thread comes back to the Inbox, unread, on top.
    let now = wake_later + 60;
    assert_eq!(syncer.wake_due(ACCOUNT, &login, now).await.unwrap(), 2);
    let inbox = on_server(&mut other, "INBOX").await;
    let woken: Vec<_> = inbox.iter().filter(|(id, _)| id.starts_with('s')).collect();
    assert_eq!(woken.len(), 2, "{inbox:?}");
    assert!(
        woken.iter().all(|(_, flags)| !flags.contains("Seen")),
        "unread on the server: {woken:?}"
    );
    assert!(
        stored(&store, &later)
            .iter()
            .all(|(folder, _, flags)| folder == "INBOX" && !flags.contains(&"\\Seen".to_owned()))
    );
    let page = store.thread_page(ACCOUNT, "INBOX", None, None, 10).unwrap();
    assert_eq!(page.threads[0].id, later, "on top: {page:?}");
    assert_eq!(page.threads[0].date, now);
    assert_eq!(page.threads[0].unread, 2);
    let left: Vec<_> = store.snoozed(ACCOUNT).unwrap();
    assert_eq!(
        left.len(),
        1,
        "the woken and the vanished rows are gone: {left:?}"
    );
    assert_eq!(left[0].source, "Projects");
    assert!(
        !ids_on_server(&mut other, "Snoozed")
            .await
            .contains(&"gone@t".to_owned())
    );
    // Once: the same time again wakes nothing.
    assert_eq!(syncer.wake_due(ACCOUNT, &login, now).await.unwrap(), 0);

    // The app was down through the second wake-up: a new process, the
    // same database, a clock well past it wakes it once, to Projects.
    drop(syncer);
    let reopened = Syncer::new(open_store(dir.path()));
    let long_after = wake_spec + 86_400;
    assert_eq!(
        reopened
            .wake_due(ACCOUNT, &login, long_after)
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        reopened
            .wake_due(ACCOUNT, &login, long_after)
            .await
            .unwrap(),
        0
    );
    assert_eq!(ids_on_server(&mut other, "Projects").await, ["pr@t"]);
    assert!(ids_on_server(&mut other, "Snoozed").await.is_empty());
    let reopened_store = reopened.store();
    assert_eq!(stored(reopened_store, &spec)[0].0, "Projects");
    let projects = reopened_store
        .thread_page(ACCOUNT, "Projects", None, None, 10)
        .unwrap();
    assert_eq!(projects.threads[0].date, long_after);
    assert!(reopened_store.snoozed(ACCOUNT).unwrap().is_empty());

    // A sync afterwards agrees with what the wake-up recorded.
    let report = reopened.sync(ACCOUNT, &login).await.unwrap();
    assert_eq!(
        report.dropped, 1,
        "only the mail deleted elsewhere: {report:?}"
    );
    assert_eq!(report.fetched, 0, "woken mail is not new mail: {report:?}");
    assert!(report.new_in_inbox.is_empty(), "{report:?}");
    assert_eq!(stored(reopened_store, &later).len(), 2);
    other.logout().await.unwrap();
}

#[tokio::test]
async fn waiting_on_the_inbox_returns_when_mail_arrives() {
    let Some(servers) = MailServers::start(Options::default()) else {
        return;
    };
    let login = login(&servers);
    let mut other = login.open().await.unwrap();
    append(
        &mut other,
        "INBOX",
        &message("first@t", &[], "a@friends.test", "One", "one", 0),
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let syncer = std::sync::Arc::new(Syncer::new(open_store(dir.path())));

    // Before any sync the store is behind: no wait at all.
    tokio::time::timeout(Duration::from_secs(10), syncer.wait_inbox(ACCOUNT, &login))
        .await
        .expect("returns at once when the store is behind")
        .unwrap();
    syncer.sync(ACCOUNT, &login).await.unwrap();

    let waiting = {
        let (syncer, login) = (syncer.clone(), login.clone());
        tokio::spawn(async move { syncer.wait_inbox(ACCOUNT, &login).await })
    };
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    assert!(!waiting.is_finished(), "nothing changed yet");
    append(
        &mut other,
        "INBOX",
        &message("second@t", &[], "a@friends.test", "Two", "two", 1),
    )
    .await;
    tokio::time::timeout(Duration::from_secs(10), waiting)
        .await
        .expect("IDLE reports the APPEND")
        .unwrap()
        .unwrap();
    let report = syncer.sync_folder(ACCOUNT, &login, "INBOX").await.unwrap();
    assert_eq!(report.new_in_inbox.len(), 1, "{report:?}");
    other.logout().await.unwrap();
}

#[tokio::test]
async fn the_thread_list_pages_by_cursor_newest_first() {
    let Some(servers) = MailServers::start(Options::default()) else {
        return;
    };
    let login = login(&servers);
    let mut other = login.open().await.unwrap();
    // Seven threads; two share a minute, so the cursor must break the tie.
    let minutes = [0, 5, 5, 9, 12, 20, 31];
    for (n, minute) in minutes.iter().enumerate() {
        let subject = format!("topic {n}");
        append(
            &mut other,
            "INBOX",
            &message(
                &format!("t{n}@t"),
                &[],
                "a@friends.test",
                &subject,
                "hello",
                *minute,
            ),
        )
        .await;
    }
    append(
        &mut other,
        "INBOX",
        &message(
            "t0r@t",
            &["t0@t"],
            "b@friends.test",
            "Re: topic 0",
            "late reply",
            40,
        ),
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let store = open_store(dir.path());
    let syncer = Syncer::new(store.clone());
    syncer.sync(ACCOUNT, &login).await.unwrap();

    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    let mut sizes = Vec::new();
    loop {
        let page = syncer
            .thread_page(ACCOUNT, &login, "INBOX", None, cursor.as_deref(), 3)
            .await
            .unwrap();
        sizes.push(page.threads.len());
        seen.extend(page.threads);
        match page.next {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    assert_eq!(sizes, [3, 3, 1]);
    let ids: HashSet<&str> = seen.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids.len(), 7, "no thread twice, none left out");
    assert!(
        seen.windows(2)
            .all(|pair| (pair[0].date, &pair[0].id) > (pair[1].date, &pair[1].id)),
        "newest first: {seen:?}"
    );
    assert_eq!(
        seen[0].subject, "topic 0",
        "the late reply lifts its thread"
    );
    assert_eq!(seen[0].count, 2);
    assert_eq!(seen[0].participants, ["a@friends.test", "b@friends.test"]);
    assert_eq!(seen[0].snippet, "late reply");

    // A search pages the same way, over the matching threads only.
    let first = store
        .thread_page(ACCOUNT, "INBOX", Some("topic"), None, 4)
        .unwrap();
    let rest = store
        .thread_page(ACCOUNT, "INBOX", Some("topic"), first.next.as_deref(), 4)
        .unwrap();
    assert_eq!((first.threads.len(), rest.threads.len()), (4, 3));
    assert!(rest.next.is_none());
    let reply = store
        .thread_page(ACCOUNT, "INBOX", Some("late reply"), None, 4)
        .unwrap();
    assert_eq!(reply.threads.len(), 1);

    let bad = store.thread_page(ACCOUNT, "INBOX", None, Some("not a cursor"), 3);
    assert!(matches!(bad, Err(ClientError::BadCursor(_))), "{bad:?}");
    other.logout().await.unwrap();
}

#[tokio::test]
async fn without_move_a_thread_is_copied_then_expunged() {
    let Some(servers) = MailServers::start(Options { idle: false }) else {
        return;
    };
    let login = login(&servers);
    let mut other = login.open().await.unwrap();
    assert!(!other.capabilities().await.unwrap().has_str("MOVE"));
    other.create("Archive").await.unwrap();
    let ann = "Ann <ann@friends.test>";
    append(
        &mut other,
        "INBOX",
        &message("m1@t", &[], ann, "Old", "one", 0),
    )
    .await;
    append(
        &mut other,
        "INBOX",
        &message("m2@t", &["m1@t"], ann, "Re: Old", "two", 1),
    )
    .await;
    append(
        &mut other,
        "INBOX",
        &message("keep@t", &[], ann, "Keep", "three", 2),
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let store = open_store(dir.path());
    let syncer = Syncer::new(store.clone());
    syncer.sync(ACCOUNT, &login).await.unwrap();
    let old = thread_of(&store, "INBOX", "m1@t");
    syncer
        .apply(ACCOUNT, &login, "INBOX", &old, &Action::Archive)
        .await
        .unwrap();
    assert_eq!(ids_on_server(&mut other, "Archive").await, ["m1@t", "m2@t"]);
    assert_eq!(ids_on_server(&mut other, "INBOX").await, ["keep@t"]);
    assert!(
        stored(&store, &old)
            .iter()
            .all(|(folder, _, _)| folder == "Archive")
    );
    let again = syncer.sync(ACCOUNT, &login).await.unwrap();
    assert_eq!((again.fetched, again.dropped), (0, 0), "{again:?}");
    other.logout().await.unwrap();
}
