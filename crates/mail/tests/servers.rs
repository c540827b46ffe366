//! The watcher and the mailer against real servers on loopback: dovecot for
//! IMAP, aiosmtpd delivering into it through LMTP (`mail::rig`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use mail::rig::{ADDRESS, MailServers, Options, PASSWORD};
use mail::{Config, Fetched, Mailbook, Mailer, Status, Tls, Trust, Watcher};
use tokio::sync::{mpsc, watch};

const WITHIN: Duration = Duration::from_secs(20);

struct Running {
    mails: mpsc::UnboundedReceiver<Fetched>,
    status: watch::Receiver<Status>,
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

fn book(dir: &std::path::Path) -> Arc<Mailbook> {
    let db = Arc::new(store::Db::open(&dir.join("db.sqlite")).unwrap());
    db.migrate(mail::MIGRATIONS).unwrap();
    Arc::new(Mailbook::new(db, Arc::new(clock::SystemClock)))
}

fn watch(config: &Config, book: Arc<Mailbook>) -> Running {
    let inbox = mail::resolve_inbox(config, ADDRESS).unwrap();
    let trust = Trust::load(config).unwrap();
    let watcher = Arc::new(Watcher::new(
        inbox,
        PASSWORD.to_owned(),
        trust,
        config.poll_interval(),
        book,
    ));
    let (tx, mails) = mpsc::unbounded_channel();
    let (stop, stop_rx) = watch::channel(false);
    let status = watcher.status();
    let task = tokio::spawn(async move {
        watcher
            .run(
                |fetched| {
                    let tx = tx.clone();
                    async move {
                        let _ = tx.send(fetched);
                    }
                },
                stop_rx,
            )
            .await;
    });
    Running {
        mails,
        status,
        stop,
        task,
    }
}

impl Running {
    async fn until(&mut self, want: impl Fn(&Status) -> bool) -> Status {
        tokio::time::timeout(WITHIN, self.status.wait_for(|s| want(s)))
            .await
            .expect("the watcher's status did not come")
            .unwrap()
            .clone()
    }

    async fn next(&mut self) -> Fetched {
        tokio::time::timeout(WITHIN, self.mails.recv())
            .await
            .expect("no mail reached the callback")
            .unwrap()
    }

    /// Stops the watcher and says how long that took.
    async fn stop(self) -> Duration {
        let asked = Instant::now();
        self.stop.send_replace(true);
        tokio::time::timeout(Duration::from_secs(5), self.task)
            .await
            .expect("the watcher did not stop")
            .unwrap();
        asked.elapsed()
    }
}

fn simple(from: &str, id: &str, subject: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {ADDRESS}\r\nSubject: {subject}\r\nMessage-ID: <{id}>\r\n\
         Date: Mon, 05 Jan 2026 09:00:00 +0000\r\n\r\nPlease run the tests.\r\n"
    )
    .into_bytes()
}

/// Sends a mail from Ann, waits for the callback and prints how long that took.
async fn timed_arrival(
    servers: &MailServers,
    running: &mut Running,
    message_id: &str,
    how: &str,
) -> Fetched {
    let sent = Instant::now();
    servers
        .deliver(
            "ann@example.com",
            &simple("ann@example.com", message_id, "hello"),
        )
        .await
        .unwrap();
    let fetched = running.next().await;
    println!(
        "a mail reached the callback {} ms after SMTP accepted it ({how})",
        sent.elapsed().as_millis()
    );
    fetched
}

#[tokio::test]
async fn a_mail_arriving_during_idle_reaches_the_callback() {
    let Some(servers) = MailServers::start(Options { idle: true }) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let config = servers.config(Tls::Implicit, true, 60);
    servers
        .deliver(
            "old@example.com",
            &simple("old@example.com", "old@x", "history"),
        )
        .await
        .unwrap();
    let mut running = watch(&config, book(dir.path()));
    running.until(|s| *s == Status::Idling).await;
    let fetched = timed_arrival(&servers, &mut running, "new@x", "IDLE").await;
    let got = mail::parse(&fetched.raw).unwrap();
    assert_eq!(
        got.message_id.as_deref(),
        Some("new@x"),
        "the mail from before the first start is not handed over"
    );
    assert_eq!(fetched.mailbox, "INBOX");
    let took = running.stop().await;
    println!(
        "the watcher stopped {} ms after it was asked",
        took.as_millis()
    );
}

