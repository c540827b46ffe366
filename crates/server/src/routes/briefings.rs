//! The briefings (docs/briefings.md): `POST /digests/run` makes the daily
//! briefing or the RSS morning digest now, and `GET /summaries/email`
//! lists what the email summarizer did with each mail.

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};

use crate::auth::User;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::wire::{DigestKind, DigestRun, DigestRunQuery, EmailSummaries, EmailSummariesQuery};

/// A page's size when the caller names none.
const DEFAULT_PAGE: usize = 50;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/digests/run", post(run))
        .route("/summaries/email", get(email_summaries))
}

/// Makes the daily briefing or the RSS morning digest now.
///
/// `kind=daily` briefs on the day that ended, one section per source on in
/// `dailyDigestSources`, written by the utility model over the facts (the
/// facts alone when it cannot write); `kind=rss` picks from the entries the
/// feeds brought since the last morning digest by `rssDigestInterests`.
/// Either runs whatever its setting says; the answer names the `digest`
/// inbox row it posted.
#[utoipa::path(post, path = "/digests/run", params(DigestRunQuery), responses((status = 201, body = DigestRun), (status = 400, description = "no kind, or not `rss` or `daily`")))]
async fn run(
    user: User,
    State(state): State<AppState>,
    Query(query): Query<DigestRunQuery>,
) -> ApiResult<(StatusCode, Json<DigestRun>)> {
    let rss = query.kind == DigestKind::Rss;
    match state.run_digest(user.account_id(), rss).await {
        Some(id) => Ok((StatusCode::CREATED, Json(DigestRun { id }))),
        None => Err(ApiError::internal(std::io::Error::other(
            "the digest could not be posted (the server's log says why)",
        ))),
    }
}

/// The email summarizer's mail, newest first.
///
/// One entry per mail that reached `emailSummarizerInboxId`: `done` with
/// its summary, `waiting` while the day's cap holds it for the next day,
/// `no_text`, or `failed` with why; `inboxRowId` is its `email_summary`
/// row. `cursor` is the `next` of the page before.
#[utoipa::path(get, path = "/summaries/email", params(EmailSummariesQuery), responses((status = 200, body = EmailSummaries)))]
async fn email_summaries(
    user: User,
    State(state): State<AppState>,
    Query(query): Query<EmailSummariesQuery>,
) -> ApiResult<Json<EmailSummaries>> {
    let page = state
        .email_summaries(
            user.account_id(),
            query.limit.unwrap_or(DEFAULT_PAGE),
            query.cursor,
        )
        .await?;
    Ok(Json(EmailSummaries {
        summaries: page.summaries,
        next: page.next,
        watcher: app::email_summarizer::status(&state),
    }))
}
