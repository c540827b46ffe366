//! Files between a session's folder and the user's drives
//! (`app::session_files`, docs/files.md): `attach-drive-file` copies a
//! drive file into the folder, `save-to-drive` uploads one of its files.
//! The user only: drives are the owner's, and an agent token is refused.

use app::session_files::{AttachDriveFile, AttachedFile, SaveToDrive};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use drives::Entry;

use crate::auth::User;
use crate::error::ApiResult;
use crate::json::ApiJson;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/sessions/{id}/attach-drive-file", post(attach))
        .route("/sessions/{id}/save-to-drive", post(save))
}

/// Copies a drive file into the session's folder, under its own name.
///
/// A name already taken there gets a number (`plan (2).csv`); nothing is
/// overwritten. The answer's `path` is the name in the folder. 409 for a
/// session on a runner or whose folder is gone.
#[utoipa::path(post, path = "/sessions/{id}/attach-drive-file", params(("id" = String, Path, description = "The session's id.")), request_body = AttachDriveFile, responses((status = 201, body = AttachedFile), (status = 400, description = "a bad drive path, or a folder"), (status = 404, description = "no such session, drive or file"), (status = 409, description = "the session's folder is not here")))]
async fn attach(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<AttachDriveFile>,
) -> ApiResult<(StatusCode, Json<AttachedFile>)> {
    let attached = state
        .attach_drive_file(
            user.account_id(),
            user.0.is_owner,
            &id,
            &body.drive,
            &body.path,
        )
        .await?;
    Ok((StatusCode::CREATED, Json(attached)))
}

/// Uploads a file of the session's folder to a drive path.
///
/// `file` is relative to the folder; `..`, an absolute path or a link that
/// leads outside it is a 400. A file already at `path` is replaced only
/// with `overwrite` (else 409).
#[utoipa::path(post, path = "/sessions/{id}/save-to-drive", params(("id" = String, Path, description = "The session's id.")), request_body = SaveToDrive, responses((status = 201, body = Entry), (status = 400, description = "a file outside the folder, or a bad drive path"), (status = 404, description = "no such session or drive"), (status = 409, description = "a file exists there, or the session's folder is not here")))]
async fn save(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<SaveToDrive>,
) -> ApiResult<(StatusCode, Json<Entry>)> {
    let entry = state
        .save_to_drive(user.account_id(), user.0.is_owner, &id, body)
        .await?;
    Ok((StatusCode::CREATED, Json(entry)))
}
