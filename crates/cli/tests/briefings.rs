//! The briefings over real HTTP on a manual clock, with the stand-in
//! utility model (`fixtures/briefing-claude`, answering by each prompt's
//! phrase, failing while a file exists, each answer at a set cost):
//!
//! - the email summarizer against the real dovecot and SMTP of `mail::rig`:
//!   a forwarded mail summarized as its original and archived on the
//!   server, a mail with no text and a failed summary left in the inbox,
//!   the daily cap holding mail (one row saying so) until the next day,
//!   nothing summarized twice across a restart;
//! - the daily briefing with sources on and off, written by the model over
//!   the facts, the facts alone when the model fails, posted by itself when
//!   the day turns, and `POST /digests/run`'s refusals;
//! - the RSS morning digest at `rssDigestTime`: a quiet night's short
//!   digest, then picks from a feed served on loopback.

mod common;

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::TestServer;
use mail::rig::{ADDRESS, MailServers, Options, PASSWORD, PASSWORD_KEY};
use serde_json::{Value, json};

struct World {
    server: TestServer,
    scratch: PathBuf,
}

impl World {
    fn fail_file(&self) -> PathBuf {
        self.scratch.join("fail")
    }

    fn prompts(&self) -> String {
        std::fs::read_to_string(self.scratch.join("prompts")).unwrap_or_default()
    }
}

/// A server on a manual clock whose primary engine is the stand-in, each
/// answer costing `cost` dollars.
fn world(cost: &str) -> World {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let path = scratch.path().to_owned();
    std::fs::write(
        dir.path().join("engines.toml"),
        format!(
            "[engines.primary]\nkind = \"claude\"\ncommand = [\"/bin/sh\", {:?}]\n\
             env = {{ PROMPT_LOG = {:?}, BRIEFING_FAIL = {:?}, ANSWER_COST = {cost:?} }}\n",
            common::fixture("briefing-claude"),
            path.join("prompts").display().to_string(),
            path.join("fail").display().to_string(),
        ),
    )
    .unwrap();
    let server = TestServer::start_in_with(dir, &["--manual-clock"]).keeping(scratch);
    clock_at(&server, "2030-01-07T09:00:00Z");
    server.set_setting("pmInboxQuietHoursTimeZone", json!("UTC"));
    World {
        server,
        scratch: path,
    }
}

fn clock_at(server: &TestServer, at: &str) {
    let reply = server.call("POST", "/test/clock", Some(&json!({"at": at})));
    assert_eq!(reply.status, 204, "{}", reply.text());
}

