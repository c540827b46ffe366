//! The messenger bot against a real server and a local stand-in of the
//! Telegram Bot API that feeds updates to `getUpdates` and records every
//! call: pairing from code to approval, the allowlist and disabled direct
//! messages, a group message without a mention ignored, two chats as two
//! sessions, a follow-up that resumes the chat's conversation, `/stop` and
//! `/status`, an approval answered by a button press, and the bot token
//! found nowhere but in the request path (not in a message, the log or a
//! file of the data directory).
//!
//! The stand-in answers as the Bot API documents it (`{"ok": true,
//! "result"}`, `getUpdates` holding the request until an update arrives or
//! its `timeout` passes, at most a second here); the sessions run a
//! `claude` engine whose program (`fixtures/conversation-claude`) prints the
//! stream-json lines the real Claude Code prints (docs/engines.md) and names
//! its conversation, so a follow-up's `--resume` shows in its reply.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::{Value, json};
use standins::telegram::{BOT_NAME, BotApi};

const TOKEN: &str = "7001234567:AAHf-test-messenger-token-88";

/// Waits until the bot has sent `chat` a message containing `text`.
fn wait_sent(api: &BotApi, chat: i64, text: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(found) = api
            .sent_to(chat)
            .into_iter()
            .find(|m| m.body["text"].as_str().unwrap_or("").contains(text))
        {
            return found.body;
        }
        assert!(
            Instant::now() < deadline,
            "the bot never sent {chat} {text:?}; it sent {:?}",
            sent_bodies(api, chat)
        );
        std::thread::sleep(Duration::from_millis(25));
    }
}

fn sent_bodies(api: &BotApi, chat: i64) -> Vec<Value> {
    api.sent_to(chat).into_iter().map(|c| c.body).collect()
}

/// Waits until every update fed so far was fetched and confirmed.
fn wait_consumed(api: &BotApi) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !api.consumed() {
        assert!(
            Instant::now() < deadline,
            "the bot stopped fetching updates"
        );
        std::thread::sleep(Duration::from_millis(25));
    }
}

fn server(api: &BotApi, log: Option<&Path>) -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    // Outside the data directory, which no engine may see.
    let scratch = tempfile::tempdir().unwrap();
    let work = scratch.path().join("bot-work");
    std::fs::create_dir(&work).unwrap();
    common::conversation_engine(dir.path());
    std::fs::write(
        dir.path().join("messenger.toml"),
        format!(
            "base_url = {:?}\ntoken_key = \"TELEGRAM_BOT_TOKEN\"\nfolder = {:?}\n",
            api.url(),
            work.display().to_string()
        ),
    )
    .unwrap();
    let server = match log {
        Some(log) => TestServer::start_logging(dir, &[], log),
        None => TestServer::start_in(dir),
    }
    .keeping(scratch);
    let saved = server.call(
        "PUT",
        "/keys/TELEGRAM_BOT_TOKEN",
        Some(&json!({"value": TOKEN})),
    );
    assert_eq!(saved.status, 200, "{}", saved.text());
    // Messenger sessions are agent-driven: the spawn rules hold for them.
    server.set_setting("agentDrivenSessionsEnabled", json!(true));
    server.set_setting("messengerBotEnabled", json!(true));
    server
}

fn sessions(server: &TestServer) -> Vec<Value> {
    server
        .call("GET", "/sessions", None)
        .json()
        .as_array()
        .unwrap()
        .clone()
}

/// Gives the bot a moment it would need to act, then checks it did not.
fn nothing_sent(api: &BotApi, chat: i64, before: usize) {
    wait_consumed(api);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        api.sent_to(chat).len(),
        before,
        "{:?}",
        sent_bodies(api, chat)
    );
}

/// Every file under `dir`, read as bytes.
fn files_holding(dir: &Path, needle: &[u8]) -> Vec<String> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files_holding(&path, needle));
        } else if let Ok(bytes) = std::fs::read(&path)
            && bytes.windows(needle.len()).any(|w| w == needle)
        {
            found.push(path.display().to_string());
        }
    }
    found
}

