//! `imageBridgeMode` with the real Claude Code on a model that cannot see
//! images (`claude-3-5-haiku-20241022`, docs/attachments.md): off refuses
//! the turn and sends nothing; auto has the stand-in, as the vision model,
//! describe the image (carried as a base64 content block of a stream-json
//! message) and the turn's prompt carries the brief with the file's path;
//! a vision call that fails lets the turn go on, saying so. Codex on
//! `gpt-oss-20b` the same way, its vision call on `gpt-5` with the image as
//! `--image` (an `input_image` of the Responses API).

use base64::Engine as _;
use serde_json::{Value, json};
use standins::{Api, Message, Reply};

use crate::rig::Rig;

/// A real 2×2 red PNG: the CLI may look inside what it sends.
const PNG: &[u8] = b"\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x02\x00\x00\x00\x02\x08\x02\x00\x00\x00\xfd\xd4\x9a\x73\x00\x00\x00\x10\x49\x44\x41\x54\x78\x9c\x63\xf8\xcf\xc0\x00\x44\x0c\x10\x0a\x00\x1f\xee\x03\xfd\x8b\x5f\x14\xd4\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82";

/// How the stand-in knows the vision call: its question's opening words.
const DESCRIBE: &str = "Describe this image for a coding agent";

/// A rig whose Claude Code runs on a model the table says is text-only.
fn text_only_rig() -> Option<Rig> {
    let rig = Rig::start(Api::Anthropic, &[])?;
    let toml = rig.server.data_dir().join("engines.toml");
    let mut text = std::fs::read_to_string(&toml).unwrap();
    text.push_str("args = [\"--model\", \"claude-3-5-haiku-20241022\"]\n");
    std::fs::write(&toml, text).unwrap();
    Some(rig)
}

fn upload(rig: &Rig, content_type: &str, body: &[u8]) -> crate::common::Reply {
    let auth = format!("Bearer {}", rig.server.token);
    crate::common::request(
        rig.server.control(),
        "POST",
        "/attachments",
        &[
            ("Authorization", auth.as_str()),
            ("Content-Type", content_type),
        ],
        Some(body),
    )
}

fn spawn_with(rig: &Rig, prompt: &str, id: &str) -> crate::common::Reply {
    rig.server.call(
        "POST",
        "/sessions",
        Some(&json!({
            "engine": "primary",
            "prompt": prompt,
            "cwd": rig.work.path(),
            "attachments": [id],
        })),
    )
}

fn first_user_text(request: &standins::Recorded) -> String {
    request.body["messages"][0]["content"].to_string()
}

#[test]
fn off_refuses_and_auto_sends_the_vision_models_brief() {
    let Some(rig) = text_only_rig() else {
        return;
    };
    let not_image = upload(&rig, "text/plain", b"hello");
    assert_eq!(not_image.status, 415, "{}", not_image.text());
    let lying = upload(&rig, "image/jpeg", PNG);
    assert_eq!(lying.status, 415, "{}", lying.text());
    let big = vec![0u8; 10 * 1024 * 1024 + 1];
    let too_large = upload(&rig, "image/png", &big);
    assert_eq!(too_large.status, 413, "{}", too_large.text());
    assert_eq!(too_large.error_code(), "payload_too_large");

    let stored = upload(&rig, "image/png", PNG);
    assert_eq!(stored.status, 201, "{}", stored.text());
    let stored = stored.json();
    let id = stored["id"].as_str().unwrap().to_owned();
    let path = stored["path"].as_str().unwrap().to_owned();
    assert_eq!(std::fs::read(&path).unwrap(), PNG);
    assert_eq!(stored["mediaType"], "image/png");

    let unknown = spawn_with(&rig, "Look.", &"0".repeat(64));
    assert_eq!(unknown.status, 400, "{}", unknown.text());
    assert_eq!(unknown.error_code(), "attachment_not_found");

    let refused = spawn_with(&rig, "What is in this screenshot?", &id);
    assert_eq!(refused.status, 400, "{}", refused.text());
    assert_eq!(refused.error_code(), "image_not_supported");
    let message = refused.json()["error"]["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        message.contains("claude-3-5-haiku-20241022") && message.contains("imageBridgeMode"),
        "{message}"
    );
    assert!(rig.standin.requests().is_empty(), "nothing was sent");
    let sessions = rig.server.call("GET", "/sessions", None).json();
    assert_eq!(sessions.as_array().map(Vec::len), Some(0), "{sessions}");

    rig.server.set_setting("imageBridgeMode", json!("auto"));
    rig.standin.answer(
        DESCRIBE,
        Message::text("A 2x2 image filled with solid red; no text."),
    );
    rig.standin.push(Message::text("It is a red square."));
    let started = spawn_with(&rig, "What is in this screenshot?", &id);
    assert_eq!(started.status, 201, "{}", started.text());
    let session = started.json()["id"].as_str().unwrap().to_owned();
    let ended = rig.wait_turn(&session, 1);
    assert_eq!(ended["status"], "waiting_for_input", "{ended}");

    let vision = rig.standin.answered(DESCRIBE);
    assert_eq!(vision.len(), 1, "one vision call");
    let blocks = &vision[0].body["messages"][0]["content"];
    let image = blocks
        .as_array()
        .unwrap()
        .iter()
        .find(|block| block["type"] == "image")
        .unwrap_or_else(|| panic!("no image block: {blocks}"));
    assert_eq!(image["source"]["media_type"], "image/png");
    let sent = base64::engine::general_purpose::STANDARD
        .decode(image["source"]["data"].as_str().unwrap())
        .unwrap();
    assert_eq!(sent, PNG);

    let turn = rig.standin.main_requests();
    let asked = first_user_text(&turn[0]);
    assert!(
        asked.contains(&format!(
            "[Image {path}: A 2x2 image filled with solid red; no text.]"
        )),
        "{asked}"
    );
    assert!(
        !asked.contains("\"type\":\"image\""),
        "the engine got text alone: {asked}"
    );

    let calls = rig
        .server
        .call("GET", "/utility/calls?feature=image_bridge", None)
        .json();
    let calls = calls["calls"].as_array().unwrap();
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0]["outcome"], "ok");
    assert_eq!(calls[0]["engine"], "primary");
}

