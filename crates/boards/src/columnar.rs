//! The full-board read in columns: the same board and items as
//! [`crate::full`], with the items turned sideways for clients that load whole
//! boards (the web app's dashboards).
//!
//! The JSON read repeats every field name and every value once per item; on a
//! board of ten thousand items that is most of its bytes and most of the
//! browser's parsing. Here each item field is one array in item order, and
//! each values key one dictionary of its distinct values plus one code per
//! item, so a status shared by three thousand items is written once:
//!
//! ```text
//! {"board": {"id", "workspaceId", "name", "columns", "groups"},
//!  "items": {"count": N, "id": [..], "groupId": {"dict", "codes"}, "name": [..],
//!            "createdAt": STRINGS, "updatedAt": STRINGS,
//!            "values": {"<key>": {"dict": [raw JSON], "codes": [N ints, -1 = absent]}}}}
//! ```
//!
//! A read may ask for fewer item fields ([`ItemFields`]): `count` is always
//! there, the fields left out are not. A dashboard whose widgets never show
//! an item's id or name leaves both out, and on a board of batch-made items
//! they are most of the body.
//!
//! A read may also ask for its codes packed ([`Codes::Base64`]): each list of
//! codes is then one base64 string of little-endian integers, the code plus
//! one, as narrow as the dictionary allows (one byte for under 256 entries).
//! Codes are most of a dashboard's bytes, and as JSON numbers most of the
//! browser's parsing; packed they arrive as one string a column.
//!
//! `STRINGS` is a plain array, or `{"dict", "codes"}` when at most half of
//! the items have a value of their own (batch-created items share their
//! timestamps). The board object is written by the JSON read's own writer, so
//! the two cannot differ; stored values are spliced in as stored, compared by
//! their raw text, never re-serialised.
//!
//! A column is complete only after the last item, so the body is built in
//! memory (it is a fraction of the JSON one) from one snapshot and returned
//! whole with its ETag.

use std::borrow::Cow;

// Hashes every value of every item: foldhash costs a fraction of SipHash, and
// its per-process seed is enough against an account flooding its own board.
use foldhash::HashMap;
use serde::Deserialize;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use store::Db;
use store::rusqlite::{self, types::Type};

use crate::error::Result;
use crate::full::{ITEMS_SQL, board_row, push_str, text, version, write_board};
use crate::model::{FullBoard, packed_code_width};

/// The media type a client names in `Accept` to get this form.
pub const COLUMNAR_MEDIA_TYPE: &str = "application/vnd.switchboard.columns+json";

/// The item fields of the columns form, in the order they are written.
const FIELD_NAMES: [&str; 6] = ["id", "groupId", "name", "createdAt", "updatedAt", "values"];

/// Which item fields a columns-form read carries: every one, or those a
/// client named (`fields=groupId,createdAt,values`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ItemFields(u8);

impl ItemFields {
    pub const ALL: Self = Self((1 << FIELD_NAMES.len()) - 1);

    /// A comma-separated list of field names (`id`, `groupId`, `name`,
    /// `createdAt`, `updatedAt`, `values`), at least one; a name given twice
    /// counts once. The refusal says what was wrong.
    pub fn parse(list: &str) -> Result<Self, String> {
        let mut bits = 0;
        for name in list.split(',').map(str::trim) {
            let Some(at) = FIELD_NAMES.iter().position(|known| *known == name) else {
                return Err(if name.is_empty() {
                    "fields must list item fields separated by commas, none empty".to_owned()
                } else {
                    format!(
                        "fields names {name:?}, which is not an item field (one of {})",
                        FIELD_NAMES.join(", ")
                    )
                });
            };
            bits |= 1 << at;
        }
        Ok(Self(bits))
    }

    fn has(self, name: &str) -> bool {
        FIELD_NAMES
            .iter()
            .position(|known| *known == name)
            .is_some_and(|at| self.0 & (1 << at) != 0)
    }