#[test]
fn a_stranger_pairs_with_a_code_the_owner_approves_and_the_token_stays_secret() {
    let api = BotApi::start().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let log = scratch.path().join("server.log");
    let mut server = server(&api, Some(&log));

    api.dm(1001, "hello");
    let code_message = wait_sent(&api, 1001, "pairing code");
    let text = code_message["text"].as_str().unwrap();
    let pairings = server.call("GET", "/messenger/pairings", None).json();
    let code = pairings["pairings"][0]["code"].as_str().unwrap().to_owned();
    assert!(text.contains(&code), "{text}");
    assert_eq!(pairings["pairings"][0]["userId"], "1001");
    assert!(sessions(&server).is_empty(), "a stranger started a session");
    let inbox = server
        .call("GET", "/inbox?category=cli_pending", None)
        .json();
    let row = inbox
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["actions"][0]["kind"] == "approve_pairing")
        .cloned()
        .unwrap_or_else(|| panic!("no pairing row: {inbox}"));
    assert_eq!(row["actions"][0]["code"], code.as_str());

    // Asking again gives the same code and no second row.
    api.dm(1001, "hello?");
    wait_consumed(&api);
    let rows = server
        .call("GET", "/inbox?category=cli_pending", None)
        .json();
    assert_eq!(rows.as_array().unwrap().len(), 1, "{rows}");

    let refused = server.call("POST", "/messenger/pairings/NOPE42/approve", None);
    assert_eq!(refused.status, 404, "{}", refused.text());
    let approved = server.call("POST", &format!("/messenger/pairings/{code}/approve"), None);
    assert_eq!(approved.status, 200, "{}", approved.text());
    assert_eq!(approved.json()["state"], "approved");
    let allowed = server.call("GET", "/settings/messengerBotAllowedUserIds", None);
    assert_eq!(allowed.json()["value"], json!(["1001"]));
    wait_sent(&api, 1001, "The owner approved you");

    api.dm(1001, "fix the build");
    wait_sent(&api, 1001, "resumed no");
    let started = sessions(&server);
    assert_eq!(started.len(), 1);
    assert_eq!(started[0]["trigger"], "messenger");
    assert_eq!(started[0]["agentDriven"], true);

    // Allowlist: an unknown sender gets nothing, not even a code.
    server.set_setting("messengerBotDmPolicy", json!("allowlist"));
    api.dm(1002, "let me in");
    nothing_sent(&api, 1002, 0);
    // Disabled: nobody is answered in a direct chat.
    server.set_setting("messengerBotDmPolicy", json!("disabled"));
    let before = api.sent_to(1001).len();
    api.dm(1001, "are you there");
    nothing_sent(&api, 1001, before);
    assert_eq!(sessions(&server).len(), 1);

    // The token travels in the request path only.
    assert!(api.calls("getUpdates").iter().all(|c| c.token == TOKEN));
    for call in api.all_calls() {
        assert!(!call.body.to_string().contains(TOKEN), "{call:?}");
    }
    server.stop();
    assert!(
        files_holding(server.data_dir(), TOKEN.as_bytes()).is_empty(),
        "the token is in a file in clear"
    );
    let written = std::fs::read_to_string(&log).unwrap();
    assert!(
        written.contains("messenger"),
        "the log is not at debug level"
    );
    assert!(!written.contains(TOKEN), "the token is in the log");
    assert!(
        !written.contains("AAHf-test"),
        "part of the token is in the log"
    );
}

