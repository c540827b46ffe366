//! The person's mail client through a real server process, against a real
//! dovecot and SMTP server on loopback (`mail::rig`): the `/mail` routes
//! are refused while `mailclientEnabled` is off and to an agent's token;
//! an added account is checked field by field, never shows its password,
//! and a wrong password marks it failing with the server's words; the
//! `email.toml` account syncs, lists its folders and threads, opens a
//! thread (marking it read), and star, archive and snooze are applied on
//! dovecot (checked with a login of the test's own), the snoozed thread
//! coming back when the manual clock passes its time.

mod common;

use std::time::{Duration, Instant};

use common::TestServer;
use futures_util::TryStreamExt;
use mail::rig::{ADDRESS, MailServers, Options, PASSWORD, PASSWORD_KEY};
use serde_json::{Value, json};

/// 2026-01-05T08:00:00Z, a Monday.
const T0_MS: i64 = 1_767_600_000_000;
const TOML_ID: &str = "toml:agent@switchboard.test";

fn wait_for(what: &str, mut done: impl FnMut() -> Option<Value>) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(value) = done() {
            return value;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn account_body(host: &str, port: u16, password: &str) -> Value {
    json!({
        "name": "Work",
        "address": "me@example.com",
        "username": "me@example.com",
        "password": password,
        "imap": {"host": host, "port": port, "tls": "tls"},
        "smtp": {"host": host, "port": 587, "tls": "starttls"},
    })
}

#[test]
fn accounts_are_checked_field_by_field_and_kept_from_agents_and_while_off() {
    let server = TestServer::with_token_holders(|_| {});
    let off = server.call("GET", "/mail/accounts", None);
    assert_eq!(off.status, 409, "{}", off.text());
    assert_eq!(off.error_code(), "mailclient_disabled");
    assert!(off.text().contains("mailclientEnabled"), "{}", off.text());

    // Web mail is the same client under its other switch.
    server.set_setting("webmailEnabled", json!(true));
    let as_webmail = server.call("GET", "/mail/accounts", None);
    assert_eq!(as_webmail.status, 200, "{}", as_webmail.text());
    server.set_setting("webmailEnabled", json!(false));
    assert_eq!(server.call("GET", "/mail/accounts", None).status, 409);

    server.set_setting("mailclientEnabled", json!(true));
    let empty = server.call("GET", "/mail/accounts", None);
    assert_eq!(empty.status, 200, "{}", empty.text());
    assert_eq!(empty.json(), json!([]));

    let wrong = |change: &dyn Fn(&mut Value), field: &str| {
        let mut body = account_body("imap.example.com", 993, "secret");
        change(&mut body);
        let reply = server.call("POST", "/mail/accounts", Some(&body));
        assert_eq!(reply.status, 400, "{}", reply.text());
        assert_eq!(reply.json()["error"]["field"], field, "{}", reply.text());
    };
    wrong(&|b| b["name"] = json!("  "), "name");
    wrong(&|b| b["address"] = json!("not an address"), "address");
    wrong(&|b| b["username"] = json!(""), "username");
    wrong(&|b| b["password"] = json!(""), "password");
    wrong(&|b| b["imap"]["host"] = json!("bad host!"), "imap.host");
    wrong(&|b| b["imap"]["port"] = json!(0), "imap.port");
    wrong(&|b| b["smtp"]["tls"] = json!("none"), "smtp.tls");
    let unknown = server.call(
        "POST",
        "/mail/accounts",
        Some(&json!({"name": "x", "surprise": true})),
    );
    assert_eq!(unknown.status, 400, "{}", unknown.text());
    assert_eq!(server.call("GET", "/mail/accounts", None).json(), json!([]));
    assert!(
        server
            .call("GET", "/keys", None)
            .json()
            .to_string()
            .find("MAILCLIENT_")
            .is_none(),
        "a refused account left a saved key"
    );

    let added = server.call(
        "POST",
        "/mail/accounts",
        Some(&account_body("imap.example.com", 993, "hunter2-secret")),
    );
    assert_eq!(added.status, 201, "{}", added.text());
    let account = added.json();
    assert!(!added.text().contains("hunter2-secret"), "{}", added.text());
    assert_eq!(account["source"], "added");
    assert_eq!(
        account["imap"],
        json!({"host": "imap.example.com", "port": 993, "tls": "tls"})
    );
    let listed = server.call("GET", "/mail/accounts", None);
    assert!(!listed.text().contains("hunter2-secret"));
    assert_eq!(listed.json()[0]["id"], account["id"]);

    let (_, agent) = server.holder_session();
    for (method, path) in [
        ("GET", "/mail/accounts".to_owned()),
        (
            "GET",
            format!(
                "/mail/threads?accountId={}",
                account["id"].as_str().unwrap()
            ),
        ),
    ] {
        let refused = server.call_as(&agent, method, &path, None);
        assert_eq!(refused.status, 403, "{path}: {}", refused.text());
        assert_eq!(refused.error_code(), "agent_token_forbidden");
    }

    let id = account["id"].as_str().unwrap();
    let removed = server.call("DELETE", &format!("/mail/accounts/{id}"), None);
    assert_eq!(removed.status, 204, "{}", removed.text());
    assert_eq!(server.call("GET", "/mail/accounts", None).json(), json!([]));
}

fn mail(id: &str, refs: &[&str], from: &str, subject: &str, body: &str) -> Vec<u8> {
    let thread = match refs.last() {
        None => String::new(),
        Some(last) => {
            let all: Vec<String> = refs.iter().map(|r| format!("<{r}>")).collect();
            format!("In-Reply-To: <{last}>\r\nReferences: {}\r\n", all.join(" "))
        }
    };
    format!(
        "From: {from}\r\nTo: {ADDRESS}\r\nSubject: {subject}\r\nMessage-ID: <{id}>\r\n{thread}\
         Date: Mon, 5 Jan 2026 07:00:00 +0000\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    )
    .into_bytes()
}

struct Mailroom {
    servers: MailServers,
    runtime: tokio::runtime::Runtime,
}

impl Mailroom {
    fn deliver(&self, from: &str, raw: &[u8]) {
        self.runtime
            .block_on(self.servers.deliver(from, raw))
            .unwrap_or_else(|e| panic!("delivery failed: {e}\n{}", self.servers.logs()));
    }

    /// A login of the test's own.
    fn login(&self) -> mailclient::Login {
        let config = self.servers.config(mail::Tls::Implicit, true, 60);
        mailclient::Login {
            server: config.accounts[0].imap.clone(),
            password: PASSWORD.to_owned(),
            trust: mail::Trust::load(&config).unwrap(),
        }
    }

    /// Makes the folders a real account has (the rig's dovecot names their
    /// SPECIAL-USE roles but makes none).
    fn make_folders(&self) {
        let login = self.login();
        self.runtime.block_on(async {
            let mut session = login.open().await.unwrap();
            for folder in ["Sent", "Drafts", "Archive", "Junk", "Trash"] {
                session.create(folder).await.unwrap();
            }
            session.logout().await.unwrap();
        });
    }

    /// The flags of every message of `folder`, read with a login of the test's own.
    fn flags(&self, folder: &str) -> Vec<Vec<String>> {
        let login = self.login();
        self.runtime.block_on(async {
            let mut session = login.open().await.unwrap();
            session.select(folder).await.unwrap();
            let fetched: Vec<_> = session
                .uid_fetch("1:*", "FLAGS")
                .await
                .unwrap()
                .try_collect()
                .await
                .unwrap();
            let flags = fetched
                .iter()
                .map(|f| f.flags().map(|flag| format!("{flag:?}")).collect())
                .collect();
            session.logout().await.unwrap();
            flags
        })
    }
}

fn start_with_rig() -> Option<(TestServer, Mailroom)> {
    let servers = MailServers::start(Options::default())?;
    let room = Mailroom {
        servers,
        runtime: tokio::runtime::Runtime::new().unwrap(),
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("email.toml"),
        format!(
            "ca_file = {:?}\n\n[[accounts]]\naddress = {ADDRESS:?}\n\
             imap = {{ host = \"localhost\", port = {}, tls = \"implicit\", username = {ADDRESS:?}, password_key = {PASSWORD_KEY:?} }}\n\
             smtp = {{ host = \"localhost\", port = {}, tls = \"none\" }}\n",
            room.servers.ca_file.display().to_string(),
            room.servers.imaps_port,
            room.servers.smtp_port,
        ),
    )
    .unwrap();
    let server = TestServer::start_in_with(dir, &["--manual-clock-start-ms", &T0_MS.to_string()]);
    let saved = server.call(
        "PUT",
        &format!("/keys/{PASSWORD_KEY}"),
        Some(&json!({"value": PASSWORD})),
    );
    assert_eq!(saved.status, 200, "{}", saved.text());
    Some((server, room))
}

fn threads(server: &TestServer, folder: &str) -> Value {
    let reply = server.call(
        "GET",
        &format!("/mail/threads?accountId={TOML_ID}&folder={folder}"),
        None,
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()
}

fn wait_threads(server: &TestServer, folder: &str, count: usize) -> Value {
    wait_for(&format!("{count} threads in {folder}"), || {
        let page = threads(server, folder);
        (page["threads"].as_array().map(Vec::len) == Some(count)).then_some(page)
    })
}

fn act(server: &TestServer, thread: &str, body: Value) -> common::Reply {
    server.call(
        "POST",
        &format!("/mail/threads/{thread}/actions"),
        Some(&body),
    )
}

#[test]
fn the_toml_account_syncs_and_its_threads_are_read_starred_archived_and_snoozed_on_dovecot() {
    let Some((server, room)) = start_with_rig() else {
        return;
    };
    room.make_folders();
    room.deliver(
        "ada@example.com",
        &mail("t1@x", &[], "Ada <ada@example.com>", "Plans", "first"),
    );
    room.deliver(
        "bob@example.com",
        &mail(
            "t2@x",
            &["t1@x"],
            "Bob <bob@example.com>",
            "Re: Plans",
            "second",
        ),
    );
    room.deliver(
        "ada@example.com",
        &mail(
            "t3@x",
            &["t1@x", "t2@x"],
            "Ada <ada@example.com>",
            "Re: Plans",
            "third",
        ),
    );
    room.deliver(
        "cy@example.com",
        &mail("s1@x", &[], "Cy <cy@example.com>", "Lunch", "soup?"),
    );
    server.set_setting("spamFilterEnabled", json!(false));
    server.set_setting("mailclientEnabled", json!(true));

    let account = wait_for("the account to sync", || {
        let all = server.call("GET", "/mail/accounts", None).json();
        let toml = all.as_array()?.iter().find(|a| a["id"] == TOML_ID)?.clone();
        (toml["status"] == "ok").then_some(toml)
    });
    assert_eq!(account["source"], "toml");
    let folders = server
        .call("GET", &format!("/mail/folders?accountId={TOML_ID}"), None)
        .json();
    let inbox = folders
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["role"] == "inbox")
        .unwrap_or_else(|| panic!("{folders}"));
    assert_eq!(inbox["total"], 4, "{folders}");
    assert_eq!(inbox["unread"], 4, "{folders}");

    let page = wait_threads(&server, "inbox", 2);
    let plans = page["threads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["subject"] == "Plans")
        .unwrap_or_else(|| panic!("{page}"))
        .clone();
    assert_eq!(plans["count"], 3, "{page}");
    assert_eq!(plans["unread"], 3, "{page}");
    let id = plans["id"].as_str().unwrap().to_owned();

    // Opening reads the bodies and, with webmailAutoMarkRead, marks read on the server.
    let opened = server.call("GET", &format!("/mail/threads/{id}"), None);
    assert_eq!(opened.status, 200, "{}", opened.text());
    let texts: Vec<String> = opened.json()["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().trim().to_owned())
        .collect();
    assert_eq!(texts, ["first", "second", "third"]);
    let seen = room.flags("INBOX");
    assert_eq!(
        seen.iter()
            .filter(|f| f.iter().any(|x| x.contains("Seen")))
            .count(),
        3,
        "{seen:?}"
    );

    let starred = act(&server, &id, json!({"action": "star"}));
    assert_eq!(starred.status, 204, "{}", starred.text());
    let flags = room.flags("INBOX");
    assert_eq!(
        flags
            .iter()
            .filter(|f| f.iter().any(|x| x.contains("Flagged")))
            .count(),
        3,
        "{flags:?}"
    );

    let bad = act(
        &server,
        &id,
        json!({"action": "snooze", "until": "2026-01-05T07:00:00Z"}),
    );
    assert_eq!(bad.status, 400, "{}", bad.text());
    assert_eq!(bad.json()["error"]["field"], "until");
    let no_folder = act(&server, &id, json!({"action": "move"}));
    assert_eq!(no_folder.status, 400, "{}", no_folder.text());

    let archived = act(&server, &id, json!({"action": "archive"}));
    assert_eq!(archived.status, 204, "{}", archived.text());
    assert_eq!(room.flags("INBOX").len(), 1);
    assert_eq!(room.flags("Archive").len(), 3);
    wait_threads(&server, "inbox", 1);

    // Snooze the other thread for an hour: it leaves the inbox, and comes
    // back unread once the manual clock passes that hour.
    let lunch = threads(&server, "inbox")["threads"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let snoozed = act(
        &server,
        &lunch,
        json!({"action": "snooze", "until": "2026-01-05T09:00:00Z"}),
    );
    assert_eq!(snoozed.status, 204, "{}", snoozed.text());
    assert!(room.flags("INBOX").is_empty());
    wait_threads(&server, "inbox", 0);
    let moved = server.call(
        "POST",
        "/test/clock",
        Some(&json!({"advanceMs": 2 * 3_600_000})),
    );
    assert_eq!(moved.status, 204, "{}", moved.text());
    let back = wait_threads(&server, "inbox", 1);
    assert_eq!(back["threads"][0]["subject"], "Lunch");
    assert_eq!(back["threads"][0]["unread"], 1);
    assert_eq!(room.flags("INBOX").len(), 1);

    // Archiving gave the messages new UIDs: the reply names the third
    // message as the thread shows it now.
    let reopened = server
        .call("GET", &format!("/mail/threads/{id}"), None)
        .json();
    let third = reopened["messages"][2]["id"].as_str().unwrap().to_owned();
    // A reply goes out by SMTP, threaded, and a copy is filed in Sent
    // (dovecot does not file sent mail itself).
    let sent = server.call(
        "POST",
        "/mail/send",
        Some(&json!({
            "accountId": TOML_ID,
            "to": "Ada <ada@example.com>",
            "subject": "Re: Plans",
            "markdown": "**agreed**",
            "inReplyTo": third,
        })),
    );
    assert_eq!(sent.status, 201, "{}", sent.text());
    let reply = wait_for("the reply to arrive", || {
        room.servers.messages().iter().find_map(|raw| {
            let parsed = mail::parse(raw).ok()?;
            parsed.in_reply_to.iter().any(|r| r == "t3@x").then(|| {
                json!({
                    "subject": parsed.subject,
                    "references": parsed.references,
                    "raw": String::from_utf8_lossy(raw),
                })
            })
        })
    });
    assert_eq!(reply["subject"], "Re: Plans");
    assert_eq!(
        reply["references"],
        json!(["t1@x", "t2@x", "t3@x"]),
        "{reply}"
    );
    assert!(
        reply["raw"]
            .as_str()
            .unwrap()
            .contains("<strong>agreed</strong>"),
        "{reply}"
    );
    assert_eq!(room.flags("Sent").len(), 1);
    assert_eq!(sent.json()["savedToSent"], true);
}

#[test]
fn a_wrong_password_marks_only_that_account_failing_with_the_servers_words() {
    let Some((server, room)) = start_with_rig() else {
        return;
    };
    server.set_setting("mailclientEnabled", json!(true));
    let mut body = account_body("localhost", room.servers.imaps_port, "not-the-password");
    body["username"] = json!(ADDRESS);
    let added = server.call("POST", "/mail/accounts", Some(&body));
    assert_eq!(added.status, 201, "{}", added.text());
    assert_eq!(added.json()["status"], "pending");
    let id = added.json()["id"].as_str().unwrap().to_owned();
    let failing = wait_for("the wrong password to be found", || {
        let all = server.call("GET", "/mail/accounts", None).json();
        let account = all.as_array()?.iter().find(|a| a["id"] == id)?.clone();
        (account["status"] == "failing").then_some(account)
    });
    let failure = failing["failure"].as_str().unwrap();
    assert!(
        failure.to_lowercase().contains("authentication failed"),
        "{failure}"
    );
    wait_for("the toml account to stay ok", || {
        let all = server.call("GET", "/mail/accounts", None).json();
        let toml = all.as_array()?.iter().find(|a| a["id"] == TOML_ID)?.clone();
        (toml["status"] == "ok").then_some(toml)
    });
}

/// The inbox rows of category `mail`.
fn mail_rows(server: &TestServer) -> Vec<Value> {
    let reply = server.call("GET", "/inbox?category=mail", None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json().as_array().unwrap().clone()
}

#[test]
fn new_mail_is_an_inbox_card_that_opens_its_thread_only_while_the_switch_is_on() {
    let Some((server, room)) = start_with_rig() else {
        return;
    };
    room.make_folders();
    server.set_setting("spamFilterEnabled", json!(false));
    server.set_setting("mailclientEnabled", json!(true));
    wait_for("the first sync", || {
        let page = server.call(
            "GET",
            &format!("/mail/threads?accountId={TOML_ID}&folder=INBOX"),
            None,
        );
        (page.status == 200).then(|| page.json())
    });

    room.deliver(
        "ada@example.com",
        &mail("off1@x", &[], "Ada <ada@example.com>", "Before", "quiet"),
    );
    wait_threads(&server, "INBOX", 1);
    // A later round's sync means the round that saw "Before" has finished
    // its arrivals check, so turning the switch on cannot reach it.
    room.deliver(
        "ada@example.com",
        &mail("off2@x", &[], "Ada <ada@example.com>", "Between", "quiet"),
    );
    wait_threads(&server, "INBOX", 2);

    server.set_setting("mailclientEmailsInInbox", json!(true));
    room.deliver(
        "dana@example.com",
        &mail(
            "q1@x",
            &[],
            "Dana <dana@example.com>",
            "Quick question",
            "Are you free?",
        ),
    );
    let card = wait_for("the mail card", || {
        mail_rows(&server)
            .into_iter()
            .find(|row| row["title"] == "Dana: Quick question")
    });
    assert_eq!(card["body"], "Are you free?", "{card}");
    let path = card["actions"][0]["path"].as_str().unwrap();
    let query = path.strip_prefix("/mail?").unwrap();
    let pairs: std::collections::HashMap<String, String> = form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    assert_eq!(pairs["account"], TOML_ID, "{path}");
    let thread = server.call("GET", &format!("/mail/threads/{}", pairs["thread"]), None);
    assert_eq!(thread.status, 200, "{}", thread.text());
    assert_eq!(thread.json()["subject"], "Quick question");
    assert!(
        mail_rows(&server)
            .iter()
            .all(|row| row["title"] != "Ada: Before"),
        "mail that came while the switch was off is no card"
    );
}
