//! `POST /attachments`: an image for a turn, sent as its raw bytes, kept by
//! the attachments crate under the data directory (docs/attachments.md); a
//! spawn or a follow-up names it in `attachments`.

use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, StatusCode, header};
use axum::routing::post;
use axum::{Json, Router};

use crate::auth::Caller;
use crate::blocking::blocking;
use crate::error::ApiResult;
use crate::guards::attachment_too_large;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/attachments", post(upload))
        .route_layer(DefaultBodyLimit::max(::attachments::MAX_BYTES))
}

/// Keeps an image for a later turn and answers where it is.
///
/// The body is the image itself, with `Content-Type` `image/png`,
/// `image/jpeg`, `image/gif` or `image/webp`; another type, or bytes that
/// are not of the type declared → 415 `unsupported_media_type`; over 10 MiB
/// → 413 `payload_too_large`; an empty body → 400 `invalid_request`. The
/// same bytes sent twice are kept once, under the same `id` (their
/// SHA-256). A spawn or a follow-up names it in `attachments`.
#[utoipa::path(post, path = "/attachments", request_body(content = String, content_type = "image/png", description = "The image's bytes."), responses(
    (status = 201, body = ::attachments::Attachment),
    (status = 413, description = "`payload_too_large`: over 10 MiB"),
    (status = 415, description = "`unsupported_media_type`: not a PNG, JPEG, GIF or WebP image"),
))]
async fn upload(
    _caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<(StatusCode, Json<::attachments::Attachment>)> {
    let body = body.map_err(|_| attachment_too_large())?;
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let data_dir = state.data_dir.clone();
    let saved = blocking(move || {
        ::attachments::AttachmentStore::open(&data_dir)
            .and_then(|store| store.save(&content_type, &body))
    })
    .await?;
    Ok((StatusCode::CREATED, Json(saved)))
}
