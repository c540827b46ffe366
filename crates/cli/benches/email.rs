//! How fast inbound email is answered: real dovecot (IMAP, IDLE) and
//! aiosmtpd (`mail::rig`, `make mail-deps py-deps`), a release server whose
//! primary engine is the pinned Claude Code (`make engines-deps`) against
//! the Anthropic stand-in, which answers the prescreen and the turn at
//! once. One approved sender's mail at a time, each a new thread (so each
//! classifies and starts a session); the time is read from the SMTP
//! server's acceptance of the mail to the session's first output of the
//! engine on `GET /stream`, and from the turn's `final` entry on the stream
//! to the reply's arrival in the mailbox (our SMTP send, then aiosmtpd's
//! delivery through dovecot's LMTP). Printed, not asserted.

mod support;

use std::time::{Duration, Instant};

use mail::rig::{ADDRESS, MailServers, Options, PASSWORD, PASSWORD_KEY};
use serde_json::{Value, json};
use standins::{Api, Message, Standin};
use support::{
    Addresses, listen, percentile, signal_term, start_with_home, stop_session, turn_timing,
};

const ROUNDS: usize = 10;
const WARM_UP: usize = 2;

fn main() {
    let claude = support::engines_dir().join("claude");
    assert!(
        claude.exists(),
        "the real Claude Code is not in {} (run `make engines-deps`)",
        claude.display()
    );
    let servers = MailServers::start(Options::default()).expect("dovecot and aiosmtpd");
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let standin = Standin::start(Api::Anthropic).expect("stand-in");
    standin.answer(
        app::email_in::PRESCREEN_PHRASE,
        Message::text(
            json!({"action": "start", "reason": "asks for a review", "title": "Review"})
                .to_string(),
        ),
    );
    let data = tempfile::tempdir().expect("data dir");
    let home = tempfile::tempdir().expect("home");
    let sessions = tempfile::tempdir().expect("sessions folder");
    std::fs::write(
        data.path().join("engines.toml"),
        support::claude_engines_toml(&claude, &standin.url()),
    )
    .expect("engines.toml");
    std::fs::write(
        data.path().join("email.toml"),
        format!(
            "folder = {:?}\nca_file = {:?}\n\n[[accounts]]\naddress = {ADDRESS:?}\n\
             imap = {{ host = \"localhost\", port = {}, tls = \"implicit\", username = {ADDRESS:?}, password_key = {PASSWORD_KEY:?} }}\n\
             smtp = {{ host = \"localhost\", port = {}, tls = \"none\" }}\n",
            sessions.path().display().to_string(),
            servers.ca_file.display().to_string(),
            servers.imaps_port,
            servers.smtp_port,
        ),
    )
    .expect("email.toml");
    let mut child = start_with_home(data.path(), home.path());
    let server = Addresses::read(data.path());
    let control = server.control.clone().expect("the control server");
    let auth = format!("Bearer {}", server.token);
    ureq::put(format!("http://{control}/keys/{PASSWORD_KEY}"))
        .header("Authorization", &auth)
        .send_json(json!({"value": PASSWORD}))
        .expect("the password");
    for (key, value) in [
        ("agentDrivenSessionsEnabled", json!(true)),
        ("emailInboundApprovedSenders", json!(["ada@example.com"])),
        ("emailInboundInboxId", json!(ADDRESS)),
        ("emailInboundEnabled", json!(true)),
    ] {
        ureq::patch(format!("http://{control}/settings/{key}"))
            .header("Authorization", &auth)
            .send_json(json!({"value": value}))
            .expect("a setting");
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let inbound: Value = ureq::get(format!("http://{control}/email/inbound"))
            .header("Authorization", &auth)
            .call()
            .expect("the inbound list")
            .body_mut()
            .read_json()
            .expect("json");
        if inbound["watcher"] == "idling" {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the watcher never idled: {inbound}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let events = listen(&control, &server.token);
    let (mut to_output, mut to_reply) = (Vec::new(), Vec::new());
    for n in 0..ROUNDS + WARM_UP {
        standin.push(Message::text(format!("Reviewed {n}: fine.")));
        let id = format!("bench-{n}@example.com");
        let raw = format!(
            "From: ada@example.com\r\nTo: {ADDRESS}\r\nSubject: Review {n}\r\nMessage-ID: <{id}>\r\n\
             Date: Tue, 24 Nov 2026 09:00:00 +0000\r\n\r\nPlease review change {n}.\r\n"
        );
        runtime
            .block_on(servers.deliver("ada@example.com", raw.as_bytes()))
            .expect("delivered");
        let accepted = Instant::now();
        let decided = loop {
            let inbound: Value = ureq::get(format!("http://{control}/email/inbound"))
                .header("Authorization", &auth)
                .call()
                .expect("the inbound list")
                .body_mut()
                .read_json()
                .expect("json");
            let seen = inbound["mails"]
                .as_array()
                .and_then(|mails| mails.iter().find(|m| m["messageId"] == id.as_str()))
                .cloned();
            if let Some(seen) = seen.filter(|m| m["decision"] != "pending") {
                break seen;
            }
            std::thread::sleep(Duration::from_millis(2));
        };
        assert_eq!(decided["decision"], "start", "{decided}");
        let (session, first_output, final_at) = turn_timing(&events);
        let deadline = Instant::now() + Duration::from_secs(60);
        let landed = loop {
            let answered = servers
                .messages()
                .iter()
                .any(|raw| mail::parse(raw).is_ok_and(|m| m.in_reply_to.contains(&id)));
            if answered {
                break Instant::now();
            }
            assert!(Instant::now() < deadline, "no reply to {id}");
            std::thread::sleep(Duration::from_millis(2));
        };
        stop_session(&control, &server.token, &session);
        if n >= WARM_UP {
            to_output.push(first_output.saturating_duration_since(accepted));
            to_reply.push(landed.saturating_duration_since(final_at));
        }
    }
    println!("Inbound email (IDLE; real Claude Code, stand-in answering at once), {ROUNDS} mails:");
    println!(
        "  mail accepted -> the session's first output     p50 {:>8.1?}  p95 {:>8.1?}",
        percentile(&mut to_output, 0.5),
        percentile(&mut to_output, 0.95)
    );
    println!(
        "  final message -> the reply in the mailbox       p50 {:>8.0?}  p95 {:>8.0?}",
        percentile(&mut to_reply, 0.5),
        percentile(&mut to_reply, 0.95)
    );
    signal_term(&child);
    child.wait().ok();
}
