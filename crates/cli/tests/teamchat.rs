//! Team chat writes against a real server and a local stand-in for the
//! Slack Web API that records every call: each operation's calls and body,
//! the bot token sent as a bearer (and found nowhere else: not in
//! `teamchat.toml`, not in any reply), `chatAppEnabled` and
//! `allowAgentTokenTeamChat` with the cli token and an agent's token, an
//! agent's message labelled as the user's agent naming its session, and the
//! service's own error passed on as 502 with its code.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use common::TestServer;
use serde_json::{Value, json};

const TOKEN: &str = "xoxb-test-bot-token-4411";

/// One call the fake service received.
#[derive(Debug, Clone)]
struct Call {
    method: String,
    authorization: String,
    body: Value,
}

/// A Slack Web API stand-in on a free port: `POST /api/<method>`, JSON in,
/// `{"ok": ...}` out. Channel `C_MISSING` is not found.
fn fake_slack() -> (String, Arc<Mutex<Vec<Call>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}/api", listener.local_addr().unwrap());
    let calls = Arc::new(Mutex::new(Vec::new()));
    let recorded = calls.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let recorded = recorded.clone();
            std::thread::spawn(move || serve(stream, &recorded));
        }
    });
    (base, calls)
}

fn serve(stream: std::net::TcpStream, recorded: &Mutex<Vec<Call>>) {
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let method = line
            .split_whitespace()
            .nth(1)
            .and_then(|path| path.strip_prefix("/api/"))
            .unwrap_or("")
            .to_owned();
        let (mut length, mut authorization) = (0, String::new());
        loop {
            let mut header = String::new();
            reader.read_line(&mut header).unwrap();
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            let (name, value) = header.split_once(':').unwrap_or((header, ""));
            match name.to_ascii_lowercase().as_str() {
                "content-length" => length = value.trim().parse().unwrap_or(0),
                "authorization" => authorization = value.trim().to_owned(),
                _ => {}
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        let reply = if body["channel"] == "C_MISSING" {
            json!({"ok": false, "error": "channel_not_found"})
        } else {
            match method.as_str() {
                "conversations.open" => json!({"ok": true, "channel": {"id": "D0USER"}}),
                "chat.postMessage" | "chat.update" | "chat.delete" => {
                    json!({"ok": true, "channel": body["channel"], "ts": "1700000000.000100"})
                }
                "chat.scheduleMessage" => {
                    json!({"ok": true, "channel": body["channel"], "scheduled_message_id": "Q1"})
                }
                _ => json!({"ok": true}),
            }
        };
        recorded.lock().unwrap().push(Call {
            method,
            authorization,
            body,
        });
        let text = reply.to_string();
        let response = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{text}",
            text.len()
        );
        if writer.write_all(response.as_bytes()).is_err() {
            return;
        }
    }
}

/// A server whose `holder` engine records its agent token, with team chat
/// pointed at the fake service and the bot token saved as a key.
fn server(base: &str) -> (TestServer, String, String) {
    let server = TestServer::with_token_holders(|dir| {
        std::fs::write(
            dir.join("teamchat.toml"),
            format!("base_url = {base:?}\ntoken_key = \"SLACK_BOT_TOKEN\"\n"),
        )
        .unwrap();
    });
    let saved = server.call(
        "PUT",
        "/keys/SLACK_BOT_TOKEN",
        Some(&json!({"value": TOKEN})),
    );
    assert_eq!(saved.status, 200, "{}", saved.text());
    let (id, token) = server.holder_session();
    (server, id, token)
}

fn methods(calls: &Mutex<Vec<Call>>) -> Vec<String> {
    calls
        .lock()
        .unwrap()
        .iter()
        .map(|c| c.method.clone())
        .collect()
}