#[test]
fn chats_and_topics_are_sessions_and_follow_ups_resume_them() {
    let api = BotApi::start().unwrap();
    let server = server(&api, None);
    server.set_setting("messengerBotAllowedUserIds", json!(["1001"]));
    server.set_setting("messengerBotAllowedGroupIds", json!(["-500"]));
    server.set_setting("messengerBotDmPolicy", json!("allowlist"));

    api.dm(1001, "first");
    let first = wait_sent(&api, 1001, "resumed no");
    let text = first["text"].as_str().unwrap();
    let conversation = text
        .split_whitespace()
        .nth(3)
        .unwrap()
        .trim_end_matches(',')
        .to_owned();
    api.dm(1001, "second");
    wait_sent(&api, 1001, &format!("resumed {conversation}"));
    assert_eq!(sessions(&server).len(), 1, "a follow-up started a session");

    // The group requires a mention: a plain message is passed over.
    api.group(-500, None, 1001, "anyone here?");
    nothing_sent(&api, -500, 0);
    assert_eq!(sessions(&server).len(), 1);
    api.group(-500, None, 1001, &format!("@{BOT_NAME} look at the logs"));
    wait_sent(&api, -500, "resumed no");
    // A forum topic is a chat of its own.
    api.group(-500, Some(7), 1001, &format!("@{BOT_NAME} and this topic"));
    let deadline = Instant::now() + Duration::from_secs(30);
    while sessions(&server).len() < 3 {
        assert!(Instant::now() < deadline, "{:?}", sessions(&server));
        std::thread::sleep(Duration::from_millis(25));
    }
    // The topic's reply goes to the topic.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !api
        .sent_to(-500)
        .iter()
        .any(|m| m.body["message_thread_id"] == 7)
    {
        assert!(Instant::now() < deadline, "the topic got no reply");
        std::thread::sleep(Duration::from_millis(25));
    }

    api.dm(1001, "/status");
    wait_sent(&api, 1001, "waiting for input");
    api.dm(1001, "/stop");
    wait_sent(&api, 1001, "Stopped");
    let stopped = sessions(&server)
        .into_iter()
        .filter(|s| s["status"] == "stopped")
        .count();
    assert_eq!(stopped, 1);
    // /new: the next message starts another session.
    api.dm(1001, "/new");
    wait_sent(&api, 1001, "starts a new session");
    api.dm(1001, "third");
    let deadline = Instant::now() + Duration::from_secs(30);
    while sessions(&server).len() < 4 {
        assert!(Instant::now() < deadline, "{:?}", sessions(&server));
        std::thread::sleep(Duration::from_millis(25));
    }
}

