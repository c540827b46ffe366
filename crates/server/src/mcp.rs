//! MCP on the control server: `POST /mcp` speaks the streamable HTTP
//! transport through the official SDK (rmcp), statelessly. Each tool is one
//! route of the HTTP API, called in-process through the control server's own
//! router with the caller's own credential: a tool obeys exactly the rules
//! its route does (spawn rules, guarded settings, agent-token limits, account
//! isolation), and a refusal is a tool error carrying the route's code.
//!
//! Sessions are pointed here by [`engine_args`].

mod tools;

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, HeaderName, Request, StatusCode, header};
use axum::middleware::{Next, from_fn, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::post_service;
use http_body_util::BodyExt;
use permissions::OWN_MCP_SERVER;
use rmcp::ErrorData as McpError;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::MAX_BODY_BYTES;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::routes::SOURCE_SESSION_HEADER;
use crate::state::AppState;

/// The headers a tool call carries over from the MCP request: the
/// credential, the Host the guards already accepted, and the live session a
/// spawn names as its source (the setting `requireSpawnSourceSession`).
const CARRIED: [HeaderName; 3] = [
    header::AUTHORIZATION,
    header::HOST,
    HeaderName::from_static(SOURCE_SESSION_HEADER),
];

/// `POST /mcp`, open to any token the control server accepts (agents'
/// too), calling tools through `api`: the control server's router without
/// `/mcp`. Stateless, the transport has no event stream to open with a GET
/// and no session to end with a DELETE.
pub(crate) fn routes(state: &AppState, api: Router) -> Router<AppState> {
    Router::new()
        .route("/mcp", post_service(service(api)))
        .route_layer(from_fn(transport_refusals))
        .route_layer(from_fn_with_state(state.clone(), signed_in))
}

async fn signed_in(_caller: Caller, request: axum::extract::Request, next: Next) -> Response {
    next.run(request).await
}

/// rmcp refuses what its transport cannot take in plain text, which the
/// error-shape layer would only give a generic sentence. Its 415 is no
/// content-type matter here: the guards let only JSON bodies this far, so it
/// means a body that is no JSON-RPC message (or none), which is a 400.
async fn transport_refusals(request: axum::extract::Request, next: Next) -> Response {
    let response = next.run(request).await;
    match response.status() {
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ApiError::bad_request(
            "invalid_request",
            "The body must be one JSON-RPC 2.0 message.",
        )
        .into_response(),
        StatusCode::NOT_ACCEPTABLE => ApiError::new(
            StatusCode::NOT_ACCEPTABLE,
            "invalid_request",
            "The request must accept both application/json and text/event-stream.",
        )
        .into_response(),
        _ => response,
    }
}

fn service(api: Router) -> StreamableHttpService<Gateway, LocalSessionManager> {
    let gateway = Gateway::new(api);
    let config = StreamableHttpServerConfig::default()
        // Nothing to resume: every tool call is one request and its answer.
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_max_request_body_bytes(MAX_BODY_BYTES);
    StreamableHttpService::new(
        move || Ok(gateway.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    )
}

#[derive(Clone)]
pub(crate) struct Gateway {
    api: Router,
    routes: Arc<Vec<tools::ToolRoute>>,
    listed: Arc<Vec<Tool>>,
}

impl Gateway {
    fn new(api: Router) -> Self {
        let routes = tools::all();
        let listed = routes.iter().map(tools::ToolRoute::tool).collect();
        Gateway {
            api,
            routes: Arc::new(routes),
            listed: Arc::new(listed),
        }
    }

    async fn call(
        &self,
        route: &tools::ToolRoute,
        arguments: Option<rmcp::model::JsonObject>,
        carried: &HeaderMap,
    ) -> Result<CallToolResult, McpError> {
        let (uri, body) = match route.request(arguments) {
            Ok(request) => request,
            Err(message) => {
                return Ok(refused(
                    json!({"error": {"code": "invalid_request", "message": message}}),
                ));
            }
        };
        let mut request = Request::builder().method(route.method.clone()).uri(uri);
        for name in &CARRIED {
            if let Some(value) = carried.get(name) {
                request = request.header(name, value);
            }
        }
        let request = match body {
            Some(body) => request
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_string())),
            None => request.body(Body::empty()),
        }
        .map_err(|e| McpError::internal_error(format!("cannot build the request: {e}"), None))?;
        let Ok(response) = self.api.clone().oneshot(request).await;
        let status = response.status();
        let bytes = response
            .into_body()
            .collect()
            .await
            .map_err(|e| McpError::internal_error(format!("cannot read the reply: {e}"), None))?
            .to_bytes();
        let reply: Value = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes).map_err(|e| {
                McpError::internal_error(format!("the route answered non-JSON: {e}"), None)
            })?
        };
        Ok(if status.is_success() {
            answered(reply)
        } else {
            refused(reply)
        })
    }
}

/// A route's answer: the JSON as text for every client, and as structured
/// content (which must be an object) for those that read it.
fn answered(reply: Value) -> CallToolResult {
    let mut result = CallToolResult::success(vec![ContentBlock::text(reply.to_string())]);
    result.structured_content = Some(match reply {
        Value::Object(_) => reply,
        other => json!({ "items": other }),
    });
    result
}

