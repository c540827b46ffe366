//! Wire types: what the module takes and returns, serialised as in the contract (camelCase).

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::columns::ColumnType;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Workspace {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Member {
    pub id: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// The account's own member, made with the account: who "assigned to
    /// me" means. One per account; it cannot be deleted.
    #[serde(rename = "self", default)]
    pub is_self: bool,
}

#[derive(Debug, Clone, Default, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct NewMember {
    pub name: String,
    #[serde(default)]
    pub email: Option<String>,
}

/// A partial update; `email: Some(None)` (JSON `null`) removes the address.
#[derive(Debug, Clone, Default, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct MemberPatch {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "present")]
    pub email: Option<Option<String>>,
}

/// Tells a field given as `null` (`Some(None)`) from an absent one (`None`).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Column {
    pub id: String,
    pub title: String,
    #[serde(rename = "type")]
    pub kind: ColumnType,
    /// Always an object, `{}` for a column without settings.
    pub settings: Value,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Group {
    pub id: String,
    pub title: String,
}

/// A saved way of looking at a board, named by the preset it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct View {
    pub name: String,
    /// table, kanban, calendar, timeline, gantt, chart, form, gallery or workload.
    pub kind: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Board {
    pub id: String,
    pub workspace_id: String,
    pub name: String,
    pub columns: Vec<Column>,
    pub groups: Vec<Group>,
    pub views: Vec<View>,
    pub created_at: String,
    pub updated_at: String,
}

/// A column as a client defines it: the id is kept when given, else generated;
/// `type` stays a string so that an unknown one is refused with our message.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct NewColumn {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub title: String,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<Value>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct NewGroup {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub title: String,
}

/// `POST /boards`. A preset's columns, groups and views come first; columns and
/// groups given here are added after them. Without any group the board gets one.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct NewBoard {
    pub workspace_id: String,
    pub name: String,
    #[serde(default)]
    pub columns: Vec<NewColumn>,
    #[serde(default)]
    pub groups: Vec<NewGroup>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Item {
    pub id: String,
    pub board_id: String,
    pub group_id: String,
    pub name: String,
    pub values: Map<String, Value>,
    pub created_at: String,
    pub updated_at: String,
}

/// `groupId` may be left out: the item goes to the board's first group.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct NewItem {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_id: Option<String>,
    pub name: String,
    #[serde(default)]
    pub values: Map<String, Value>,
}

/// A partial update: absent fields stay; in `values`, a `null` clears that
/// column and columns not named stay as they were.
#[derive(Debug, Clone, Default, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct ItemPatch {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub group_id: Option<String>,
    #[serde(default)]
    pub values: Option<Map<String, Value>>,
}

/// The full-board read: `body` is the contract's JSON, `etag` a strong ETag
/// (quotes included) that changes with every change to the board.
#[derive(Debug, Clone, PartialEq)]
pub struct FullBoard {
    pub etag: String,
    pub body: Vec<u8>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// A people value gained `memberId` (on creation too).
    Assigned,
    /// A status value of an existing item changed.
    StatusChanged,
    /// A date value went from empty to a date.
    DueDateSet,
    /// A date value went from one date to another.
    DueDateChanged,
    /// The item moved into another group (`before` and `after` are group ids).
    GroupChanged,
}

