//! `/alert` and `/inbox`: agents drop persistent rows, people page through
//! them, read and archive them; `/sessions/{id}/seen` reads a session's rows
//! when the user opens it. Every change is announced as an `inbox`
//! event. Categories whose `inboxShow*` setting is off are left out of
//! listings, counts and read-all unless the caller asks for `hidden`.

use std::collections::BTreeMap;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::{get, patch, post};
use axum::{Json, Router};
use inbox::{Action, Category, NewRow};

use crate::auth::{Caller, User};
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::json::{ApiJson, OptionalJson};
use crate::state::AppState;
use crate::wire::{CountsQuery, InboxEvent, InboxQuery, NewAlert, ReadAll, ReadAllDone};
use app::publish;

/// A page when the caller names no `limit`.
const DEFAULT_PAGE: usize = 50;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/alert", post(alert))
        .route("/inbox", get(list))
        .route("/inbox/counts", get(counts))
        .route("/inbox/read-all", post(read_all))
        .route("/inbox/{id}", patch(change))
        .route("/sessions/{id}/seen", post(session_seen))
}

fn hidden_unless(state: &AppState, include_hidden: bool) -> Vec<Category> {
    if include_hidden {
        Vec::new()
    } else {
        state.hidden_inbox_categories()
    }
}

/// Posts an alert to the account's inbox.
///
/// Title 1 to 200 characters, body up to 10,000. An alert with the same
/// title from the same sender while the earlier row is unread and not
/// archived bumps that row (`count`, time, title and body) instead of adding
/// one. With `push: true` it is also pushed to the user's devices, its
/// click opening `/inbox?row=<id>`.
/// one. 403 `agent_alerts_disabled` while `agentAlertsEnabled` is off. Agent
/// tokens are admitted; their alert names their session.
#[utoipa::path(post, path = "/alert", request_body = NewAlert, responses(
    (status = 201, description = "The inbox row: a new one, or the unread one it repeats.", body = inbox::InboxRow),
))]
async fn alert(
    caller: Caller,
    State(state): State<AppState>,
    ApiJson(alert): ApiJson<NewAlert>,
) -> ApiResult<(StatusCode, Json<inbox::InboxRow>)> {
    if !state.settings.agent_alerts_enabled() {
        return Err(ApiError::forbidden(
            "agent_alerts_disabled",
            "Agent alerts are turned off (setting agentAlertsEnabled).",
        ));
    }
    let account = caller.account_id().to_owned();
    let mut row = NewRow::new(Category::Alert, alert.title.trim());
    row.body = alert.body;
    if let Some(session_id) = &caller.0.session_id {
        row.source.session_id = Some(session_id.clone());
        row.actions.push(Action::OpenSession {
            session_id: session_id.clone(),
        });
    }
    // The same alert from the same sender, still unread, is one row.
    let row = row.dedup(alert.title.trim());
    let inbox = state.inbox.clone();
    let added = blocking(move || inbox.add(caller.account_id(), row)).await?;
    let row = publish::inbox_added(&state, &account, added);
    if alert.push {
        state.push_alert(&account, &row);
    }
    Ok((StatusCode::CREATED, Json(row)))
}

/// A page of the account's inbox rows, newest first.
///
/// `state`: `unread` (neither read nor archived), `read`, `archived`, `open`
/// (not archived, the default) or `all`. Pass the last row's `id` as
/// `before` for the next page; an empty page is the end; `before` naming no
/// row of this account → 400 `invalid_request`. `limit` is 1 to 500 (default
/// 50). Categories hidden by `inboxShowSessions`, `inboxShowCliPending`,
/// `inboxShowDigest`, `inboxShowRecipes`, `inboxShowCron` or
/// `inboxShowAutomations` are left out unless `hidden=true`. Agent tokens
/// are admitted.
#[utoipa::path(get, path = "/inbox", params(InboxQuery), responses(
    (status = 200, body = Vec<inbox::InboxRow>),
))]
async fn list(
    caller: Caller,
    State(state): State<AppState>,
    Query(params): Query<InboxQuery>,
) -> ApiResult<Json<Vec<inbox::InboxRow>>> {
    let query = inbox::ListQuery {
        category: params.category,
        state: params.state,
        before: params.before,
        limit: params.limit.unwrap_or(DEFAULT_PAGE),
        hidden: hidden_unless(&state, params.hidden),
    };
    let inbox = state.inbox.clone();
    let rows = blocking(move || inbox.list(caller.account_id(), &query)).await?;
    Ok(Json(rows))
}

