//! The MCP tools: each is one route of the HTTP API. A tool's input is the
//! route's path parameters plus its body (or query) type, whose schema is
//! derived from the same Rust type the route deserialises, so the two cannot
//! drift apart.

use std::sync::Arc;

use axum::http::Method;
use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{Map, Value, json};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;

use crate::wire::{
    BoardQuery, InboxQuery, NewAlert, NewInputRequest, RecipeRunRequest, SessionMessage,
    SettingChange, StopSession,
};

/// Where a tool's arguments other than the path parameters go.
#[derive(Clone, Copy)]
enum Rest {
    /// Nothing else is accepted.
    Nothing,
    /// The JSON body of a write.
    Body(fn() -> Map<String, Value>),
    /// The query string of a read.
    Query(fn() -> Map<String, Value>),
}

pub(crate) struct ToolRoute {
    pub name: &'static str,
    description: &'static str,
    pub method: Method,
    /// The route, with `{name}` for each path parameter (the tool's argument
    /// of that name).
    path: &'static str,
    /// Query text every call carries (the input-request read always waits).
    fixed_query: &'static str,
    rest: Rest,
    read_only: bool,
}

const fn route(name: &'static str, method: Method, path: &'static str) -> ToolRoute {
    ToolRoute {
        name,
        description: "",
        method,
        path,
        fixed_query: "",
        rest: Rest::Nothing,
        read_only: false,
    }
}

impl ToolRoute {
    const fn says(mut self, description: &'static str) -> Self {
        self.description = description;
        self
    }

    const fn body(mut self, schema: fn() -> Map<String, Value>) -> Self {
        self.rest = Rest::Body(schema);
        self
    }

    const fn query(mut self, schema: fn() -> Map<String, Value>) -> Self {
        self.rest = Rest::Query(schema);
        self
    }

    const fn reads(mut self) -> Self {
        self.read_only = true;
        self
    }

    const fn always(mut self, query: &'static str) -> Self {
        self.fixed_query = query;
        self
    }

    fn path_params(&self) -> impl Iterator<Item = &'static str> {
        self.path.split('/').filter_map(|segment| {
            segment
                .strip_prefix('{')
                .and_then(|rest| rest.strip_suffix('}'))
        })
    }

    /// The MCP description of this tool: its input schema joins the path
    /// parameters (strings, required) to the body's or query's own schema.
    pub fn tool(&self) -> Tool {
        let mut object = match self.rest {
            Rest::Nothing => Map::new(),
            Rest::Body(of) | Rest::Query(of) => of(),
        };
        object.insert("type".into(), json!("object"));
        object.insert("additionalProperties".into(), json!(false));
        let params: Vec<&str> = self.path_params().collect();
        let properties = object
            .entry("properties")
            .or_insert_with(|| json!({}))
            .as_object_mut()
            .map(std::mem::take)
            .unwrap_or_default();
        let mut joined = Map::new();
        for param in &params {
            joined.insert((*param).into(), json!({"type": "string", "minLength": 1}));
        }
        joined.extend(properties);
        object.insert("properties".into(), Value::Object(joined));
        let mut required: Vec<Value> = params.iter().map(|p| json!(p)).collect();
        if let Some(Value::Array(own)) = object.remove("required") {
            required.extend(own);
        }
        if !required.is_empty() {
            object.insert("required".into(), Value::Array(required));
        }
        let input: JsonObject = object;
        let mut tool = Tool::new(self.name, self.description, Arc::new(input));
        let mut hints = ToolAnnotations::default();
        hints.read_only_hint = Some(self.read_only);
        hints.open_world_hint = Some(false);
        tool.annotations = Some(hints);
        tool
    }

    /// The request this call makes: the path with its parameters filled in
    /// (each one a single path segment), and the body of a write.
    pub fn request(
        &self,
        arguments: Option<JsonObject>,
    ) -> Result<(String, Option<Value>), String> {
        let mut rest = arguments.unwrap_or_default();
        let mut uri = String::new();
        for segment in self.path.split('/').filter(|s| !s.is_empty()) {
            uri.push('/');
            match segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                Some(param) => match rest.remove(param) {
                    Some(Value::String(value)) if !value.is_empty() => {
                        uri.extend(utf8_percent_encode(&value, NON_ALPHANUMERIC));
                    }
                    _ => return Err(format!("\"{param}\" must be a non-empty string.")),
                },
                None => uri.push_str(segment),
            }
        }
        // The fixed query is already encoded; the serializer appends to it.
        let mut query = form_urlencoded::Serializer::new(self.fixed_query.to_owned());
        let body = match self.rest {
            Rest::Body(_) => Some(Value::Object(rest)),
            Rest::Query(_) => {
                for (name, value) in rest {
                    match value {
                        Value::Null => {}
                        Value::String(text) => {
                            query.append_pair(&name, &text);
                        }
                        Value::Bool(_) | Value::Number(_) => {
                            query.append_pair(&name, &value.to_string());
                        }
                        Value::Array(_) | Value::Object(_) => {
                            return Err(format!("\"{name}\" must be a string, number or boolean."));
                        }
                    }
                }
                None
            }
            Rest::Nothing => match rest.keys().next() {
                Some(name) => return Err(format!("This tool takes no argument \"{name}\".")),
                None => None,
            },
        };
        let query = query.finish();
        if !query.is_empty() {
            uri.push('?');
            uri.push_str(&query);
        }
        Ok((uri, body))
    }
}

