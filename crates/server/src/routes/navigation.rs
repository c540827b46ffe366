//! Agents and scripts asking to move the user's view (`POST /ui/navigate`)
//! or to bring the app forward (`POST /ui/foreground`), and the web app's
//! own reports of whether it is in front (`POST /ui/presence`, browser
//! only). The rules are the `navigation` crate's; a request reaches the web
//! app as a `navigate` or `foreground` event, or the inbox as a `note`.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::{Json, Router};
use inbox::{Action, Category, NewRow};
use navigation::{Delivery, View};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;

use crate::auth::{Caller, User};
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::routes::sessions::source_session;
use crate::state::AppState;
use crate::wire::{ForegroundEvent, NavigateEvent};
use app::publish;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/ui/navigate", post(navigate))
        .route("/ui/foreground", post(foreground))
}

/// The browser's own: the web app reporting whether its tab is shown.
pub fn ui_routes() -> Router<AppState> {
    Router::new().route("/ui/presence", post(presence))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct NavigateBody {
    view: View,
    id: Option<String>,
    pane: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct ForegroundBody {
    reason: String,
}

/// Where a request went.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Delivered {
    pub(crate) delivered: Delivery,
}

/// The session a request comes from (an agent's own, or the one
/// `X-App-Source-Session-Id` names), and how it is named to the user.
async fn asker(state: &AppState, caller: &Caller, headers: &HeaderMap) -> (String, Option<String>) {
    let named = caller
        .0
        .session_id
        .clone()
        .or_else(|| source_session(headers));
    match named {
        Some(id) => match state.sessions.get(caller.account_id(), &id).await {
            Ok(session) => (
                format!(
                    "Session {}",
                    session.title.unwrap_or_else(|| session.id.clone())
                ),
                Some(session.id),
            ),
            Err(_) => ("A script".to_owned(), None),
        },
        None => ("A script".to_owned(), None),
    }
}

async fn note(
    state: &AppState,
    account_id: &str,
    title: String,
    body: String,
    session_id: Option<&str>,
    path: Option<String>,
) -> ApiResult<()> {
    let mut row = NewRow::new(Category::Note, inbox::clip(&title, inbox::MAX_TITLE_CHARS));
    row.body = Some(inbox::clip(&body, inbox::MAX_BODY_CHARS));
    if let Some(path) = path {
        row.actions.push(Action::OpenPath { path });
    }
    if let Some(id) = session_id {
        row.source.session_id = Some(id.to_owned());
        row.actions.push(Action::OpenSession {
            session_id: id.to_owned(),
        });
    }
    let inbox = state.inbox.clone();
    let owner = account_id.to_owned();
    let added = blocking(move || inbox.add(&owner, row)).await?;
    publish::inbox_added(state, account_id, added);
    Ok(())
}

/// Asks to open a view of the web app in front of the user.
///
/// `view` with its `id` (and `pane`, a section of the settings page:
/// `/settings#<pane>`). The web app shows a toast "Session X asks to open
/// /path" with **Go**, or switches at once with `allowAgentDirectNavigation`;
/// with no Switchboard tab in front the request becomes an inbox note. Any
/// token; an agent's request names its session.
#[utoipa::path(post, path = "/ui/navigate", params(("X-App-Source-Session-Id" = Option<String>, Header, description = "The live session of the caller's account that asks.")), request_body = NavigateBody,
    responses((status = 202, description = "Where the request went.", body = Delivered)))]
async fn navigate(
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<NavigateBody>,
) -> ApiResult<(StatusCode, Json<Delivered>)> {
    let path = body
        .view
        .path(body.id.as_deref(), body.pane.as_deref())
        .map_err(|e| ApiError::bad_request("invalid_request", e.to_string()))?;
    let delivered = request_navigation(&state, &caller, &headers, path).await?;
    Ok((StatusCode::ACCEPTED, Json(Delivered { delivered })))
}

