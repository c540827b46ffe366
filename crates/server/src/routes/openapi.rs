//! The OpenAPI 3.1 document of both listeners, generated from the handlers'
//! `#[utoipa::path]` attributes and the wire types' `ToSchema` derives, and
//! served at `/openapi.json` (control server) and `/api/openapi.json` (UI
//! server). `tests/openapi.rs` writes it to `docs/openapi.json`, generates
//! `docs/api.md`'s index from it, and fails when a route of the tables in
//! this folder is missing from it (or it names one they do not serve).
//!
//! Which listener serves an operation is the extension `x-listener`:
//! `both` (the API: the control server's root and the UI server's `/api`),
//! `control` (webhook deliveries, MCP), `ui` (the web app's own routes under
//! `/api`) or `ui-root` (the login link, at the UI server's root); a
//! single-listener operation also names its one server in its own `servers`,
//! so a generated client reaches it at the right base.

use std::sync::LazyLock;

use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use bytes::Bytes;
use utoipa::Modify;
use utoipa::OpenApi;
use utoipa::openapi::extensions::ExtensionsBuilder;
use utoipa::openapi::path::{HttpMethod, OperationBuilder, PathItem};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::security::{
    ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme,
};
use utoipa::openapi::server::Server;
use utoipa::openapi::{ContentBuilder, Ref, RefOr, Required, ResponseBuilder};

use super::{
    accounts, alarms, announcements, app, approvals, apps, ask, attachments, board_reads, boards,
    bookmarks, briefings, bug_reports, calendars, clock, coaching, dashboards, digests, doctor,
    documents, drips, drives, email_inbound, feedback, feeds, fleet_cards, focus, forensics,
    governor, imports, inbox, inbox_stats, mail, messenger_bot, messenger_rooms, metrics,
    navigation, push, recipes, rules, runners, secrets, session_files, sessions, settings, sheets,
    skills, sms, stream, task_lists, team, teamchat, ui, utility, webhooks, work,
};
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::wire::ErrorBody;

