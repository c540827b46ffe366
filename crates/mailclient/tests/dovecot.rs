//! Sync against a real dovecot (`mail::rig`): threads, search and bodies on
//! demand, incremental sync of new mail, flags and expunges (with CONDSTORE
//! and without), a renumbered folder, and 2,000 messages fetched in windows
//! through a proxy that cuts the connection mid-sync; 10,000 written into
//! the maildir, synced in windows, listed page by page and searched.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use futures_util::TryStreamExt;
use mail::rig::{MailServers, Options, PASSWORD};
use mail::{Tls, Trust};
use mailclient::{ImapSession, Login, Role, Syncer};

mod support;

use support::{ACCOUNT, append, login, message, open_store};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A plain-text login through `port` (the cutting proxy).
fn plain_login(servers: &MailServers, port: u16) -> Login {
    let config = servers.config(Tls::None, false, 60);
    let mut server = config.accounts[0].imap.clone();
    server.host = "127.0.0.1".to_owned();
    server.port = port;
    Login {
        server,
        password: PASSWORD.to_owned(),
        trust: Trust::load(&config).unwrap(),
    }
}

async fn uid_of(session: &mut ImapSession, folder: &str, message_id: &str) -> u32 {
    session.select(folder).await.unwrap();
    let found = session
        .uid_search(format!("HEADER Message-ID \"{message_id}\""))
        .await
        .unwrap();
    found.into_iter().next().unwrap()
}

