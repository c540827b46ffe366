//! Feeds (docs/briefings.md "Feeds"): `/feeds`, the user's subscriptions
//! (a feed's URL or a site's, whose feed is discovered; OPML in and out),
//! and `/feeds/entries`, their entries paged newest first, marked read or
//! starred (and back: `unread`, `unstar`). Every route answers 403
//! `feeds_disabled` while `rssEnabled` is off; the poll loop
//! (`app::feeds_poll`) stops then too.

use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use feeds::{Feed, FeedEntryPage, MarkedRead, NewFeed, OpmlImport, OpmlImported};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use crate::auth::User;
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/feeds", get(list).post(add))
        .route("/feeds/{id}", delete(remove))
        .route("/feeds/{id}/refresh", post(refresh))
        .route("/feeds/entries", get(entries))
        .route("/feeds/entries/{id}/read", post(read))
        .route("/feeds/entries/{id}/unread", post(unread))
        .route("/feeds/entries/{id}/star", post(star))
        .route("/feeds/entries/{id}/unstar", post(unstar))
        .route("/feeds/read-all", post(read_all))
        .route("/feeds/opml", get(export).post(import))
}

fn feeds_on(state: &AppState) -> ApiResult<()> {
    if state.settings.rss_enabled() {
        return Ok(());
    }
    Err(ApiError::forbidden(
        "feeds_disabled",
        "Feeds are turned off (setting rssEnabled).",
    ))
}

/// `GET /feeds/entries`: which page of entries.
#[derive(Debug, Clone, Default, Deserialize, IntoParams, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
pub struct FeedEntriesQuery {
    /// One feed's entries; all the user's when absent.
    pub feed_id: Option<String>,
    /// Only unread entries.
    pub unread: Option<bool>,
    /// Only starred entries.
    pub starred: Option<bool>,
    /// The `next` of the page before.
    pub cursor: Option<String>,
    /// Entries per page, 1 to 200 (50 when absent).
    pub limit: Option<usize>,
}

/// `POST /feeds/read-all`: whose entries.
#[derive(Debug, Clone, Default, Deserialize, IntoParams, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
pub struct ReadAllQuery {
    /// One feed's; all the user's when absent.
    pub feed_id: Option<String>,
}

/// The user's feeds, by title, each with its status and unread count.
///
/// `status` is `pending` (not fetched yet), `ok` or `failing` (with
/// `failure`, why the last poll failed; it is retried with backoff).
#[utoipa::path(get, path = "/feeds", responses((status = 200, body = Vec<Feed>), (status = 403, description = "`feeds_disabled`")))]
async fn list(user: User, State(state): State<AppState>) -> ApiResult<Json<Vec<Feed>>> {
    feeds_on(&state)?;
    let (service, owner) = (state.feeds.clone(), user.account_id().to_owned());
    Ok(Json(blocking(move || service.feeds(&owner)).await?))
}

/// Subscribes to a feed, by its URL or a site's.
///
/// `{url}`: a feed (RSS, Atom, JSON Feed) is subscribed as it is; a web
/// page's feed is discovered (its `<link rel="alternate">`, then `/feed`,
/// `/rss.xml`, `/atom.xml`, `/index.xml`, `/feed.xml`, `/feed.json`). The
/// first answer's entries are stored at once. No feed there → 400 naming
/// what was found; already subscribed → 409 `feed_exists`.
#[utoipa::path(post, path = "/feeds", request_body = NewFeed, responses((status = 201, body = Feed), (status = 400, description = "not an http(s) URL, or no feed there (the message says what was found)"), (status = 409, description = "`feed_exists`")))]
async fn add(
    user: User,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<NewFeed>,
) -> ApiResult<(StatusCode, Json<Feed>)> {
    feeds_on(&state)?;
    let (service, owner) = (state.feeds.clone(), user.account_id().to_owned());
    let feed = blocking(move || service.subscribe(&owner, &body.url)).await?;
    state.wake_feeds();
    Ok((StatusCode::CREATED, Json(feed)))
}