/// The extension naming the listener(s) an operation is served on.
pub const LISTENER: &str = "x-listener";

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Switchboard",
        description = "The API of `switchboard serve`, a local control plane for AI coding \
            agents. The same API is served by two listeners on 127.0.0.1: the control server \
            (paths at the root, `Authorization: Bearer <cli or agent token>`) and the UI server \
            (paths under `/api`, the browser's `switchboard_ui` cookie). Operations whose \
            `x-listener` is `control` or `ui` exist on that listener only. Every error reply is \
            `{\"error\": {\"code\", \"message\"}}`. docs/api.md has the authentication, the \
            guards, the error codes and the rules that span routes."
    ),
    paths(
        accounts::create, accounts::me, accounts::session,
        settings::list, settings::read, settings::change, settings::reset,
        inbox::alert, inbox::list, inbox::counts, inbox::read_all, inbox::change,
        inbox::session_seen,
        inbox_stats::stats, inbox_stats::views,
        announcements::list, announcements::dismiss,
        alarms::create, alarms::list, alarms::read, alarms::remove, alarms::snooze,
        alarms::dismiss,
        app::restart, app::user_restart,
        apps::list, apps::proxy, apps::declared, apps::start, apps::stop, apps::restart,
        apps::output,
        skills::list,
        imports::import_url,
        attachments::upload,
        ask::ask, ask::list,
        boards::list_workspaces, boards::create_workspace, boards::rename_workspace,
        boards::delete_workspace, boards::list_members, boards::create_member,
        boards::update_member, boards::delete_member, boards::list_boards, boards::create_board,
        boards::get_board, boards::rename_board, boards::delete_board, board_reads::full_board, board_reads::full_boards,
        boards::add_column, boards::reorder_columns, boards::change_column,
        boards::remove_column, boards::add_group, boards::reorder_groups, boards::rename_group,
        boards::remove_group, boards::create_item, boards::create_items, boards::get_item,
        boards::update_item, boards::delete_item, boards::move_item, boards::events,
        dashboards::list, dashboards::create, dashboards::read, dashboards::update,
        dashboards::remove, dashboards::publish, dashboards::publication,
        dashboards::unpublish, dashboards::public_view,
        sessions::list, sessions::spawn, sessions::read, sessions::transcript,
        sessions::changes, sessions::changed_file, sessions::send,
        sessions::stop, sessions::decide_start, sessions::pause, sessions::resume, sessions::archive, sessions::rename,
        sessions::engines,
        sessions::usage,
        approvals::check, approvals::poll, approvals::decisions, approvals::list,
        approvals::read, approvals::decide,
        governor::checks, governor::check_now,
        doctor::report, runners::list, runners::listener, runners::tokens, runners::mint,
        runners::revoke,
        teamchat::direct_message, teamchat::channel_message, teamchat::edit,
        teamchat::delete_message, teamchat::reaction, teamchat::pin,
        teamchat::scheduled_direct_message, teamchat::invite,
        navigation::navigate, navigation::foreground, navigation::presence,
        fleet_cards::logins, fleet_cards::watching, fleet_cards::balances,
        fleet_cards::set_balance, fleet_cards::clear_balance, fleet_cards::alarm_from_words,
        coaching::list, coaching::read, coaching::interview,
        bookmarks::list, bookmarks::create, bookmarks::reorder, bookmarks::update,
        bookmarks::remove, bookmarks::launch,
        team::people, team::add_person, team::update_person, team::remove_person,
        team::rooms, team::add_room, team::update_room, team::remove_room,
        work::list, work::read, work::prune, work::discard, work::push, work::pull_request,
        work::continue_work, work::merge,
        recipes::list, recipes::create, recipes::read, recipes::replace, recipes::remove,
        recipes::run, recipes::runs, recipes::list_schedules, recipes::create_schedule,
        recipes::approve, recipes::pause, recipes::resume, recipes::delete_schedule,
        recipes::run_schedule,
        drips::list_messages, drips::create_message, drips::read_message, drips::delete_message,
        drips::change_message, drips::list_drips, drips::create_drip, drips::read_drip,
        drips::delete_drip, drips::change_drip, drips::release_next, drips::list_items, drips::add_item,
        drips::read_item, drips::delete_item, drips::preview,
        focus::read_focus, focus::set_focus, focus::read_pomodoro, focus::change_pomodoro,
        calendars::list, calendars::add, calendars::remove, calendars::sync, calendars::events,
        calendars::mark_spam, calendars::spam_senders, calendars::unmark_spam, calendars::trash,
        calendars::restore, calendars::organization, calendars::set_organization,
        briefings::run, briefings::email_summaries,
        feeds::list, feeds::add, feeds::remove, feeds::refresh, feeds::entries, feeds::read,
        feeds::unread, feeds::star, feeds::unstar, feeds::read_all, feeds::export, feeds::import,
        feedback::send, feedback::list,
        session_files::attach, session_files::save,
        push::public_key, push::list, push::subscribe, push::unsubscribe, push::choose, push::test, push::device_load,
        sms::send, sms::incoming, sms::threads, sms::messages, sms::save_contact, sms::not_spam,
        messenger_rooms::rooms, messenger_rooms::messages, messenger_rooms::send,
        drives::list, drives::add, drives::files, drives::upload, drives::remove,
        drives::make_folder, drives::move_entry,
        sheets::book, sheets::rows, sheets::cells, sheets::export_board, sheets::import_sheet, documents::publish, documents::publish_message, documents::publications,
        mail::accounts, mail::add_account, mail::remove_account, mail::folders, mail::threads,
        mail::thread, mail::act, mail::summary, mail::part, mail::frame, mail::send,
        mail::cleanup, mail::cleanup_act,
        rules::list, rules::create, rules::read, rules::replace, rules::remove, rules::firings,
        rules::approve, rules::pause, rules::resume, rules::test,
        secrets::open_request, secrets::list_requests, secrets::read_request, secrets::answer,
        secrets::propose, secrets::list_proposals, secrets::review, secrets::decide,
        secrets::list_keys, secrets::save_key, secrets::delete_key,
        stream::stream,
        webhooks::list, webhooks::create, webhooks::remove, webhooks::deliver,
        clock::advance, clock::panic_in_a_task,
        utility::calls, utility::spend,
        digests::list,
        forensics::report, forensics::triage,
        task_lists::list, task_lists::create, task_lists::update, task_lists::remove,
        task_lists::reorder, task_lists::caught, task_lists::keep, task_lists::dismiss,
        task_lists::mirrors, task_lists::set_mirror,
        messenger_bot::pending, messenger_bot::approve, messenger_bot::reject,
        messenger_bot::deliver,
        bug_reports::list, bug_reports::read, bug_reports::report, bug_reports::hold,
        bug_reports::release, bug_reports::dismiss,
        email_inbound::list,
        metrics::scrape, metrics::create, metrics::list, metrics::remove,
        ui::login,
        document_json,
    ),
    // Schemas only query parameters name, which the paths do not collect.
    components(schemas(ErrorBody, ::inbox::Category, ::inbox::StateFilter, drips::Change, crate::wire::DigestKind)),
    // What every operation of a tag shares, said once.
    tags((name = "teamchat", description = "Team chat writes. Every one answers 403 \
        `team_chat_disabled` while `chatAppEnabled` is off; an agent token while \
        `allowAgentTokenTeamChat` is off → 403 `agent_token_team_chat_disabled`; 409 \
        `team_chat_not_configured` or `team_chat_config_invalid` without a usable \
        `teamchat.toml`; the service's own refusals → 502 with its error code. Setup: \
        docs/teamchat.md.")),
    modifiers(&Listeners),
)]
struct ApiDoc;

