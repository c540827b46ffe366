//! How both stand-ins frame what they send. Streams as both APIs frame
//! server-sent events: `event: <type>` then one `data:` line of JSON whose
//! `type` repeats the event's name, each event a chunk of its own so the
//! client sees a stream, not one body. Everything else as JSON.

use std::convert::Infallible;

use axum::body::{Body, Bytes};
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{Value, json};

/// The model the request asked for, echoed in the reply as the real APIs do.
pub(crate) fn requested_model(request: &Value) -> &str {
    request
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or("standin-model")
}

/// The reply's JSON body for a `Raw` reply or an error, with its headers.
pub(crate) fn json_response(status: u16, headers: &[(String, String)], body: &Value) -> Response {
    let mut builder = Response::builder()
        .status(status)
        .header("content-type", "application/json");
    for (name, value) in headers {
        builder = builder.header(name.as_str(), value.as_str());
    }
    builder
        .body(Body::from(body.to_string()))
        .unwrap_or_else(|_| internal_error())
}

pub(crate) fn internal_error() -> Response {
    let mut response = Response::new(Body::from(
        json!({"error": {"message": "standin: a reply could not be built"}}).to_string(),
    ));
    *response.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
    response
}

/// Frames `data` as one event named after its `type`.
pub(crate) fn event(data: &Value) -> Bytes {
    let name = data
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("message");
    Bytes::from(format!("event: {name}\ndata: {data}\n\n"))
}

pub(crate) fn stream(events: Vec<Value>, headers: &[(&str, String)]) -> Response {
    let chunks = events
        .iter()
        .map(|data| Ok::<_, Infallible>(event(data)))
        .collect::<Vec<_>>();
    let mut builder = Response::builder()
        .status(200)
        .header("content-type", "text/event-stream; charset=utf-8")
        .header("cache-control", "no-cache");
    for (name, value) in headers {
        builder = builder.header(*name, value.as_str());
    }
    builder
        .body(Body::from_stream(tokio_stream::iter(chunks)))
        .unwrap_or_else(|_| internal_error())
}

/// The events of a streamed reply, as a client's parser would split them:
/// events end at a blank line, `data:` lines join with `\n`.
#[cfg(test)]
pub(crate) async fn events(response: Response) -> Vec<(String, Value)> {
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    std::str::from_utf8(&bytes)
        .unwrap()
        .split("\n\n")
        .filter(|block| !block.trim().is_empty())
        .map(|block| {
            let mut name = String::new();
            let mut data = Vec::new();
            for line in block.lines() {
                if let Some(rest) = line.strip_prefix("event:") {
                    name = rest.trim().to_owned();
                } else if let Some(rest) = line.strip_prefix("data:") {
                    data.push(rest.trim_start());
                }
            }
            let data = serde_json::from_str(&data.join("\n")).expect("each data line is JSON");
            (name, data)
        })
        .collect()
}

/// The JSON body of a reply.
#[cfg(test)]
pub(crate) async fn body(response: Response) -> Value {
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    serde_json::from_slice(&bytes).unwrap()
}
