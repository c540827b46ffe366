//! OpenAI's Responses API as Codex calls it: `POST /v1/responses` streamed
//! as `response.created`, `response.in_progress`, per output item
//! `response.output_item.added` / deltas / `response.output_item.done`, and
//! `response.completed` whose `usage` Codex reads (`input_tokens`,
//! `input_tokens_details.cached_tokens`, `output_tokens`); every event has a
//! `sequence_number`. Errors as `{"error":{"message","type","param","code"}}`.

use std::time::{SystemTime, UNIX_EPOCH};

use axum::http::Method;
use axum::response::Response;
use serde_json::{Value, json};

use crate::script::{Block, Message, Reply, Reset};
use crate::wire::{self, json_response, requested_model};

pub(crate) fn is_main(method: &Method, path: &str, _body: &Value) -> bool {
    method == Method::POST && path == "/v1/responses"
}

pub(crate) fn reply(reply: Option<&Reply>, request: &Value, number: usize) -> Response {
    match reply {
        Some(Reply::Message(message)) => stream(message, requested_model(request), number),
        Some(Reply::Overloaded) => error(
            503,
            "server_error",
            "server_is_overloaded",
            "Our servers are currently overloaded. Please try again later.",
            &[],
        ),
        Some(Reply::RateLimited(reset)) => rate_limited(*reset, requested_model(request)),
        Some(Reply::UsageLimit(reset)) => usage_limit(*reset),
        Some(Reply::Raw {
            status,
            headers,
            body,
        }) => json_response(*status, headers, body),
        None => error(
            400,
            "invalid_request_error",
            "standin_script_exhausted",
            "standin: the script has no reply left for this request",
            &[],
        ),
    }
}

/// Codex calls nothing else of a custom provider in the runs recorded in
/// docs/engines.md; whatever it tries is refused plainly and recorded.
pub(crate) fn side(method: &Method, path: &str) -> Response {
    error(
        404,
        "invalid_request_error",
        "unknown_url",
        &format!("standin: no route for {method} {path}"),
        &[],
    )
}

fn stream(message: &Message, model: &str, number: usize) -> Response {
    let response_id = format!("resp_standin_{number}");
    let created_at = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs());
    let envelope = |status: &str, output: Vec<Value>, usage: Value| {
        json!({
            "id": response_id,
            "object": "response",
            "created_at": created_at,
            "status": status,
            "model": model,
            "output": output,
            "usage": usage,
        })
    };
    let mut events = vec![
        json!({"type": "response.created", "response": envelope("in_progress", Vec::new(), Value::Null)}),
        json!({"type": "response.in_progress", "response": envelope("in_progress", Vec::new(), Value::Null)}),
    ];
    let mut output = Vec::new();
    for (index, block) in message.blocks.iter().enumerate() {
        let done = match block {
            Block::Text(text) => {
                let id = format!("msg_standin_{number}_{index}");
                events.push(json!({"type": "response.output_item.added", "output_index": index,
                    "item": {"id": id, "type": "message", "status": "in_progress", "role": "assistant", "content": []}}));
                events.push(json!({"type": "response.content_part.added", "item_id": id, "output_index": index,
                    "content_index": 0, "part": {"type": "output_text", "text": "", "annotations": []}}));
                for piece in text.split_inclusive(' ') {
                    events.push(json!({"type": "response.output_text.delta", "item_id": id,
                        "output_index": index, "content_index": 0, "delta": piece}));
                }
                events.push(json!({"type": "response.output_text.done", "item_id": id,
                    "output_index": index, "content_index": 0, "text": text}));
                let part = json!({"type": "output_text", "text": text, "annotations": []});
                events.push(json!({"type": "response.content_part.done", "item_id": id,
                    "output_index": index, "content_index": 0, "part": part}));
                json!({"id": id, "type": "message", "status": "completed", "role": "assistant", "content": [part]})
            }
            Block::ToolCall { id, name, input } => {
                let item_id = format!("fc_standin_{number}_{index}");
                let arguments = input.to_string();
                let item = |status: &str, arguments: &str| {
                    let mut item = json!({"id": item_id, "type": "function_call", "status": status,
                        "arguments": arguments, "call_id": id, "name": name});
                    if let Some((namespace, tool)) = mcp_namespace(name) {
                        item["namespace"] = json!(namespace);
                        item["name"] = json!(tool);
                    }
                    item
                };
                events.push(
                    json!({"type": "response.output_item.added", "output_index": index,
                    "item": item("in_progress", "")}),
                );
                events.push(json!({"type": "response.function_call_arguments.delta",
                    "item_id": item_id, "output_index": index, "delta": arguments}));
                events.push(json!({"type": "response.function_call_arguments.done",
                    "item_id": item_id, "output_index": index, "arguments": arguments}));
                item("completed", &arguments)
            }
            Block::ToolSearch { id, query } => {
                let item_id = format!("tsc_standin_{number}_{index}");
                let item = |status: &str| {
                    json!({"id": item_id, "type": "tool_search_call", "status": status,
                        "call_id": id, "execution": "client", "arguments": {"query": query}})
                };
                events.push(
                    json!({"type": "response.output_item.added", "output_index": index,
                    "item": item("in_progress")}),
                );
                item("completed")
            }
        };
        events.push(
            json!({"type": "response.output_item.done", "output_index": index, "item": done}),
        );
        output.push(done);
    }
    let usage = &message.usage;
    let input_tokens = usage.input + usage.cache_read + usage.cache_write;
    let mut details = json!({"cached_tokens": usage.cache_read});
    if usage.cache_write > 0 {
        details["cache_write_tokens"] = json!(usage.cache_write);
    }
    let usage = json!({
        "input_tokens": input_tokens,
        "input_tokens_details": details,
        "output_tokens": usage.output,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": input_tokens + usage.output,
    });
    events.push(
        json!({"type": "response.completed", "response": envelope("completed", output, usage)}),
    );
    for (sequence, event) in events.iter_mut().enumerate() {
        event["sequence_number"] = json!(sequence);
    }
    wire::stream(events, &[("x-request-id", format!("req_standin_{number}"))])
}