/// Unread rows per category, for the web app's tabs.
///
/// Every shown category is named (hidden ones too with `hidden=true`).
/// Agent tokens are admitted.
#[utoipa::path(get, path = "/inbox/counts", params(CountsQuery), responses(
    (status = 200, description = "`{\"alert\": 3, \"session\": 0, …}`", body = std::collections::BTreeMap<String, i64>),
))]
async fn counts(
    caller: Caller,
    State(state): State<AppState>,
    Query(params): Query<CountsQuery>,
) -> ApiResult<Json<BTreeMap<Category, i64>>> {
    let hidden = hidden_unless(&state, params.hidden);
    let inbox = state.inbox.clone();
    let counts = blocking(move || inbox.unread_counts(caller.account_id(), &hidden)).await?;
    Ok(Json(counts))
}

/// Marks a row read or unread, archived or restored.
///
/// Archiving does not mark read; `{"archived": false}` restores. Another
/// account's row → 404 `not_found`; any other field or type → 400
/// `invalid_request`. Not for agent tokens.
#[utoipa::path(patch, path = "/inbox/{id}",
    params(("id" = String, Path, description = "The row's id.")),
    request_body = inbox::RowChange,
    responses((status = 200, description = "The row.", body = inbox::InboxRow)))]
async fn change(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(change): ApiJson<inbox::RowChange>,
) -> ApiResult<Json<inbox::InboxRow>> {
    let account = user.account_id().to_owned();
    let inbox = state.inbox.clone();
    let row = blocking(move || inbox.change(user.account_id(), &id, change)).await?;
    publish::inbox_changed(&state, &account, &InboxEvent::Updated(row.clone()));
    Ok(Json(row))
}

/// Marks every unread row read (of one category, or of every shown one).
///
/// No body is the same as `{}`; `"hidden": true` includes hidden
/// categories. Not for agent tokens.
#[utoipa::path(post, path = "/inbox/read-all", request_body = Option<ReadAll>, responses(
    (status = 200, description = "How many unread rows it marked read.", body = ReadAllDone),
))]
async fn read_all(
    user: User,
    State(state): State<AppState>,
    OptionalJson(request): OptionalJson<ReadAll>,
) -> ApiResult<Json<ReadAllDone>> {
    let account = user.account_id().to_owned();
    let hidden = hidden_unless(&state, request.hidden.unwrap_or(false));
    let category = request.category;
    let inbox = state.inbox.clone();
    let count = blocking(move || inbox.read_all(user.account_id(), category, &hidden)).await?;
    if count > 0 {
        publish::inbox_changed(&state, &account, &InboxEvent::ReadAll { category, count });
    }
    Ok(Json(ReadAllDone { count }))
}

/// The user opened the session: its unread `session` rows are read.
///
/// So the next turn that needs the user makes a new row (one `inbox` event
/// `updated` per row read). Approvals (`cli_pending`) stay until they are
/// decided. 404 `not_found` for a session of no such id in the account. The
/// web app's session page calls it when it opens. Not for agent tokens.
#[utoipa::path(post, path = "/sessions/{id}/seen",
    params(("id" = String, Path, description = "The session's id.")),
    responses((status = 200, description = "How many rows it marked read.", body = ReadAllDone)))]
async fn session_seen(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<ReadAllDone>> {
    let account = user.account_id().to_owned();
    // Another account's session answers as a missing one.
    state.sessions.get(&account, &id).await?;
    let inbox = state.inbox.clone();
    let owner = account.clone();
    let rows = blocking(move || inbox.read_about_session(&owner, Category::Session, &id)).await?;
    let count = rows.len();
    for row in rows {
        publish::inbox_changed(&state, &account, &InboxEvent::Updated(row));
    }
    Ok(Json(ReadAllDone { count }))
}