    /// What the ETag adds for this choice of fields: nothing for all of them,
    /// so the whole form's tag is what it always was.
    fn tag(self) -> String {
        if self == Self::ALL {
            return String::new();
        }
        let names: Vec<&str> = FIELD_NAMES.into_iter().filter(|n| self.has(n)).collect();
        format!(".{}", names.join("+"))
    }
}

/// How a columns-form read writes its lists of codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Codes {
    /// JSON arrays of numbers, `-1` for no value.
    #[default]
    Numbers,
    /// One base64 string per list (see [`crate::model::CodeList::Base64`]).
    Base64,
}

impl Codes {
    /// `numbers` or `base64`; the refusal says what was wrong.
    pub fn parse(name: &str) -> Result<Self, String> {
        match name {
            "numbers" => Ok(Self::Numbers),
            "base64" => Ok(Self::Base64),
            other => Err(format!(
                "codes must be \"numbers\" or \"base64\", not {other:?}"
            )),
        }
    }

    /// What the ETag adds: nothing for numbers, so their tags stay as they were.
    fn tag(self) -> &'static str {
        match self {
            Self::Numbers => "",
            Self::Base64 => ".base64",
        }
    }
}

/// What a columns-form read carries and how: its item fields and its codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ColumnsForm {
    pub fields: ItemFields,
    pub codes: Codes,
}

impl From<ItemFields> for ColumnsForm {
    fn from(fields: ItemFields) -> Self {
        Self {
            fields,
            codes: Codes::Numbers,
        }
    }
}

/// The JSON read's ETag with `.columns` (and the fields chosen) before its
/// closing quote: the same board version, but another representation, so a
/// cache that holds one form never revalidates it with another's tag. No
/// comma: `If-None-Match` separates tags with commas.
fn etag(board_id: &str, version: i64, form: ColumnsForm) -> String {
    let (fields, codes) = (form.fields.tag(), form.codes.tag());
    format!("\"{board_id}.{version}.columns{fields}{codes}\"")
}

/// The columns form's current strong ETag (quotes included), from one indexed
/// lookup: enough to answer `If-None-Match` without building the body.
pub fn columnar_etag(
    db: &Db,
    account_id: &str,
    board_id: &str,
    form: impl Into<ColumnsForm>,
) -> Result<String> {
    let form = form.into();
    db.read(|tx| version(tx, account_id, board_id).map(|v| etag(board_id, v, form)))
}

/// A key of a stored values object: borrowed from the row's text unless it
/// had escapes, so most items cost no key allocation.
#[derive(Deserialize)]
struct Key<'a>(#[serde(borrow)] Cow<'a, str>);

/// A stored values object's entries in key order: the key order, and so the
/// output, depends only on what is stored, never on a hash seed. Collected
/// into one vector (a map would cost a node allocation per key) and sorted.
struct Entries<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'de> Deserialize<'de> for Entries<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Object;
        impl<'de> Visitor<'de> for Object {
            type Value = Entries<'de>;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries<'de>, A::Error> {
                let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(16));
                while let Some((key, value)) = map.next_entry::<Key<'de>, &'de RawValue>()? {
                    entries.push((key.0, value));
                }
                // Stable, so that of a key stored twice the last one stays
                // last, and is the one kept, as `JSON.parse` keeps it.
                entries.sort_by(|a, b| a.0.cmp(&b.0));
                entries.dedup_by(|later, earlier| {
                    let same = later.0 == earlier.0;
                    if same {
                        std::mem::swap(later, earlier);
                    }
                    same
                });
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(Object)
    }
}

/// One string field of the items, kept as distinct strings and a code per
/// item until the end tells whether the dictionary form pays.
#[derive(Default)]
struct Strings {
    codes_of: HashMap<Box<str>, u32>,
    dict: Vec<Box<str>>,
    codes: Vec<u32>,
}

