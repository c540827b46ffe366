//! How fast the messenger bot answers: a release server whose primary
//! engine is the pinned Claude Code (`make engines-deps`) against the
//! Anthropic stand-in, which answers at once, and the Bot API stand-in,
//! which stamps every call. One chat message at a time, each from a new
//! chat (so each starts a session); the time is read from the message's
//! arrival at the stand-in's `getUpdates` queue to the session's first
//! output of the engine on `GET /stream`, and from the turn's `final`
//! entry on the stream to the bot's `sendMessage`. Printed, not asserted.

mod support;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use standins::telegram::BotApi;
use standins::{Api, Message, Standin};
use support::{
    Addresses, listen, percentile, signal_term, start_with_home, stop_session, turn_timing,
};

const ROUNDS: usize = 20;
const WARM_UP: usize = 2;
const TOKEN: &str = "7001234567:AAHf-bench-token";
const FIRST_USER: i64 = 2_000;

fn main() {
    let claude = support::engines_dir().join("claude");
    assert!(
        claude.exists(),
        "the real Claude Code is not in {} (run `make engines-deps`)",
        claude.display()
    );
    let standin = Standin::start(Api::Anthropic).expect("stand-in");
    let bot = BotApi::start().expect("the Bot API stand-in");
    let data = tempfile::tempdir().expect("data dir");
    let home = tempfile::tempdir().expect("home");
    let work = tempfile::tempdir().expect("work");
    std::fs::write(
        data.path().join("engines.toml"),
        support::claude_engines_toml(&claude, &standin.url()),
    )
    .expect("engines.toml");
    std::fs::write(
        data.path().join("messenger.toml"),
        format!(
            "base_url = {:?}\ntoken_key = \"TELEGRAM_BOT_TOKEN\"\nfolder = {:?}\n",
            bot.url(),
            work.path().display().to_string()
        ),
    )
    .expect("messenger.toml");
    let mut child = start_with_home(data.path(), home.path());
    let server = Addresses::read(data.path());
    let control = server.control.clone().expect("the control server");
    let call = |method: &str, path: &str, body: Value| {
        let url = format!("http://{control}{path}");
        let request = if method == "PUT" {
            ureq::put(&url)
        } else {
            ureq::patch(&url)
        };
        request
            .header("Authorization", format!("Bearer {}", server.token))
            .send_json(body)
            .expect(path);
    };
    call("PUT", "/keys/TELEGRAM_BOT_TOKEN", json!({"value": TOKEN}));
    let users: Vec<String> = (0..(ROUNDS + WARM_UP) as i64)
        .map(|n| (FIRST_USER + n).to_string())
        .collect();
    for (key, value) in [
        ("agentDrivenSessionsEnabled", json!(true)),
        ("messengerBotDmPolicy", json!("allowlist")),
        ("messengerBotAllowedUserIds", json!(users)),
        ("messengerBotEnabled", json!(true)),
    ] {
        call(
            "PATCH",
            &format!("/settings/{key}"),
            json!({"value": value}),
        );
    }
    let events = listen(&control, &server.token);
    let (mut to_output, mut to_reply) = (Vec::new(), Vec::new());
    for n in 0..ROUNDS + WARM_UP {
        standin.push(Message::text(format!("Fixed test {n}.")));
        let user = FIRST_USER + n as i64;
        let sent = Instant::now();
        bot.dm(user, &format!("fix test {n}"));
        let (session, first_output, final_at) = turn_timing(&events);
        let deadline = Instant::now() + Duration::from_secs(60);
        let replied = loop {
            if let Some(reply) = bot.sent_to(user).first() {
                break reply.at;
            }
            assert!(Instant::now() < deadline, "the bot never replied");
            std::thread::sleep(Duration::from_millis(1));
        };
        stop_session(&control, &server.token, &session);
        if n >= WARM_UP {
            to_output.push(first_output.saturating_duration_since(sent));
            to_reply.push(replied.saturating_duration_since(final_at));
        }
    }
    println!(
        "Messenger bot (real Claude Code, stand-in model answering at once, Bot API stand-in), {ROUNDS} chats:"
    );
    println!(
        "  chat message -> the session's first output    p50 {:>8.0?}  p95 {:>8.0?}",
        percentile(&mut to_output, 0.5),
        percentile(&mut to_output, 0.95)
    );
    println!(
        "  final message -> the reply sent to the chat   p50 {:>8.1?}  p95 {:>8.1?}",
        percentile(&mut to_reply, 0.5),
        percentile(&mut to_reply, 0.95)
    );
    signal_term(&child);
    child.wait().ok();
}
