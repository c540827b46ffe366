//! Reading: sheet names and rows in pages. An `.xlsx` sheet is streamed from
//! its XML twice per page (values, then formulas), keeping only the cells of
//! the page; `.ods` has no streaming reader in calamine, so its sheet is read
//! whole (the file-size limit bounds it); `.csv` is streamed.

use std::io::Cursor;
use std::panic::{AssertUnwindSafe, catch_unwind};

use calamine::{Data, DataRef, Ods, Reader, Xlsx};

use crate::{
    Cell, CellValue, Format, MAX_FILE_BYTES, MAX_PAGE_CELLS, MAX_PAGE_ROWS, MAX_PART_BYTES,
    RowsPage, SheetError, SheetInfo,
};

/// The one sheet of a `.csv` file.
pub const CSV_SHEET: &str = "Sheet1";

type Result<T> = std::result::Result<T, SheetError>;

/// The sheets of a spreadsheet, in the file's order.
pub fn sheets(bytes: &[u8], format: Format) -> Result<Vec<SheetInfo>> {
    check_size(bytes)?;
    guarded(|| match format {
        Format::Xlsx => {
            let mut book = open_xlsx(bytes)?;
            let names = book.sheet_names();
            let mut out = Vec::with_capacity(names.len());
            for name in names {
                let dims = book
                    .worksheet_cells_reader(&name)
                    .map_err(SheetError::corrupt)?
                    .dimensions();
                let used = dims != calamine::Dimensions::default();
                out.push(SheetInfo {
                    name,
                    rows: if used { u64::from(dims.end.0) + 1 } else { 0 },
                    columns: if used { dims.end.1 + 1 } else { 0 },
                });
            }
            Ok(out)
        }
        Format::Ods => {
            let mut book = open_ods(bytes)?;
            let names = book.sheet_names();
            let mut out = Vec::with_capacity(names.len());
            for name in names {
                let range = book.worksheet_range(&name).map_err(SheetError::corrupt)?;
                let (rows, columns) = range
                    .end()
                    .map_or((0, 0), |(r, c)| (u64::from(r) + 1, c + 1));
                out.push(SheetInfo {
                    name,
                    rows,
                    columns,
                });
            }
            Ok(out)
        }
        Format::Csv => {
            let mut reader = csv_reader(bytes);
            let mut record = csv::ByteRecord::new();
            let (mut rows, mut columns) = (0u64, 0u32);
            while reader
                .read_byte_record(&mut record)
                .map_err(SheetError::corrupt)?
            {
                rows += 1;
                columns = columns.max(u32::try_from(record.len()).unwrap_or(u32::MAX));
            }
            Ok(vec![SheetInfo {
                name: CSV_SHEET.into(),
                rows,
                columns,
            }])
        }
    })
}

/// Rows `offset .. offset + limit` of `sheet`; `limit` at most
/// [`MAX_PAGE_ROWS`].
pub fn rows(
    bytes: &[u8],
    format: Format,
    sheet: &str,
    offset: u64,
    limit: u32,
) -> Result<RowsPage> {
    check_size(bytes)?;
    if limit == 0 || limit > MAX_PAGE_ROWS {
        return Err(SheetError::Invalid(format!(
            "limit must be 1 to {MAX_PAGE_ROWS} rows"
        )));
    }
    let mut page = PageBuilder::new(offset, limit);
    guarded(|| match format {
        Format::Xlsx => xlsx_rows(bytes, sheet, &mut page),
        Format::Ods => ods_rows(bytes, sheet, &mut page),
        Format::Csv => csv_rows(bytes, sheet, &mut page),
    })?;
    Ok(page.finish(sheet))
}

fn xlsx_rows(bytes: &[u8], sheet: &str, page: &mut PageBuilder) -> Result<()> {
    let mut book = open_xlsx(bytes)?;
    if !book.sheet_names().iter().any(|n| n == sheet) {
        return Err(SheetError::SheetNotFound(sheet.into()));
    }
    {
        let mut cells = book
            .worksheet_cells_reader(sheet)
            .map_err(SheetError::corrupt)?;
        while let Some(cell) = cells.next_cell().map_err(SheetError::corrupt)? {
            let (row, column) = cell.get_position();
            let value = match cell.get_value() {
                DataRef::Empty => None,
                DataRef::Int(i) => Some(CellValue::Number(*i as f64)),
                DataRef::Float(f) => Some(CellValue::Number(*f)),
                DataRef::String(s) => Some(CellValue::Text(s.clone())),
                DataRef::SharedString(s) => Some(CellValue::Text((*s).to_owned())),
                DataRef::Bool(b) => Some(CellValue::Bool(*b)),
                DataRef::DateTime(d) => Some(excel_date(d)),
                DataRef::DateTimeIso(s) | DataRef::DurationIso(s) => {
                    Some(CellValue::Text(s.clone()))
                }
                DataRef::Error(e) => Some(CellValue::Text(e.to_string())),
            };
            if !page.value(u64::from(row), column, value) {
                break;
            }
        }
    }
    let mut cells = book
        .worksheet_cells_reader(sheet)
        .map_err(SheetError::corrupt)?;
    while let Some(cell) = cells.next_formula().map_err(SheetError::corrupt)? {
        let (row, column) = cell.get_position();
        let formula = cell.get_value();
        if formula.is_empty() {
            continue;
        }
        if !page.formula(u64::from(row), column, formula) {
            break;
        }
    }
    Ok(())
}