impl Strings {
    fn push(&mut self, s: &str) -> rusqlite::Result<()> {
        // Items come group by group, and a batch's items one after another
        // with one timestamp: most strings are the previous item's.
        if let Some(&last) = self.codes.last()
            && self.dict.get(last as usize).is_some_and(|d| **d == *s)
        {
            self.codes.push(last);
            return Ok(());
        }
        let code = match self.codes_of.get(s) {
            Some(&code) => code,
            None => {
                let code = code_for(self.dict.len())?;
                self.codes_of.insert(s.into(), code);
                self.dict.push(s.into());
                code
            }
        };
        self.codes.push(code);
        Ok(())
    }

    /// `{"dict", "codes"}` when `dict_pays` (or when asked for), else the
    /// plain array of every item's string.
    fn write(&self, out: &mut Vec<u8>, always_dict: bool, codes: Codes) {
        // At most one distinct string for every two items: the codes then
        // cost less than the strings they replace.
        let dict_pays = self.dict.len() * 2 <= self.codes.len();
        if always_dict || dict_pays {
            out.extend_from_slice(b"{\"dict\":[");
            for (i, s) in self.dict.iter().enumerate() {
                comma(out, i);
                push_str(out, s);
            }
            out.extend_from_slice(b"],\"codes\":");
            let each = self.codes.iter().map(|&code| i64::from(code));
            write_codes(out, each, self.dict.len(), codes);
            out.push(b'}');
        } else {
            out.push(b'[');
            for (i, &code) in self.codes.iter().enumerate() {
                comma(out, i);
                // Every code was handed out by `push` as an index of `dict`.
                if let Some(s) = self.dict.get(code as usize) {
                    push_str(out, s);
                }
            }
            out.push(b']');
        }
    }
}

/// One values key: its distinct raw values and each item's code, -1 where
/// the item's values object has no such key.
#[derive(Default)]
struct Values {
    codes_of: HashMap<Box<str>, i32>,
    /// The dictionary's JSON array contents: the raw values, comma-separated.
    dict: Vec<u8>,
    codes: Vec<i32>,
}

impl Values {
    /// The code of `raw`, added to the dictionary if it is new.
    fn code(&mut self, raw: &str) -> rusqlite::Result<i32> {
        if let Some(&code) = self.codes_of.get(raw) {
            return Ok(code);
        }
        let code = code_for(self.codes_of.len())?;
        comma(&mut self.dict, self.codes_of.len());
        self.dict.extend_from_slice(raw.as_bytes());
        self.codes_of.insert(raw.into(), code);
        Ok(code)
    }
}

/// Every values key in first-appearance order, with its column.
#[derive(Default)]
struct ValueColumns {
    position: HashMap<Box<str>, usize>,
    columns: Vec<(Box<str>, Values)>,
    /// The column of the previous item's `n`th key: items mostly have the
    /// same keys, so one string comparison usually finds the column.
    previous: Vec<usize>,
}

impl ValueColumns {
    /// Records item number `item`'s value of `key`, its `nth` key in order.
    fn push(&mut self, item: usize, nth: usize, key: &str, raw: &str) -> rusqlite::Result<()> {
        let hinted = (self.previous.get(nth).copied())
            .filter(|&at| self.columns.get(at).is_some_and(|(k, _)| **k == *key));
        let at = match hinted.or_else(|| self.position.get(key).copied()) {
            Some(at) => at,
            None => {
                let at = self.columns.len();
                self.position.insert(key.into(), at);
                self.columns.push((key.into(), Values::default()));
                at
            }
        };
        self.previous.truncate(nth);
        self.previous.push(at);
        let Some((_, column)) = self.columns.get_mut(at) else {
            return Ok(());
        };
        // The items before this one that had no such key.
        column.codes.resize(item, -1);
        let code = column.code(raw)?;
        column.codes.push(code);
        Ok(())
    }

