//! Boards and spreadsheets (issue 70, docs/files.md "Boards and sheets"): a
//! board exported as `.xlsx` bytes, and a sheet on a drive read and turned
//! into a new board with its columns mapped to board column types. The
//! mapping and the workbook are `sheets::boards_io`'s pure functions; this
//! reads the board or the rows and stores the new board.

use boards::{BoardsError, FullBoardBody, Item, MAX_BATCH_ITEMS};
use serde::{Deserialize, Serialize};
use sheets::boards_io::SheetImport;
use sheets::{MAX_PAGE_ROWS, SheetError};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::App;
use crate::office_error::OfficeError;
use crate::sheet_edits::SheetCaller;

/// The most rows a sheet brings into a board: a page of rows, read once.
pub const MAX_IMPORT_ROWS: u32 = MAX_PAGE_ROWS;

/// `POST /boards/import-sheet`.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BoardSheetImport {
    pub drive_id: String,
    pub path: String,
    /// The sheet's name (`Sheet1` for a `.csv`).
    pub sheet: String,
    pub workspace_id: String,
    /// The new board's name.
    pub name: String,
    #[serde(flatten)]
    #[ts(flatten)]
    pub mapping: SheetImport,
}

/// The board a sheet became, and the cells that could not become values.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BoardSheetImported {
    pub board_id: String,
    pub items: usize,
    /// `C7: "soon" is not a date (YYYY-MM-DD)`, one per skipped cell.
    pub skipped: Vec<String>,
}

impl App {
    /// The board `board_id` and its items as one `.xlsx` sheet.
    pub fn board_xlsx(&self, account_id: &str, board_id: &str) -> Result<Vec<u8>, OfficeError> {
        let board = boards::get_board(&self.db, account_id, board_id)?;
        let full = boards::full_board(&self.db, account_id, board_id)?;
        let body: FullBoardBody =
            serde_json::from_slice(&full.body).map_err(|e| BoardsError::KeptBody(e.to_string()))?;
        let items: Vec<Item> = body
            .items
            .into_iter()
            .map(|i| Item {
                id: i.id,
                board_id: board.id.clone(),
                group_id: i.group_id,
                name: i.name,
                values: i.values,
                created_at: i.created_at,
                updated_at: i.updated_at,
            })
            .collect();
        Ok(sheets::boards_io::export_board(&board, &items)?)
    }

    /// Reads the sheet's first [`MAX_IMPORT_ROWS`] rows and makes a board of
    /// them; a longer sheet is refused rather than cut short unseen.
    pub fn board_from_sheet(
        &self,
        caller: SheetCaller,
        request: BoardSheetImport,
    ) -> Result<BoardSheetImported, OfficeError> {
        let page = self.sheet_rows(
            caller,
            &request.drive_id,
            &request.path,
            &request.sheet,
            0,
            MAX_IMPORT_ROWS,
        )?;
        if page.next.is_some() {
            return Err(SheetError::Invalid(format!(
                "a sheet brings at most {MAX_IMPORT_ROWS} rows into a board"
            ))
            .into());
        }
        let plan = sheets::boards_io::plan_board(
            &request.workspace_id,
            &request.name,
            &page.rows,
            &request.mapping,
        )?;
        let board = boards::create_board(&self.db, caller.account_id, &plan.board)?;
        for batch in plan.items.chunks(MAX_BATCH_ITEMS) {
            boards::import_items(&self.db, caller.account_id, &board.id, batch)?;
        }
        Ok(BoardSheetImported {
            board_id: board.id,
            items: plan.items.len(),
            skipped: plan.skipped,
        })
    }
}