#[tokio::test]
async fn without_idle_the_watcher_polls() {
    let Some(servers) = MailServers::start(Options { idle: false }) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let config = servers.config(Tls::Starttls, true, 1);
    let mut running = watch(&config, book(dir.path()));
    running.until(|s| *s == Status::Polling).await;
    let fetched = timed_arrival(&servers, &mut running, "polled@x", "polling every second").await;
    assert_eq!(
        mail::parse(&fetched.raw).unwrap().message_id.as_deref(),
        Some("polled@x")
    );
    running.stop().await;
}

#[tokio::test]
async fn a_restart_hands_over_only_what_is_new() {
    let Some(servers) = MailServers::start(Options::default()) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let book = book(dir.path());
    let config = servers.config(Tls::Implicit, true, 60);
    let mut running = watch(&config, book.clone());
    running.until(|s| *s == Status::Idling).await;
    for n in 1..=2 {
        let id = format!("m{n}@x");
        servers
            .deliver("ann@example.com", &simple("ann@example.com", &id, "s"))
            .await
            .unwrap();
        let fetched = running.next().await;
        let parsed = mail::parse(&fetched.raw).unwrap();
        assert_eq!(parsed.message_id.as_deref(), Some(id.as_str()));
        assert!(book.claim(&fetched, &parsed).unwrap().is_some());
    }
    running.stop().await;
    servers
        .deliver(
            "ann@example.com",
            &simple("ann@example.com", "m3@x", "while down"),
        )
        .await
        .unwrap();

    let mut again = watch(&config, book.clone());
    let fetched = again.next().await;
    let parsed = mail::parse(&fetched.raw).unwrap();
    assert_eq!(
        parsed.message_id.as_deref(),
        Some("m3@x"),
        "only the mail that came while stopped"
    );
    assert!(book.claim(&fetched, &parsed).unwrap().is_some());
    again.until(|s| *s == Status::Idling).await;
    assert!(
        tokio::time::timeout(Duration::from_millis(500), again.mails.recv())
            .await
            .is_err(),
        "nothing else is handed over"
    );
    again.stop().await;
    assert_eq!(book.list(10, None).unwrap().len(), 3);
    assert_eq!(servers.mailbox_count(), 3);
}

#[tokio::test]
async fn attachment_names_are_made_safe() {
    let Some(servers) = MailServers::start(Options::default()) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let config = servers.config(Tls::Implicit, true, 60);
    let mut running = watch(&config, book(dir.path()));
    running.until(|s| *s == Status::Idling).await;
    let part = |name: &str, body: &str| {
        format!(
            "--b\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename=\"{name}\"\r\n\r\n{body}\r\n"
        )
    };
    let raw = format!(
        "From: ann@example.com\r\nTo: {ADDRESS}\r\nSubject: files\r\nMessage-ID: <files@x>\r\n\
         MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n\
         --b\r\nContent-Type: text/plain\r\n\r\nSee the files.\r\n{}{}{}--b--\r\n",
        part("../../etc/passwd", "one"),
        part(".env", "two"),
        part("..\\passwd", "three"),
    );
    servers
        .deliver("ann@example.com", raw.as_bytes())
        .await
        .unwrap();
    let got = mail::parse(&running.next().await.raw).unwrap();
    let names: Vec<&str> = got.attachments.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["passwd", "env", "passwd-2"]);
    assert_eq!(got.attachments[0].bytes, b"one");
    assert_eq!(got.text.trim(), "See the files.");
    running.stop().await;
}