fn rows(server: &TestServer, category: &str) -> Vec<Value> {
    let reply = server.call(
        "GET",
        &format!("/inbox?category={category}&state=all&limit=500&hidden=true"),
        None,
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json().as_array().unwrap().clone()
}

fn wait_row(server: &TestServer, category: &str, title: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(row) = rows(server, category)
            .into_iter()
            .find(|r| r["title"] == title)
        {
            return row;
        }
        assert!(
            Instant::now() < deadline,
            "no {category} row {title:?}: {:?}",
            rows(server, category)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn summaries(server: &TestServer) -> Value {
    let reply = server.call("GET", "/summaries/email?limit=200", None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()
}

/// Waits until the mail `id` is in `state`, and returns its entry.
fn summary_of(server: &TestServer, id: &str, state: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let all = summaries(server);
        if let Some(found) = all["summaries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["messageId"] == id && s["state"] == state)
        {
            return found.clone();
        }
        assert!(Instant::now() < deadline, "{id} never {state}: {all}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn wait_watching(server: &TestServer) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while summaries(server)["watcher"] != "idling" {
        assert!(Instant::now() < deadline, "{}", summaries(server));
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn mail(id: &str, subject: &str, body: &str) -> Vec<u8> {
    format!(
        "From: Me <me@example.com>\r\nTo: {ADDRESS}\r\nSubject: {subject}\r\nMessage-ID: <{id}>\r\n\
         Date: Mon, 07 Jan 2030 08:00:00 +0000\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    )
    .into_bytes()
}

fn forwarded(id: &str) -> Vec<u8> {
    mail(
        id,
        "Fwd: Invoice 42",
        "FYI\r\n\r\n---------- Forwarded message ---------\r\nFrom: Billing <bill@shop.test>\r\n\
         Subject: Invoice 42\r\n\r\nPlease pay 120 EUR by Friday.",
    )
}

/// Message-IDs of the mail still in the rig's inbox.
fn in_inbox(servers: &MailServers) -> Vec<String> {
    servers
        .messages()
        .iter()
        .filter_map(|raw| mail::parse(raw).ok())
        .filter_map(|m| m.message_id)
        .collect()
}

fn deliver(servers: &MailServers, runtime: &tokio::runtime::Runtime, raw: &[u8]) {
    runtime
        .block_on(servers.deliver("me@example.com", raw))
        .unwrap_or_else(|e| panic!("delivery failed: {e}\n{}", servers.logs()));
}

fn summarizer_calls(server: &TestServer, outcome: &str) -> usize {
    let calls = server.call("GET", "/utility/calls?feature=email_summary", None);
    calls.json()["calls"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["outcome"] == outcome)
        .count()
}

fn email_toml(dir: &Path, servers: &MailServers) {
    std::fs::write(
        dir.join("email.toml"),
        format!(
            "ca_file = {:?}\npoll_seconds = 5\n\n[[accounts]]\naddress = {ADDRESS:?}\n\
             imap = {{ host = \"localhost\", port = {}, tls = \"implicit\", username = {ADDRESS:?}, password_key = {PASSWORD_KEY:?} }}\n\
             smtp = {{ host = \"localhost\", port = {}, tls = \"none\" }}\n",
            servers.ca_file.display().to_string(),
            servers.imaps_port,
            servers.smtp_port,
        ),
    )
    .unwrap();
}

/// A [`world`] whose `email.toml` names the rig's mailbox, its password
/// saved; `None` (the test skips) when the rig cannot start here.
fn mail_world(cost: &str) -> Option<(World, MailServers, tokio::runtime::Runtime)> {
    let servers = MailServers::start(Options::default())?;
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let world = world(cost);
    email_toml(world.server.data_dir(), &servers);
    let saved = world.server.call(
        "PUT",
        &format!("/keys/{PASSWORD_KEY}"),
        Some(&json!({"value": PASSWORD})),
    );
    assert_eq!(saved.status, 200, "{}", saved.text());
    Some((world, servers, runtime))
}

#[test]
fn the_summarizer_summarizes_each_mail_once_archives_after_success_and_waits_at_its_cap() {
    // Two answers reach the $0.10 cap.
    let Some((world, servers, runtime)) = mail_world("0.06") else {
        return;
    };
    let server = &world.server;
    server.set_setting("emailSummarizerInboxId", json!(ADDRESS));
    server.set_setting("emailSummarizerArchiveEnabled", json!(true));
    server.set_setting("emailSummarizerDailyCostCapUsd", json!(0.1));
    server.set_setting("emailSummarizerEnabled", json!(true));
    wait_watching(server);

    // A forwarded mail: summarized as the original it carries, then archived.
    deliver(&servers, &runtime, &forwarded("f1@example.com"));
    let done = summary_of(server, "f1@example.com", "done");
    assert_eq!(done["summary"], "- Billing asks for 120 EUR by Friday.");
    let row = wait_row(server, "email_summary", "Summary: Fwd: Invoice 42");
    assert_eq!(row["id"], done["inboxRowId"]);
    let body = row["body"].as_str().unwrap();
    assert!(body.contains("Message-ID: <f1@example.com>"), "{body}");
    let prompts = world.prompts();
    assert!(
        prompts.contains("From: Billing <bill@shop.test>\nSubject: Invoice 42"),
        "{prompts}"
    );
    assert!(
        prompts.contains("Please pay 120 EUR by Friday."),
        "{prompts}"
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    while in_inbox(&servers).contains(&"f1@example.com".to_owned()) {
        assert!(Instant::now() < deadline, "never archived");
        std::thread::sleep(Duration::from_millis(50));
    }
    // The mail leaves the inbox on the server before the summary records it.
    while summary_of(server, "f1@example.com", "done")["archived"] != true {
        assert!(
            Instant::now() < deadline,
            "archived on the server, never recorded"
        );
        std::thread::sleep(Duration::from_millis(50));
    }

    // No text: a row says so, no model call, the mail stays.
    deliver(&servers, &runtime, &mail("empty@example.com", "Blank", ""));
    let blank = summary_of(server, "empty@example.com", "no_text");
    assert_eq!(blank["archived"], false);
    wait_row(server, "email_summary", "No text to summarize: Blank");
    assert_eq!(summarizer_calls(server, "ok"), 1);

    // The model failing: a failed entry and row, the mail stays.
    std::fs::write(world.fail_file(), "").unwrap();
    deliver(
        &servers,
        &runtime,
        &mail("down@example.com", "Status", "All green."),
    );
    let failed = summary_of(server, "down@example.com", "failed");
    assert!(
        failed["failure"].as_str().unwrap().contains("failed"),
        "{failed}"
    );
    wait_row(server, "email_summary", "Could not summarize: Status");
    std::fs::remove_file(world.fail_file()).unwrap();

    // The second summary reaches the cap; the next two wait, said once.
    deliver(
        &servers,
        &runtime,
        &mail("second@example.com", "Lunch", "Noon?"),
    );
    summary_of(server, "second@example.com", "done");
    deliver(
        &servers,
        &runtime,
        &mail("late1@example.com", "Later", "One."),
    );
    deliver(
        &servers,
        &runtime,
        &mail("late2@example.com", "Later", "Two."),
    );
    summary_of(server, "late1@example.com", "waiting");
    summary_of(server, "late2@example.com", "waiting");
    wait_row(
        server,
        "email_summary",
        "Email summaries paused until tomorrow",
    );
    let paused = |server: &TestServer| {
        rows(server, "email_summary")
            .iter()
            .filter(|r| r["title"] == "Email summaries paused until tomorrow")
            .map(|r| r["count"].as_i64().unwrap())
            .sum::<i64>()
    };
    assert_eq!(paused(server), 1);
    let still_there = in_inbox(&servers);
    for id in ["empty@example.com", "down@example.com", "late1@example.com"] {
        assert!(still_there.contains(&id.to_owned()), "{id} left the inbox");
    }

    // A restart on the same day summarizes nothing again and waits still.
    let ok_before = summarizer_calls(server, "ok");
    // 2030-01-07T10:00:00Z: the restarted clock starts on the same day.
    let server = world.server.crash_and_restart_with(&[
        "--manual-clock",
        "--manual-clock-start-ms",
        "1894010400000",
    ]);
    wait_watching(&server);
    summary_of(&server, "late2@example.com", "waiting");
    assert_eq!(summarizer_calls(&server, "ok"), ok_before);
    assert_eq!(paused(&server), 1);

    // The next day the waiting mail is summarized and archived, once.
    clock_at(&server, "2030-01-08T00:00:01Z");
    summary_of(&server, "late1@example.com", "done");
    summary_of(&server, "late2@example.com", "done");
    let all = summaries(&server);
    let entries = all["summaries"].as_array().unwrap();
    assert_eq!(entries.len(), 6, "{all}");
    assert_eq!(summarizer_calls(&server, "ok"), 4);
    let deadline = Instant::now() + Duration::from_secs(30);
    while in_inbox(&servers).contains(&"late2@example.com".to_owned()) {
        assert!(
            Instant::now() < deadline,
            "the waiting mail was never archived"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn run_daily(server: &TestServer) -> Value {
    let reply = server.call("POST", "/digests/run?kind=daily", None);
    assert_eq!(reply.status, 201, "{}", reply.text());
    let id = reply.json()["id"].as_str().unwrap().to_owned();
    rows(server, "digest")
        .into_iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no row {id}"))
}

#[test]
fn the_daily_briefing_has_a_section_per_source_and_comes_as_facts_when_the_model_fails() {
    let world = world("0.0004");
    let server = &world.server;
    server.set_setting("dailyDigestEnabled", json!(true));
    let briefing = run_daily(server);
    assert_eq!(briefing["title"], "Daily briefing for 2030-01-07");
    let body = briefing["body"].as_str().unwrap();
    assert!(
        body.starts_with("Start with the stand-up, then the failed session.\n\n---\n\n"),
        "{body}"
    );
    for line in [
        "Calendar: not set up (calendars are off).",
        "Web mail: not set up (mailclientEnabled and webmailEnabled are off).",
        "Project events: nothing.",
        "Project digests: nothing.",
        "Feeds: not set up (rssDigestEnabled is off).",
        "Sessions:\n- 0 started, 0 finished, 0 failed; cost $0.00",
        "Team chat: not set up (no teamchat.toml).",
        "Text messages: not set up (no text relay in this version).",
        "Messenger: not set up (no messenger.toml).",
    ] {
        assert!(body.contains(line), "{line:?} not in {body}");
    }
    // The model wrote over the facts, gathered first.
    assert!(
        world
            .prompts()
            .contains("Write the daily briefing for 2030-01-07")
    );
    assert!(world.prompts().contains("Team chat: not set up"));

    // Sources off leave their sections out.
    server.set_setting(
        "dailyDigestSources",
        json!({"calendar": false, "webmail": false, "pm-events": true, "pm-feed-digest": false,
               "rss": false, "sessions": false, "chatApp": false, "sms": false, "messenger": false}),
    );
    let narrow = run_daily(server);
    let body = narrow["body"].as_str().unwrap();
    assert!(body.ends_with("---\n\nProject events: nothing."), "{body}");

    // The model failing: the facts alone, still posted.
    std::fs::write(world.fail_file(), "").unwrap();
    server.set_setting(
        "dailyDigestSources",
        json!({"calendar": true, "webmail": true, "pm-events": true, "pm-feed-digest": true,
               "rss": true, "sessions": true, "chatApp": true, "sms": false, "messenger": true}),
    );
    let facts = run_daily(server);
    let body = facts["body"].as_str().unwrap();
    assert!(body.starts_with("Calendar: not set up"), "{body}");
    assert!(!body.contains("Start with"), "{body}");
    assert!(!body.contains("Text messages"), "{body}");
    std::fs::remove_file(world.fail_file()).unwrap();

    // A new day brings the briefing by itself.
    clock_at(server, "2030-01-08T00:00:01Z");
    let scheduled = wait_row(server, "digest", "Daily briefing for 2030-01-08");
    assert!(
        scheduled["body"]
            .as_str()
            .unwrap()
            .starts_with("Start with")
    );

    // Only `rss` or `daily`.
    for path in ["/digests/run", "/digests/run?kind=weekly"] {
        let reply = server.call("POST", path, None);
        assert_eq!(reply.status, 400, "{path}: {}", reply.text());
    }
}

/// Serves one RSS document on loopback for as long as the test runs.
fn feed_server() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut request = [0u8; 4096];
            let _ = stream.read(&mut request);
            let body = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Lang news</title>\
                <link>http://feeds.test/</link><description>d</description>\
                <item><title>Rust ships</title><link>http://feeds.test/rust</link>\
                <guid>rust</guid><description>A new release.</description></item>\
                <item><title>Gardening</title><link>http://feeds.test/garden</link>\
                <guid>garden</guid><description>Roses.</description></item>\
                </channel></rss>";
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\nContent-Length: {}\r\n\
                 Connection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    format!("http://{address}/feed.xml")
}

#[test]
fn the_morning_digest_comes_at_its_time_short_on_a_quiet_night() {
    let world = world("0.0004");
    let server = &world.server;
    clock_at(server, "2030-01-07T07:00:00Z");
    server.set_setting("rssDigestTime", json!("07:30"));
    server.set_setting("rssDigestInterests", json!("programming languages"));
    server.set_setting("rssDigestEnabled", json!(true));
    clock_at(server, "2030-01-07T07:30:00Z");
    let quiet = wait_row(server, "digest", "Morning digest for 2030-01-07");
    assert_eq!(quiet["body"], "A quiet night: no feed brought a new entry.");
    assert!(!world.prompts().contains("Pick and summarize"));

    let added = server.call("POST", "/feeds", Some(&json!({"url": feed_server()})));
    assert_eq!(added.status, 201, "{}", added.text());
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let entries = server.call("GET", "/feeds/entries", None).json();
        if entries["entries"].as_array().is_some_and(|e| e.len() == 2) {
            break;
        }
        assert!(Instant::now() < deadline, "{entries}");
        std::thread::sleep(Duration::from_millis(50));
    }
    let reply = server.call("POST", "/digests/run?kind=rss", None);
    assert_eq!(reply.status, 201, "{}", reply.text());
    let id = reply.json()["id"].as_str().unwrap().to_owned();
    let digest = rows(server, "digest")
        .into_iter()
        .find(|r| r["id"] == id)
        .unwrap();
    assert_eq!(
        digest["body"],
        "- [Rust ships](http://feeds.test/rust): it matters."
    );
    let prompts = world.prompts();
    assert!(
        prompts.contains("interests: programming languages"),
        "{prompts}"
    );
    assert!(
        prompts.contains("Rust ships <http://feeds.test/rust>"),
        "{prompts}"
    );
    let calls = server
        .call("GET", "/utility/calls?feature=rss_digest", None)
        .json();
    assert_eq!(calls["calls"].as_array().unwrap().len(), 1, "{calls}");

    // The daily briefing's feed section reads the morning's picks.
    server.set_setting("dailyDigestEnabled", json!(true));
    let briefing = run_daily(server);
    let body = briefing["body"].as_str().unwrap();
    assert!(
        body.contains("Feeds:\n- [Rust ships](http://feeds.test/rust): it matters."),
        "{body}"
    );
}

#[test]
fn catch_me_up_reads_the_thread_with_the_persons_own_prompt_and_model() {
    let Some((world, servers, runtime)) = mail_world("0.0004") else {
        return;
    };
    let server = &world.server;
    deliver(
        &servers,
        &runtime,
        &mail("c1@example.com", "Launch", "Shall we launch Monday?"),
    );
    server.set_setting("mailclientEnabled", json!(true));
    let deadline = Instant::now() + Duration::from_secs(60);
    let thread = loop {
        let page = server.call(
            "GET",
            &format!("/mail/threads?accountId=toml:{ADDRESS}&folder=INBOX"),
            None,
        );
        if let Some(id) = page.json()["threads"][0]["id"].as_str() {
            break id.to_owned();
        }
        assert!(Instant::now() < deadline, "{}", page.text());
        std::thread::sleep(Duration::from_millis(50));
    };
    let path = format!("/mail/threads/{thread}/summary");

    let built_in = server.call("POST", &path, None);
    assert_eq!(built_in.status, 200, "{}", built_in.text());
    assert_eq!(
        built_in.json()["summary"],
        "- Ada and Bob settled on Monday."
    );
    let prompts = world.prompts();
    assert!(prompts.contains("Subject: Launch"), "{prompts}");
    assert!(prompts.contains("Shall we launch Monday?"), "{prompts}");
    // Kept per thread and message count: asking again costs no call.
    let again = server.call("POST", &path, None);
    assert_eq!(again.json()["summary"], "- Ada and Bob settled on Monday.");
    assert_eq!(world.prompts().matches("=====").count(), 1);

    server.set_setting(
        "mailclientAiSummaryPrompt",
        json!("Say in one line what this thread asks of me."),
    );
    server.set_setting("mailclientAiSummaryModel", json!("claude-sonnet-4-5"));
    let own = server.call("POST", &path, None);
    assert_eq!(own.status, 200, "{}", own.text());
    assert_eq!(own.json()["summary"], "Bob asks whether Monday works.");
    let last = world.prompts();
    let last = last.rsplit("args: ").next().unwrap().to_owned();
    assert!(last.contains("claude-sonnet-4-5"), "{last}");

    // New instructions are a new question, so the failing model is asked.
    server.set_setting(
        "mailclientAiSummaryPrompt",
        json!("Summarize this email thread briefly."),
    );
    std::fs::write(world.fail_file(), "").unwrap();
    let failed = server.call("POST", &path, None);
    assert_eq!(failed.status, 502, "{}", failed.text());
    assert_eq!(failed.error_code(), "utility_model_failed");
    let unknown = server.call("POST", "/mail/threads/abcd/summary", None);
    assert_eq!(unknown.status, 404, "{}", unknown.text());
}

#[test]
fn threads_filed_under_the_summarize_label_become_summaries_once_each() {
    let Some((world, servers, runtime)) = mail_world("0.0004") else {
        return;
    };
    let server = &world.server;
    // The person files one mail under the label; another stays in the inbox.
    let config = servers.config(mail::Tls::Implicit, true, 60);
    let login = mailclient::Login {
        server: config.accounts[0].imap.clone(),
        password: PASSWORD.to_owned(),
        trust: mail::Trust::load(&config).unwrap(),
    };
    runtime.block_on(async {
        let mut session = login.open().await.unwrap();
        session.create("Summarize").await.unwrap();
        session
            .append(
                "Summarize",
                None,
                None,
                mail("l1@example.com", "Label me", "Shall we launch Monday?"),
            )
            .await
            .unwrap();
        session.logout().await.unwrap();
    });
    deliver(
        &servers,
        &runtime,
        &mail("i1@example.com", "Just the inbox", "Nothing to see."),
    );
    server.set_setting("mailclientEnabled", json!(true));
    server.set_setting("emailSummarizerGmailEnabled", json!(true));

    let row = wait_row(server, "email_summary", "Summary: Label me");
    assert_eq!(row["body"], "- Ada and Bob settled on Monday.");
    assert!(
        row["actions"][0]["path"]
            .as_str()
            .unwrap()
            .starts_with("/mail?account=toml"),
        "{row}"
    );
    // Later rounds (each new mail wakes one) summarize nothing again, and
    // the inbox's own mail is never summarized.
    // The round that synced the third mail began after the one of the
    // second had finished its summaries.
    for (n, id, subject) in [
        (2, "i2@example.com", "Second"),
        (3, "i3@example.com", "Third"),
    ] {
        deliver(&servers, &runtime, &mail(id, subject, "Still nothing."));
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let page = server.call(
                "GET",
                &format!("/mail/threads?accountId=toml:{ADDRESS}&folder=INBOX"),
                None,
            );
            if page.json()["threads"].as_array().map(Vec::len) == Some(n) {
                break;
            }
            assert!(Instant::now() < deadline, "{}", page.text());
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let summaries: Vec<Value> = rows(server, "email_summary");
    assert_eq!(summaries.len(), 1, "{summaries:?}");
    let labelled = server.call(
        "GET",
        &format!("/mail/threads?accountId=toml:{ADDRESS}&folder=Summarize"),
        None,
    );
    assert_eq!(
        labelled.json()["threads"][0]["unread"],
        1,
        "{}",
        labelled.text()
    );
}
