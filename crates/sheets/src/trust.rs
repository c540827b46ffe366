//! The `trustedSheets` rules: which spreadsheets may be edited and which of
//! their columns. Everything not listed is read-only, so an agent told to
//! "update the status column" cannot touch any other cell.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{CellEdit, SheetError, column_letters};

/// One entry of the setting: `spreadsheetId` is `<drive id>:<path>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrustedSheet {
    pub spreadsheet_id: String,
    #[serde(default)]
    pub label: String,
    /// 0-based column indexes.
    #[serde(default)]
    pub editable_columns: Vec<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_view: Option<Value>,
}

/// The setting's value, read once per request.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TrustedSheets(pub Vec<TrustedSheet>);

/// The spreadsheet id the setting names a file by.
pub fn spreadsheet_id(drive_id: &str, path: &str) -> String {
    format!("{drive_id}:{path}")
}

impl TrustedSheets {
    /// Reads the setting's JSON. An entry that does not have the shape is
    /// skipped rather than failing every sheet: a typo in one entry then
    /// leaves that one read-only, never another one editable.
    pub fn parse(value: &Value) -> Self {
        let entries = value.as_array().map(Vec::as_slice).unwrap_or_default();
        Self(
            entries
                .iter()
                .filter_map(|e| serde_json::from_value(e.clone()).ok())
                .collect(),
        )
    }

    /// The entry for a spreadsheet; paths compare with and without a leading
    /// `/`, since users write both.
    pub fn find(&self, spreadsheet_id: &str) -> Option<&TrustedSheet> {
        let norm = |id: &str| -> String {
            match id.split_once(':') {
                Some((drive, path)) => format!("{drive}:/{}", path.trim_start_matches('/')),
                None => id.to_owned(),
            }
        };
        let wanted = norm(spreadsheet_id);
        self.0.iter().find(|t| norm(&t.spreadsheet_id) == wanted)
    }

    /// The editable columns of a spreadsheet (empty when it is not trusted).
    pub fn editable_columns(&self, spreadsheet_id: &str) -> Vec<u32> {
        self.find(spreadsheet_id)
            .map(|t| t.editable_columns.clone())
            .unwrap_or_default()
    }

    /// Checks a batch of edits: the spreadsheet must be listed and every
    /// edited column editable; the first refused column is named.
    pub fn check(&self, spreadsheet_id: &str, edits: &[CellEdit]) -> Result<(), SheetError> {
        let trusted = self
            .find(spreadsheet_id)
            .ok_or_else(|| SheetError::Untrusted(spreadsheet_id.to_owned()))?;
        match edits
            .iter()
            .find(|e| !trusted.editable_columns.contains(&e.column))
        {
            Some(edit) => Err(SheetError::ColumnNotEditable {
                column: edit.column,
                letters: column_letters(edit.column),
            }),
            None => Ok(()),
        }
    }
}