#[tokio::test]
async fn syncs_threads_searches_and_follows_changes() {
    let Some(servers) = MailServers::start(Options::default()) else {
        return;
    };
    let login = login(&servers);
    let mut session = login.open().await.unwrap();
    session.create("Sent").await.unwrap();
    append(
        &mut session,
        "INBOX",
        &message(
            "a@t",
            &[],
            "Ann <ann@friends.test>",
            "Picnic",
            "Saturday at the lake?",
            0,
        ),
    )
    .await;
    append(
        &mut session,
        "Sent",
        &message(
            "b@t",
            &["a@t"],
            "agent@switchboard.test",
            "Re: Picnic",
            "Yes, I bring bread.\r\n> Saturday at the lake?",
            1,
        ),
    )
    .await;
    append(
        &mut session,
        "INBOX",
        &message(
            "c@t",
            &["a@t", "b@t"],
            "Ann <ann@friends.test>",
            "Re: Picnic",
            "Great, see you.",
            2,
        ),
    )
    .await;
    let long_body = format!(
        "Pay the invoice now.\r\n{}\r\nzebracorn",
        "filler line\r\n".repeat(300)
    );
    append(
        &mut session,
        "INBOX",
        &message(
            "x@spam",
            &[],
            "Stranger <deals@spam.test>",
            "Unpaid invoice",
            &long_body,
            3,
        ),
    )
    .await;

    let dir = tempfile::tempdir().unwrap();
    let store = open_store(dir.path());
    let syncer = Syncer::new(store.clone());
    let first = syncer.sync(ACCOUNT, &login).await.unwrap();
    assert_eq!(first.fetched, 4, "{first:?}");
    let folders = store.folders(ACCOUNT).unwrap();
    let role = |name: &str| folders.iter().find(|f| f.name == name).unwrap().role;
    assert_eq!(role("INBOX"), Some(Role::Inbox));
    assert_eq!(
        role("Sent"),
        Some(Role::Sent),
        "from SPECIAL-USE: {folders:?}"
    );

    let reply = store.message(ACCOUNT, "Sent", 1).unwrap().unwrap();
    assert_eq!(reply.header.preview, "Yes, I bring bread.");
    assert_eq!(reply.header.from, "agent@switchboard.test");
    let thread_id = reply.thread_id.clone().unwrap();
    let thread = store.thread(ACCOUNT, &thread_id).unwrap();
    let ids: Vec<_> = thread
        .iter()
        .map(|m| m.header.message_id.clone().unwrap())
        .collect();
    assert_eq!(ids, ["a@t", "b@t", "c@t"]);
    let stranger_uid = uid_of(&mut session, "INBOX", "x@spam").await;
    let stranger = store
        .message(ACCOUNT, "INBOX", stranger_uid)
        .unwrap()
        .unwrap();
    assert_ne!(stranger.thread_id.as_deref(), Some(thread_id.as_str()));

    let hits = store.search(ACCOUNT, "invoice").unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].header.message_id.as_deref(), Some("x@spam"));
    assert_eq!(
        store.search(ACCOUNT, "ann picnic").unwrap().len(),
        2,
        "participants and subject: Ann's two, not the reply sent to her by the agent"
    );
    assert!(
        store.search(ACCOUNT, "\"unbalanced OR").unwrap().is_empty(),
        "user text is not FTS syntax"
    );
    assert!(
        store.search(ACCOUNT, "zebracorn").unwrap().is_empty(),
        "beyond the preview"
    );
    let body = syncer
        .fetch_body(ACCOUNT, "INBOX", stranger_uid, &login)
        .await
        .unwrap();
    assert!(body.text.contains("zebracorn"));
    assert_eq!(
        store.search(ACCOUNT, "zebracorn").unwrap().len(),
        1,
        "the body is indexed once fetched"
    );

    // New mail, a flag set elsewhere, a message expunged elsewhere.
    append(
        &mut session,
        "INBOX",
        &message(
            "d@t",
            &["a@t", "b@t", "c@t"],
            "Ann <ann@friends.test>",
            "Re: Picnic",
            "Bring a hat.",
            4,
        ),
    )
    .await;
    append(
        &mut session,
        "INBOX",
        &message(
            "gone@t",
            &[],
            "Bo <bo@friends.test>",
            "Short-lived",
            "soon gone",
            5,
        ),
    )
    .await;
    let before_gone = syncer.sync(ACCOUNT, &login).await.unwrap();
    assert_eq!(before_gone.fetched, 2);
    session.select("INBOX").await.unwrap();
    session
        .uid_store(stranger_uid.to_string(), "+FLAGS (\\Flagged)")
        .await
        .unwrap()
        .try_collect::<Vec<_>>()
        .await
        .unwrap();
    let gone_uid = uid_of(&mut session, "INBOX", "gone@t").await;
    session
        .uid_store(gone_uid.to_string(), "+FLAGS (\\Deleted)")
        .await
        .unwrap()
        .try_collect::<Vec<_>>()
        .await
        .unwrap();
    session
        .expunge()
        .await
        .unwrap()
        .try_collect::<Vec<_>>()
        .await
        .unwrap();

    let again = syncer.sync(ACCOUNT, &login).await.unwrap();
    assert_eq!(again.fetched, 0, "{again:?}");
    assert_eq!(again.dropped, 1, "{again:?}");
    assert!(
        again.flags_read < 6,
        "CONDSTORE reads only what changed: {again:?}"
    );
    let flagged = store
        .message(ACCOUNT, "INBOX", stranger_uid)
        .unwrap()
        .unwrap();
    assert!(
        flagged.header.flags.contains(&"\\Flagged".to_owned()),
        "{:?}",
        flagged.header.flags
    );
    assert!(store.message(ACCOUNT, "INBOX", gone_uid).unwrap().is_none());
    let thread = store.thread(ACCOUNT, &thread_id).unwrap();
    assert_eq!(
        thread.len(),
        4,
        "the new reply joins the thread, whose id stays"
    );
    session.logout().await.unwrap();
}