/// The document, built afresh (the tests compare it with the files).
pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

pub fn routes() -> Router<crate::state::AppState> {
    Router::new().route("/openapi.json", get(document_json))
}

/// The served document, serialised once: it is fixed when the binary is built.
static DOCUMENT_JSON: LazyLock<Result<Bytes, serde_json::Error>> =
    LazyLock::new(|| serde_json::to_vec(&document()).map(Bytes::from));

/// This document: every operation of both listeners.
#[utoipa::path(get, path = "/openapi.json", responses(
    (status = 200, description = "The OpenAPI 3.1 document.", body = Object),
))]
async fn document_json(_caller: Caller) -> ApiResult<impl IntoResponse> {
    let body = DOCUMENT_JSON
        .as_ref()
        .map(Bytes::clone)
        .map_err(ApiError::internal)?;
    Ok(([(header::CONTENT_TYPE, "application/json")], body))
}

const CONTROL: &str = "control";
const UI: &str = "ui";
/// The UI server's own root, outside `/api`: the login link.
const UI_ROOT: &str = "ui-root";
const BOTH: &str = "both";

fn server(listener: &str) -> Server {
    let (url, description) = match listener {
        UI_ROOT => (
            "http://127.0.0.1:19520",
            "The UI server's root (default port; `--ui-port`): the login link and the web app.",
        ),
        UI => (
            "http://127.0.0.1:19520/api",
            "The UI server's API (default port; `--ui-port`), authenticated by the browser's \
             `switchboard_ui` cookie.",
        ),
        _ => (
            "http://127.0.0.1:19519",
            "The control server (default port; `--control-port`), authenticated by \
             `Authorization: Bearer <token>`.",
        ),
    };
    let mut server = Server::new(url);
    server.description = Some(description.to_owned());
    server
}