    fn write(&mut self, out: &mut Vec<u8>, count: usize, codes: Codes) {
        out.push(b'{');
        for (i, (key, column)) in self.columns.iter_mut().enumerate() {
            comma(out, i);
            push_str(out, key);
            out.extend_from_slice(b":{\"dict\":[");
            out.extend_from_slice(&column.dict);
            out.extend_from_slice(b"],\"codes\":");
            // The items after the last one that had the key.
            column.codes.resize(count, -1);
            let each = column.codes.iter().map(|&code| i64::from(code));
            write_codes(out, each, column.codes_of.len(), codes);
            out.push(b'}');
        }
        out.push(b'}');
    }
}

/// Writes a list of codes (`-1` for no value) of a dictionary of `dict_len`
/// entries: a JSON array of numbers, or packed into one base64 string.
pub(crate) fn write_codes(
    out: &mut Vec<u8>,
    each: impl ExactSizeIterator<Item = i64>,
    dict_len: usize,
    codes: Codes,
) {
    match codes {
        Codes::Numbers => {
            out.push(b'[');
            for (i, code) in each.enumerate() {
                comma(out, i);
                push_int(out, code.unsigned_abs(), code < 0);
            }
            out.push(b']');
        }
        Codes::Base64 => {
            use base64::Engine as _;
            let width = packed_code_width(dict_len);
            let mut packed = Vec::with_capacity(each.len() * width);
            for code in each {
                // Codes run from -1 to below the dictionary's length, which
                // `code_for` keeps within 32 bits.
                let shifted = u32::try_from(code + 1).unwrap_or(u32::MAX);
                packed.extend_from_slice(shifted.to_le_bytes().get(..width).unwrap_or_default());
            }
            // Base64 needs no JSON escapes: the text goes between the quotes as it is.
            out.push(b'"');
            let text = base64::engine::general_purpose::STANDARD.encode(&packed);
            out.extend_from_slice(text.as_bytes());
            out.push(b'"');
        }
    }
}

/// A dictionary index as a code (`u32`, or `i32` where -1 marks an absent
/// value); past the code's range it cannot be written as one.
fn code_for<T: TryFrom<usize>>(len: usize) -> rusqlite::Result<T> {
    T::try_from(len).map_err(|_| rusqlite::Error::IntegralValueOutOfRange(0, i64::MAX))
}

/// Writes `,"<name>":` and the field with `write`, when `fields` carries it.
fn write_field(
    out: &mut Vec<u8>,
    fields: ItemFields,
    name: &str,
    write: impl FnOnce(&mut Vec<u8>),
) {
    if fields.has(name) {
        out.push(b',');
        push_str(out, name);
        out.push(b':');
        write(out);
    }
}

pub(crate) fn comma(out: &mut Vec<u8>, index: usize) {
    if index > 0 {
        out.push(b',');
    }
}

/// Appends an integer through serde_json's own integer writer (itoa), as
/// [`push_str`] goes through it for escapes: codes are most of the body's
/// numbers, and it is several times faster than going through `fmt`.
fn push_int(out: &mut Vec<u8>, n: u64, negative: bool) {
    if negative {
        out.push(b'-');
    }
    // Writing to a Vec cannot fail, and an integer always serialises.
    let _ = serde_json::to_writer(&mut *out, &n);
}

