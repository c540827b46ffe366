//! Drives (docs/files.md): `/drives`, the WebDAV accounts of drives.toml
//! (never a password), and `/drives/{id}/files`, their folders listed and
//! their files streamed both ways. A slot whose switch is off answers 403
//! `drive_disabled`; only the owner account has drives (another finds
//! none: 404). The upload is the one write whose body is not JSON and is
//! not held to 1 MiB (`guards.rs` lets it through): its bytes go to the
//! drive as they arrive, never gathered in memory, up to
//! `drives::MAX_UPLOAD_BYTES`.

use std::io::Read;

use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use drives::{Account, DriveMove, DrivePath, Entry, NewDrive, NewDriveFolder};
use http_body_util::BodyExt;
use serde::Deserialize;
use tokio::sync::mpsc;
use tokio_stream::StreamExt;
use utoipa::IntoParams;

use crate::auth::User;
use crate::blocking::blocking;
use crate::error::ApiResult;
use crate::json::ApiJson;
use crate::state::AppState;

/// A listing's page when the request names none, and the most it may ask.
const DEFAULT_PAGE: usize = 1_000;
/// Chunks between the request's body and the drive's thread: enough to
/// keep both busy, few enough that memory stays flat.
const CHUNKS_IN_FLIGHT: usize = 8;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/drives", get(list).post(add))
        .route("/drives/{id}/files", get(files).put(upload).delete(remove))
        .route("/drives/{id}/folders", post(make_folder))
        .route("/drives/{id}/move", post(move_entry))
}

/// `?path=` and, for a folder, the page; `download=1` for a file's bytes.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FilesQuery {
    /// From the drive's root: `/`, `/Reports`, `/Reports/q1.xlsx`.
    #[serde(default)]
    pub path: Option<String>,
    /// `1` (or `true`): the file's bytes rather than its entry.
    #[serde(default)]
    pub download: Option<String>,
    /// The first member of the page (0 when absent).
    #[serde(default)]
    pub offset: Option<usize>,
    /// Members in the page: 1,000 when absent, at most 5,000.
    #[serde(default)]
    pub limit: Option<usize>,
}

fn path_of(query: &FilesQuery) -> ApiResult<DrivePath> {
    Ok(DrivePath::parse(query.path.as_deref().unwrap_or("/"))?)
}

/// The drives of the slots turned on, never a password.
///
/// Each with its `status` (`pending` until first used since the server
/// started, `ok`, `failing` and why). Another account than the owner has
/// none. Every slot off → 403 `drive_disabled`.
#[utoipa::path(get, path = "/drives", responses((status = 200, body = Vec<Account>)))]
async fn list(user: User, State(state): State<AppState>) -> ApiResult<Json<Vec<Account>>> {
    let (app, is_owner) = (state.app.clone(), user.0.is_owner);
    Ok(Json(blocking(move || app.drive_accounts(is_owner)).await?))
}

/// Adds a WebDAV drive to drives.toml; its password to the saved keys.
///
/// `{kind: "webdav", url, username, password, name?, slot?}` → 201 with
/// `status`: `ok`, or `failing` with the server's refusal (a wrong
/// password is still added, so it can be fixed by saving the key again).
/// The slot is the first free one turned on when absent; all taken → 409
/// `drive_slot_taken`.
#[utoipa::path(post, path = "/drives", request_body = NewDrive, responses((status = 201, body = Account)))]
async fn add(
    user: User,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<NewDrive>,
) -> ApiResult<(StatusCode, Json<Account>)> {
    let (app, owner, is_owner) = (
        state.app.clone(),
        user.account_id().to_owned(),
        user.0.is_owner,
    );
    let account = blocking(move || app.add_drive(&owner, is_owner, body)).await?;
    Ok((StatusCode::CREATED, Json(account)))
}