impl EventKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Assigned => "assigned",
            Self::StatusChanged => "status_changed",
            Self::DueDateSet => "due_date_set",
            Self::DueDateChanged => "due_date_changed",
            Self::GroupChanged => "group_changed",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<Self> {
        [
            Self::Assigned,
            Self::StatusChanged,
            Self::DueDateSet,
            Self::DueDateChanged,
            Self::GroupChanged,
        ]
        .into_iter()
        .find(|k| k.as_str() == s)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ItemEvent {
    pub seq: i64,
    pub board_id: String,
    pub item_id: String,
    pub actor: String,
    pub kind: EventKind,
    pub column_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub member_id: Option<String>,
    pub before: Value,
    pub after: Value,
    pub created_at: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportReport {
    pub board: Board,
    pub items: u64,
    /// Member ids found in people values that the account does not know; they
    /// were left out of the imported values.
    pub dropped_members: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InferredColumn {
    pub title: String,
    pub id: String,
    #[serde(rename = "type")]
    pub kind: ColumnType,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CsvImportReport {
    pub board: Board,
    pub rows: u64,
    /// The CSV column that became the item names.
    pub name_column: String,
    /// The CSV column whose values became the groups, if one is titled "Group".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_column: Option<String>,
    /// Every other CSV column, with the type inferred for it.
    pub columns: Vec<InferredColumn>,
}

/// The shape of [`FullBoard::body`], which is streamed as bytes and never
/// built from these types: they exist so that the TypeScript client is
/// generated from the same description a test checks the body against.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FullBoardBody {
    pub board: FullBoardHeader,
    pub items: Vec<FullItem>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FullBoardHeader {
    pub id: String,
    pub workspace_id: String,
    pub name: String,
    pub columns: Vec<Column>,
    pub groups: Vec<Group>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FullItem {
    pub id: String,
    pub group_id: String,
    pub name: String,
    pub values: Map<String, Value>,
    pub created_at: String,
    pub updated_at: String,
}

/// The shape of the full-board read's columns form
/// (`application/vnd.switchboard.columns+json`), which is written as bytes
/// like [`FullBoardBody`]; these types describe it for the TypeScript client
/// and the tests that decode it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ColumnsBoardBody {
    /// Exactly the JSON read's `board`.
    pub board: FullBoardHeader,
    pub items: ItemColumns,
}

/// The items of the full read turned sideways: entry `i` of every column is
/// item `i`, in the JSON read's item order. Every field is there unless the
/// read asked for some (`fields`): then only those are.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields)]
pub struct ItemColumns {
    pub count: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<StringColumn>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_id: Option<StringColumn>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<StringColumn>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<StringColumn>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<StringColumn>,
    /// One column per key found in any item's `values`; on the wire the keys
    /// come in first-appearance order (items in order, each item's keys sorted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<BTreeMap<String, ValueColumn>>,
}

/// `count` strings: written out, or as distinct strings plus each item's
/// index into them (`dict[codes[i]]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(untagged)]
pub enum StringColumn {
    Plain(Vec<String>),
    Dict { dict: Vec<String>, codes: CodeList },
}

impl StringColumn {
    /// Item `i`'s string; `None` past the end or for a code outside `dict`.
    pub fn get(&self, i: usize) -> Option<&str> {
        match self {
            Self::Plain(strings) => strings.get(i),
            Self::Dict { dict, codes } => {
                dict.get(usize::try_from(codes.get(i, dict.len())?).ok()?)
            }
        }
        .map(String::as_str)
    }
}

/// A column's codes, one per item: `-1` where the item has no value, else
/// its index into the column's `dict`. Written as JSON numbers, or packed
/// when the read asks for `codes=base64`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(untagged)]
pub enum CodeList {
    Numbers(Vec<i32>),
    /// Standard base64 (RFC 4648, padded) of one little-endian unsigned
    /// integer per item: its code plus one, so 0 where it has no value. Each
    /// is 1 byte wide when the dictionary has fewer than 256 entries, 2 when
    /// fewer than 65,536, else 4.
    Base64(String),
}

impl CodeList {
    /// Every item's code (`-1` for no value) in a column of `dict_len`
    /// entries; `None` for a packed list that is not one.
    pub fn decode(&self, dict_len: usize) -> Option<Vec<i64>> {
        match self {
            Self::Numbers(codes) => Some(codes.iter().map(|&code| i64::from(code)).collect()),
            Self::Base64(text) => {
                use base64::Engine as _;
                let bytes = base64::engine::general_purpose::STANDARD
                    .decode(text)
                    .ok()?;
                let width = packed_code_width(dict_len);
                if bytes.len() % width != 0 {
                    return None;
                }
                let code = |le: &[u8]| {
                    let mut wide = [0u8; 4];
                    wide.get_mut(..le.len())?.copy_from_slice(le);
                    Some(i64::from(u32::from_le_bytes(wide)) - 1)
                };
                bytes.chunks(width).map(code).collect()
            }
        }
    }

    /// Item `i`'s code (`-1` for no value) in a column of `dict_len`
    /// entries; `None` past the end, or in a packed list that is not one.
    /// A packed list is decoded whole on every call: to read all its items,
    /// [`Self::decode`] it once.
    pub fn get(&self, i: usize, dict_len: usize) -> Option<i64> {
        match self {
            Self::Numbers(codes) => codes.get(i).map(|&code| i64::from(code)),
            Self::Base64(_) => self.decode(dict_len)?.get(i).copied(),
        }
    }
}

/// How many bytes each packed code of a column of `dict_len` entries takes:
/// the fewest that hold every code plus one.
pub(crate) fn packed_code_width(dict_len: usize) -> usize {
    if dict_len < 1 << 8 {
        1
    } else if dict_len < 1 << 16 {
        2
    } else {
        4
    }
}

/// One values key: its distinct values (as stored) and each item's index into
/// them, `-1` where the item's `values` has no such key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ValueColumn {
    pub dict: Vec<Value>,
    pub codes: CodeList,
}

impl ValueColumn {
    /// Item `i`'s value; `None` when it has none (or past the end).
    pub fn get(&self, i: usize) -> Option<&Value> {
        let code = usize::try_from(self.codes.get(i, self.dict.len())?).ok()?;
        self.dict.get(code)
    }
}