/// Unsubscribes from a feed and drops its entries.
#[utoipa::path(delete, path = "/feeds/{id}", params(("id" = String, Path, description = "The feed's id.")), responses((status = 204), (status = 404)))]
async fn remove(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    feeds_on(&state)?;
    let (service, owner) = (state.feeds.clone(), user.account_id().to_owned());
    blocking(move || service.remove(&owner, &id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Polls one feed now, conditional as always.
///
/// A failure (timeout, HTTP error, not a feed, too large) is on the feed
/// returned (`status` `failing`, `failure`), not an error of this request.
#[utoipa::path(post, path = "/feeds/{id}/refresh", params(("id" = String, Path, description = "The feed's id.")), responses((status = 200, body = Feed), (status = 404)))]
async fn refresh(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Feed>> {
    feeds_on(&state)?;
    let (service, owner) = (state.feeds.clone(), user.account_id().to_owned());
    Ok(Json(blocking(move || service.refresh(&owner, &id)).await?))
}

/// A page of the user's entries, newest first.
///
/// `feedId`, `unread=true` and `starred=true` narrow it; `cursor` is the
/// `next` of the page before (absent on the last page). Each entry's
/// `content` is sanitized HTML whose remote images wait in
/// `data-blocked-src` until the reader asks for them.
#[utoipa::path(get, path = "/feeds/entries", params(FeedEntriesQuery), responses((status = 200, body = FeedEntryPage), (status = 400, description = "a cursor this list did not give")))]
async fn entries(
    user: User,
    State(state): State<AppState>,
    Query(query): Query<FeedEntriesQuery>,
) -> ApiResult<Json<FeedEntryPage>> {
    feeds_on(&state)?;
    let (service, owner) = (state.feeds.clone(), user.account_id().to_owned());
    let query = feeds::EntryQuery {
        feed_id: query.feed_id,
        unread_only: query.unread.unwrap_or(false),
        starred_only: query.starred.unwrap_or(false),
        cursor: query.cursor,
        limit: query.limit,
    };
    Ok(Json(
        blocking(move || service.entries(&owner, &query)).await?,
    ))
}

async fn flag(
    state: AppState,
    user: User,
    id: i64,
    read: Option<bool>,
    star: Option<bool>,
) -> ApiResult<StatusCode> {
    feeds_on(&state)?;
    let (service, owner) = (state.feeds.clone(), user.account_id().to_owned());
    blocking(move || match (read, star) {
        (Some(read), _) => service.set_read(&owner, id, read),
        (_, Some(star)) => service.set_starred(&owner, id, star),
        (None, None) => Ok(()),
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Marks an entry read.
#[utoipa::path(post, path = "/feeds/entries/{id}/read", params(("id" = i64, Path, description = "The entry's id.")), responses((status = 204), (status = 404)))]
async fn read(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    flag(state, user, id, Some(true), None).await
}

/// Marks an entry unread again.
#[utoipa::path(post, path = "/feeds/entries/{id}/unread", params(("id" = i64, Path, description = "The entry's id.")), responses((status = 204), (status = 404)))]
async fn unread(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    flag(state, user, id, Some(false), None).await
}

/// Stars an entry.
#[utoipa::path(post, path = "/feeds/entries/{id}/star", params(("id" = i64, Path, description = "The entry's id.")), responses((status = 204), (status = 404)))]
async fn star(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    flag(state, user, id, None, Some(true)).await
}

/// Takes an entry's star away.
#[utoipa::path(post, path = "/feeds/entries/{id}/unstar", params(("id" = i64, Path, description = "The entry's id.")), responses((status = 204), (status = 404)))]
async fn unstar(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    flag(state, user, id, None, Some(false)).await
}

/// Marks every unread entry read: one feed's (`feedId`), or all.
#[utoipa::path(post, path = "/feeds/read-all", params(ReadAllQuery), responses((status = 200, body = MarkedRead), (status = 404)))]
async fn read_all(
    user: User,
    State(state): State<AppState>,
    Query(query): Query<ReadAllQuery>,
) -> ApiResult<Json<MarkedRead>> {
    feeds_on(&state)?;
    let (service, owner) = (state.feeds.clone(), user.account_id().to_owned());
    Ok(Json(
        blocking(move || service.read_all(&owner, query.feed_id.as_deref())).await?,
    ))
}

/// The user's subscriptions as an OPML 2.0 file.
#[utoipa::path(get, path = "/feeds/opml", responses((status = 200, content_type = "text/x-opml")))]
async fn export(user: User, State(state): State<AppState>) -> ApiResult<impl IntoResponse> {
    feeds_on(&state)?;
    let (service, owner) = (state.feeds.clone(), user.account_id().to_owned());
    let opml = blocking(move || service.export_opml(&owner)).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/x-opml; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"feeds.opml\"",
            ),
        ],
        opml,
    ))
}

/// Imports an OPML file's subscriptions.
///
/// `{opml}`: the file's text (bodies are JSON). Each feed not yet
/// subscribed is added `pending` and fetched by the next poll round, at
/// once; the answer counts those added and those skipped. Not OPML → 400.
#[utoipa::path(post, path = "/feeds/opml", request_body = OpmlImport, responses((status = 200, body = OpmlImported), (status = 400, description = "not an OPML file")))]
async fn import(
    user: User,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<OpmlImport>,
) -> ApiResult<Json<OpmlImported>> {
    feeds_on(&state)?;
    let (service, owner) = (state.feeds.clone(), user.account_id().to_owned());
    let imported = blocking(move || service.import_opml(&owner, &body.opml)).await?;
    state.wake_feeds();
    Ok(Json(imported))
}