#[tokio::test]
async fn without_condstore_flags_are_read_again_in_windows() {
    let Some(servers) = MailServers::start(Options { idle: false }) else {
        return;
    };
    let login = login(&servers);
    let mut session = login.open().await.unwrap();
    assert!(!session.capabilities().await.unwrap().has_str("CONDSTORE"));
    session.create("Sent").await.unwrap();
    for n in 0..5 {
        append(
            &mut session,
            "INBOX",
            &message(
                &format!("m{n}@t"),
                &[],
                "Ann <ann@friends.test>",
                &format!("note {n}"),
                "hi",
                n,
            ),
        )
        .await;
    }
    let dir = tempfile::tempdir().unwrap();
    let store = open_store(dir.path());
    let syncer = Syncer::new(store.clone()).with_window(2);
    let first = syncer.sync(ACCOUNT, &login).await.unwrap();
    assert_eq!(first.fetched, 5);
    let folders = store.folders(ACCOUNT).unwrap();
    let sent = folders.iter().find(|f| f.name == "Sent").unwrap();
    assert_eq!(sent.role, Some(Role::Sent), "by name without SPECIAL-USE");

    session.select("INBOX").await.unwrap();
    session
        .uid_store("2", "+FLAGS (\\Seen)")
        .await
        .unwrap()
        .try_collect::<Vec<_>>()
        .await
        .unwrap();
    session
        .uid_store("4", "+FLAGS (\\Deleted)")
        .await
        .unwrap()
        .try_collect::<Vec<_>>()
        .await
        .unwrap();
    session
        .expunge()
        .await
        .unwrap()
        .try_collect::<Vec<_>>()
        .await
        .unwrap();
    let again = syncer.sync(ACCOUNT, &login).await.unwrap();
    assert_eq!(
        (again.fetched, again.dropped, again.flags_read),
        (0, 1, 4),
        "{again:?}"
    );
    assert_eq!(
        store
            .message(ACCOUNT, "INBOX", 2)
            .unwrap()
            .unwrap()
            .header
            .flags,
        ["\\Seen"]
    );
    assert_eq!(store.uids(ACCOUNT, "INBOX").unwrap(), [1, 2, 3, 5]);
}

#[tokio::test]
async fn a_new_uidvalidity_drops_and_refetches_the_folder() {
    let Some(servers) = MailServers::start(Options::default()) else {
        return;
    };
    let login = login(&servers);
    let mut session = login.open().await.unwrap();
    session.create("Lists").await.unwrap();
    for n in 0..3 {
        append(
            &mut session,
            "Lists",
            &message(
                &format!("old{n}@t"),
                &[],
                "list@lists.test",
                "old digest",
                "old",
                n,
            ),
        )
        .await;
    }
    let dir = tempfile::tempdir().unwrap();
    let store = open_store(dir.path());
    let syncer = Syncer::new(store.clone());
    syncer.sync(ACCOUNT, &login).await.unwrap();
    let before = store.folder(ACCOUNT, "Lists").unwrap().unwrap();
    assert_eq!(store.uids(ACCOUNT, "Lists").unwrap().len(), 3);

    session.delete("Lists").await.unwrap();
    session.create("Lists").await.unwrap();
    for n in 0..2 {
        append(
            &mut session,
            "Lists",
            &message(
                &format!("new{n}@t"),
                &[],
                "list@lists.test",
                "fresh digest",
                "new",
                n,
            ),
        )
        .await;
    }
    let report = syncer.sync(ACCOUNT, &login).await.unwrap();
    assert_eq!(report.renumbered, ["Lists"]);
    let after = store.folder(ACCOUNT, "Lists").unwrap().unwrap();
    assert_ne!(after.uid_validity, before.uid_validity);
    let ids: HashSet<String> = store
        .uids(ACCOUNT, "Lists")
        .unwrap()
        .into_iter()
        .map(|uid| {
            store
                .message(ACCOUNT, "Lists", uid)
                .unwrap()
                .unwrap()
                .header
                .message_id
                .unwrap()
        })
        .collect();
    assert_eq!(
        ids,
        HashSet::from(["new0@t".to_owned(), "new1@t".to_owned()])
    );
    assert!(store.search(ACCOUNT, "old").unwrap().is_empty());
}

