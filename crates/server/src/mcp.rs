//! MCP on the control server: `POST /mcp` speaks the streamable HTTP
//! transport through the official SDK (rmcp), statelessly. Each tool is one
//! route of the HTTP API, called in-process through the control server's own
//! router with the caller's own credential: a tool obeys exactly the rules
//! its route does (spawn rules, guarded settings, agent-token limits, account
//! isolation), and a refusal is a tool error carrying the route's code.
//!
//! Sessions are pointed here by [`app::mcp_engine_args`].

mod tools;

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, HeaderName, Request, StatusCode, header};
use axum::middleware::{Next, from_fn, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::post_service;
use http_body_util::BodyExt;
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
use crate::state::AppState;
use app::SOURCE_SESSION_HEADER;

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