/// `T`'s JSON Schema as the OpenAPI document has it, with the types it
/// refers to carried along under `$defs`, so the tool's schema stands alone.
fn schema_of<T: utoipa::ToSchema>() -> Map<String, Value> {
    let as_json = |schema: RefOr<Schema>| serde_json::to_value(schema).unwrap_or_default();
    let mut referenced: Vec<(String, RefOr<Schema>)> = Vec::new();
    T::schemas(&mut referenced);
    let mut root = match as_json(T::schema()) {
        Value::Object(root) => root,
        _ => Map::new(),
    };
    if !referenced.is_empty() {
        let defs = referenced
            .into_iter()
            .map(|(name, schema)| (name, as_json(schema)))
            .collect();
        root.insert("$defs".into(), Value::Object(defs));
    }
    root.values_mut().for_each(point_refs_at_defs);
    root
}

fn point_refs_at_defs(value: &mut Value) {
    match value {
        Value::Object(object) => {
            for (key, inner) in object.iter_mut() {
                match inner {
                    Value::String(target) if key == "$ref" => {
                        if let Some(name) = target.strip_prefix("#/components/schemas/") {
                            *target = format!("#/$defs/{name}");
                        }
                    }
                    _ => point_refs_at_defs(inner),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(point_refs_at_defs),
        _ => {}
    }
}

/// What an agent does with Switchboard, one route each.
pub(crate) fn all() -> Vec<ToolRoute> {
    vec![
        route("spawn_session", Method::POST, "/sessions")
            .says("Start an agent session (POST /sessions). The spawn rules of the HTTP API apply: an agent token may spawn only while allowAgentTokenSpawn is on, within the depth and child limits.")
            .body(schema_of::<sessions::SpawnRequest>),
        route("send_message", Method::POST, "/sessions/{sessionId}/messages")
            .says("Send a follow-up message to a session (POST /sessions/<id>/messages).")
            .body(schema_of::<SessionMessage>),
        route("list_sessions", Method::GET, "/sessions")
            .says("List the account's sessions (GET /sessions).")
            .reads(),
        route("read_session", Method::GET, "/sessions/{sessionId}")
            .says("Read one session (GET /sessions/<id>).")
            .reads(),
        route("stop_session", Method::POST, "/sessions/{sessionId}/stop")
            .says("Stop a session, and with tree=true its descendants (POST /sessions/<id>/stop).")
            .body(schema_of::<StopSession>),
        route("post_alert", Method::POST, "/alert")
            .says("Post an alert to the user's inbox (POST /alert).")
            .body(schema_of::<NewAlert>),
        route("read_setting", Method::GET, "/settings/{key}")
            .says("Read one setting with its default and type (GET /settings/<key>).")
            .reads(),
        route("change_setting", Method::PATCH, "/settings/{key}")
            .says("Change a setting (PATCH /settings/<key>); the value must have the key's type, and guarded keys refuse agent tokens.")
            .body(schema_of::<SettingChange>),
        route("list_boards", Method::GET, "/boards")
            .says("List the account's boards, of one workspace or all (GET /boards).")
            .query(schema_of::<BoardQuery>)
            .reads(),
        route("read_board", Method::GET, "/boards/{boardId}/full")
            .says("Read a board whole: columns, groups and items with their values (GET /boards/<id>/full).")
            .reads(),
        route("create_item", Method::POST, "/boards/{boardId}/items")
            .says("Create an item on a board (POST /boards/<id>/items); values are keyed by column id.")
            .body(schema_of::<boards::NewItem>),
        route("change_item", Method::PATCH, "/items/{itemId}")
            .says("Change an item's name, group or values (PATCH /items/<id>); a null value clears that column.")
            .body(schema_of::<boards::ItemPatch>),
        route("read_inbox", Method::GET, "/inbox")
            .says("Read the inbox, newest first (GET /inbox).")
            .query(schema_of::<InboxQuery>)
            .reads(),
        route("request_input", Method::POST, "/input-requests")
            .says("Ask the user for a value written into a dotenv file in the session's folder, never shown to the model (POST /input-requests). Needs agentInputRequestsEnabled.")
            .body(schema_of::<NewInputRequest>),
        route("wait_input_request", Method::GET, "/input-requests/{requestId}")
            .says("Wait up to 20 seconds for an input request to be answered and read its state (GET /input-requests/<id>?wait=true); call again while it is pending.")
            .always("wait=true")
            .reads(),
        route("list_bookmarks", Method::GET, "/bookmarks")
            .says("List the saved bookmarks (GET /bookmarks).")
            .reads(),
        route("launch_bookmark", Method::POST, "/bookmarks/{bookmarkId}/launch")
            .says("Launch a bookmark: start its session (POST /bookmarks/<id>/launch); the spawn rules apply."),
        route("list_recipes", Method::GET, "/recipes")
            .says("List the saved recipes, each a start of a session with {{placeholders}} in its prompt (GET /recipes).")
            .reads(),
        route("run_recipe", Method::POST, "/recipes/{recipeId}/runs")
            .says("Run a recipe now with values for its placeholders (POST /recipes/<id>/runs); its session is an agent-driven spawn under the spawn rules.")
            .body(schema_of::<RecipeRunRequest>),
        route("create_schedule", Method::POST, "/schedules")
            .says("Put a recipe on a schedule: a five-field cron pattern or an RRULE, in an IANA time zone (POST /schedules). It waits, pending, until the user approves it.")
            .body(schema_of::<automations::NewSchedule>),
        route("schedule_message", Method::POST, "/scheduled-messages")
            .says("Put a Markdown note in the user's inbox at a time (at), or on a cron pattern or RRULE, in an IANA time zone (POST /scheduled-messages). Needs scheduledMessagesEnabled.")
            .body(schema_of::<drips::NewMessage>),
        route("list_rules", Method::GET, "/rules")
            .says("List the automation rules (GET /rules).")
            .reads(),
        route("create_rule", Method::POST, "/rules")
            .says("Make an automation rule: when an event happens (a webhook delivery, a board item's status or group, a session's end, a schedule's tick), start a recipe, change the item or post to the inbox (POST /rules). It waits, pending, until the user approves it; a session a rule started may not make rules.")
            .body(schema_of::<automations::NewRule>),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(name: &str) -> ToolRoute {
        all()
            .into_iter()
            .find(|tool| tool.name == name)
            .unwrap_or_else(|| panic!("no tool {name}"))
    }

    /// `/sessions/{sessionId}` and `/sessions/{id}` name the same route.
    fn shape(path: &str) -> String {
        path.split('/')
            .map(|segment| {
                if segment.starts_with('{') {
                    "{}"
                } else {
                    segment
                }
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    #[test]
    fn every_tool_names_a_route_the_api_serves() {
        let document = crate::routes::openapi::document();
        for tool in all() {
            let served = document
                .paths
                .paths
                .iter()
                .filter(|(path, _)| shape(path) == shape(tool.path))
                .any(|(_, item)| {
                    let operation = match tool.method {
                        Method::GET => &item.get,
                        Method::POST => &item.post,
                        Method::PATCH => &item.patch,
                        Method::PUT => &item.put,
                        Method::DELETE => &item.delete,
                        _ => &None,
                    };
                    operation.is_some()
                });
            assert!(
                served,
                "{}: {} {} is not a route",
                tool.name, tool.method, tool.path
            );
        }
    }

    /// The permission hook lets a `read_only` session call only the tools
    /// that read; its list and this table must agree.
    #[test]
    fn the_hooks_list_of_reading_tools_is_this_tables() {
        let mut readers: Vec<&str> = all()
            .into_iter()
            .filter(|tool| tool.read_only)
            .map(|tool| tool.name)
            .collect();
        let mut listed = permissions::OWN_MCP_READERS.to_vec();
        readers.sort_unstable();
        listed.sort_unstable();
        assert_eq!(readers, listed);
    }

    #[test]
    fn a_tool_takes_its_path_parameters_and_its_body_type() {
        let tool = find("send_message").tool();
        let schema = Value::Object((*tool.input_schema).clone());
        assert_eq!(schema["properties"]["sessionId"]["type"], "string");
        assert_eq!(schema["properties"]["text"]["type"], "string");
        assert_eq!(schema["required"], json!(["sessionId", "text"]));
        assert_eq!(schema["additionalProperties"], false);
    }

    #[test]
    fn referenced_types_travel_with_the_schema() {
        let tool = find("spawn_session").tool();
        let schema = Value::Object((*tool.input_schema).clone());
        let text = schema.to_string();
        assert!(!text.contains("#/components/"), "{text}");
        assert!(schema["$defs"]["Isolation"].is_object(), "{text}");
        assert_eq!(schema["required"], json!(["prompt"]));
    }

    #[test]
    fn arguments_fill_the_path_and_the_body() {
        let args = json!({"sessionId": "a/b c", "text": "hi"});
        let Value::Object(args) = args else { panic!() };
        let (uri, body) = find("send_message").request(Some(args)).unwrap();
        assert_eq!(uri, "/sessions/a%2Fb%20c/messages");
        assert_eq!(body, Some(json!({"text": "hi"})));
    }

    #[test]
    fn reads_put_their_arguments_in_the_query() {
        let Value::Object(args) = json!({"state": "unread", "limit": 5, "before": null}) else {
            panic!()
        };
        let (uri, body) = find("read_inbox").request(Some(args)).unwrap();
        assert_eq!(uri, "/inbox?state=unread&limit=5");
        assert_eq!(body, None);
        let Value::Object(args) = json!({"requestId": "r1"}) else {
            panic!()
        };
        let (uri, _) = find("wait_input_request").request(Some(args)).unwrap();
        assert_eq!(uri, "/input-requests/r1?wait=true");
    }

    #[test]
    fn a_missing_path_parameter_or_a_stray_argument_is_refused() {
        assert!(find("read_session").request(None).is_err());
        let Value::Object(args) = json!({"sessionId": "s", "extra": 1}) else {
            panic!()
        };
        assert!(find("read_session").request(Some(args)).is_err());
    }
}