/// `GET /boards/<id>/full` in the columns form ([`COLUMNAR_MEDIA_TYPE`]),
/// whole, with its ETag, carrying the item `fields` asked for. Items are in
/// exactly the JSON read's order.
pub fn columnar_board(
    db: &Db,
    account_id: &str,
    board_id: &str,
    form: impl Into<ColumnsForm>,
) -> Result<FullBoard> {
    let ColumnsForm { fields, codes } = form.into();
    db.read(|tx| {
        let board = board_row(tx, account_id, board_id)?;
        let mut out = Vec::with_capacity(64 * 1024);
        out.extend_from_slice(b"{\"board\":");
        // Built in memory: there is nothing to hand on before the end.
        write_board(tx, &mut out, &mut |_| true, board_id, &board)?;

        let [
            with_ids,
            with_groups,
            with_names,
            with_created,
            with_updated,
            with_values,
        ] = FIELD_NAMES.map(|name| fields.has(name));
        let (mut ids, mut names) = (Vec::new(), Vec::new());
        let (mut groups, mut created, mut updated) =
            (Strings::default(), Strings::default(), Strings::default());
        let mut values = ValueColumns::default();
        let mut count = 0;
        let mut stmt = tx.prepare_cached(ITEMS_SQL)?;
        let mut rows = stmt.query([board_id])?;
        while let Some(row) = rows.next()? {
            if with_ids {
                comma(&mut ids, count);
                push_str(&mut ids, text(row, 0)?);
            }
            if with_groups {
                groups.push(text(row, 1)?)?;
            }
            if with_names {
                comma(&mut names, count);
                push_str(&mut names, text(row, 2)?);
            }
            if with_values {
                let Entries(entries) = serde_json::from_str(text(row, 3)?).map_err(|e| {
                    rusqlite::Error::FromSqlConversionFailure(3, Type::Text, Box::new(e))
                })?;
                for (at, (key, raw)) in entries.iter().enumerate() {
                    values.push(count, at, key, raw.get())?;
                }
            }
            if with_created {
                created.push(text(row, 4)?)?;
            }
            if with_updated {
                updated.push(text(row, 5)?)?;
            }
            count += 1;
        }

        out.extend_from_slice(b",\"items\":{\"count\":");
        push_int(&mut out, count as u64, false);
        let list = |out: &mut Vec<u8>, entries: &[u8]| {
            out.push(b'[');
            out.extend_from_slice(entries);
            out.push(b']');
        };
        write_field(&mut out, fields, "id", |out| list(out, &ids));
        write_field(&mut out, fields, "groupId", |out| {
            groups.write(out, true, codes)
        });
        write_field(&mut out, fields, "name", |out| list(out, &names));
        write_field(&mut out, fields, "createdAt", |out| {
            created.write(out, false, codes)
        });
        write_field(&mut out, fields, "updatedAt", |out| {
            updated.write(out, false, codes)
        });
        write_field(&mut out, fields, "values", |out| {
            values.write(out, count, codes)
        });
        out.extend_from_slice(b"}}");
        Ok(FullBoard {
            etag: etag(board_id, board.version, ColumnsForm { fields, codes }),
            body: out,
        })
    })
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::error::BoardsError;
    use crate::model::{ColumnsBoardBody, NewBoard, NewItem};

    /// A board with one group and two stored items whose values text is
    /// planted as given, the way older writers or SQLite's JSON functions may
    /// have left it.
    fn planted(vals: [&str; 2]) -> (tempfile::TempDir, Db, String) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("db.sqlite")).unwrap();
        crate::schema::migrate(&db).unwrap();
        let ws = crate::workspaces::create_workspace(&db, "a", "W").unwrap();
        let board = crate::boards::create_board(
            &db,
            "a",
            &NewBoard {
                workspace_id: ws.id,
                name: "B".into(),
                ..Default::default()
            },
        )
        .unwrap();
        let item = |name: &str| NewItem {
            name: name.into(),
            ..Default::default()
        };
        let ids =
            crate::items::create_items(&db, "a", "t", &board.id, &[item("x"), item("y")]).unwrap();
        db.write(|tx| {
            for (id, vals) in ids.iter().zip(vals) {
                tx.execute("UPDATE items SET vals = ?2 WHERE id = ?1", [id, vals])?;
            }
            Ok::<_, BoardsError>(())
        })
        .unwrap();
        (dir, db, board.id)
    }

    #[test]
    fn stored_values_are_spliced_as_stored_and_keyed_in_first_appearance_order() {
        let (_dir, db, board) = planted([
            r#"{ "z": 1.0 , "gone": "kept", "a": [1,2] }"#,
            r#"{"a":[1,2],"z":1,"new":{"k":"\u00e9"}}"#,
        ]);
        let columns = columnar_board(&db, "a", &board, ItemFields::ALL).unwrap();
        let text = String::from_utf8(columns.body.clone()).unwrap();
        // Raw texts, each key's dictionary in item order, keys sorted within
        // an item and in order of first appearance across items.
        assert!(
            text.contains(
                r#""values":{"a":{"dict":[[1,2]],"codes":[0,0]},"gone":{"dict":["kept"],"codes":[0,-1]},"z":{"dict":[1.0,1],"codes":[0,1]},"new":{"dict":[{"k":"\u00e9"}],"codes":[-1,0]}}"#
            ),
            "{text}"
        );
        let body: ColumnsBoardBody = serde_json::from_slice(&columns.body).unwrap();
        assert_eq!(body.items.count, 2);
        assert_eq!(
            body.items.values.unwrap()["new"].get(1),
            Some(&json!({"k": "é"}))
        );
        // Both items were made in one batch: one timestamp for both.
        assert!(text.contains(r#""createdAt":{"dict":["#), "{text}");
        assert_eq!(
            columns.etag,
            columnar_etag(&db, "a", &board, ItemFields::ALL).unwrap()
        );
        let json = crate::full::full_board(&db, "a", &board).unwrap();
        assert_eq!(columns.etag.replace(".columns", ""), json.etag);
    }

    #[test]
    fn a_key_stored_twice_keeps_its_last_value_as_json_parse_does() {
        let (_dir, db, board) = planted([r#"{"d":1,"b":0,"d":2,"d":3}"#, r#"{"d":1}"#]);
        let body: Value = serde_json::from_slice(
            &columnar_board(&db, "a", &board, ItemFields::ALL)
                .unwrap()
                .body,
        )
        .unwrap();
        assert_eq!(
            body["items"]["values"],
            json!({"b": {"dict": [0], "codes": [0, -1]}, "d": {"dict": [3, 1], "codes": [0, 1]}})
        );
    }

    #[test]
    fn a_corrupt_values_text_is_a_database_error() {
        for bad in [r#"{"a": 1"#, "[1]", "null"] {
            let (_dir, db, board) = planted(["{}", bad]);
            let result = columnar_board(&db, "a", &board, ItemFields::ALL);
            assert!(matches!(result, Err(BoardsError::Database(_))), "{bad}");
        }
    }

    #[test]
    fn an_empty_board_has_empty_columns() {
        let (_dir, db, board) = planted(["{}", "{}"]);
        db.write(|tx| tx.execute("DELETE FROM items", [])).unwrap();
        let body: Value = serde_json::from_slice(
            &columnar_board(&db, "a", &board, ItemFields::ALL)
                .unwrap()
                .body,
        )
        .unwrap();
        assert_eq!(
            body["items"],
            json!({"count": 0, "id": [], "groupId": {"dict": [], "codes": []}, "name": [],
                   "createdAt": {"dict": [], "codes": []}, "updatedAt": {"dict": [], "codes": []},
                   "values": {}})
        );
    }

    #[test]
    fn a_read_of_some_fields_carries_those_under_a_tag_of_its_own() {
        let (_dir, db, board) = planted([r#"{"s":"Done"}"#, r#"{"s":"Stuck"}"#]);
        let fields = ItemFields::parse("values, createdAt,values").unwrap();
        let some = columnar_board(&db, "a", &board, fields).unwrap();
        let body: Value = serde_json::from_slice(&some.body).unwrap();
        let keys: Vec<&str> = body["items"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["count", "createdAt", "values"]);
        let all: Value = serde_json::from_slice(
            &columnar_board(&db, "a", &board, ItemFields::ALL)
                .unwrap()
                .body,
        )
        .unwrap();
        for key in keys {
            assert_eq!(body["items"][key], all["items"][key], "{key}");
        }
        assert_eq!(body["board"], all["board"]);
        assert!(
            some.etag.ends_with(".columns.createdAt+values\""),
            "{}",
            some.etag
        );
        assert_eq!(some.etag, columnar_etag(&db, "a", &board, fields).unwrap());
        assert_eq!(
            ItemFields::parse(&FIELD_NAMES.join(",")),
            Ok(ItemFields::ALL)
        );
    }

    #[test]
    fn a_field_list_names_known_fields_only() {
        for bad in ["", "id,", "id,,name", "ids", "values,Name"] {
            assert!(ItemFields::parse(bad).is_err(), "{bad}");
        }
        let refusal = ItemFields::parse("id,colour").unwrap_err();
        assert!(
            refusal.contains("\"colour\"") && refusal.contains("groupId"),
            "{refusal}"
        );
    }

    #[test]
    fn packed_codes_are_each_code_plus_one_at_the_narrowest_width() {
        for (dict_len, codes, width) in [
            (3, vec![-1, 0, 2], 1),
            (255, vec![254, -1], 1),
            (256, vec![255, 0, -1], 2),
            (65_535, vec![65_534, 7], 2),
            (65_536, vec![65_535, -1, 3], 4),
        ] {
            let mut out = Vec::new();
            write_codes(&mut out, codes.iter().copied(), dict_len, Codes::Base64);
            let text: String = serde_json::from_slice(&out).unwrap();
            use base64::Engine as _;
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(&text)
                .unwrap();
            assert_eq!(bytes.len(), codes.len() * width, "{dict_len}");
            let list = crate::model::CodeList::Base64(text);
            assert_eq!(list.decode(dict_len), Some(codes.clone()), "{dict_len}");
            assert_eq!(list.get(1, dict_len), codes.get(1).copied());
            let mut numbers = Vec::new();
            write_codes(
                &mut numbers,
                codes.iter().copied(),
                dict_len,
                Codes::Numbers,
            );
            let numbers: Vec<i64> = serde_json::from_slice(&numbers).unwrap();
            assert_eq!(numbers, codes);
        }
        // A packed list whose length is not a whole number of codes is none.
        let odd = crate::model::CodeList::Base64("AAAA".to_owned());
        assert_eq!(odd.decode(300), None);
    }

    #[test]
    fn a_read_with_packed_codes_has_a_tag_of_its_own_and_the_same_columns() {
        let (_dir, db, board) = planted([r#"{"s":"Done"}"#, r#"{"t":1}"#]);
        let form = ColumnsForm {
            fields: ItemFields::parse("groupId,values").unwrap(),
            codes: Codes::Base64,
        };
        let packed = columnar_board(&db, "a", &board, form).unwrap();
        assert!(
            packed.etag.ends_with(".columns.groupId+values.base64\""),
            "{}",
            packed.etag
        );
        assert_eq!(packed.etag, columnar_etag(&db, "a", &board, form).unwrap());
        let body: Value = serde_json::from_slice(&packed.body).unwrap();
        // One byte a code: 0 for no value, else the code plus one.
        assert_eq!(
            body["items"]["values"],
            json!({"s": {"dict": ["Done"], "codes": "AQA="}, "t": {"dict": [1], "codes": "AAE="}})
        );
        assert_eq!(body["items"]["groupId"]["codes"], json!("AQE="));
        assert_eq!(Codes::parse("base64"), Ok(Codes::Base64));
        assert_eq!(Codes::parse("numbers"), Ok(Codes::Numbers));
        for bad in ["", "Base64", "bytes"] {
            assert!(Codes::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn integers_are_written_in_full() {
        let mut out = Vec::new();
        for (n, negative) in [(0, false), (1, true), (907, false), (u64::MAX, false)] {
            push_int(&mut out, n, negative);
            out.push(b' ');
        }
        assert_eq!(out, format!("0 -1 907 {} ", u64::MAX).as_bytes());
    }
}