fn ods_rows(bytes: &[u8], sheet: &str, page: &mut PageBuilder) -> Result<()> {
    let mut book = open_ods(bytes)?;
    if !book.sheet_names().iter().any(|n| n == sheet) {
        return Err(SheetError::SheetNotFound(sheet.into()));
    }
    let values = book.worksheet_range(sheet).map_err(SheetError::corrupt)?;
    if let Some((row0, col0)) = values.start() {
        for (r, c, data) in values.used_cells() {
            let value = match data {
                Data::Empty => None,
                Data::Int(i) => Some(CellValue::Number(*i as f64)),
                Data::Float(f) => Some(CellValue::Number(*f)),
                Data::String(s) | Data::DateTimeIso(s) | Data::DurationIso(s) => {
                    Some(CellValue::Text(s.clone()))
                }
                Data::Bool(b) => Some(CellValue::Bool(*b)),
                Data::DateTime(d) => Some(excel_date(d)),
                Data::Error(e) => Some(CellValue::Text(e.to_string())),
            };
            let (row, column) = (u64::from(row0) + r as u64, col0 + c as u32);
            if !page.value(row, column, value) {
                break;
            }
        }
    }
    let formulas = book.worksheet_formula(sheet).map_err(SheetError::corrupt)?;
    if let Some((row0, col0)) = formulas.start() {
        for (r, c, formula) in formulas.used_cells() {
            let (row, column) = (u64::from(row0) + r as u64, col0 + c as u32);
            if !formula.is_empty() && !page.formula(row, column, formula) {
                break;
            }
        }
    }
    Ok(())
}

fn csv_rows(bytes: &[u8], sheet: &str, page: &mut PageBuilder) -> Result<()> {
    if sheet != CSV_SHEET {
        return Err(SheetError::SheetNotFound(sheet.into()));
    }
    let mut reader = csv_reader(bytes);
    let mut record = csv::StringRecord::new();
    let mut row = 0u64;
    while read_csv_record(&mut reader, &mut record)? {
        if row >= page.end {
            page.more = true;
            break;
        }
        if row >= page.offset {
            for (column, field) in record.iter().enumerate() {
                let value = (!field.is_empty()).then(|| CellValue::Text(field.to_owned()));
                if !page.value(row, column as u32, value) {
                    return Ok(());
                }
            }
        }
        row += 1;
    }
    Ok(())
}

/// A record read as text; a line that is not UTF-8 is a corrupt file.
pub(crate) fn read_csv_record(
    reader: &mut csv::Reader<&[u8]>,
    record: &mut csv::StringRecord,
) -> Result<bool> {
    reader.read_record(record).map_err(SheetError::corrupt)
}

/// A CSV reader for the delimiter the first line uses most: `,`, `;` or tab
/// (spreadsheets saved in locales with a decimal comma use `;`).
pub(crate) fn csv_reader(bytes: &[u8]) -> csv::Reader<&[u8]> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(csv_delimiter(bytes))
        .from_reader(bytes)
}

pub(crate) fn csv_delimiter(bytes: &[u8]) -> u8 {
    let first = bytes.split(|b| *b == b'\n').next().unwrap_or_default();
    let count = |d: u8| first.iter().filter(|b| **b == d).count();
    [b',', b';', b'\t']
        .into_iter()
        .max_by_key(|d| (count(*d), *d == b','))
        .unwrap_or(b',')
}

/// Collects the cells of one page, dense per row, and knows when the page is
/// full: past its last row, or at [`MAX_PAGE_CELLS`].
struct PageBuilder {
    offset: u64,
    /// The first row after the page (moved up when the cell cap ends it early).
    end: u64,
    rows: Vec<Vec<Cell>>,
    cells: usize,
    /// Whether a used cell was seen at or after `end`.
    more: bool,
}