/// Sends a navigation to `path` (a view's address, or a bookmark's http(s)
/// URL) where the rules say, and says where it went.
pub(crate) async fn request_navigation(
    state: &AppState,
    caller: &Caller,
    headers: &HeaderMap,
    path: String,
) -> ApiResult<Delivery> {
    let (from, session_id) = asker(state, caller, headers).await;
    let account = caller.account_id().to_owned();
    let delivered = navigation::navigation(
        state.settings.allow_agent_direct_navigation(),
        state.presence.front(&account),
    );
    match delivered {
        Delivery::Inbox => {
            note(
                state,
                &account,
                format!("{from} asks you to open {path}"),
                "No Switchboard tab was in front, so the request waits here.".to_owned(),
                session_id.as_deref(),
                Some(path),
            )
            .await?;
        }
        _ => {
            let event = NavigateEvent {
                path,
                direct: delivered == Delivery::Navigated,
                from,
                session_id,
            };
            state.events.publish(
                events::Audience::Account(account),
                events::Name::Navigate,
                &json!(event),
            );
        }
    }
    Ok(delivered)
}

/// Asks for the user's attention: brings the web app forward.
///
/// `reason` is 1 to 500 characters. While the tab is hidden and
/// `allowAgentForegroundFromBackground` is on it becomes a system
/// notification; with no tab in front, an inbox note. Any token.
#[utoipa::path(post, path = "/ui/foreground", params(("X-App-Source-Session-Id" = Option<String>, Header, description = "The live session of the caller's account that asks.")), request_body = ForegroundBody,
    responses((status = 202, description = "Where the request went.", body = Delivered)))]
async fn foreground(
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<ForegroundBody>,
) -> ApiResult<(StatusCode, Json<Delivered>)> {
    let reason = body.reason.trim().to_owned();
    if reason.is_empty() || reason.chars().count() > 500 {
        return Err(ApiError::bad_request(
            "invalid_request",
            "reason must be 1 to 500 characters",
        ));
    }
    let (from, session_id) = asker(&state, &caller, &headers).await;
    let account = caller.account_id().to_owned();
    let delivered = navigation::foreground(
        state.settings.allow_agent_foreground_from_background(),
        state.presence.front(&account),
    );
    match delivered {
        Delivery::Inbox => {
            note(
                &state,
                &account,
                format!("{from} asks for your attention"),
                reason,
                session_id.as_deref(),
                None,
            )
            .await?;
        }
        Delivery::Notification => {
            let event = ForegroundEvent {
                reason,
                from,
                session_id,
            };
            state.events.publish(
                events::Audience::Account(account),
                events::Name::Foreground,
                &json!(event),
            );
        }
        _ => {}
    }
    Ok((StatusCode::ACCEPTED, Json(Delivered { delivered })))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct PresenceBody {
    /// The tab's own id, made when the web app loads.
    app_id: String,
    visible: bool,
    #[serde(default)]
    gone: bool,
    /// The tab shows a session's page: its time in front is agent-watching
    /// time (`watchingTimeRecapCardEnabled`).
    #[serde(default)]
    session_page: bool,
}

/// The web app's tab reports whether it is in front (UI server only).
///
/// Each open tab reports itself when it loads, when it is shown or hidden,
/// every 30 s, and with `gone: true` (a beacon) when it closes; navigation
/// and foreground requests reach the web app only while one of its tabs is
/// in front. `appId` is 1 to 100 characters.
#[utoipa::path(post, path = "/ui/presence", request_body = PresenceBody,
    extensions(("x-listener" = json!("ui"))),
    responses((status = 204, description = "Noted.")))]
async fn presence(
    User(user): User,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<PresenceBody>,
) -> ApiResult<StatusCode> {
    if body.app_id.is_empty() || body.app_id.chars().count() > 100 {
        return Err(ApiError::bad_request(
            "invalid_request",
            "appId must be 1 to 100 characters",
        ));
    }
    state.presence.report_page(
        &user.account_id,
        &body.app_id,
        body.visible,
        body.gone,
        body.session_page,
    );
    Ok(StatusCode::NO_CONTENT)
}