/// A folder's members, a file's entry, or (`download=1`) a file's bytes.
///
/// A folder: `[{name, path, size, modifiedAt, etag, folder}]`, folders
/// first then by name, one page (`offset`, `limit`; headers
/// `X-Total-Count`, and `X-Next-Offset` while more follow), with the
/// folder's `ETag` (`If-None-Match` with it → 304). An unchanged folder is
/// not read from the server again. A file: its one entry, or with
/// `download=1` its bytes, streamed. A path with `..` or a control
/// character → 400 `invalid_path`.
#[utoipa::path(get, path = "/drives/{id}/files", params(("id" = String, Path, description = "main, filesync-a or filesync-b."), FilesQuery), responses(
    (status = 200, body = Vec<Entry>),
    (status = 304, description = "The folder is unchanged since the ETag given."),
))]
async fn files(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<FilesQuery>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let path = path_of(&query)?;
    let drive = drive_of(&state, &user, &id).await?;
    if matches!(query.download.as_deref(), Some("1" | "true")) {
        return download(&state, &id, drive, path).await;
    }
    let offset = query.offset.unwrap_or(0);
    let limit = query.limit.unwrap_or(DEFAULT_PAGE).min(drives::MAX_PAGE);
    let (app, at, key) = (state.app.clone(), path.clone(), id.clone());
    let listed = blocking(move || {
        let stat = drive.stat(&at);
        let outcome = match stat {
            Ok(entry) if !entry.folder => Ok(Err(entry)),
            Ok(_) => drive.list(&at, offset, limit).map(Ok),
            Err(e) => Err(e),
        };
        app.drives.note(&key, &outcome);
        outcome
    })
    .await?;
    let page = match listed {
        Err(file) => return Ok(Json(vec![file]).into_response()),
        Ok(page) => page,
    };
    let etag = HeaderValue::from_str(&page.etag).ok();
    let unchanged = etag.as_ref().is_some_and(|etag| {
        headers
            .get(header::IF_NONE_MATCH)
            .is_some_and(|given| given == etag)
    });
    let mut response = if unchanged {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        Json(page.entries).into_response()
    };
    let out = response.headers_mut();
    if let Some(etag) = etag {
        out.insert(header::ETAG, etag);
    }
    out.insert("x-total-count", HeaderValue::from(page.total));
    if let Some(next) = page.next {
        out.insert("x-next-offset", HeaderValue::from(next));
    }
    Ok(response)
}

async fn drive_of(
    state: &AppState,
    user: &User,
    id: &str,
) -> ApiResult<std::sync::Arc<drives::Drive>> {
    let (app, owner, is_owner, id) = (
        state.app.clone(),
        user.account_id().to_owned(),
        user.0.is_owner,
        id.to_owned(),
    );
    blocking(move || app.drive(&owner, is_owner, &id)).await
}

/// The file's bytes as they come from the drive (`app::drive_files`
/// reads them on the blocking pool), a few chunks apart at most.
async fn download(
    state: &AppState,
    id: &str,
    drive: std::sync::Arc<drives::Drive>,
    path: DrivePath,
) -> ApiResult<Response> {
    let (app, key, at) = (state.app.clone(), id.to_owned(), path.clone());
    let opened = blocking(move || {
        let opened = drive.open(&at);
        app.drives.note(&key, &opened);
        opened
    })
    .await?;
    let mut headers = HeaderMap::new();
    let content_type = opened
        .content_type
        .as_deref()
        .and_then(|t| HeaderValue::from_str(t).ok())
        .unwrap_or(HeaderValue::from_static("application/octet-stream"));
    headers.insert(header::CONTENT_TYPE, content_type);
    if let Some(size) = opened.size {
        headers.insert(header::CONTENT_LENGTH, HeaderValue::from(size));
    }
    if let Some(etag) = opened
        .etag
        .as_deref()
        .and_then(|e| HeaderValue::from_str(e).ok())
    {
        headers.insert(header::ETAG, etag);
    }
    let name: String =
        percent_encoding::utf8_percent_encode(path.name(), percent_encoding::NON_ALPHANUMERIC)
            .collect();
    if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename*=UTF-8''{name}")) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    let chunks = app::drive_files::download_chunks(opened.reader);
    let stream =
        tokio_stream::wrappers::ReceiverStream::new(chunks).map(|chunk| chunk.map(Bytes::from));
    Ok((headers, Body::from_stream(stream)).into_response())
}

/// The request body as a blocking reader for the drive's thread.
struct BodyReader {
    chunks: mpsc::Receiver<Result<Bytes, std::io::Error>>,
    current: Bytes,
}

impl Read for BodyReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.current.is_empty() {
            match self.chunks.blocking_recv() {
                Some(Ok(chunk)) => self.current = chunk,
                Some(Err(e)) => return Err(e),
                None => return Ok(0),
            }
        }
        let n = buf.len().min(self.current.len());
        buf[..n].copy_from_slice(&self.current.split_to(n));
        Ok(n)
    }
}