/// A route's refusal, `{"error": {"code", "message"}}` as the HTTP API has
/// it: a tool error, so the model sees why.
fn refused(reply: Value) -> CallToolResult {
    let code = reply["error"]["code"].as_str().unwrap_or("error");
    let message = reply["error"]["message"].as_str().unwrap_or_default();
    let mut result = CallToolResult::error(vec![ContentBlock::text(format!("{code}: {message}"))]);
    result.structured_content = Some(reply);
    result
}

impl rmcp::ServerHandler for Gateway {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "switchboard",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(
                "Switchboard's control server: start and steer agent sessions, read and change \
                 settings, boards and the inbox, under this token's own limits.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(self.listed.to_vec()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.listed.iter().find(|tool| tool.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let Some(route) = self.routes.iter().find(|r| r.name == request.name) else {
            return Err(McpError::invalid_params(
                format!("no tool named {}", request.name),
                None,
            ));
        };
        // rmcp hands each request its HTTP parts; the credential is the one
        // this very call was authenticated with.
        let Some(parts) = context.extensions.get::<axum::http::request::Parts>() else {
            return Err(McpError::internal_error(
                "the HTTP request is missing",
                None,
            ));
        };
        self.call(route, request.arguments, &parts.headers)
            .await
            .map(CallToolResponse::from)
    }
}

/// What a session's engine is given to reach this server's MCP endpoint
/// with its own agent token, naming itself as the source of its spawns. The
/// token itself is never written anywhere: Claude Code expands
/// `${APP_CLI_TOKEN}` from its environment, Codex reads the variables named
/// by `bearer_token_env_var` and `env_http_headers`. With `strict`, the engine
/// loads no other server than this one. `codex exec` never asks, so it
/// refuses every MCP call ("MCP tool call requires approval, but approval
/// policy is never") unless the server's entry approves its tools: this
/// server's routes apply the token's own rules, as Claude's hook relies on.
pub(crate) fn engine_args(
    kind: sessions::EngineKind,
    control_url: &str,
    strict: bool,
) -> Vec<String> {
    let url = format!("{control_url}/mcp");
    match kind {
        sessions::EngineKind::Claude => {
            // The permission hook allows this server's tools by its name.
            let config = json!({"mcpServers": {OWN_MCP_SERVER: {
                "type": "http",
                "url": url,
                "headers": {
                    "Authorization": "Bearer ${APP_CLI_TOKEN}",
                    SOURCE_SESSION_HEADER: "${APP_SESSION_ID}",
                },
            }}});
            let mut args = vec!["--mcp-config".to_owned(), config.to_string()];
            if strict {
                args.push("--strict-mcp-config".to_owned());
            }
            args
        }
        sessions::EngineKind::Codex => {
            let server = format!(
                "{{url={url:?},bearer_token_env_var=\"APP_CLI_TOKEN\",\
                 env_http_headers={{{SOURCE_SESSION_HEADER:?}=\"APP_SESSION_ID\"}},\
                 default_tools_approval_mode=\"approve\"}}"
            );
            let assignment = if strict {
                // The whole table replaced: the user's own servers are not loaded.
                format!("mcp_servers={{{OWN_MCP_SERVER}={server}}}")
            } else {
                format!("mcp_servers.{OWN_MCP_SERVER}={server}")
            };
            vec!["-c".to_owned(), assignment]
        }
        sessions::EngineKind::Command => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_gets_a_config_naming_the_token_variable_and_the_strict_flag() {
        let args = engine_args(sessions::EngineKind::Claude, "http://127.0.0.1:9", true);
        assert_eq!(args[0], "--mcp-config");
        let config: Value = serde_json::from_str(&args[1]).unwrap();
        let server = &config["mcpServers"]["switchboard"];
        assert_eq!(server["url"], "http://127.0.0.1:9/mcp");
        assert_eq!(
            server["headers"]["Authorization"],
            "Bearer ${APP_CLI_TOKEN}"
        );
        assert_eq!(
            server["headers"]["x-app-source-session-id"],
            "${APP_SESSION_ID}"
        );
        assert_eq!(args[2], "--strict-mcp-config");
        let loose = engine_args(sessions::EngineKind::Claude, "http://127.0.0.1:9", false);
        assert_eq!(loose.len(), 2);
    }

    #[test]
    fn codex_gets_an_override_that_replaces_its_servers_only_when_strict() {
        let strict = engine_args(sessions::EngineKind::Codex, "http://127.0.0.1:9", true);
        assert_eq!(
            strict,
            [
                "-c",
                "mcp_servers={switchboard={url=\"http://127.0.0.1:9/mcp\",bearer_token_env_var=\"APP_CLI_TOKEN\",\
                 env_http_headers={\"x-app-source-session-id\"=\"APP_SESSION_ID\"},\
                 default_tools_approval_mode=\"approve\"}}"
            ]
        );
        let loose = engine_args(sessions::EngineKind::Codex, "http://127.0.0.1:9", false);
        assert!(loose[1].starts_with("mcp_servers.switchboard={"));
        assert!(engine_args(sessions::EngineKind::Command, "x", true).is_empty());
    }
}
