//! What an item's values are checked against: one board's columns, groups
//! and the account's members, loaded once per write.

use std::collections::{HashMap, HashSet};

use serde_json::Value;
use store::rusqlite::Transaction;

use crate::boards::load_columns;
use crate::columns::{ColumnRule, ColumnType, check_value, label_names};
use crate::error::Result;

/// What the values of one board's items are checked against.
pub(crate) struct BoardRules {
    columns: HashMap<String, ColumnRule>,
    /// The board's group ids in order.
    groups: Vec<String>,
    /// The account's member ids; loaded only when the board has a people column.
    pub(crate) members: HashSet<String>,
}

impl BoardRules {
    pub(crate) fn load(tx: &Transaction<'_>, account_id: &str, board_id: &str) -> Result<Self> {
        let columns: HashMap<String, ColumnRule> = load_columns(tx, board_id)?
            .into_iter()
            .map(|c| {
                let rule = ColumnRule {
                    id: c.id.clone(),
                    kind: c.kind,
                    labels: label_names(&c.settings),
                };
                (c.id, rule)
            })
            .collect();
        let groups = tx
            .prepare_cached("SELECT id FROM board_groups WHERE board_id = ?1 ORDER BY position")?
            .query_map([board_id], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let members = if columns.values().any(|c| c.kind == ColumnType::People) {
            tx.prepare_cached("SELECT id FROM members WHERE account_id = ?1")?
                .query_map([account_id], |r| r.get(0))?
                .collect::<Result<_, _>>()?
        } else {
            HashSet::new()
        };
        Ok(Self {
            columns,
            groups,
            members,
        })
    }

    pub(crate) fn kind_of(&self, column_id: &str) -> Option<ColumnType> {
        self.columns.get(column_id).map(|c| c.kind)
    }

    /// Checks one value; `null` is always accepted (it clears).
    pub(crate) fn check(&self, column_id: &str, value: &Value) -> Result<(), String> {
        let rule = self
            .columns
            .get(column_id)
            .ok_or_else(|| format!("unknown column id \"{column_id}\""))?;
        if value.is_null() {
            return Ok(());
        }
        check_value(rule, value, &self.members)
    }

    /// The group an item goes to: the one named, else the board's first.
    pub(crate) fn group<'a>(&'a self, wanted: Option<&'a str>) -> Result<&'a str, String> {
        match wanted {
            Some(id) if self.groups.iter().any(|g| g == id) => Ok(id),
            Some(id) => Err(format!("unknown group id \"{id}\"")),
            None => self
                .groups
                .first()
                .map(String::as_str)
                .ok_or_else(|| "the board has no group to put items in".to_owned()),
        }
    }
}