#[test]
fn every_operation_reaches_the_service_as_its_web_api_calls() {
    let (base, calls) = fake_slack();
    let (server, _, _) = server(&base);
    server.set_setting("chatAppEnabled", json!(true));
    let mut replies = Vec::new();
    let mut send = |method: &str, path: &str, body: Option<Value>| {
        let reply = server.call(method, path, body.as_ref());
        assert_eq!(reply.status, 200, "{path}: {}", reply.text());
        replies.push(reply.text());
        reply.json()
    };
    let dm = send(
        "POST",
        "/teamchat/direct-messages",
        Some(json!({"user": "U1", "text": "hi"})),
    );
    assert_eq!(dm["channel"], "D0USER");
    assert_eq!(dm["ts"], "1700000000.000100");
    send(
        "POST",
        "/teamchat/messages",
        Some(json!({"channel": "C1", "text": "hello", "threadTs": "1.2"})),
    );
    send(
        "PATCH",
        "/teamchat/messages/C1/1.2",
        Some(json!({"text": "edited"})),
    );
    send("DELETE", "/teamchat/messages/C1/1.2", None);
    send(
        "POST",
        "/teamchat/reactions",
        Some(json!({"channel": "C1", "ts": "1.2", "name": "eyes"})),
    );
    send(
        "POST",
        "/teamchat/pins",
        Some(json!({"channel": "C1", "ts": "1.2"})),
    );
    let later = send(
        "POST",
        "/teamchat/scheduled-direct-messages",
        Some(json!({"user": "U1", "text": "later", "postAt": 1_900_000_000})),
    );
    assert_eq!(later["scheduledMessageId"], "Q1");
    send(
        "POST",
        "/teamchat/invites",
        Some(json!({"channel": "C1", "users": ["U7", "U8"]})),
    );

    assert_eq!(
        methods(&calls),
        [
            "conversations.open",
            "chat.postMessage",
            "chat.postMessage",
            "chat.update",
            "chat.delete",
            "reactions.add",
            "pins.add",
            "conversations.open",
            "chat.scheduleMessage",
            "conversations.invite"
        ]
    );
    let recorded = calls.lock().unwrap().clone();
    assert!(
        recorded
            .iter()
            .all(|c| c.authorization == format!("Bearer {TOKEN}"))
    );
    assert_eq!(recorded[1].body, json!({"channel": "D0USER", "text": "hi"}));
    assert_eq!(recorded[2].body["thread_ts"], "1.2");
    assert_eq!(
        recorded[5].body,
        json!({"channel": "C1", "timestamp": "1.2", "name": "eyes"})
    );
    assert_eq!(recorded[8].body["post_at"], 1_900_000_000);
    assert_eq!(recorded[9].body["users"], "U7,U8");

    // The token is in no reply and not in the file.
    for text in replies.iter().chain(
        [
            server.call("GET", "/keys", None).text(),
            server.call("GET", "/settings", None).text(),
        ]
        .iter(),
    ) {
        assert!(!text.contains(TOKEN), "{text}");
    }
    let file = std::fs::read_to_string(server.data_dir().join("teamchat.toml")).unwrap();
    assert!(!file.contains(TOKEN));

    // The service's refusal, passed on; bad input makes no call.
    let before = methods(&calls).len();
    let missing = server.call(
        "POST",
        "/teamchat/messages",
        Some(&json!({"channel": "C_MISSING", "text": "x"})),
    );
    assert_eq!(
        (missing.status, missing.error_code().as_str()),
        (502, "channel_not_found")
    );
    let empty = server.call(
        "POST",
        "/teamchat/messages",
        Some(&json!({"channel": "C1", "text": " "})),
    );
    assert_eq!(
        (empty.status, empty.error_code().as_str()),
        (400, "invalid_request")
    );
    assert_eq!(methods(&calls).len(), before + 1);
}