#[tokio::test]
async fn a_reply_lands_in_the_thread_and_is_seen_as_part_of_it() {
    let Some(servers) = MailServers::start(Options::default()) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let book = book(dir.path());
    let mut config = servers.config(Tls::Implicit, true, 60);
    config.accounts[0].smtp.tls = Tls::Starttls;
    let mut running = watch(&config, book.clone());
    running.until(|s| *s == Status::Idling).await;
    let first = "<t0@example.com>";
    let raw = format!(
        "From: Ann <ann@example.com>\r\nTo: {ADDRESS}\r\nSubject: Re: Build\r\nMessage-ID: <t1@example.com>\r\n\
         In-Reply-To: {first}\r\nReferences: {first}\r\n\r\nPlease build.\r\n"
    );
    servers
        .deliver("ann@example.com", raw.as_bytes())
        .await
        .unwrap();
    let original = mail::parse(&running.next().await.raw).unwrap();
    book.link_thread(&["t1@example.com"], "session-1").unwrap();

    let trust = Trust::load(&config).unwrap();
    let mailer = Mailer::new(&config.accounts[0], None, &trust).unwrap();
    let sent = mailer.reply(&original, "Built and green.").await.unwrap();
    assert_eq!(sent.to, "ann@example.com");
    book.link_thread(&[&sent.message_id], "session-1").unwrap();

    let reply = mail::parse(&running.next().await.raw).unwrap();
    assert_eq!(reply.message_id.as_deref(), Some(sent.message_id.as_str()));
    assert_eq!(reply.subject, "Re: Build");
    assert_eq!(reply.in_reply_to, ["t1@example.com"]);
    assert_eq!(reply.references, ["t0@example.com", "t1@example.com"]);
    assert_eq!(reply.from.as_deref(), Some(ADDRESS));
    assert!(reply.automated.is_some(), "our reply says it is automatic");
    assert_eq!(reply.text.trim(), "Built and green.");
    assert_eq!(
        book.thread_session(&reply.in_reply_to, &reply.references)
            .unwrap()
            .as_deref(),
        Some("session-1")
    );

    // Ann answers our reply: a follow-up in the same thread.
    let follow = format!(
        "From: ann@example.com\r\nTo: {ADDRESS}\r\nSubject: Re: Build\r\nMessage-ID: <t3@example.com>\r\n\
         In-Reply-To: <{id}>\r\nReferences: {first} <t1@example.com> <{id}>\r\n\r\nThanks, now deploy.\r\n",
        id = sent.message_id
    );
    servers
        .deliver("ann@example.com", follow.as_bytes())
        .await
        .unwrap();
    let follow = mail::parse(&running.next().await.raw).unwrap();
    assert_eq!(
        book.thread_session(&follow.in_reply_to, &follow.references)
            .unwrap()
            .as_deref(),
        Some("session-1")
    );

    let refusal = mailer.refuse(&original).await.unwrap();
    let got = mail::parse(&running.next().await.raw).unwrap();
    assert_eq!(got.message_id.as_deref(), Some(refusal.message_id.as_str()));
    assert_eq!(got.in_reply_to, ["t1@example.com"]);
    assert!(got.text.contains("approved senders"), "{}", got.text);
    assert!(got.automated.is_some());
    running.stop().await;
}

#[tokio::test]
async fn tls_needs_the_servers_ca() {
    let Some(servers) = MailServers::start(Options::default()) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for tls in [Tls::Implicit, Tls::Starttls] {
        let config = servers.config(tls, false, 60);
        let mut running = watch(&config, book(dir.path()));
        let status = running
            .until(|s| matches!(s, Status::Retrying { .. }))
            .await;
        let Status::Retrying { error } = status else {
            unreachable!()
        };
        assert!(error.contains("TLS"), "{tls:?}: {error}");
        assert!(
            error.to_lowercase().contains("certificate") || error.contains("UnknownIssuer"),
            "{error}"
        );
        running.stop().await;

        let trusted = servers.config(tls, true, 60);
        let mut running = watch(&trusted, book(dir.path()));
        running.until(|s| *s == Status::Idling).await;
        running.stop().await;
    }
    let trusted = servers.config(Tls::Implicit, true, 60);
    let mut without_ca = trusted.clone();
    without_ca.accounts[0].smtp.tls = Tls::Starttls;
    without_ca.ca_file = None;
    let original = mail::parse(&simple("ann@example.com", "x@x", "s")).unwrap();
    let mailer = Mailer::new(
        &without_ca.accounts[0],
        None,
        &Trust::load(&without_ca).unwrap(),
    )
    .unwrap();
    assert!(
        mailer.reply(&original, "no").await.is_err(),
        "SMTP refuses an unknown CA too"
    );
}
