//! The full-board reads: one board (as JSON, streamed, or in columns) and
//! many boards' columns forms in one reply, a line each. Split from
//! `boards.rs`, whose other routes write.

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::auth::Caller;
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::negotiate::{accepts, accepts_encoding};
use crate::state::AppState;
use crate::wire::{FullReadQuery, FullReadsQuery};

/// The board and all its items in one read, with a strong `ETag`.
///
/// JSON unless `Accept` names `application/vnd.switchboard.columns+json`
/// (with q > 0): then the same read in columns, one array per item field and
/// a dictionary per values key, with its own ETag; `fields` chooses the item
/// fields it carries (all by default), and `codes=base64` packs each list of
/// codes into one string. `If-None-Match` with the
/// ETag of the representation asked for → 304. Both carry
/// `Vary: Accept, Accept-Encoding`. Compressed when the client accepts gzip,
/// br or zstd. Agent tokens are admitted.
// A matching `If-None-Match` costs one indexed lookup. The JSON body is
// streamed in chunks as the rows are read, so serving a big board never holds
// all of it in memory, and the router's layer compresses it. The columns body
// is complete only after the last item; it is built whole, compressed with
// zstd and kept until the board changes (`boards::built`), so a client that
// takes zstd gets the kept bytes as they are, and another the body expanded
// for the router's layer to compress its way.
#[utoipa::path(get, path = "/boards/{id}/full", params(("id" = String, Path, description = "The board's id."), FullReadQuery,
        ("Accept" = Option<String>, Header, description = "`application/vnd.switchboard.columns+json` (q > 0) for the columns form; anything else, or none, for JSON."),
        ("If-None-Match" = Option<String>, Header, description = "An ETag this read gave for the same representation.")),
    responses(
        (status = 200, description = "The board and its items, as JSON or in columns.",
            headers(("ETag" = String), ("Vary" = String, description = "`Accept, Accept-Encoding`")),
            content((boards::FullBoardBody = "application/json"),
                (boards::ColumnsBoardBody = "application/vnd.switchboard.columns+json"))),
        (status = 304, description = "The board is as the ETag says.",
            headers(("ETag" = String), ("Vary" = String, description = "`Accept, Accept-Encoding`"))),
        (status = 400, description = "`fields` names something that is not an item field, or `codes` is neither `numbers` nor `base64`.",
            body = crate::wire::ErrorBody),
    ))]
pub(super) async fn full_board(
    caller: Caller,
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(query): Query<FullReadQuery>,
) -> ApiResult<Response> {
    let form = columns_form(query.fields.as_deref(), query.codes.as_deref())?;
    let account = caller.account_id().to_owned();
    let columnar = accepts(&headers, boards::COLUMNAR_MEDIA_TYPE);
    // A cache keeps the two forms apart by `Accept` and the codings by
    // `Accept-Encoding`; on every reply, so that a revalidated copy keeps
    // saying so.
    let cache_headers = |etag: String| {
        [
            (header::ETAG, etag),
            (header::CACHE_CONTROL, "private, no-cache".to_owned()),
            (header::VARY, "Accept, Accept-Encoding".to_owned()),
        ]
    };
    if let Some(wanted) = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
    {
        let (db, account, id) = (s.db.clone(), account.clone(), id.clone());
        let etag = blocking(move || {
            if columnar {
                boards::columnar_etag(&db, &account, &id, form)
            } else {
                boards::board_etag(&db, &account, &id)
            }
        })
        .await?;
        if etag_matches(&wanted, &etag) {
            return Ok((StatusCode::NOT_MODIFIED, cache_headers(etag)).into_response());
        }
    }
    if columnar {
        let built = blocking(move || s.built_boards.columnar(&s.db, &account, &id, form)).await?;
        let etag = built.etag.clone();
        if accepts_encoding(&headers, "zstd") {
            return Ok((
                cache_headers(etag),
                [
                    (header::CONTENT_TYPE, boards::COLUMNAR_MEDIA_TYPE),
                    (header::CONTENT_ENCODING, "zstd"),
                ],
                built.body.zstd.clone(),
            )
                .into_response());
        }
        let body = blocking(move || built.body.expanded()).await?;
        return Ok((
            cache_headers(etag),
            [(header::CONTENT_TYPE, boards::COLUMNAR_MEDIA_TYPE)],
            body,
        )
            .into_response());
    }
    let (started, etag) = tokio::sync::oneshot::channel();
    let body = blocking_body(move |chunks| {
        let mut started = Some(started);
        let result = boards::stream_full_board(
            &s.db,
            &account,
            &id,
            |etag| {
                if let Some(started) = started.take() {
                    let _ = started.send(Ok(etag));
                }
            },
            |chunk| chunks.send(bytes::Bytes::from(chunk)),
        );
        if let Err(error) = result {
            match started.take() {
                Some(started) => {
                    let _ = started.send(Err(error));
                }
                None => {
                    tracing::error!(%error, "full-board read failed mid-stream");
                    chunks.cut_short();
                }
            }
        }
    });
    let etag = etag.await.map_err(ApiError::internal)??;
    Ok((
        cache_headers(etag),
        [(header::CONTENT_TYPE, "application/json")],
        body,
    )
        .into_response())
}

