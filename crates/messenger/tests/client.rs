//! The Bot API client against a stand-in service on 127.0.0.1:0 that
//! checks each call's path (token included) and JSON body, and answers as
//! Telegram does, refusals and rate limits too.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use messenger::{ChatKey, Client, MessengerError, Outgoing, approval_keyboard};
use serde_json::{Value, json};

const TOKEN: &str = "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11";

#[derive(Debug, Clone)]
struct Call {
    path: String,
    content_type: String,
    body: Value,
}

fn fake_telegram() -> (String, Arc<Mutex<Vec<Call>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
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
        let path = line.split_whitespace().nth(1).unwrap_or("").to_owned();
        let (mut length, mut content_type) = (0, String::new());
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
                "content-type" => content_type = value.trim().to_owned(),
                _ => {}
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        recorded.lock().unwrap().push(Call {
            path: path.clone(),
            content_type,
            body: body.clone(),
        });
        let (status, reply) = answer(&path, &body);
        let reply = reply.to_string();
        write!(
            writer,
            "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{reply}",
            reply.len()
        )
        .unwrap();
    }
}

fn answer(path: &str, body: &Value) -> (u16, Value) {
    let Some(method) = path.strip_prefix(&format!("/bot{TOKEN}/")) else {
        return (
            404,
            json!({"ok": false, "error_code": 404, "description": "Not Found"}),
        );
    };
    match (method, body["chat_id"].as_i64()) {
        ("getMe", _) => (
            200,
            json!({"ok": true, "result": {"id": 42, "is_bot": true, "first_name": "Switch", "username": "SwitchBot"}}),
        ),
        ("getUpdates", _) => (
            200,
            json!({"ok": true, "result": [
                {"update_id": 900, "message": {"message_id": 1, "date": 0,
                    "chat": {"id": 5, "type": "private"},
                    "from": {"id": 5, "is_bot": false, "first_name": "A"}, "text": "hi"}},
                // A message without a chat: unreadable, but its id still counts.
                {"update_id": 901, "message": {"message_id": 2}},
            ]}),
        ),
        // The service quotes the URL it was called at, token and all.
        ("sendMessage", Some(400)) => (
            400,
            json!({"ok": false, "error_code": 400,
                   "description": format!("Bad Request: chat not found (POST /bot{TOKEN}/sendMessage)")}),
        ),
        ("sendMessage", Some(429)) => (
            429,
            json!({"ok": false, "error_code": 429, "description": "Too Many Requests: retry after 7",
                   "parameters": {"retry_after": 7}}),
        ),
        ("sendMessage", Some(502)) => (502, json!("<html>Bad Gateway</html>")),
        ("sendMessage", chat) => (
            200,
            json!({"ok": true, "result": {"message_id": 555, "date": 0,
                   "chat": {"id": chat, "type": "supergroup"},
                   "message_thread_id": body["message_thread_id"],
                   "is_topic_message": body.get("message_thread_id").is_some(),
                   "text": "sent"}}),
        ),
        ("answerCallbackQuery" | "setWebhook" | "deleteWebhook", _) => {
            (200, json!({"ok": true, "result": true}))
        }
        ("editMessageReplyMarkup", _) => (
            200,
            json!({"ok": true, "result": {"message_id": body["message_id"], "chat": {"id": body["chat_id"], "type": "private"}}}),
        ),
        _ => (
            404,
            json!({"ok": false, "error_code": 404, "description": "Not Found"}),
        ),
    }
}

fn topic() -> ChatKey {
    ChatKey {
        chat_id: -1_001_234,
        thread_id: Some(11),
    }
}

fn assert_no_token(error: &MessengerError) {
    for shown in [error.to_string(), format!("{error:?}")] {
        assert!(!shown.contains(TOKEN), "{shown}");
        assert!(!shown.contains("ABC-DEF1234ghIkl"), "{shown}");
    }
}

