//! Spreadsheets on the drives (`sheetsEnabled`, docs/files.md "Sheets"): a
//! file's sheets, its rows in pages, and cell edits written back where
//! `trustedSheets` allows them. Opening and paging read the file from the
//! drive (at most `sheets::MAX_FILE_BYTES`) once per ETag: a few files are
//! kept in memory and revalidated with a PROPFIND before each page; an edit
//! always reads the file afresh and is written with the ETag the client
//! read, so a file changed elsewhere is never overwritten.

use std::io::Read;
use std::sync::Arc;

use drives::{Drive, DriveError, DrivePath};
use serde::{Deserialize, Serialize};
use sheets::cache::bare;
use sheets::trust::{TrustedSheets, spreadsheet_id};
use sheets::{CellEdit, Format, MAX_FILE_BYTES, RowsPage, SheetError, SheetInfo};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::App;
use crate::office_error::OfficeError;

/// `GET /sheets`: a spreadsheet's sheets, the ETag to edit against, and
/// which columns may be edited (empty: read-only).
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SheetsBook {
    pub sheets: Vec<SheetInfo>,
    pub etag: Option<String>,
    pub format: Format,
    /// 0-based; empty when the spreadsheet is not in `trustedSheets` (or
    /// its format is read-only).
    pub editable_columns: Vec<u32>,
}

/// `PATCH /sheets/cells`.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SheetCellsPatch {
    pub drive_id: String,
    pub path: String,
    pub sheet: String,
    /// The ETag `GET /sheets` gave; a file changed since → 409.
    pub etag: String,
    pub cells: Vec<CellEdit>,
}

/// The file after an edit: its new ETag, for the next edit.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SheetCellsSaved {
    pub etag: Option<String>,
}

/// Who asks: an agent (its session's token) reads only the spreadsheets
/// `trustedSheets` lists, as it writes only their trusted columns.
#[derive(Debug, Clone, Copy)]
pub struct SheetCaller<'a> {
    pub account_id: &'a str,
    pub is_owner: bool,
    pub agent: bool,
}

impl App {
    fn sheets_on(&self) -> Result<(), OfficeError> {
        if self.settings.sheets_enabled() {
            Ok(())
        } else {
            Err(OfficeError::SheetsOff)
        }
    }

    fn trusted_sheets(&self) -> TrustedSheets {
        TrustedSheets::parse(&self.settings.trusted_sheets())
    }

    /// The sheets of the spreadsheet at `path` on drive `drive_id`.
    pub fn sheets_book(
        &self,
        caller: SheetCaller,
        drive_id: &str,
        path: &str,
    ) -> Result<SheetsBook, OfficeError> {
        self.sheets_on()?;
        let (drive, at, format) = self.sheet_file(caller, drive_id, path)?;
        let (bytes, etag) = self.cached_file(caller, &drive, drive_id, &at)?;
        let sheets = sheets::read::sheets(&bytes, format)?;
        let editable_columns = if format == Format::Ods {
            Vec::new()
        } else {
            self.trusted_sheets()
                .editable_columns(&spreadsheet_id(drive_id, &at.to_string()))
        };
        Ok(SheetsBook {
            sheets,
            etag,
            format,
            editable_columns,
        })
    }

    /// One page of a sheet's rows.
    pub fn sheet_rows(
        &self,
        caller: SheetCaller,
        drive_id: &str,
        path: &str,
        sheet: &str,
        offset: u64,
        limit: u32,
    ) -> Result<RowsPage, OfficeError> {
        self.sheets_on()?;
        let (drive, at, format) = self.sheet_file(caller, drive_id, path)?;
        let (bytes, _) = self.cached_file(caller, &drive, drive_id, &at)?;
        Ok(sheets::read::rows(&bytes, format, sheet, offset, limit)?)
    }

