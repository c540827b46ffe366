//! Spreadsheets on the drives (docs/files.md "Sheets"): `/sheets` (a file's
//! sheets and ETag), `/sheets/rows` (a page of rows) and `/sheets/cells`
//! (trusted edits, with the ETag read). `sheetsEnabled` off → 403
//! `sheets_disabled`; an untrusted spreadsheet or column → 403 naming it; a
//! file changed since it was read → 409. An agent's token reaches these
//! too, but only for the spreadsheets `trustedSheets` lists (any other →
//! 403 `sheet_not_trusted`), so an agent writes only trusted columns.
//! Boards and sheets: `/boards/{id}/export.xlsx` (a board as a workbook)
//! and `/boards/import-sheet` (a sheet made a new board, for people only).

use app::board_sheets::{BoardSheetImport, BoardSheetImported};
use app::sheet_edits::{SheetCaller, SheetCellsPatch, SheetCellsSaved, SheetsBook};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::{get, patch, post};
use axum::{Json, Router};
use serde::Deserialize;
use sheets::RowsPage;
use utoipa::IntoParams;

use crate::auth::{Caller, User};
use crate::blocking::blocking;
use crate::error::ApiResult;
use crate::json::ApiJson;
use crate::state::AppState;

/// Rows in a page when the request names none.
const DEFAULT_ROWS: u32 = 500;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/sheets", get(book))
        .route("/sheets/rows", get(rows))
        .route("/sheets/cells", patch(cells))
        .route("/boards/{id}/export.xlsx", get(export_board))
        .route("/boards/import-sheet", post(import_sheet))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct BookQuery {
    /// `main`, `filesync-a` or `filesync-b`.
    pub drive_id: String,
    /// The `.xlsx`, `.ods` or `.csv` file, from the drive's root.
    pub path: String,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct RowsQuery {
    pub drive_id: String,
    pub path: String,
    /// The sheet's name (`Sheet1` for a `.csv`).
    pub sheet: String,
    /// The first row, 0-based (0 when absent).
    #[serde(default)]
    pub offset: Option<u64>,
    /// Rows in the page: 500 when absent, at most 5,000.
    #[serde(default)]
    pub limit: Option<u32>,
}

/// A spreadsheet's sheets, its ETag and the columns that may be edited.
///
/// `{sheets: [{name, rows, columns}], etag, format, editableColumns}`;
/// `editableColumns` is empty unless `trustedSheets` lists the file
/// (`spreadsheetId` `<drive id>:<path>`). A corrupt file → 422
/// `corrupt_spreadsheet`; not a spreadsheet → 400.
#[utoipa::path(get, path = "/sheets", params(BookQuery), responses((status = 200, body = SheetsBook)))]
async fn book(
    caller: Caller,
    State(state): State<AppState>,
    Query(query): Query<BookQuery>,
) -> ApiResult<Json<SheetsBook>> {
    let (app, owner, is_owner, agent) = who(&state, &caller);
    let book = blocking(move || {
        app.sheets_book(
            SheetCaller {
                account_id: &owner,
                is_owner,
                agent,
            },
            &query.drive_id,
            &query.path,
        )
    })
    .await?;
    Ok(Json(book))
}

/// One page of a sheet's rows, cells with their last computed values.
///
/// `{sheet, offset, rows, next}`: `rows[i]` is row `offset + i`, each cell
/// `{value, formula?}` (the value the file last computed, the formula
/// without its `=`); `next` is the following page's offset, `null` after
/// the last row. A page holds at most 5,000 rows and 500,000 cells.
#[utoipa::path(get, path = "/sheets/rows", params(RowsQuery), responses((status = 200, body = RowsPage)))]
async fn rows(
    caller: Caller,
    State(state): State<AppState>,
    Query(query): Query<RowsQuery>,
) -> ApiResult<Json<RowsPage>> {
    let (app, owner, is_owner, agent) = who(&state, &caller);
    let page = blocking(move || {
        app.sheet_rows(
            SheetCaller {
                account_id: &owner,
                is_owner,
                agent,
            },
            &query.drive_id,
            &query.path,
            &query.sheet,
            query.offset.unwrap_or(0),
            query.limit.unwrap_or(DEFAULT_ROWS),
        )
    })
    .await?;
    Ok(Json(page))
}

/// Writes cells of a trusted spreadsheet back to the drive.
///
/// `{driveId, path, sheet, etag, cells: [{row, column, value}]}`, 0-based,
/// `value` `null` to clear. A column `trustedSheets` does not list → 403
/// `column_not_editable` naming it; an untrusted file → 403
/// `sheet_not_trusted`; a file changed since `etag` → 409 `conflict`; an
/// `.ods` file → 422 `read_only_format`. Only the edited cells change in an
/// `.xlsx`. Answers the file's new ETag.
#[utoipa::path(patch, path = "/sheets/cells", request_body = SheetCellsPatch, responses((status = 200, body = SheetCellsSaved)))]
async fn cells(
    caller: Caller,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<SheetCellsPatch>,
) -> ApiResult<Json<SheetCellsSaved>> {
    let (app, owner, is_owner, agent) = who(&state, &caller);
    let saved = blocking(move || {
        app.sheet_edit(
            SheetCaller {
                account_id: &owner,
                is_owner,
                agent,
            },
            body,
        )
    })
    .await?;
    Ok(Json(saved))
}

/// A board and its items as an `.xlsx` workbook, to download.
///
/// One sheet named after the board: a header row (`Name`, `Group`, then the
/// column titles) and a row per item; numbers and checkboxes as typed
/// cells. Agent tokens are admitted, as for the board's other reads.
#[utoipa::path(get, path = "/boards/{id}/export.xlsx", params(("id" = String, Path, description = "The board's id.")),
    responses((status = 200, description = "The workbook.",
        content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", body = Vec<u8>)))]
async fn export_board(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<impl IntoResponse> {
    let app = state.app.clone();
    let account = caller.account_id().to_owned();
    let board = id.clone();
    let bytes = blocking(move || app.board_xlsx(&account, &board)).await?;
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"board-{id}.xlsx\""))
        .unwrap_or_else(|_| HeaderValue::from_static("attachment"));
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static(
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                ),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        bytes,
    ))
}