#[test]
fn an_approval_is_answered_by_a_button_press() {
    let api = BotApi::start().unwrap();
    let server = server(&api, None);
    server.set_setting("messengerBotAllowedUserIds", json!(["1001"]));
    server.set_setting("messengerBotDmPolicy", json!("allowlist"));
    // Guarded: a shell command waits for the user's approval.
    server.set_setting("agentPermissionLevel", json!("guarded"));
    api.dm(1001, "clean the build folder");
    wait_sent(&api, 1001, "resumed no");
    let session = sessions(&server)[0].clone();
    let id = session["id"].as_str().unwrap().to_owned();
    let cwd = session["cwd"].clone();

    let asked = {
        let (control, token) = (server.control().to_owned(), server.token.clone());
        let id = id.clone();
        std::thread::spawn(move || {
            let hook = json!({
                "session_id": "c-1", "cwd": cwd, "permission_mode": "default",
                "hook_event_name": "PreToolUse", "tool_name": "Bash",
                "tool_input": {"command": "rm -rf build"}, "tool_use_id": "toolu_01",
            });
            let auth = format!("Bearer {token}");
            let body = hook.to_string();
            common::request(
                &control,
                "POST",
                &format!("/sessions/{id}/permission-check"),
                &[
                    ("Authorization", auth.as_str()),
                    ("Content-Type", "application/json"),
                ],
                Some(body.as_bytes()),
            )
            .json()
        })
    };
    let prompt = wait_sent(&api, 1001, "asks to run Bash");
    let buttons = &prompt["reply_markup"]["inline_keyboard"][0];
    let allow = buttons
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["text"].as_str().unwrap_or("").contains("Allow"))
        .unwrap_or_else(|| panic!("no Allow button: {prompt}"));
    let message_id = api
        .calls("sendMessage")
        .iter()
        .position(|c| c.body == prompt)
        .unwrap()
        + 1;
    // A press from someone not allowed is refused and changes nothing.
    api.push(json!({"callback_query": {
        "id": "cb-stranger",
        "from": {"id": 666, "is_bot": false, "first_name": "Eve"},
        "data": allow["callback_data"],
        "message": {"message_id": message_id, "date": 1_700_000_000, "chat": {"id": 1001, "type": "private"}},
    }}));
    wait_consumed(&api);
    let pending = server.call("GET", "/approvals", None).json();
    assert_eq!(pending["approvals"][0]["state"], "pending", "{pending}");
    api.push(json!({"callback_query": {
        "id": "cb-1",
        "from": {"id": 1001, "is_bot": false, "first_name": "User1001"},
        "data": allow["callback_data"],
        "message": {"message_id": message_id, "date": 1_700_000_000, "chat": {"id": 1001, "type": "private"}},
    }}));
    let answer = asked.join().unwrap();
    assert_eq!(answer["decision"], "allow", "{answer}");
    let deadline = Instant::now() + Duration::from_secs(30);
    let answered = loop {
        let answered = api.calls("answerCallbackQuery");
        if answered
            .iter()
            .any(|c| c.body["callback_query_id"] == "cb-1")
        {
            break answered;
        }
        assert!(Instant::now() < deadline, "the press was never answered");
        std::thread::sleep(Duration::from_millis(25));
    };
    let pressed = answered
        .iter()
        .find(|c| c.body["callback_query_id"] == "cb-1")
        .unwrap();
    assert_eq!(pressed.body["text"], "Approved.");
    assert!(
        answered
            .iter()
            .any(|c| c.body["callback_query_id"] == "cb-stranger" && c.body["text"] != "Approved.")
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    while api.calls("editMessageReplyMarkup").is_empty() {
        assert!(Instant::now() < deadline, "the buttons stayed");
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// Posts `update` to the UI server's webhook path.
fn deliver(server: &TestServer, segment: &str, secret_token: &str, update: &Value) -> u16 {
    let body = update.to_string();
    common::request(
        &server.ui,
        "POST",
        &format!("/api/messenger/webhook/{segment}"),
        &[
            ("Content-Type", "application/json"),
            ("X-Telegram-Bot-Api-Secret-Token", secret_token),
        ],
        Some(body.as_bytes()),
    )
    .status
}

#[test]
fn in_webhook_mode_updates_arrive_at_the_secret_path_only() {
    let api = BotApi::start().unwrap();
    let server = server(&api, None);
    server.set_setting("messengerBotAllowedUserIds", json!(["1001"]));
    server.set_setting("messengerBotDmPolicy", json!("allowlist"));
    server.set_setting("messengerBotEnabled", json!(false));
    let config = server.data_dir().join("messenger.toml");
    let polling = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        format!("{polling}mode = \"webhook\"\nwebhook_url = \"https://bot.example.com/sb/\"\n"),
    )
    .unwrap();
    server.set_setting("messengerBotEnabled", json!(true));
    let deadline = Instant::now() + Duration::from_secs(30);
    let set = loop {
        if let Some(call) = api.calls("setWebhook").pop() {
            break call;
        }
        assert!(Instant::now() < deadline, "the webhook was never set");
        std::thread::sleep(Duration::from_millis(25));
    };
    let url = set.body["url"].as_str().unwrap().to_owned();
    let segment = url
        .strip_prefix("https://bot.example.com/sb/api/messenger/webhook/")
        .unwrap_or_else(|| panic!("{url}"))
        .to_owned();
    let secret_token = set.body["secret_token"].as_str().unwrap().to_owned();
    assert_eq!(segment.len(), 64);
    assert!(!url.contains(TOKEN) && !secret_token.contains(TOKEN));
    let polls = api.calls("getUpdates").len();

    let update = json!({"update_id": 1, "message": {
        "message_id": 7, "date": 1_700_000_000,
        "from": {"id": 1001, "is_bot": false, "first_name": "Ada"},
        "chat": {"id": 1001, "type": "private"},
        "text": "fix the build",
    }});
    assert_eq!(deliver(&server, &segment, "wrong", &update), 404);
    assert_eq!(
        deliver(&server, &"0".repeat(64), &secret_token, &update),
        404
    );
    assert_eq!(
        deliver(&server, &segment, &secret_token, &json!({"nope": true})),
        400
    );
    assert_eq!(deliver(&server, &segment, &secret_token, &update), 200);
    wait_sent(&api, 1001, "resumed no");
    assert_eq!(
        sessions(&server).len(),
        1,
        "a refused delivery started a session"
    );
    assert_eq!(
        api.calls("getUpdates").len(),
        polls,
        "webhook mode still polled"
    );

    // Off: the webhook is deleted and the address answers like any unknown one.
    let deleted = api.calls("deleteWebhook").len();
    server.set_setting("messengerBotEnabled", json!(false));
    let deadline = Instant::now() + Duration::from_secs(30);
    while api.calls("deleteWebhook").len() == deleted {
        assert!(Instant::now() < deadline, "the webhook was never deleted");
        std::thread::sleep(Duration::from_millis(25));
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    while deliver(&server, &segment, &secret_token, &update) != 404 {
        assert!(Instant::now() < deadline, "the address still takes updates");
        std::thread::sleep(Duration::from_millis(25));
    }
}