    /// Writes trusted cells back: refused before any read when a column is
    /// not editable; `Conflict` when the file's ETag is no longer the one
    /// the client read (checked here, and again by the drive on the PUT).
    pub fn sheet_edit(
        &self,
        caller: SheetCaller,
        patch: SheetCellsPatch,
    ) -> Result<SheetCellsSaved, OfficeError> {
        self.sheets_on()?;
        let (drive, at, format) = self.sheet_file(caller, &patch.drive_id, &patch.path)?;
        self.trusted_sheets().check(
            &spreadsheet_id(&patch.drive_id, &at.to_string()),
            &patch.cells,
        )?;
        if format == Format::Ods {
            return Err(SheetError::ReadOnlyFormat(format).into());
        }
        let (bytes, etag) = read_file(&drive, &at)?;
        if etag.as_deref().map(bare) != Some(bare(&patch.etag)) {
            return Err(DriveError::Conflict(format!(
                "{at} changed on the drive since it was read"
            ))
            .into());
        }
        let edited = sheets::edit::apply(&bytes, format, &patch.sheet, &patch.cells)?;
        let entry = drive.put_bytes_if(&at, &edited, Some(&patch.etag))?;
        self.sheet_files
            .forget(&cache_scope(caller, &patch.drive_id), &at.to_string());
        Ok(SheetCellsSaved { etag: entry.etag })
    }

    /// The drive, path and format of a spreadsheet the caller may read.
    fn sheet_file(
        &self,
        caller: SheetCaller,
        drive_id: &str,
        path: &str,
    ) -> Result<(std::sync::Arc<Drive>, DrivePath, Format), OfficeError> {
        let at = DrivePath::parse(path)?;
        let format = Format::from_path(&at.to_string())?;
        let id = spreadsheet_id(drive_id, &at.to_string());
        if caller.agent && self.trusted_sheets().find(&id).is_none() {
            return Err(SheetError::Untrusted(id).into());
        }
        let drive = self.drive(caller.account_id, caller.is_owner, drive_id)?;
        Ok((drive, at, format))
    }

    /// The file's bytes and ETag: the kept copy when the drive's ETag (one
    /// PROPFIND) is still the one it was read at, else a fresh download
    /// that is then kept. A file the server gives no ETag is never kept.
    fn cached_file(
        &self,
        caller: SheetCaller,
        drive: &Drive,
        drive_id: &str,
        at: &DrivePath,
    ) -> Result<(Arc<Vec<u8>>, Option<String>), OfficeError> {
        let scope = cache_scope(caller, drive_id);
        let path = at.to_string();
        if let Some(etag) = drive.stat(at)?.etag
            && let Some(bytes) = self.sheet_files.get(&scope, &path, &etag)
        {
            return Ok((bytes, Some(etag)));
        }
        let (bytes, etag) = read_file(drive, at)?;
        let bytes = Arc::new(bytes);
        if let Some(etag) = &etag {
            self.sheet_files.put(&scope, &path, etag, bytes.clone());
        }
        Ok((bytes, etag))
    }
}

/// Drives are per account, so a kept file is too.
fn cache_scope(caller: SheetCaller, drive_id: &str) -> String {
    format!("{}\n{drive_id}", caller.account_id)
}

/// A file's bytes (at most `sheets::MAX_FILE_BYTES`) and its ETag.
pub(crate) fn read_file(
    drive: &Drive,
    at: &DrivePath,
) -> Result<(Vec<u8>, Option<String>), OfficeError> {
    let download = drive.open(at)?;
    let too_large = |size: u64| SheetError::TooLarge {
        size,
        limit: MAX_FILE_BYTES as u64,
    };
    if let Some(size) = download.size
        && size > MAX_FILE_BYTES as u64
    {
        return Err(too_large(size).into());
    }
    let mut bytes = Vec::new();
    download
        .reader
        .take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| DriveError::Remote(format!("reading {at} from the drive: {e}")))?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(too_large(bytes.len() as u64).into());
    }
    let etag = match download.etag {
        Some(etag) => Some(etag),
        None => drive.stat(at)?.etag,
    };
    Ok((bytes, etag))
}