/// A TCP proxy to dovecot's plain IMAP port that records the longest line
/// the client sent and, when `cut_after` is set, drops the connection once
/// the server sent that many bytes.
async fn proxy(target: u16, cut_after: Option<usize>) -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let longest = Arc::new(AtomicUsize::new(0));
    let seen = longest.clone();
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let server = TcpStream::connect(("127.0.0.1", target)).await.unwrap();
            let longest = seen.clone();
            tokio::spawn(async move {
                let (mut client_read, mut client_write) = client.into_split();
                let (mut server_read, mut server_write) = server.into_split();
                let up = async {
                    let mut buffer = [0u8; 8192];
                    let mut line = 0;
                    while let Ok(n) = client_read.read(&mut buffer).await {
                        if n == 0 {
                            break;
                        }
                        for byte in &buffer[..n] {
                            if *byte == b'\n' {
                                longest.fetch_max(line, Ordering::SeqCst);
                                line = 0;
                            } else {
                                line += 1;
                            }
                        }
                        if server_write.write_all(&buffer[..n]).await.is_err() {
                            break;
                        }
                    }
                };
                let down = async {
                    let mut buffer = [0u8; 8192];
                    let mut total = 0;
                    while let Ok(n) = server_read.read(&mut buffer).await {
                        total += n;
                        if n == 0 || cut_after.is_some_and(|cut| total > cut) {
                            break;
                        }
                        if client_write.write_all(&buffer[..n]).await.is_err() {
                            break;
                        }
                    }
                };
                tokio::select! {
                    () = up => {}
                    () = down => {}
                }
            });
        }
    });
    (port, longest)
}

#[tokio::test]
async fn two_thousand_messages_in_windows_resumed_after_a_drop() {
    let Some(servers) = MailServers::start(Options::default()) else {
        return;
    };
    let mut session = login(&servers).open().await.unwrap();
    const TOTAL: usize = 2_000;
    for n in 0..TOTAL {
        let raw = message(
            &format!("bulk{n}@t"),
            &[],
            "News <news@bulk.test>",
            &format!("issue {n}"),
            "short news",
            (n % 600) as u32,
        );
        append(&mut session, "INBOX", &raw).await;
    }
    let dir = tempfile::tempdir().unwrap();
    let store = open_store(dir.path());
    let syncer = Syncer::new(store.clone()).with_window(500);

    let (cutting, _) = proxy(servers.imap_port, Some(300_000)).await;
    let cut = syncer.sync(ACCOUNT, &plain_login(&servers, cutting)).await;
    assert!(cut.is_err(), "the proxy dropped the connection: {cut:?}");
    let kept = store.uids(ACCOUNT, "INBOX").unwrap().len();
    assert!(
        kept > 0 && kept < TOTAL && kept.is_multiple_of(500),
        "whole windows kept: {kept}"
    );

    let (clean, longest) = proxy(servers.imap_port, None).await;
    let resumed = syncer
        .sync(ACCOUNT, &plain_login(&servers, clean))
        .await
        .unwrap();
    assert_eq!(resumed.fetched, TOTAL - kept, "{resumed:?}");
    let uids = store.uids(ACCOUNT, "INBOX").unwrap();
    assert_eq!(uids.len(), TOTAL);
    let ids: HashSet<String> = store
        .search(ACCOUNT, "news")
        .unwrap()
        .into_iter()
        .filter_map(|m| m.header.message_id)
        .collect();
    assert_eq!(ids.len(), mailclient::MAX_HITS, "search is capped");
    assert!(
        longest.load(Ordering::SeqCst) < 300,
        "no long command line: {}",
        longest.load(Ordering::SeqCst)
    );
    assert!(
        resumed.fetch_commands >= (TOTAL - kept) / 500,
        "{resumed:?}"
    );
}

/// Message `n` of a generated mailbox: threads of five, a distinct word in
/// each body, a second apart.
fn bulk(n: usize) -> Vec<u8> {
    let root = n - n % 5;
    let mut raw = format!(
        "Message-ID: <m{n}@bulk.test>\r\nFrom: Sender {} <s{}@bulk.test>\r\n\
To: agent@switchboard.test\r\nSubject: {}topic {root}\r\nDate: {}\r\n",
        n % 97,
        n % 97,
        if n == root { "" } else { "Re: " },
        mail_date(1_750_000_000 + n as i64),
    );
    if n != root {
        raw.push_str(&format!(
            "In-Reply-To: <m{}@bulk.test>\r\nReferences: <m{root}@bulk.test>\r\n",
            n - 1
        ));
    }
    raw.push_str(&format!(
        "Content-Type: text/plain; charset=utf-8\r\n\r\nnote needle{n} of the bulk run\r\n"
    ));
    raw.into_bytes()
}

