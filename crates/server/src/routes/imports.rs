//! URL import for the composer (docs/api-guide.md, "Composer"):
//! `POST /imports/url` fetches a pasted document URL through the server and
//! answers its text as Markdown. While `docImportEnabled` is off the route
//! answers 403 `doc_import_disabled`.

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};

use crate::auth::Caller;
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::state::AppState;
use crate::wire::{ImportUrl, ImportedDocument};

pub fn routes() -> Router<AppState> {
    Router::new().route("/imports/url", post(import_url))
}

/// Fetches a document's URL and answers its text as Markdown.
///
/// The fetch goes through the server with no cookies, at most 5 MiB and
/// 10 s, http and https only. Google Docs and Slides links are fetched as
/// their export, GitHub file links as the raw file, GitHub issues from the
/// REST API.
#[utoipa::path(post, path = "/imports/url", request_body = ImportUrl, responses(
    (status = 200, body = ImportedDocument),
    (status = 400, description = "`import_failed`: not an http(s) URL, no answer in time, too large, not text, or an HTTP error"),
    (status = 403, description = "`doc_import_disabled`: docImportEnabled is off"),
))]
async fn import_url(
    _caller: Caller,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<ImportUrl>,
) -> ApiResult<Json<ImportedDocument>> {
    if !state.settings.doc_import_enabled() {
        return Err(ApiError::forbidden(
            "doc_import_disabled",
            "Importing pasted document links is turned off (setting docImportEnabled).",
        ));
    }
    let imported =
        blocking(move || ::imports::import_url(&body.url, ::imports::Limits::default())).await?;
    Ok(Json(ImportedDocument {
        markdown: imported.markdown,
        title: imported.title,
        source: imported.source,
    }))
}