/// How long a reply waits for a client that stops reading before giving it
/// up, so that it never holds a database reader for ever.
const SLOW_CLIENT: std::time::Duration = std::time::Duration::from_secs(30);

/// The chunks a blocking task hands to a streamed reply.
struct Chunks {
    sender: tokio::sync::mpsc::Sender<Result<bytes::Bytes, std::io::Error>>,
    runtime: tokio::runtime::Handle,
}

impl Chunks {
    /// Hands `chunk` on; false once the client has gone, or has not read for
    /// [`SLOW_CLIENT`].
    fn send(&self, chunk: bytes::Bytes) -> bool {
        self.runtime
            .block_on(tokio::time::timeout(
                SLOW_CLIENT,
                self.sender.send(Ok(chunk)),
            ))
            .is_ok_and(|sent| sent.is_ok())
    }

    /// Ends the reply with an error, so the client sees a broken body rather
    /// than a short one that looks whole.
    fn cut_short(&self) {
        let _ = self
            .runtime
            .block_on(self.sender.send(Err(std::io::Error::other("read failed"))));
    }
}

/// A reply body written by `work` on a blocking thread, chunk by chunk, as
/// the client reads it.
fn blocking_body(work: impl FnOnce(Chunks) + Send + 'static) -> axum::body::Body {
    let (sender, chunks) = tokio::sync::mpsc::channel(4);
    let runtime = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || work(Chunks { sender, runtime }));
    axum::body::Body::from_stream(tokio_stream::wrappers::ReceiverStream::new(chunks))
}

/// The most boards one `GET /boards/full` reads.
const MAX_FULL_READS: usize = 100;

/// The media type of `GET /boards/full`: one JSON object per line.
const FULL_READS_MEDIA_TYPE: &str = "application/x-ndjson";

/// Many boards' columns forms in one reply, a line per board.
///
/// Lines come in the order of `ids`: `{"id", "etag", "body"}` with the body
/// `GET /boards/{id}/full` gives for the columns form (with the same
/// `fields` and `codes`), or
/// `{"id", "error": {"code", "message"}}` for a board that cannot be read
/// (`not_found`: missing or another account's). Each line is sent as soon as
/// it is ready. With `dicts=shared`, a first line `{"dicts": {"<key>": [..]}}`
/// holds one dictionary per values key for all the boards (each key whose
/// boards repeat each other's values), and each body's values columns of
/// those keys hold only `codes` into it (`boards::shared_dicts`); every board
/// is then read before the first line goes. Compressed when the client
/// accepts gzip, br or zstd. Agent tokens are admitted.
// A dashboard opens all its boards at once; one reply instead of one request
// per board saves each request's work in every process of the browser. The
// bodies are the kept ones (`boards::built`): with zstd each line is three
// frames, the line's head, the kept body's bytes as they are, and its end,
// and a zstd stream may hold any number of frames.
#[utoipa::path(get, path = "/boards/full", params(FullReadsQuery),
    responses(
        (status = 200, description = "One line per board, in the order of `ids`.",
            content_type = "application/x-ndjson", body = String),
        (status = 400, description = "`ids` is missing or empty, names a board twice, or more than 100 boards; `fields` names something that is not an item field; `codes` is neither `numbers` nor `base64`; or `dicts` is neither `own` nor `shared`.",
            body = crate::wire::ErrorBody),
    ))]