#[test]
fn the_switches_hold_for_every_token_and_an_agent_is_labelled() {
    let (base, calls) = fake_slack();
    let (server, session, agent) = server(&base);
    let message = json!({"channel": "C1", "text": "status update"});

    // chatAppEnabled off: refused for everyone, nothing sent.
    let off = server.call("POST", "/teamchat/messages", Some(&message));
    assert_eq!(
        (off.status, off.error_code().as_str()),
        (403, "team_chat_disabled")
    );
    server.set_setting("chatAppEnabled", json!(true));

    // An agent's token needs allowAgentTokenTeamChat, for every operation.
    for (method, path, body) in [
        ("POST", "/teamchat/messages", Some(message.clone())),
        (
            "POST",
            "/teamchat/direct-messages",
            Some(json!({"user": "U1", "text": "x"})),
        ),
        (
            "PATCH",
            "/teamchat/messages/C1/1.2",
            Some(json!({"text": "x"})),
        ),
        ("DELETE", "/teamchat/messages/C1/1.2", None),
        (
            "POST",
            "/teamchat/reactions",
            Some(json!({"channel": "C1", "ts": "1.2", "name": "x"})),
        ),
        (
            "POST",
            "/teamchat/pins",
            Some(json!({"channel": "C1", "ts": "1.2"})),
        ),
        (
            "POST",
            "/teamchat/scheduled-direct-messages",
            Some(json!({"user": "U1", "text": "x", "postAt": 1_900_000_000})),
        ),
        (
            "POST",
            "/teamchat/invites",
            Some(json!({"channel": "C1", "users": ["U2"]})),
        ),
    ] {
        let refused = server.call_as(&agent, method, path, body.as_ref());
        assert_eq!(
            (refused.status, refused.error_code().as_str()),
            (403, "agent_token_team_chat_disabled"),
            "{path}"
        );
    }
    assert!(methods(&calls).is_empty());

    server.set_setting("allowAgentTokenTeamChat", json!(true));
    // The label does not make an agent's empty text a message.
    let empty = server.call_as(
        &agent,
        "POST",
        "/teamchat/messages",
        Some(&json!({"channel": "C1", "text": " "})),
    );
    assert_eq!(
        (empty.status, empty.error_code().as_str()),
        (400, "invalid_request")
    );
    assert!(methods(&calls).is_empty());
    let sent = server.call_as(&agent, "POST", "/teamchat/messages", Some(&message));
    assert_eq!(sent.status, 200, "{}", sent.text());
    let owner = server.call("POST", "/teamchat/messages", Some(&message));
    assert_eq!(owner.status, 200, "{}", owner.text());
    let recorded = calls.lock().unwrap().clone();
    let texts: Vec<&str> = recorded
        .iter()
        .map(|c| c.body["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        [
            format!("[Sent by the user's agent, session {session}] status update").as_str(),
            "status update"
        ]
    );

    // A second account sees its own settings but the same rules.
    let other = server.call("POST", "/accounts", Some(&json!({"name": "second"})));
    assert_eq!(other.status, 201, "{}", other.text());
    let other_token = other.json()["token"].as_str().unwrap().to_owned();
    let no_key = server.call_as(&other_token, "POST", "/teamchat/messages", Some(&message));
    assert_eq!(
        (no_key.status, no_key.error_code().as_str()),
        (409, "team_chat_not_configured"),
        "another account has no saved token"
    );
}

#[test]
fn with_chat_app_personal_enabled_a_message_goes_with_the_person_s_own_token() {
    let (base, calls) = fake_slack();
    let (server, _, _) = server(&base);
    server.set_setting("chatAppEnabled", json!(true));
    let post = || {
        server.call(
            "POST",
            "/teamchat/messages",
            Some(&json!({"channel": "C1", "text": "from me"})),
        )
    };
    let last_authorization = || calls.lock().unwrap().last().unwrap().authorization.clone();

    // On, with no user token named: refused, and nothing reaches the service.
    server.set_setting("chatAppPersonalEnabled", json!(true));
    let before = calls.lock().unwrap().len();
    let unnamed = post();
    assert_eq!(unnamed.status, 409, "{}", unnamed.text());
    assert_eq!(unnamed.error_code(), "team_chat_not_configured");
    assert!(
        unnamed.text().contains("user_token_key"),
        "{}",
        unnamed.text()
    );
    assert_eq!(calls.lock().unwrap().len(), before);

    std::fs::write(
        server.data_dir().join("teamchat.toml"),
        format!(
            "base_url = {base:?}\ntoken_key = \"SLACK_BOT_TOKEN\"\nuser_token_key = \"SLACK_USER_TOKEN\"\n"
        ),
    )
    .unwrap();
    let saved = server.call(
        "PUT",
        "/keys/SLACK_USER_TOKEN",
        Some(&json!({"value": "xoxp-the-person-77"})),
    );
    assert_eq!(saved.status, 200, "{}", saved.text());
    assert_eq!(post().status, 200);
    assert_eq!(last_authorization(), "Bearer xoxp-the-person-77");

    // Off: the bot's token again.
    server.set_setting("chatAppPersonalEnabled", json!(false));
    assert_eq!(post().status, 200);
    assert_eq!(last_authorization(), format!("Bearer {TOKEN}"));
}
