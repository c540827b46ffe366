//! The stand-in over real HTTP: the script feeds only the conversation, every
//! request is recorded with its keys masked, and a test can wait for a turn.

use std::time::Duration;

use serde_json::{Value, json};
use standins::{Api, Message, Reply, Reset, Standin};

fn post(url: &str, body: &Value, key: &str) -> (u16, String) {
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .new_agent();
    let mut response = agent
        .post(url)
        .header("x-api-key", key)
        .send_json(body)
        .unwrap();
    let status = response.status().as_u16();
    (status, response.body_mut().read_to_string().unwrap())
}

#[test]
fn side_requests_leave_the_script_to_the_conversation() {
    let standin = Standin::start(Api::Anthropic).unwrap();
    standin.push(Message::text("First answer."));
    standin.push(Reply::Overloaded);
    let messages = format!("{}/v1/messages?beta=true", standin.url());
    let turn = json!({"model": "claude-x", "stream": true, "tools": [{"name": "Bash"}],
        "messages": [{"role": "user", "content": "hi"}]});

    let (status, title) = post(
        &messages,
        &json!({"model": "claude-small", "messages": [{"role": "user", "content": "a title"}]}),
        "sk-ant-secret",
    );
    assert_eq!(status, 200);
    assert_eq!(
        serde_json::from_str::<Value>(&title).unwrap()["content"][0]["text"],
        "OK"
    );
    assert_eq!(standin.remaining(), 2);

    let (status, stream) = post(&messages, &turn, "sk-ant-secret");
    assert_eq!(status, 200);
    assert!(stream.contains("event: message_start"));
    assert!(stream.contains(r#""text":"answer."#));
    let (status, overloaded) = post(&messages, &turn, "sk-ant-secret");
    assert_eq!(status, 529);
    assert!(overloaded.contains("overloaded_error"));
    let (status, exhausted) = post(&messages, &turn, "sk-ant-secret");
    assert_eq!(status, 400);
    assert!(exhausted.contains("no reply left"));

    let second = standin.wait_main(2, Duration::from_secs(5)).unwrap();
    assert_eq!(second.path, "/v1/messages?beta=true");
    assert_eq!(second.header("x-api-key"), Some("[redacted]"));
    assert_eq!(second.body["model"], "claude-x");
    assert_eq!(standin.requests().len(), 4);
    assert_eq!(standin.main_requests().len(), 3);
    assert!(
        !standin
            .requests()
            .iter()
            .any(|r| format!("{r:?}").contains("sk-ant-secret"))
    );
    assert!(standin.wait_main(4, Duration::from_millis(50)).is_none());
}

#[test]
fn codex_turns_are_responses_posts() {
    let standin = Standin::start(Api::OpenAi).unwrap();
    standin.push(Reply::UsageLimit(Reset {
        at: 1_800_000_000,
        after_seconds: 60,
    }));
    let (status, body) = post(
        &format!("{}/v1/responses", standin.url()),
        &json!({"model": "gpt-x", "input": []}),
        "unused",
    );
    assert_eq!(status, 429);
    assert!(body.contains("usage_limit_reached"));
    let (status, _) = post(
        &format!("{}/v1/models", standin.url()),
        &json!({}),
        "unused",
    );
    assert_eq!(status, 404);
    assert_eq!(standin.main_requests().len(), 1);
    assert_eq!(standin.requests().len(), 2);
}