pub(super) async fn full_boards(
    caller: Caller,
    State(s): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<FullReadsQuery>,
) -> ApiResult<Response> {
    let ids = full_read_ids(query.ids.as_deref().unwrap_or_default())?;
    let form = columns_form(query.fields.as_deref(), query.codes.as_deref())?;
    let shared = shared_dicts(query.dicts.as_deref())?;
    let account = caller.account_id().to_owned();
    let zstd = accepts_encoding(&headers, "zstd");
    let body = blocking_body(move |chunks| {
        // The lines' own small frames share one context: making one costs
        // more than compressing a line's head.
        let mut frames = match zstd.then(|| zstd::bulk::Compressor::new(1)).transpose() {
            Ok(frames) => frames,
            Err(error) => {
                send_line(&chunks, Err(ApiError::internal(error)));
                return;
            }
        };
        if shared {
            shared_dict_lines(&s, &account, &ids, form, frames.as_mut(), &chunks);
            return;
        }
        for id in &ids {
            let line = s
                .built_boards
                .columnar(&s.db, &account, id, form)
                .map_err(ApiError::from)
                .and_then(|built| board_line(id, &built.etag, &built.body, frames.as_mut()))
                .or_else(|error| error_line(id, &error, frames.as_mut()));
            if !send_line(&chunks, line) {
                return;
            }
        }
    });
    let mut reply = (
        [
            (header::CONTENT_TYPE, FULL_READS_MEDIA_TYPE),
            (header::CACHE_CONTROL, "private, no-store"),
            (header::VARY, "Accept-Encoding"),
        ],
        body,
    )
        .into_response();
    if zstd {
        reply.headers_mut().insert(
            header::CONTENT_ENCODING,
            axum::http::HeaderValue::from_static("zstd"),
        );
    }
    Ok(reply)
}

/// Sends a line; false once the client has gone, or when the line could not
/// be made (`ApiError::internal` logged why): the reply is then cut short, and
/// the client reads the boards still to come as failed or, before the first
/// line, each on its own.
fn send_line(chunks: &Chunks, line: ApiResult<Vec<bytes::Bytes>>) -> bool {
    match line {
        Ok(line) => line.into_iter().all(|chunk| chunks.send(chunk)),
        Err(_logged) => {
            chunks.cut_short();
            false
        }
    }
}

/// The lines of `GET /boards/full?dicts=shared`: every board is read (or
/// found kept) before the first line, the dictionaries' line, goes out.
fn shared_dict_lines(
    s: &AppState,
    account: &str,
    ids: &[String],
    form: boards::ColumnsForm,
    mut frames: Option<&mut zstd::bulk::Compressor<'static>>,
    chunks: &Chunks,
) {
    let reads: Vec<ApiResult<std::sync::Arc<boards::BuiltBoard>>> = ids
        .iter()
        .map(|id| (s.built_boards.columnar(&s.db, account, id, form)).map_err(ApiError::from))
        .collect();
    let built: Vec<_> = reads
        .iter()
        .filter_map(|read| read.as_ref().ok())
        .cloned()
        .collect();
    let shared = match s.built_boards.shared_dicts(&built, form.codes) {
        Ok(shared) => shared,
        Err(error) => {
            send_line(chunks, Err(ApiError::from(error)));
            return;
        }
    };
    if !send_line(chunks, whole_line(&shared.dicts_line, frames.is_some())) {
        return;
    }
    let mut bodies = shared.bodies.iter();
    for (id, read) in ids.iter().zip(&reads) {
        let line = match read {
            Ok(built) => bodies
                .next()
                .ok_or_else(|| {
                    ApiError::internal(std::io::Error::other("a board's shared body is missing"))
                })
                .and_then(|body| board_line(id, &built.etag, body, frames.as_deref_mut()))
                // As without shared dictionaries: the board fails, the others still come.
                .or_else(|error| error_line(id, &error, frames.as_deref_mut())),
            Err(error) => error_line(id, error, frames.as_deref_mut()),
        };
        if !send_line(chunks, line) {
            return;
        }
    }
}

/// A line kept whole and compressed, as its chunks: its frame as it is for
/// a client that takes zstd, else expanded.
fn whole_line(line: &boards::Compressed, zstd: bool) -> ApiResult<Vec<bytes::Bytes>> {
    if zstd {
        return Ok(vec![line.zstd.clone()]);
    }
    Ok(vec![line.expanded()?.into()])
}

/// Whether `dicts` asks for shared dictionaries: `own` (the default) or `shared`.
fn shared_dicts(dicts: Option<&str>) -> ApiResult<bool> {
    match dicts {
        None | Some("own") => Ok(false),
        Some("shared") => Ok(true),
        Some(other) => Err(ApiError::bad_request(
            "invalid_request",
            format!("dicts must be \"own\" or \"shared\", not {other:?}"),
        )
        .on_field(Some("dicts"))),
    }
}