impl PageBuilder {
    fn new(offset: u64, limit: u32) -> Self {
        Self {
            offset,
            end: offset.saturating_add(u64::from(limit)),
            rows: Vec::new(),
            cells: 0,
            more: false,
        }
    }

    /// The cell at `row`, `column` within the page, growing its row; `None`
    /// outside the page (the page ends early if the row would pass the cap).
    fn slot(&mut self, row: u64, column: u32) -> Option<&mut Cell> {
        if row < self.offset {
            return None;
        }
        if row >= self.end {
            self.more = true;
            return None;
        }
        let index = (row - self.offset) as usize;
        let column = column as usize;
        let len = self.rows.get(index).map_or(0, Vec::len);
        if column >= len {
            let grow = column + 1 - len;
            if self.cells + grow > MAX_PAGE_CELLS {
                self.end = row;
                self.more = true;
                self.rows.truncate(index);
                return None;
            }
            if self.rows.len() <= index {
                self.rows.resize_with(index + 1, Vec::new);
            }
            self.rows[index].resize_with(column + 1, Cell::default);
            self.cells += grow;
        }
        Some(&mut self.rows[index][column])
    }

    /// Records a value; false once the reader may stop (a used cell past the
    /// page). Empty cells never end a page: styled blank rows may precede data.
    fn value(&mut self, row: u64, column: u32, value: Option<CellValue>) -> bool {
        if value.is_none() {
            return true;
        }
        if let Some(cell) = self.slot(row, column) {
            cell.value = value;
        }
        row < self.end
    }

    fn formula(&mut self, row: u64, column: u32, formula: &str) -> bool {
        if let Some(cell) = self.slot(row, column) {
            cell.formula = Some(formula.to_owned());
        }
        row < self.end
    }

    fn finish(self, sheet: &str) -> RowsPage {
        RowsPage {
            sheet: sheet.to_owned(),
            offset: self.offset,
            next: self.more.then_some(self.end),
            rows: self.rows,
        }
    }
}

fn check_size(bytes: &[u8]) -> Result<()> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(SheetError::TooLarge {
            size: bytes.len() as u64,
            limit: MAX_FILE_BYTES as u64,
        });
    }
    Ok(())
}

/// Refuses a zip whose parts claim to unpack past [`MAX_PART_BYTES`] before a
/// reader inflates them.
pub(crate) fn check_zip(bytes: &[u8]) -> Result<()> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(SheetError::corrupt)?;
    for i in 0..zip.len() {
        let part = zip.by_index_raw(i).map_err(SheetError::corrupt)?;
        if part.size() > MAX_PART_BYTES {
            return Err(SheetError::TooLarge {
                size: part.size(),
                limit: MAX_PART_BYTES,
            });
        }
    }
    Ok(())
}

fn open_xlsx(bytes: &[u8]) -> Result<Xlsx<Cursor<&[u8]>>> {
    check_zip(bytes)?;
    Xlsx::new(Cursor::new(bytes)).map_err(SheetError::corrupt)
}

fn open_ods(bytes: &[u8]) -> Result<Ods<Cursor<&[u8]>>> {
    check_zip(bytes)?;
    Ods::new(Cursor::new(bytes)).map_err(SheetError::corrupt)
}

/// Runs a parser over file bytes, turning a panic inside a third-party reader
/// into a corrupt-file error: a hostile file must never take the server down.
pub(crate) fn guarded<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| {
        Err(SheetError::Corrupt(
            "the file's structure is invalid".into(),
        ))
    })
}

/// An Excel serial date as ISO 8601 text (the 1900 system: day 0 is
/// 1899-12-30); a duration stays a number of days.
fn excel_date(d: &calamine::ExcelDateTime) -> CellValue {
    let serial = d.as_f64();
    if d.is_duration() || !serial.is_finite() || !(0.0..3_000_000.0).contains(&serial) {
        return CellValue::Number(serial);
    }
    let days = serial.floor() as i64;
    let seconds = ((serial - serial.floor()) * 86_400.0).round() as i64;
    let (days, seconds) = if seconds == 86_400 {
        (days + 1, 0)
    } else {
        (days, seconds)
    };
    let time = format!(
        "{:02}:{:02}:{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    );
    if days == 0 {
        return CellValue::Text(time);
    }
    let (y, m, day) = civil_from_days(days - 25_569);
    if seconds == 0 {
        CellValue::Text(format!("{y:04}-{m:02}-{day:02}"))
    } else {
        CellValue::Text(format!("{y:04}-{m:02}-{day:02}T{time}"))
    }
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
/// algorithm).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}
