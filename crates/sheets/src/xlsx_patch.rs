//! `.xlsx` edits as byte splices: the sheet XML is scanned once and only the
//! edited `<c>` elements (and the rows or cells an edit adds) are replaced;
//! every other byte of the sheet, and every other part of the zip (copied
//! still compressed), stays as it was, so styles, formulas and features this
//! crate does not know survive an edit.
//!
//! Text is written as an inline string, so the shared-string table is never
//! rewritten. A replaced formula cell makes the calculation chain stale, so
//! `xl/calcChain.xml` is dropped (Excel rebuilds it), and `fullCalcOnLoad` is
//! set where the workbook has a `calcPr`, so formulas reading an edited cell
//! are recomputed when the file is next opened in a spreadsheet program.

use std::collections::BTreeMap;
use std::io::{Cursor, Read, Write};

use quick_xml::escape::escape;
use quick_xml::events::{BytesStart, Event};
use quick_xml::reader::Reader;

use crate::{CellEdit, CellValue, MAX_PART_BYTES, SheetError, column_letters};

type Result<T> = std::result::Result<T, SheetError>;
type Edits = BTreeMap<u32, BTreeMap<u32, Option<CellValue>>>;

const WORKBOOK: &str = "xl/workbook.xml";
const WORKBOOK_RELS: &str = "xl/_rels/workbook.xml.rels";
const CALC_CHAIN: &str = "xl/calcChain.xml";
const CONTENT_TYPES: &str = "[Content_Types].xml";

pub(crate) fn patch(bytes: &[u8], sheet: &str, edits: &[CellEdit]) -> Result<Vec<u8>> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(SheetError::corrupt)?;
    let workbook = read_part(&mut zip, WORKBOOK)?;
    let rels = read_part(&mut zip, WORKBOOK_RELS)?;
    let sheet_path = sheet_part(&workbook, &rels, sheet)?;
    let xml = read_part(&mut zip, &sheet_path)?;

    let mut by_row: Edits = BTreeMap::new();
    for edit in edits {
        by_row
            .entry(edit.row)
            .or_default()
            .insert(edit.column, edit.value.clone());
    }
    let patched = patch_sheet(&xml, by_row)?;

    let mut replaced: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    replaced.insert(sheet_path, patched.xml);
    if patched.replaced_formula {
        replaced.insert(WORKBOOK.into(), full_calc_on_load(&workbook));
        replaced.insert(
            WORKBOOK_RELS.into(),
            remove_element(&rels, b"<Relationship", b"calcChain.xml\""),
        );
        let types = read_part(&mut zip, CONTENT_TYPES)?;
        replaced.insert(
            CONTENT_TYPES.into(),
            remove_element(&types, b"<Override", b"/xl/calcChain.xml\""),
        );
    }

    let mut out = zip::ZipWriter::new(Cursor::new(Vec::with_capacity(bytes.len() + 1024)));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for i in 0..zip.len() {
        let part = zip.by_index_raw(i).map_err(SheetError::corrupt)?;
        let name = part.name().to_owned();
        if patched.replaced_formula && name == CALC_CHAIN {
            continue;
        }
        match replaced.get(&name) {
            Some(body) => {
                drop(part);
                out.start_file(name, options).map_err(SheetError::corrupt)?;
                out.write_all(body).map_err(SheetError::corrupt)?;
            }
            None => out.raw_copy_file(part).map_err(SheetError::corrupt)?,
        }
    }
    let cursor = out.finish().map_err(SheetError::corrupt)?;
    Ok(cursor.into_inner())
}

fn read_part(zip: &mut zip::ZipArchive<Cursor<&[u8]>>, name: &str) -> Result<Vec<u8>> {
    let part = zip
        .by_name(name)
        .map_err(|_| SheetError::Corrupt(format!("the workbook has no {name}")))?;
    if part.size() > MAX_PART_BYTES {
        return Err(SheetError::TooLarge {
            size: part.size(),
            limit: MAX_PART_BYTES,
        });
    }
    let mut body = Vec::with_capacity(part.size() as usize);
    part.take(MAX_PART_BYTES)
        .read_to_end(&mut body)
        .map_err(SheetError::corrupt)?;
    Ok(body)
}