#[test]
fn each_call_goes_to_its_method_with_the_token_in_the_path() {
    let (base, calls) = fake_telegram();
    let client = Client::new(&format!("{base}/"), TOKEN.to_owned()).unwrap();

    let me = client.get_me().unwrap();
    assert_eq!((me.id, me.username.as_str()), (42, "SwitchBot"));

    let updates = client.get_updates(Some(900), 0).unwrap();
    assert_eq!(updates.len(), 2);
    assert_eq!(
        updates[0].message.as_ref().unwrap().text.as_deref(),
        Some("hi")
    );
    assert_eq!(
        (updates[1].update_id, updates[1].message.is_none()),
        (901, true)
    );

    let sent = client
        .send_message(&Outgoing {
            key: topic(),
            html: "<b>Allow</b> <code>rm -rf build</code>?".to_owned(),
            buttons: approval_keyboard("0192f0c4a1b27c3d8e9f0a1b2c3d4e5f"),
            reply_to: Some(3),
        })
        .unwrap();
    assert_eq!((sent.message_id, sent.message_thread_id), (555, Some(11)));
    client
        .answer_callback_query("cb1", Some("Allowed"))
        .unwrap();
    client.remove_buttons(-1_001_234, 555).unwrap();
    client
        .set_webhook("https://bot.example/hook/abc", "s3cret")
        .unwrap();
    client.delete_webhook().unwrap();

    let calls = calls.lock().unwrap().clone();
    let methods: Vec<&str> = calls
        .iter()
        .map(|call| call.path.rsplit('/').next().unwrap())
        .collect();
    assert_eq!(
        methods,
        [
            "getMe",
            "getUpdates",
            "sendMessage",
            "answerCallbackQuery",
            "editMessageReplyMarkup",
            "setWebhook",
            "deleteWebhook"
        ]
    );
    for call in &calls {
        assert!(
            call.path.starts_with(&format!("/bot{TOKEN}/")),
            "{}",
            call.path
        );
        assert!(call.content_type.starts_with("application/json"));
    }
    assert_eq!(
        calls[1].body,
        json!({"offset": 900, "timeout": 0, "allowed_updates": ["message", "callback_query"]})
    );
    assert_eq!(
        calls[2].body,
        json!({
            "chat_id": -1_001_234,
            "message_thread_id": 11,
            "text": "<b>Allow</b> <code>rm -rf build</code>?",
            "parse_mode": "HTML",
            "link_preview_options": {"is_disabled": true},
            "reply_markup": {"inline_keyboard": [[
                {"text": "Allow", "callback_data": "a:0192f0c4a1b27c3d8e9f0a1b2c3d4e5f:allow"},
                {"text": "Deny", "callback_data": "a:0192f0c4a1b27c3d8e9f0a1b2c3d4e5f:deny"},
            ]]},
            "reply_parameters": {"message_id": 3, "allow_sending_without_reply": true},
        })
    );
    assert_eq!(
        calls[3].body,
        json!({"callback_query_id": "cb1", "text": "Allowed"})
    );
    assert_eq!(
        calls[4].body,
        json!({"chat_id": -1_001_234, "message_id": 555, "reply_markup": {"inline_keyboard": []}})
    );
    assert_eq!(
        calls[5].body,
        json!({"url": "https://bot.example/hook/abc", "secret_token": "s3cret",
               "allowed_updates": ["message", "callback_query"]})
    );
}

fn send_to(client: &Client, chat_id: i64) -> Result<messenger::Message, MessengerError> {
    client.send_message(&Outgoing {
        key: ChatKey {
            chat_id,
            thread_id: None,
        },
        html: "x".to_owned(),
        buttons: None,
        reply_to: None,
    })
}

#[test]
fn refusals_and_rate_limits_come_back_typed_without_the_token() {
    let (base, _) = fake_telegram();
    let client = Client::new(&base, TOKEN.to_owned()).unwrap();

    let refused = send_to(&client, 400).unwrap_err();
    match &refused {
        MessengerError::Api { code, description } => {
            assert_eq!(*code, 400);
            assert!(description.starts_with("Bad Request: chat not found"));
            assert!(
                description.contains("/bot<token>/sendMessage"),
                "{description}"
            );
        }
        other => panic!("{other:?}"),
    }
    let limited = send_to(&client, 429).unwrap_err();
    assert!(
        matches!(&limited, MessengerError::RateLimited { retry_after: 7, .. }),
        "{limited:?}"
    );
    let garbled = send_to(&client, 502).unwrap_err();
    assert!(
        matches!(&garbled, MessengerError::BadReply(_)),
        "{garbled:?}"
    );
    for error in [&refused, &limited, &garbled] {
        assert_no_token(error);
    }
}

#[test]
fn the_token_never_shows_in_an_error() {
    // Nothing listens on a port just let go of.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let closed = Client::new(&format!("http://127.0.0.1:{port}"), TOKEN.to_owned()).unwrap();
    let unreachable = closed.get_me().unwrap_err();
    assert!(
        matches!(unreachable, MessengerError::Unreachable(_)),
        "{unreachable:?}"
    );

    // A base without a scheme: the HTTP library's error quotes the whole URL.
    let bad = Client::new("/no-scheme", TOKEN.to_owned()).unwrap();
    let bad_uri = bad.get_me().unwrap_err();
    assert!(
        bad_uri.to_string().contains("/no-scheme/bot<token>/getMe"),
        "{bad_uri}"
    );

    let odd_token = Client::new("http://127.0.0.1:1", format!("{TOKEN}/../x")).unwrap_err();
    assert!(matches!(odd_token, MessengerError::InvalidInput(_)));

    for error in [&unreachable, &bad_uri, &odd_token] {
        assert_no_token(error);
    }
    assert!(!format!("{closed:?}").contains(TOKEN));
}