/// Makes a new board of a sheet on a drive, its columns mapped to board column types.
///
/// `{driveId, path, sheet, workspaceId, name, nameColumn, headerRows?,
/// columns: [{column, title?, type}]}`: `nameColumn` names each item,
/// `headerRows` (1 by default) come before the data, and each mapped column
/// becomes a board column (`status` gets a label per distinct value,
/// `dropdown` its options; `people` and `timeline` → 400). Cells that are
/// not values of their column's type are skipped and listed. At most 5,000
/// rows. Needs `sheetsEnabled`; not for agent tokens.
#[utoipa::path(post, path = "/boards/import-sheet", request_body = BoardSheetImport,
    responses((status = 201, body = BoardSheetImported)))]
async fn import_sheet(
    user: User,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<BoardSheetImport>,
) -> ApiResult<(StatusCode, Json<BoardSheetImported>)> {
    let app = state.app.clone();
    let (owner, is_owner) = (user.account_id().to_owned(), user.0.is_owner);
    let imported = blocking(move || {
        app.board_from_sheet(
            SheetCaller {
                account_id: &owner,
                is_owner,
                agent: false,
            },
            body,
        )
    })
    .await?;
    Ok((StatusCode::CREATED, Json(imported)))
}

/// What the blocking call needs of the caller, owned.
fn who(state: &AppState, caller: &Caller) -> (std::sync::Arc<app::App>, String, bool, bool) {
    (
        state.app.clone(),
        caller.account_id().to_owned(),
        caller.0.is_owner,
        caller.is_agent(),
    )
}