/// Uploads the body to `path`, streamed, replacing any file there.
///
/// Any `Content-Type`; the bytes go to the drive as they arrive (first
/// under a temporary name, then moved over the real one, so an upload that
/// breaks off leaves no half file). Past `drives::MAX_UPLOAD_BYTES` (4 GiB)
/// → 413 `payload_too_large`. → 201 with the file's entry.
#[utoipa::path(put, path = "/drives/{id}/files", params(("id" = String, Path, description = "main, filesync-a or filesync-b."), FilesQuery), request_body(content = String, content_type = "application/octet-stream", description = "The file's bytes."), responses((status = 201, body = Entry)))]
async fn upload(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<FilesQuery>,
    headers: HeaderMap,
    body: Body,
) -> ApiResult<(StatusCode, Json<Entry>)> {
    let path = path_of(&query)?;
    let drive = drive_of(&state, &user, &id).await?;
    let length = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    // The body is read here, on the request's own task, while the drive's
    // thread writes what arrives; a drive that stops reading (an error, the
    // limit) drops the receiver, which ends the feeding.
    let (tx, rx) = mpsc::channel(CHUNKS_IN_FLIGHT);
    let feeding = async move {
        let mut body = body;
        while let Some(frame) = body.frame().await {
            let chunk = match frame {
                Ok(frame) => match frame.into_data() {
                    Ok(data) => Ok(data),
                    Err(_) => continue,
                },
                Err(e) => Err(std::io::Error::other(format!("the upload broke off: {e}"))),
            };
            let failed = chunk.is_err();
            if tx.send(chunk).await.is_err() || failed {
                return;
            }
        }
    };
    let (app, key) = (state.app.clone(), id.clone());
    let writing = blocking(move || {
        let mut reader = BodyReader {
            chunks: rx,
            current: Bytes::new(),
        };
        let written = drive.put(&path, &mut reader, length);
        app.drives.note(&key, &written);
        written
    });
    let ((), written) = tokio::join!(feeding, writing);
    Ok((StatusCode::CREATED, Json(written?)))
}

/// Deletes a file, or a folder with everything in it.
///
/// WebDAV has no trash: a server that keeps one (Nextcloud, ownCloud)
/// keeps the file there; elsewhere it is gone (the web page asks first).
/// → 204.
#[utoipa::path(delete, path = "/drives/{id}/files", params(("id" = String, Path, description = "main, filesync-a or filesync-b."), FilesQuery), responses((status = 204)))]
async fn remove(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<FilesQuery>,
) -> ApiResult<StatusCode> {
    let path = path_of(&query)?;
    let drive = drive_of(&state, &user, &id).await?;
    let (app, key) = (state.app.clone(), id.clone());
    blocking(move || {
        let deleted = drive.delete(&path);
        app.drives.note(&key, &deleted);
        deleted
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Makes a folder (its parent must exist; 409 when something is there).
#[utoipa::path(post, path = "/drives/{id}/folders", params(("id" = String, Path, description = "main, filesync-a or filesync-b.")), request_body = NewDriveFolder, responses((status = 201, body = Entry)))]
async fn make_folder(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<NewDriveFolder>,
) -> ApiResult<(StatusCode, Json<Entry>)> {
    let path = DrivePath::parse(&body.path)?;
    let drive = drive_of(&state, &user, &id).await?;
    let (app, key) = (state.app.clone(), id.clone());
    let made = blocking(move || {
        let made = drive.make_folder(&path);
        app.drives.note(&key, &made);
        made
    })
    .await?;
    Ok((StatusCode::CREATED, Json(made)))
}

/// Moves or renames a file or folder on the drive.
///
/// `{from, to, overwrite?}`: something already at `to` → 409 `conflict`
/// unless `overwrite`. → 200 with the entry at its new path.
#[utoipa::path(post, path = "/drives/{id}/move", params(("id" = String, Path, description = "main, filesync-a or filesync-b.")), request_body = DriveMove, responses((status = 200, body = Entry)))]
async fn move_entry(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<DriveMove>,
) -> ApiResult<Json<Entry>> {
    let from = DrivePath::parse(&body.from)?;
    let to = DrivePath::parse(&body.to)?;
    let drive = drive_of(&state, &user, &id).await?;
    let (app, key) = (state.app.clone(), id.clone());
    let moved = blocking(move || {
        let moved = drive.rename(&from, &to, body.overwrite);
        app.drives.note(&key, &moved);
        moved
    })
    .await?;
    Ok(Json(moved))
}