#[test]
fn a_failed_vision_call_lets_the_follow_up_go_on_without_the_image() {
    let Some(rig) = text_only_rig() else {
        return;
    };
    rig.server.set_setting("imageBridgeMode", json!("auto"));
    rig.standin.push(Message::text("Hello."));
    rig.standin.push(Message::text("Understood."));
    let id = rig.spawn("Hi.");
    rig.wait_turn(&id, 1);
    let stored = upload(&rig, "image/png", PNG).json();
    rig.standin.answer(
        DESCRIBE,
        Reply::Raw {
            status: 400,
            headers: vec![],
            body: json!({"type": "error", "error": {"type": "invalid_request_error",
                "message": "Could not process image"}}),
        },
    );
    let reply = rig.server.call(
        "POST",
        &format!("/sessions/{id}/messages"),
        Some(&json!({"text": "See the screenshot.", "attachments": [stored["id"]]})),
    );
    assert_eq!(reply.status, 202, "{}", reply.text());
    rig.wait_turn(&id, 2);
    let turn = rig.standin.main_requests();
    let asked: Value = turn[1].body["messages"].clone();
    let asked = asked.to_string();
    assert!(
        asked.contains("could not be described") && asked.contains("goes on without it"),
        "{asked}"
    );
    let calls = rig
        .server
        .call("GET", "/utility/calls?feature=image_bridge", None)
        .json();
    assert_eq!(calls["calls"][0]["outcome"], "failed", "{calls}");
}

#[test]
fn codex_on_a_text_only_model_gets_the_brief_of_a_vision_call_made_with_image() {
    let Some(rig) = Rig::start(Api::OpenAi, &[]) else {
        return;
    };
    let toml = rig.server.data_dir().join("engines.toml");
    let mut text = std::fs::read_to_string(&toml).unwrap();
    text.push_str("args = [\"-m\", \"gpt-oss-20b\"]\n");
    std::fs::write(&toml, text).unwrap();
    let stored = upload(&rig, "image/png", PNG).json();
    let path = stored["path"].as_str().unwrap().to_owned();
    let refused = rig.server.call(
        "POST",
        "/sessions",
        Some(
            &json!({"engine": "second", "prompt": "Look.", "cwd": rig.work.path(),
            "attachments": [stored["id"]]}),
        ),
    );
    assert_eq!(
        refused.error_code(),
        "image_not_supported",
        "{}",
        refused.text()
    );
    assert!(refused.text().contains("gpt-oss-20b"), "{}", refused.text());

    rig.server.set_setting("imageBridgeMode", json!("auto"));
    rig.standin
        .answer(DESCRIBE, Message::text("A red square, no text."));
    rig.standin.push(Message::text("Red."));
    let started = rig.server.call(
        "POST",
        "/sessions",
        Some(
            &json!({"engine": "second", "prompt": "Look.", "cwd": rig.work.path(),
            "attachments": [stored["id"]]}),
        ),
    );
    assert_eq!(started.status, 201, "{}", started.text());
    let id = started.json()["id"].as_str().unwrap().to_owned();
    rig.wait_turn(&id, 1);

    let vision = rig.standin.answered(DESCRIBE);
    assert_eq!(
        vision.len(),
        1,
        "one vision call: {}\n{:?}",
        rig.server
            .call("GET", "/utility/calls?feature=image_bridge", None)
            .text(),
        rig.standin
            .main_requests()
            .first()
            .map(|r| r.body["input"].to_string())
    );
    assert_eq!(vision[0].body["model"], "gpt-5", "a model that sees");
    let input = vision[0].body["input"].to_string();
    let encoded = base64::engine::general_purpose::STANDARD.encode(PNG);
    assert!(
        input.contains("input_image") && input.contains(&encoded),
        "the image went with the question: {input}"
    );
    let turn = rig.standin.main_requests();
    let asked = turn[0].body["input"].to_string();
    assert!(
        asked.contains(&format!("[Image {path}: A red square, no text.]")),
        "{asked}"
    );
}