/// Codex loads an MCP server's tools as a namespace `mcp__<server>` of
/// functions named as the server names them, and a call must name both; the
/// script names an MCP tool as both engines list it, `mcp__<server>__<tool>`.
fn mcp_namespace(name: &str) -> Option<(&str, &str)> {
    let server_and_tool = name.strip_prefix("mcp__")?;
    let (server, tool) = server_and_tool.split_once("__")?;
    Some((&name[.."mcp__".len() + server.len()], tool))
}

fn error(
    status: u16,
    kind: &str,
    code: &str,
    message: &str,
    headers: &[(String, String)],
) -> Response {
    json_response(
        status,
        headers,
        &json!({"error": {"message": message, "type": kind, "param": null, "code": code}}),
    )
}

/// An API key's per-minute limit: `retry-after`, the `x-ratelimit-*`
/// family (resets as durations, `20s`), and the message Codex reads a delay
/// from ("try again in 20s").
fn rate_limited(reset: Reset, model: &str) -> Response {
    let after = reset.after_seconds;
    let headers = vec![
        ("retry-after".to_owned(), after.to_string()),
        ("x-ratelimit-limit-requests".to_owned(), "50".to_owned()),
        ("x-ratelimit-remaining-requests".to_owned(), "0".to_owned()),
        ("x-ratelimit-reset-requests".to_owned(), format!("{after}s")),
    ];
    error(
        429,
        "requests",
        "rate_limit_exceeded",
        &format!(
            "Rate limit reached for {model} in organization org-standin on requests per min (RPM): Limit 50, Used 50, Requested 1. Please try again in {after}s."
        ),
        &headers,
    )
}

