//! Publishing Markdown as a document (docs/files.md "Documents"):
//! `POST /documents/publish`. `docsExportEnabled` off → 403
//! `docs_disabled`.

use app::documents_publish::{PublishRequest, Published};
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};

use crate::auth::User;
use crate::blocking::blocking;
use crate::error::ApiResult;
use crate::json::ApiJson;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new().route("/documents/publish", post(publish))
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