/// An RFC 5322 date of Unix seconds (UTC).
fn mail_date(at: i64) -> String {
    let days = at.div_euclid(86_400);
    let secs = at.rem_euclid(86_400);
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    format!(
        "{day} {} {year} {:02}:{:02}:{:02} +0000",
        MONTHS[(month - 1) as usize],
        secs / 3_600,
        secs % 3_600 / 60,
        secs % 60
    )
}

#[tokio::test]
async fn ten_thousand_messages_sync_in_windows_and_are_listed_and_found() {
    let Some(servers) = MailServers::start(Options::default()) else {
        return;
    };
    const TOTAL: usize = 10_000;
    assert_eq!(mail_date(1_751_364_000), "1 Jul 2025 10:00:00 +0000");
    // Dovecot makes the mailbox on the first login; then the mail is
    // written straight into it.
    login(&servers)
        .open()
        .await
        .unwrap()
        .logout()
        .await
        .unwrap();
    assert_eq!(servers.seed("INBOX", (0..TOTAL).map(bulk)).unwrap(), TOTAL);

    let dir = tempfile::tempdir().unwrap();
    let store = open_store(dir.path());
    let syncer = Syncer::new(store.clone());
    let (port, longest) = proxy(servers.imap_port, None).await;
    let started = std::time::Instant::now();
    let report = syncer
        .sync(ACCOUNT, &plain_login(&servers, port))
        .await
        .unwrap();
    eprintln!("first sync of {TOTAL}: {:?}", started.elapsed());
    assert_eq!(report.fetched, TOTAL, "{report:?}");
    assert_eq!(report.new_in_inbox.len(), TOTAL);
    assert!(
        report.fetch_commands >= TOTAL / mailclient::WINDOW as usize,
        "{report:?}"
    );
    assert!(
        longest.load(Ordering::SeqCst) < 300,
        "no long command line: {}",
        longest.load(Ordering::SeqCst)
    );
    let inbox = store
        .folder_list(ACCOUNT)
        .unwrap()
        .into_iter()
        .find(|f| f.name == "INBOX")
        .unwrap();
    assert_eq!((inbox.total, inbox.unread), (TOTAL as u32, TOTAL as u32));

    // The thread list: 2,000 threads of five, newest first, every one
    // exactly once across the pages.
    let started = std::time::Instant::now();
    let first = store.thread_page(ACCOUNT, "INBOX", None, None, 50).unwrap();
    eprintln!("first page at {TOTAL}: {:?}", started.elapsed());
    assert_eq!(first.threads[0].subject, format!("topic {}", TOTAL - 5));
    assert_eq!(first.threads[0].count, 5);
    let mut seen = HashSet::new();
    let mut cursor = None;
    loop {
        let page = store
            .thread_page(ACCOUNT, "INBOX", None, cursor.as_deref(), 200)
            .unwrap();
        for thread in &page.threads {
            assert_eq!(thread.count, 5, "{thread:?}");
            assert!(seen.insert(thread.id.clone()), "twice: {thread:?}");
        }
        match page.next {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    assert_eq!(seen.len(), TOTAL / 5);

    // The index: one word finds its one message and thread.
    let started = std::time::Instant::now();
    let hits = store.search(ACCOUNT, "needle7777").unwrap();
    eprintln!("search at {TOTAL}: {:?}", started.elapsed());
    assert_eq!(hits.len(), 1);
    assert_eq!(
        hits[0].header.message_id.as_deref(),
        Some("m7777@bulk.test")
    );
    let found = store
        .thread_page(ACCOUNT, "INBOX", Some("needle7777"), None, 50)
        .unwrap();
    assert_eq!(found.threads.len(), 1);
    assert_eq!(found.threads[0].subject, "topic 7775");
    assert_eq!(
        store.search(ACCOUNT, "bulk").unwrap().len(),
        mailclient::MAX_HITS
    );

    // Nothing changed: the next sync fetches nothing.
    let again = syncer.sync(ACCOUNT, &login(&servers)).await.unwrap();
    assert_eq!((again.fetched, again.dropped), (0, 0), "{again:?}");
}