/// The zip path of a sheet's XML: its `r:id` in the workbook, resolved
/// through the workbook's relationships.
fn sheet_part(workbook: &[u8], rels: &[u8], sheet: &str) -> Result<String> {
    let mut rel_id = None;
    let mut reader = Reader::from_reader(workbook);
    loop {
        match reader.read_event().map_err(SheetError::corrupt)? {
            Event::Empty(e) | Event::Start(e) if e.local_name().as_ref() == b"sheet" => {
                let name = attr(&e, b"name")?;
                if name.as_deref() == Some(sheet) {
                    rel_id = attr_where(&e, |key| key.ends_with(b":id"))?;
                    break;
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let rel_id = rel_id.ok_or_else(|| SheetError::SheetNotFound(sheet.into()))?;
    let mut reader = Reader::from_reader(rels);
    loop {
        match reader.read_event().map_err(SheetError::corrupt)? {
            Event::Empty(e) | Event::Start(e)
                if e.local_name().as_ref() == b"Relationship"
                    && attr(&e, b"Id")?.as_deref() == Some(rel_id.as_str()) =>
            {
                let target = attr(&e, b"Target")?
                    .ok_or_else(|| SheetError::Corrupt("a relationship has no target".into()))?;
                return Ok(match target.strip_prefix('/') {
                    Some(absolute) => absolute.to_owned(),
                    None => format!("xl/{target}"),
                });
            }
            Event::Eof => {
                return Err(SheetError::Corrupt(format!(
                    "sheet {sheet:?} has no part in the workbook"
                )));
            }
            _ => {}
        }
    }
}

fn attr(e: &BytesStart, key: &[u8]) -> Result<Option<String>> {
    attr_where(e, |k| k == key)
}

fn attr_where(e: &BytesStart, pick: impl Fn(&[u8]) -> bool) -> Result<Option<String>> {
    for a in e.attributes() {
        let a = a.map_err(SheetError::corrupt)?;
        if pick(a.key.as_ref()) {
            let value = a
                .decode_and_unescape_value(e.decoder())
                .map_err(SheetError::corrupt)?;
            return Ok(Some(value.into_owned()));
        }
    }
    Ok(None)
}

fn raw_attr(e: &BytesStart, key: &[u8]) -> Option<Vec<u8>> {
    e.attributes()
        .flatten()
        .find(|a| a.key.as_ref() == key)
        .map(|a| a.value.into_owned())
}

struct Patched {
    xml: Vec<u8>,
    replaced_formula: bool,
}

/// Copies `xml` to `out` in spans, splicing replacements in.
struct Splicer<'a> {
    xml: &'a [u8],
    out: Vec<u8>,
    copied: usize,
}

impl Splicer<'_> {
    fn splice(&mut self, start: usize, end: usize, with: &[u8]) {
        self.out.extend_from_slice(&self.xml[self.copied..start]);
        self.out.extend_from_slice(with);
        self.copied = end;
    }
}

fn patch_sheet(xml: &[u8], mut edits: Edits) -> Result<Patched> {
    let (max_row, max_col) = edits.iter().fold((0, 0), |(r, c), (row, cols)| {
        let col = cols.keys().next_back().copied().unwrap_or(0);
        (r.max(*row), c.max(col))
    });
    let mut reader = Reader::from_reader(xml);
    let mut s = Splicer {
        xml,
        out: Vec::with_capacity(xml.len() + 256),
        copied: 0,
    };
    let mut prefix = Vec::new();
    let mut in_data = false;
    let mut done = false;
    let mut replaced_formula = false;
    let mut next_row = 0u32;
    let mut row: Option<(u32, BTreeMap<u32, Option<CellValue>>)> = None;
    let mut next_col = 0u32;
    loop {
        let start = reader.buffer_position() as usize;
        let event = reader.read_event().map_err(SheetError::corrupt)?;
        let end = reader.buffer_position() as usize;
        match event {
            Event::Eof => break,
            Event::Empty(e) if e.local_name().as_ref() == b"dimension" => {
                if let Some(area) = raw_attr(&e, b"ref") {
                    let grown = grow_dimension(&area, max_row, max_col);
                    if grown != area {
                        let mut tag = b"<".to_vec();
                        tag.extend_from_slice(e.name().as_ref());
                        tag.extend_from_slice(b" ref=\"");
                        tag.extend_from_slice(&grown);
                        tag.extend_from_slice(b"\"/>");
                        s.splice(start, end, &tag);
                    }
                }
            }
            Event::Empty(e) if e.local_name().as_ref() == b"sheetData" => {
                prefix = prefix_of(e.name().as_ref());
                let mut body = open(&prefix, b"sheetData");
                body.extend(rows_xml(&prefix, std::mem::take(&mut edits)));
                body.extend(close(&prefix, b"sheetData"));
                s.splice(start, end, &body);
                done = true;
            }
            Event::Start(e) if e.local_name().as_ref() == b"sheetData" => {
                prefix = prefix_of(e.name().as_ref());
                in_data = true;
            }
            Event::End(e) if in_data && e.local_name().as_ref() == b"sheetData" => {
                let rest = rows_xml(&prefix, std::mem::take(&mut edits));
                s.splice(start, start, &rest);
                in_data = false;
                done = true;
            }
            Event::Start(e) | Event::Empty(e) if in_data && e.local_name().as_ref() == b"row" => {
                let index = match raw_attr(&e, b"r") {
                    Some(r) => parse_u32(&r)?
                        .checked_sub(1)
                        .ok_or_else(|| SheetError::Corrupt("row number 0".into()))?,
                    None => next_row,
                };
                next_row = index.saturating_add(1);
                next_col = 0;
                let before = edits.split_off(&index);
                let earlier = std::mem::replace(&mut edits, before);
                s.splice(start, start, &rows_xml(&prefix, earlier));
                let cells = edits.remove(&index).unwrap_or_default();
                if end > start && xml[end - 2] == b'/' && !cells.is_empty() {
                    // `<row …/>`: reopened so the edited cells fit inside.
                    let mut body = xml[start..end - 2].to_vec();
                    body.push(b'>');
                    body.extend(cells_xml(&prefix, index, &cells));
                    body.extend(close(&prefix, b"row"));
                    s.splice(start, end, &body);
                } else if xml[end - 2] != b'/' {
                    row = Some((index, cells));
                }
            }
            Event::End(e) if e.local_name().as_ref() == b"row" => {
                if let Some((index, cells)) = row.take() {
                    s.splice(start, start, &cells_xml(&prefix, index, &cells));
                }
            }
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == b"c" => {
                let Some((index, cells)) = row.as_mut() else {
                    continue;
                };
                let column = match raw_attr(&e, b"r") {
                    Some(r) => parse_ref(&r)?.1,
                    None => next_col,
                };
                next_col = column.saturating_add(1);
                let later = cells.split_off(&column);
                let earlier = std::mem::replace(cells, later);
                s.splice(start, start, &cells_xml(&prefix, *index, &earlier));
                let Some(value) = cells.remove(&column) else {
                    continue;
                };
                let mut end = end;
                if xml[end - 2] != b'/' {
                    loop {
                        match reader.read_event().map_err(SheetError::corrupt)? {
                            Event::End(c) if c.local_name().as_ref() == b"c" => break,
                            Event::Start(f) | Event::Empty(f)
                                if f.local_name().as_ref() == b"f" =>
                            {
                                replaced_formula = true;
                            }
                            Event::Eof => {
                                return Err(SheetError::Corrupt("a cell is not closed".into()));
                            }
                            _ => {}
                        }
                    }
                    end = reader.buffer_position() as usize;
                }
                let style = raw_attr(&e, b"s");
                s.splice(
                    start,
                    end,
                    &cell_xml(&prefix, *index, column, style.as_deref(), &value),
                );
            }
            _ => {}
        }
    }
    if !done {
        return Err(SheetError::Corrupt("the sheet has no sheetData".into()));
    }
    let copied = s.copied;
    s.out.extend_from_slice(&xml[copied..]);
    Ok(Patched {
        xml: s.out,
        replaced_formula,
    })
}

fn prefix_of(name: &[u8]) -> Vec<u8> {
    match name.iter().position(|b| *b == b':') {
        Some(i) => name[..=i].to_vec(),
        None => Vec::new(),
    }
}

fn open(prefix: &[u8], name: &[u8]) -> Vec<u8> {
    [b"<", prefix, name, b">"].concat()
}

fn close(prefix: &[u8], name: &[u8]) -> Vec<u8> {
    [b"</", prefix, name, b">"].concat()
}

fn rows_xml(prefix: &[u8], rows: Edits) -> Vec<u8> {
    let mut out = Vec::new();
    for (index, cells) in rows {
        out.extend_from_slice(b"<");
        out.extend_from_slice(prefix);
        out.extend_from_slice(format!("row r=\"{}\">", u64::from(index) + 1).as_bytes());
        out.extend(cells_xml(prefix, index, &cells));
        out.extend(close(prefix, b"row"));
    }
    out
}

fn cells_xml(prefix: &[u8], row: u32, cells: &BTreeMap<u32, Option<CellValue>>) -> Vec<u8> {
    let mut out = Vec::new();
    for (column, value) in cells {
        out.extend(cell_xml(prefix, row, *column, None, value));
    }
    out
}

/// One cell: a number as `<v>`, text as an inline string, a boolean as
/// `t="b"`, a cleared cell as an empty element that keeps its style.
fn cell_xml(
    prefix: &[u8],
    row: u32,
    column: u32,
    style: Option<&[u8]>,
    value: &Option<CellValue>,
) -> Vec<u8> {
    let reference = format!("{}{}", column_letters(column), u64::from(row) + 1);
    let mut out = b"<".to_vec();
    out.extend_from_slice(prefix);
    out.extend_from_slice(format!("c r=\"{reference}\"").as_bytes());
    if let Some(style) = style {
        out.extend_from_slice(b" s=\"");
        out.extend_from_slice(style);
        out.push(b'"');
    }
    let (kind, body) = match value {
        None => {
            out.extend_from_slice(b"/>");
            return out;
        }
        Some(CellValue::Number(n)) => ("", format!("<{p}v>{n}</{p}v>", p = p(prefix))),
        Some(CellValue::Bool(b)) => (
            " t=\"b\"",
            format!("<{p}v>{}</{p}v>", u8::from(*b), p = p(prefix)),
        ),
        Some(CellValue::Text(text)) => {
            let clean: String = text
                .chars()
                .filter(|c| !c.is_control() || matches!(c, '\t' | '\n' | '\r'))
                .collect();
            (
                " t=\"inlineStr\"",
                format!(
                    "<{p}is><{p}t xml:space=\"preserve\">{}</{p}t></{p}is>",
                    escape(clean.as_str()),
                    p = p(prefix)
                ),
            )
        }
    };
    out.extend_from_slice(kind.as_bytes());
    out.push(b'>');
    out.extend_from_slice(body.as_bytes());
    out.extend(close(prefix, b"c"));
    out
}

fn p(prefix: &[u8]) -> String {
    String::from_utf8_lossy(prefix).into_owned()
}

fn parse_u32(raw: &[u8]) -> Result<u32> {
    std::str::from_utf8(raw)
        .ok()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| SheetError::Corrupt("a row number is not a number".into()))
}

/// `B12` → (row 11, column 1).
fn parse_ref(raw: &[u8]) -> Result<(u32, u32)> {
    let bad = || SheetError::Corrupt("a cell reference is invalid".into());
    let split = raw.iter().position(u8::is_ascii_digit).ok_or_else(bad)?;
    let (letters, digits) = raw.split_at(split);
    if letters.is_empty() || letters.len() > 3 {
        return Err(bad());
    }
    let mut column = 0u32;
    for b in letters {
        if !b.is_ascii_alphabetic() {
            return Err(bad());
        }
        column = column * 26 + u32::from(b.to_ascii_uppercase() - b'A') + 1;
    }
    let row = parse_u32(digits)?.checked_sub(1).ok_or_else(bad)?;
    Ok((row, column - 1))
}

/// A `ref="A1:C10"` grown to hold the edited cells.
fn grow_dimension(area: &[u8], max_row: u32, max_col: u32) -> Vec<u8> {
    let (first, last) = match area.iter().position(|b| *b == b':') {
        Some(i) => (&area[..i], &area[i + 1..]),
        None => (area, area),
    };
    let Ok((row, col)) = parse_ref(last) else {
        return area.to_vec();
    };
    if row >= max_row && col >= max_col {
        return area.to_vec();
    }
    let mut out = first.to_vec();
    out.push(b':');
    out.extend_from_slice(
        format!(
            "{}{}",
            column_letters(col.max(max_col)),
            u64::from(row.max(max_row)) + 1
        )
        .as_bytes(),
    );
    out
}

/// The workbook with `fullCalcOnLoad="1"` on its `calcPr`, when it has one.
fn full_calc_on_load(workbook: &[u8]) -> Vec<u8> {
    let Some(at) = find(workbook, b"<calcPr") else {
        return workbook.to_vec();
    };
    let tag_end = find(&workbook[at..], b">").map_or(workbook.len(), |e| at + e);
    if find(&workbook[at..tag_end], b"fullCalcOnLoad").is_some() {
        return workbook.to_vec();
    }
    let insert = at + b"<calcPr".len();
    [
        &workbook[..insert],
        b" fullCalcOnLoad=\"1\"",
        &workbook[insert..],
    ]
    .concat()
}

/// The XML without the first empty element that opens with `open` and
/// contains `marker` (the calculation chain's relationship or content type).
fn remove_element(xml: &[u8], open: &[u8], marker: &[u8]) -> Vec<u8> {
    let Some(hit) = find(xml, marker) else {
        return xml.to_vec();
    };
    let Some(start) = rfind(&xml[..hit], open) else {
        return xml.to_vec();
    };
    let Some(len) = find(&xml[hit..], b"/>") else {
        return xml.to_vec();
    };
    [&xml[..start], &xml[hit + len + 2..]].concat()
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}
