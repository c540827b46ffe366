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
use crate::error::{ApiError, ApiResult};
use crate::json::{ApiJson, OptionalJson};
use crate::publish;
use crate::routes::blocking;
use crate::state::AppState;
use crate::wire::{CountsQuery, InboxEvent, InboxQuery, NewAlert, ReadAll, ReadAllDone};

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

/// The categories the settings hide. The other `inboxShow*` keys name
/// sources this version does not have; they are stored, not acted on.
pub(crate) fn hidden_categories(state: &AppState) -> Vec<Category> {
    let settings = &state.settings;
    [
        (settings.inbox_show_sessions(), Category::Session),
        (settings.inbox_show_cli_pending(), Category::CliPending),
        (settings.inbox_show_digest(), Category::Digest),
    ]
    .into_iter()
    .filter_map(|(shown, category)| (!shown).then_some(category))
    .collect()
}

fn hidden_unless(state: &AppState, include_hidden: bool) -> Vec<Category> {
    if include_hidden {
        Vec::new()
    } else {
        hidden_categories(state)
    }
}

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
    Ok((StatusCode::CREATED, Json(row)))
}

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

/// The user opened the session: its unread `session` rows are read, so the
/// next turn that needs them makes a new row. Approvals (`cli_pending`) stay
/// until they are decided.
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