/// `ids` as asked: 1 to [`MAX_FULL_READS`] non-empty ids, each once.
fn full_read_ids(ids: &str) -> ApiResult<Vec<String>> {
    let invalid =
        |message: String| ApiError::bad_request("invalid_request", message).on_field(Some("ids"));
    let list: Vec<String> = ids.split(',').map(str::trim).map(str::to_owned).collect();
    if list.iter().any(String::is_empty) {
        return Err(invalid(
            "ids must list board ids separated by commas, none empty".to_owned(),
        ));
    }
    if list.len() > MAX_FULL_READS {
        return Err(invalid(format!(
            "ids may name at most {MAX_FULL_READS} boards"
        )));
    }
    let mut seen = std::collections::HashSet::new();
    if let Some(twice) = list.iter().find(|id| !seen.insert(id.as_str())) {
        return Err(invalid(format!("ids names the board {twice} twice")));
    }
    Ok(list)
}

/// What a columns-form read carries and how: every item field unless
/// `fields` lists some, codes as numbers unless `codes` says `base64`.
fn columns_form(fields: Option<&str>, codes: Option<&str>) -> ApiResult<boards::ColumnsForm> {
    let refused = |field: &'static str| {
        move |message: String| {
            ApiError::bad_request("invalid_request", message).on_field(Some(field))
        }
    };
    let fields = fields.map_or(Ok(boards::ItemFields::ALL), |list| {
        boards::ItemFields::parse(list).map_err(refused("fields"))
    })?;
    let codes = codes.map_or(Ok(boards::Codes::Numbers), |name| {
        boards::Codes::parse(name).map_err(refused("codes"))
    })?;
    Ok(boards::ColumnsForm { fields, codes })
}

/// A board's line, as the chunks to send: with `zstd`, the line's head and
/// end as frames of their own around the kept body's frame.
fn board_line(
    id: &str,
    etag: &str,
    body: &boards::Compressed,
    zstd: Option<&mut zstd::bulk::Compressor<'static>>,
) -> ApiResult<Vec<bytes::Bytes>> {
    let head = format!("{{\"id\":{},\"etag\":{},\"body\":", json!(id), json!(etag));
    if let Some(frames) = zstd {
        return Ok(vec![
            compressed(frames, head.as_bytes())?,
            body.zstd.clone(),
            compressed(frames, b"}\n")?,
        ]);
    }
    let body = body.expanded()?;
    let mut line = Vec::with_capacity(head.len() + body.len() + 2);
    line.extend_from_slice(head.as_bytes());
    line.extend_from_slice(&body);
    line.extend_from_slice(b"}\n");
    Ok(vec![line.into()])
}

/// A board that could not be read, as its line: the error as a reply would
/// give it.
fn error_line(
    id: &str,
    error: &ApiError,
    zstd: Option<&mut zstd::bulk::Compressor<'static>>,
) -> ApiResult<Vec<bytes::Bytes>> {
    let mut line = json!({"id": id, "error": {"code": error.code, "message": error.message}})
        .to_string()
        .into_bytes();
    line.push(b'\n');
    Ok(vec![match zstd {
        Some(frames) => compressed(frames, &line)?,
        None => line.into(),
    }])
}

/// `bytes` as a zstd frame of its own.
fn compressed(
    frames: &mut zstd::bulk::Compressor<'static>,
    bytes: &[u8],
) -> ApiResult<bytes::Bytes> {
    frames
        .compress(bytes)
        .map(bytes::Bytes::from)
        .map_err(ApiError::internal)
}

fn etag_matches(if_none_match: &str, etag: &str) -> bool {
    if_none_match.trim() == "*"
        || if_none_match
            .split(',')
            .map(|t| t.trim().trim_start_matches("W/"))
            .any(|t| t == etag)
}

#[cfg(test)]
mod tests {
    use super::etag_matches;

    #[test]
    fn if_none_match_lists_and_wildcards() {
        assert!(etag_matches("\"b.3\"", "\"b.3\""));
        assert!(etag_matches("\"a.1\", W/\"b.3\"", "\"b.3\""));
        assert!(etag_matches("*", "\"b.3\""));
        assert!(!etag_matches("\"b.2\"", "\"b.3\""));
    }
}
