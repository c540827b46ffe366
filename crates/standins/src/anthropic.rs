//! Anthropic's Messages API as Claude Code calls it: `POST /v1/messages`
//! (with `?beta=true`) streamed as `message_start`, `ping`, per block
//! `content_block_start` / `content_block_delta` / `content_block_stop`,
//! `message_delta` (stop reason, cumulative usage) and `message_stop`;
//! errors as `{"type":"error","error":{"type","message"},"request_id"}`.

use axum::http::Method;
use axum::response::Response;
use serde_json::{Value, json};

use crate::script::{Block, Message, Reply, Reset, Usage};
use crate::wire::{self, json_response, requested_model};

/// A turn of the conversation offers the agent's tools; a side question
/// (a title, a summary) asks without any.
pub(crate) fn is_main(method: &Method, path: &str, body: &Value) -> bool {
    method == Method::POST
        && path == "/v1/messages"
        && body
            .get("tools")
            .and_then(Value::as_array)
            .is_some_and(|tools| !tools.is_empty())
}

pub(crate) fn reply(reply: Option<&Reply>, request: &Value, number: usize) -> Response {
    let request_id = format!("req_standin_{number}");
    match reply {
        Some(Reply::Message(message)) => stream(message, requested_model(request), number),
        Some(Reply::Overloaded) => error(529, "overloaded_error", "Overloaded", &request_id, &[]),
        Some(Reply::RateLimited(reset)) => rate_limited(*reset, &request_id),
        Some(Reply::UsageLimit(reset)) => usage_limit(*reset, &request_id),
        Some(Reply::Raw {
            status,
            headers,
            body,
        }) => json_response(*status, headers, body),
        None => error(
            400,
            "invalid_request_error",
            "standin: the script has no reply left for this request",
            &request_id,
            &[],
        ),
    }
}

/// A request an answer phrase matched: streamed when it asked for a stream,
/// else whole, as the real API does either way.
pub(crate) fn answer(reply: &Reply, request: &Value, number: usize) -> Response {
    match reply {
        Reply::Message(message) if request.get("stream").and_then(Value::as_bool) != Some(true) => {
            json_response(200, &[], &whole(message, requested_model(request), number))
        }
        other => self::reply(Some(other), request, number),
    }
}

/// Auxiliary requests: answered without touching the script.
pub(crate) fn side(method: &Method, path: &str, request: &Value, number: usize) -> Response {
    match path {
        "/v1/messages" if method == Method::POST => {
            let message = Message::text("OK").usage(Usage {
                input: 10,
                output: 1,
                ..Usage::default()
            });
            if request.get("stream").and_then(Value::as_bool) == Some(true) {
                stream(&message, requested_model(request), number)
            } else {
                json_response(200, &[], &whole(&message, requested_model(request), number))
            }
        }
        "/v1/messages/count_tokens" => json_response(200, &[], &json!({"input_tokens": 100})),
        // Claude Code's connectivity check.
        "/api/hello" => json_response(200, &[], &json!({})),
        _ => error(
            404,
            "not_found_error",
            &format!("standin: no route for {method} {path}"),
            &format!("req_standin_{number}"),
            &[],
        ),
    }
}

fn usage(usage: &Usage, output: u64) -> Value {
    json!({
        "input_tokens": usage.input,
        "cache_creation_input_tokens": usage.cache_write,
        "cache_read_input_tokens": usage.cache_read,
        "output_tokens": output,
    })
}

fn stop_reason(message: &Message) -> &'static str {
    if message.calls_tools() {
        "tool_use"
    } else {
        "end_turn"
    }
}

