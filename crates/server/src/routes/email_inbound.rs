//! `/email/inbound`: every mail the inbound email watcher saw, with what
//! became of it, and what the watcher is doing now.

use axum::extract::{Query, State};
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::User;
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new().route("/email/inbound", get(list))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct ListQuery {
    /// At most this many (1 to 200; default 50).
    limit: Option<usize>,
    /// The `id` of the last mail of the previous page.
    before: Option<String>,
}

/// One mail seen.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct SeenMail {
    id: String,
    /// The account's address and the mailbox it came to.
    account: String,
    mailbox: String,
    from: Option<String>,
    subject: String,
    message_id: Option<String>,
    received_at: String,
    /// `pending`, `start`, `follow_up`, `ignored`, `refused`,
    /// `spam_dropped`, `failed` or `bug_report`.
    decision: String,
    reason: String,
    session_id: Option<String>,
}

#[derive(Serialize, ToSchema)]
struct Inbound {
    /// `off`, `connecting`, `idling`, `polling` or `retrying: <why>`.
    watcher: String,
    mails: Vec<SeenMail>,
}

/// The mail the inbound email watcher saw, newest first, each with its decision.
///
/// The owner only (another account → 403 `owner_only`); agent tokens are
/// refused. A `limit` outside 1 to 200 → 400 `invalid_request`.
#[utoipa::path(get, path = "/email/inbound", params(ListQuery), responses((status = 200, body = Inbound)))]
async fn list(
    user: User,
    State(state): State<AppState>,
    Query(query): Query<ListQuery>,
) -> ApiResult<Json<Inbound>> {
    user.owner_only("Inbound email")?;
    let limit = query.limit.unwrap_or(50);
    if !(1..=mail::MAX_LIST).contains(&limit) {
        return Err(ApiError::bad_request(
            "invalid_request",
            format!("`limit` must be 1 to {}.", mail::MAX_LIST),
        ));
    }
    let book = mail::Mailbook::new(state.db.clone(), state.clock.clone());
    let seen = blocking(move || {
        book.list(limit, query.before.as_deref())
            .map_err(ApiError::internal)
    })
    .await?;
    let mails = seen
        .into_iter()
        .map(|m| SeenMail {
            id: m.id,
            account: m.account,
            mailbox: m.mailbox,
            from: m.from,
            subject: m.subject,
            message_id: m.message_id,
            received_at: m.received_at,
            decision: m.decision.as_str().to_owned(),
            reason: m.reason,
            session_id: m.session_id,
        })
        .collect();
    Ok(Json(Inbound {
        watcher: app::email_in::status(&state),
        mails,
    }))
}