/// A plan's usage limit as Codex knows it: `usage_limit_reached` with
/// `resets_at` in Unix seconds, and the `x-codex-primary-*` headers.
fn usage_limit(reset: Reset) -> Response {
    let headers = vec![
        ("x-codex-primary-used-percent".to_owned(), "100".to_owned()),
        (
            "x-codex-primary-window-minutes".to_owned(),
            "300".to_owned(),
        ),
        ("x-codex-primary-reset-at".to_owned(), reset.at.to_string()),
    ];
    json_response(
        429,
        &headers,
        &json!({"error": {
            "type": "usage_limit_reached",
            "message": "The usage limit has been reached",
            "plan_type": "plus",
            "resets_at": reset.at,
            "resets_in_seconds": reset.after_seconds,
        }}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::Usage;
    use crate::wire::{body, events};

    #[tokio::test]
    async fn a_message_and_a_function_call_stream_as_the_responses_api_does() {
        let message = Message::text("Running it.")
            .and_tool_call("call_1", "exec_command", json!({"cmd": "ls"}))
            .usage(Usage {
                input: 60,
                cache_read: 40,
                cache_write: 0,
                output: 7,
            });
        let events = events(stream(&message, "gpt-x", 2)).await;
        let names: Vec<&str> = events.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(
            names,
            [
                "response.created",
                "response.in_progress",
                "response.output_item.added",
                "response.content_part.added",
                "response.output_text.delta",
                "response.output_text.delta",
                "response.output_text.done",
                "response.content_part.done",
                "response.output_item.done",
                "response.output_item.added",
                "response.function_call_arguments.delta",
                "response.function_call_arguments.done",
                "response.output_item.done",
                "response.completed",
            ]
        );
        for (sequence, (name, data)) in events.iter().enumerate() {
            assert_eq!(data["type"], name.as_str());
            assert_eq!(data["sequence_number"], sequence);
        }
        let text: String = events
            .iter()
            .filter(|(name, _)| name == "response.output_text.delta")
            .map(|(_, data)| data["delta"].as_str().unwrap())
            .collect();
        assert_eq!(text, "Running it.");
        let message_done = &events[8].1["item"];
        assert_eq!(message_done["content"][0]["text"], "Running it.");
        let call = &events[12].1["item"];
        assert_eq!(call["type"], "function_call");
        assert_eq!(call["call_id"], "call_1");
        assert_eq!(call["name"], "exec_command");
        assert_eq!(
            serde_json::from_str::<Value>(call["arguments"].as_str().unwrap()).unwrap(),
            json!({"cmd": "ls"})
        );
        let completed = &events[13].1["response"];
        assert_eq!(completed["status"], "completed");
        assert_eq!(completed["output"].as_array().unwrap().len(), 2);
        assert_eq!(completed["usage"]["input_tokens"], 100);
        assert_eq!(
            completed["usage"]["input_tokens_details"]["cached_tokens"],
            40
        );
        assert_eq!(completed["usage"]["total_tokens"], 107);
    }

    #[tokio::test]
    async fn an_mcp_tool_is_searched_for_then_called_in_its_namespace() {
        let search = events(stream(&Message::tool_search("call_s", "echo"), "gpt-x", 1)).await;
        let item = &search[3].1["item"];
        assert_eq!(search[3].0, "response.output_item.done");
        assert_eq!(item["type"], "tool_search_call");
        assert_eq!(item["execution"], "client");
        assert_eq!(item["call_id"], "call_s");
        assert_eq!(item["arguments"], json!({"query": "echo"}));

        let call = Message::tool_call("call_m", "mcp__probe__echo", json!({"text": "hi"}));
        let call = events(stream(&call, "gpt-x", 2)).await;
        let item = &call[5].1["item"];
        assert_eq!(call[5].0, "response.output_item.done");
        assert_eq!(item["namespace"], "mcp__probe");
        assert_eq!(item["name"], "echo");
        let plain = Message::tool_call("call_p", "exec_command", json!({"cmd": "ls"}));
        let plain = events(stream(&plain, "gpt-x", 3)).await;
        assert_eq!(plain[5].1["item"]["name"], "exec_command");
        assert!(plain[5].1["item"].get("namespace").is_none());
    }

    #[tokio::test]
    async fn a_usage_limit_names_its_reset_as_codex_reads_it() {
        let reset = Reset {
            at: 1_800_000_000,
            after_seconds: 90,
        };
        let response = reply(Some(&Reply::UsageLimit(reset)), &json!({}), 1);
        assert_eq!(response.status(), 429);
        assert_eq!(response.headers()["x-codex-primary-reset-at"], "1800000000");
        let usage_limit = body(response).await;
        assert_eq!(usage_limit["error"]["type"], "usage_limit_reached");
        assert_eq!(usage_limit["error"]["resets_at"], 1_800_000_000);

        let limited = reply(
            Some(&Reply::RateLimited(reset)),
            &json!({"model": "gpt-x"}),
            1,
        );
        assert_eq!(limited.headers()["x-ratelimit-reset-requests"], "90s");
        let limited = body(limited).await;
        assert_eq!(limited["error"]["code"], "rate_limit_exceeded");
        assert!(
            limited["error"]["message"]
                .as_str()
                .unwrap()
                .contains("try again in 90s")
        );
    }
}