fn stream(message: &Message, model: &str, number: usize) -> Response {
    let mut events = vec![
        json!({"type": "message_start", "message": {
            "id": format!("msg_standin_{number}"),
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [],
            "stop_reason": null,
            "stop_sequence": null,
            "usage": usage(&message.usage, 1),
        }}),
        json!({"type": "ping"}),
    ];
    for (index, block) in message.blocks.iter().enumerate() {
        if let Block::Text(text) = block {
            events.push(json!({"type": "content_block_start", "index": index,
                "content_block": {"type": "text", "text": ""}}));
            for piece in text.split_inclusive(' ') {
                events.push(json!({"type": "content_block_delta", "index": index,
                    "delta": {"type": "text_delta", "text": piece}}));
            }
        } else if let Some((id, name, input)) = tool_use(block) {
            events.push(json!({"type": "content_block_start", "index": index,
                "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}}));
            // The API opens with an empty fragment, then sends the input in
            // pieces a client must join before parsing.
            let input = input.to_string();
            let (head, tail) = halves(&input);
            for piece in ["", head, tail] {
                events.push(json!({"type": "content_block_delta", "index": index,
                    "delta": {"type": "input_json_delta", "partial_json": piece}}));
            }
        }
        events.push(json!({"type": "content_block_stop", "index": index}));
    }
    events.push(json!({"type": "message_delta",
        "delta": {"stop_reason": stop_reason(message), "stop_sequence": null},
        "usage": usage(&message.usage, message.usage.output)}));
    events.push(json!({"type": "message_stop"}));
    wire::stream(events, &[("request-id", format!("req_standin_{number}"))])
}

/// The unstreamed form of a side reply, for a request that did not ask for a
/// stream.
fn whole(message: &Message, model: &str, number: usize) -> Value {
    let content: Vec<Value> = message
        .blocks
        .iter()
        .filter_map(|block| match block {
            Block::Text(text) => Some(json!({"type": "text", "text": text})),
            _ => tool_use(block)
                .map(|(id, name, input)| json!({"type": "tool_use", "id": id, "name": name, "input": input})),
        })
        .collect();
    json!({
        "id": format!("msg_standin_{number}"),
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop_reason(message),
        "stop_sequence": null,
        "usage": usage(&message.usage, message.usage.output),
    })
}

/// A tool call's id, name and input; a tool search is a call of Claude
/// Code's `ToolSearch` tool.
fn tool_use(block: &Block) -> Option<(&str, &str, Value)> {
    match block {
        Block::ToolCall { id, name, input } => Some((id, name, input.clone())),
        Block::ToolSearch { id, query } => {
            Some((id, "ToolSearch", json!({"query": query, "max_results": 5})))
        }
        Block::Text(_) => None,
    }
}

fn halves(text: &str) -> (&str, &str) {
    let mut middle = text.len() / 2;
    while !text.is_char_boundary(middle) {
        middle -= 1;
    }
    text.split_at(middle)
}

fn error(
    status: u16,
    kind: &str,
    message: &str,
    request_id: &str,
    headers: &[(String, String)],
) -> Response {
    let mut headers = headers.to_vec();
    headers.push(("request-id".to_owned(), request_id.to_owned()));
    json_response(
        status,
        &headers,
        &json!({"type": "error", "error": {"type": kind, "message": message}, "request_id": request_id}),
    )
}

/// An API key's per-minute limit: `retry-after` and the
/// `anthropic-ratelimit-requests-*` family with an RFC 3339 reset.
fn rate_limited(reset: Reset, request_id: &str) -> Response {
    let headers = vec![
        ("retry-after".to_owned(), reset.after_seconds.to_string()),
        (
            "anthropic-ratelimit-requests-limit".to_owned(),
            "50".to_owned(),
        ),
        (
            "anthropic-ratelimit-requests-remaining".to_owned(),
            "0".to_owned(),
        ),
        (
            "anthropic-ratelimit-requests-reset".to_owned(),
            rfc3339(reset.at),
        ),
    ];
    error(
        429,
        "rate_limit_error",
        "This request would exceed the rate limit for your organization of 50 requests per minute. Please try again later.",
        request_id,
        &headers,
    )
}

/// A plan's usage limit: the `anthropic-ratelimit-unified-*` family, whose
/// reset is in Unix seconds.
fn usage_limit(reset: Reset, request_id: &str) -> Response {
    let at = reset.at.to_string();
    let headers = vec![
        ("retry-after".to_owned(), reset.after_seconds.to_string()),
        (
            "anthropic-ratelimit-unified-status".to_owned(),
            "rejected".to_owned(),
        ),
        ("anthropic-ratelimit-unified-reset".to_owned(), at.clone()),
        (
            "anthropic-ratelimit-unified-representative-claim".to_owned(),
            "five_hour".to_owned(),
        ),
        (
            "anthropic-ratelimit-unified-5h-status".to_owned(),
            "rejected".to_owned(),
        ),
        ("anthropic-ratelimit-unified-5h-reset".to_owned(), at),
        (
            "anthropic-ratelimit-unified-5h-utilization".to_owned(),
            "1.0".to_owned(),
        ),
    ];
    error(
        429,
        "rate_limit_error",
        "This request would exceed your account's rate limit. Please try again later.",
        request_id,
        &headers,
    )
}

fn rfc3339(unix: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp(unix)
        .ok()
        .and_then(|moment| {
            moment
                .format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{body, events};

    #[tokio::test]
    async fn a_tool_call_streams_as_the_messages_api_does() {
        let message = Message::text("Let me look. ")
            .and_tool_call("toolu_1", "Bash", json!({"command": "ls -la"}))
            .usage(Usage {
                input: 7,
                cache_read: 20,
                cache_write: 30,
                output: 11,
            });
        let response = stream(&message, "claude-x", 3);
        assert_eq!(
            response.headers()["content-type"],
            "text/event-stream; charset=utf-8"
        );
        let events = events(response).await;
        let names: Vec<&str> = events.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(
            names,
            [
                "message_start",
                "ping",
                "content_block_start",
                "content_block_delta",
                "content_block_delta",
                "content_block_delta",
                "content_block_stop",
                "content_block_start",
                "content_block_delta",
                "content_block_delta",
                "content_block_delta",
                "content_block_stop",
                "message_delta",
                "message_stop",
            ]
        );
        for (name, data) in &events {
            assert_eq!(data["type"], name.as_str());
        }
        let start = &events[0].1["message"];
        assert_eq!(start["model"], "claude-x");
        assert_eq!(start["usage"]["cache_read_input_tokens"], 20);
        let text: String = events
            .iter()
            .filter(|(_, data)| data["delta"]["type"] == "text_delta")
            .map(|(_, data)| data["delta"]["text"].as_str().unwrap())
            .collect();
        assert_eq!(text, "Let me look. ");
        assert_eq!(events[7].1["content_block"]["type"], "tool_use");
        assert_eq!(events[7].1["index"], 1);
        let input: String = events
            .iter()
            .filter(|(_, data)| data["delta"]["type"] == "input_json_delta")
            .map(|(_, data)| data["delta"]["partial_json"].as_str().unwrap())
            .collect();
        assert_eq!(
            serde_json::from_str::<Value>(&input).unwrap(),
            json!({"command": "ls -la"})
        );
        let delta = &events[12].1;
        assert_eq!(delta["delta"]["stop_reason"], "tool_use");
        assert_eq!(delta["usage"]["output_tokens"], 11);
        assert_eq!(delta["usage"]["input_tokens"], 7);
    }

    #[tokio::test]
    async fn a_usage_limit_gives_the_unified_reset_in_unix_seconds() {
        let reset = Reset {
            at: 1_800_000_000,
            after_seconds: 120,
        };
        let response = reply(Some(&Reply::UsageLimit(reset)), &json!({}), 1);
        assert_eq!(response.status(), 429);
        assert_eq!(
            response.headers()["anthropic-ratelimit-unified-reset"],
            "1800000000"
        );
        assert_eq!(response.headers()["retry-after"], "120");
        let limited = reply(Some(&Reply::RateLimited(reset)), &json!({}), 1);
        assert_eq!(
            limited.headers()["anthropic-ratelimit-requests-reset"],
            "2027-01-15T08:00:00Z"
        );
        let limited = body(limited).await;
        assert_eq!(limited["type"], "error");
        assert_eq!(limited["error"]["type"], "rate_limit_error");
    }

    #[test]
    fn only_a_request_offering_tools_is_a_turn() {
        let turn = json!({"model": "m", "tools": [{"name": "Bash"}], "stream": true});
        assert!(is_main(&Method::POST, "/v1/messages", &turn));
        assert!(!is_main(
            &Method::POST,
            "/v1/messages",
            &json!({"model": "m", "tools": []})
        ));
        assert!(!is_main(&Method::POST, "/v1/messages/count_tokens", &turn));
        assert!(!is_main(&Method::HEAD, "/api/hello", &Value::Null));
    }
}