/// `POST /mcp`, which rmcp's service answers (`crate::mcp`), so no handler
/// of ours carries its attribute.
fn mcp_path() -> PathItem {
    let object = |description: &str| {
        ContentBuilder::new()
            .schema(Some(
                ObjectBuilder::new()
                    .schema_type(Type::Object)
                    .description(Some(description))
                    .build(),
            ))
            .build()
    };
    let operation = OperationBuilder::new()
        .tag("mcp")
        .operation_id(Some("call"))
        .summary(Some(
            "MCP over streamable HTTP, stateless: the tools of docs/mcp.md.",
        ))
        .description(Some(
            "A JSON-RPC 2.0 message of the Model Context Protocol (`initialize`, \
             `tools/list`, `tools/call`, notifications). The request must accept both \
             `application/json` and `text/event-stream` (else 406); answers are JSON. Each tool \
             is one route of this API called with this request's own token, so a refusal is \
             a tool result with `isError: true` carrying the route's error body.",
        ))
        .request_body(Some(
            RequestBodyBuilder::new()
                .content("application/json", object("A JSON-RPC 2.0 message."))
                .required(Some(Required::True))
                .build(),
        ))
        .response(
            "200",
            ResponseBuilder::new()
                .description("The JSON-RPC answer.")
                .content("application/json", object("A JSON-RPC 2.0 response."))
                .build(),
        )
        .response(
            "202",
            ResponseBuilder::new()
                .description("A notification or a response, taken; no body.")
                .build(),
        )
        .extensions(Some(
            ExtensionsBuilder::new()
                .add(LISTENER, serde_json::Value::from(CONTROL))
                .build(),
        ))
        .build();
    PathItem::new(HttpMethod::Post, operation)
}

/// What the attributes cannot say once for all: the two servers, the two
/// credentials, the error reply of every operation, each operation's
/// listener, and MCP's endpoint.
struct Listeners;

impl Modify for Listeners {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        doc.servers = Some(vec![server(CONTROL), server(UI)]);
        doc.paths.paths.insert("/mcp".to_owned(), mcp_path());
        let components = doc.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "A cli token (the owner's is in `DIR/cli-token`) or a session's agent \
                         token. Control server only.",
                    ))
                    .build(),
            ),
        );
        components.add_security_scheme(
            "cookie",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                crate::auth::UI_COOKIE,
                "The browser's session, set by `<uiUrl>/login?token=<cli token>`. UI server only.",
            ))),
        );
        let error_reply = ResponseBuilder::new()
            .description(
                "An error: 400 invalid input, 401 no valid credential, 403 refused by policy, \
                 404 not found (another account's resource too), 405, 408, 409 conflict, 412, \
                 413 body too large, 415 not JSON, 429 a limit, 5xx the server.",
            )
            .content(
                "application/json",
                ContentBuilder::new()
                    .schema(Some(Ref::from_schema_name("ErrorBody")))
                    .build(),
            )
            .build();
        components
            .responses
            .insert("Error".to_owned(), error_reply.into());
        let bearer = SecurityRequirement::new("bearer", Vec::<String>::new());
        let cookie = SecurityRequirement::new("cookie", Vec::<String>::new());
        doc.security = Some(vec![bearer.clone(), cookie.clone()]);
        let error = RefOr::Ref(Ref::new("#/components/responses/Error"));
        for item in doc.paths.paths.values_mut() {
            let operations = [
                &mut item.get,
                &mut item.put,
                &mut item.post,
                &mut item.delete,
                &mut item.patch,
            ];
            for operation in operations.into_iter().flatten() {
                let replies = &mut operation.responses.responses;
                replies
                    .entry("default".to_owned())
                    .or_insert_with(|| error.clone());
                for reply in replies.values_mut() {
                    if let RefOr::T(reply) = reply
                        && reply.description.is_empty()
                    {
                        reply.description = "The reply.".to_owned();
                    }
                }
                // Handlers' names repeat across modules (`list`, `read`);
                // the tag, which is the module, makes them unique.
                if let (Some(id), Some(tag)) = (
                    operation.operation_id.as_mut(),
                    operation.tags.as_ref().and_then(|t| t.first()),
                ) {
                    *id = format!("{tag}_{id}");
                }
                let extensions = operation.extensions.get_or_insert_with(Default::default);
                let listener = extensions
                    .get(LISTENER)
                    .and_then(|v| v.as_str())
                    .unwrap_or(BOTH)
                    .to_owned();
                if listener != BOTH {
                    operation.servers = Some(vec![server(&listener)]);
                }
                // The UI server reads no bearer token; its own routes take
                // the cookie alone (public routes already say they take none).
                if listener == UI && operation.security.is_none() {
                    operation.security = Some(vec![cookie.clone()]);
                }
                extensions.insert(LISTENER.to_owned(), serde_json::Value::from(listener));
            }
        }
    }
}
