//! Publishing Markdown as a document (docs/files.md "Documents"):
//! `POST /documents/publish`, and an agent's message with its link kept on
//! it (`POST /sessions/{id}/entries/{seq}/publish`, `GET
//! /sessions/{id}/publications`). `docsExportEnabled` off → 403
//! `docs_disabled`.

use app::documents_publish::{PublishRequest, Published};
use app::message_publish::{MessagePublication, PublishMessage};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};

use crate::auth::User;
use crate::blocking::blocking;
use crate::error::ApiResult;
use crate::json::ApiJson;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/documents/publish", post(publish))
        .route(
            "/sessions/{id}/entries/{seq}/publish",
            post(publish_message),
        )
        .route("/sessions/{id}/publications", get(publications))
}

/// Publishes Markdown as a `.docx`, an HTML page and the Markdown itself.
///
/// `{markdown, title, driveId?, folder?}` → 201 `{url, path}` (the
/// `.docx`). The folder defaults to `docsDestFolderId` (`<drive id>:<path>`
/// or a path on `driveId`, `main` when absent); a taken name gets ` (2)`.
/// With `docsTemplateId` set, the Markdown is appended to that `.docx` as a
/// new heading section instead (409 when it changed meanwhile).
#[utoipa::path(post, path = "/documents/publish", request_body = PublishRequest, responses((status = 201, body = Published)))]
async fn publish(
    user: User,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<PublishRequest>,
) -> ApiResult<(StatusCode, Json<Published>)> {
    let (app, owner, is_owner) = (
        state.app.clone(),
        user.account_id().to_owned(),
        user.0.is_owner,
    );
    let published = blocking(move || app.publish_document(&owner, is_owner, body)).await?;
    Ok((StatusCode::CREATED, Json(published)))
}

/// Publishes an agent's message as a document and keeps the link on it.
///
/// The message is entry `seq` of the session's transcript (a `text` or
/// `final` entry; any other is a 400 on `seq`, a missing one a 404),
/// published as `POST /documents/publish` publishes Markdown, titled by
/// `title` or its first line. The user only.
#[utoipa::path(post, path = "/sessions/{id}/entries/{seq}/publish", params(("id" = String, Path, description = "The session's id."), ("seq" = i64, Path, description = "The message's `seq` in the transcript.")), request_body = PublishMessage, responses((status = 201, body = MessagePublication), (status = 403, description = "docsExportEnabled is off"), (status = 404, description = "no such session or entry")))]
async fn publish_message(
    user: User,
    State(state): State<AppState>,
    Path((id, seq)): Path<(String, i64)>,
    ApiJson(body): ApiJson<PublishMessage>,
) -> ApiResult<(StatusCode, Json<MessagePublication>)> {
    let published = state
        .publish_message(user.account_id(), user.0.is_owner, &id, seq, body)
        .await?;
    Ok((StatusCode::CREATED, Json(published)))
}

/// The documents published from the session's messages, oldest first.
#[utoipa::path(get, path = "/sessions/{id}/publications", params(("id" = String, Path, description = "The session's id.")), responses((status = 200, body = Vec<MessagePublication>), (status = 404, description = "no such session")))]
async fn publications(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Vec<MessagePublication>>> {
    Ok(Json(
        state.message_publications(user.account_id(), &id).await?,
    ))
}
