//! The dashboard config: the checks it must pass, and the strings it mentions.
//!
//! Checked: `config` is an object; `boardIds` (if present) an array of unique
//! strings; `widgets` (if present) an array of objects, each with a unique
//! non-empty string `id`, a known `type` and a `layout` of four non-negative
//! integers `x`, `y`, `w`, `h` (`w` and `h` at least 1); `filters` (if present)
//! an object whose `people` is an array of strings and whose `rules` are
//! `{column, op, value?}` with a known op; and every column reference, in the
//! widget settings that hold one and in the rules, is a non-empty column id or
//! an object mapping board ids to non-empty column ids. Nothing else is looked
//! at: the rest belongs to the client and is stored as given.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::error::{Result, invalid};

pub const WIDGET_TYPES: &[&str] = &[
    "numbers",
    "chart",
    "velocity",
    "plannedVsUnplanned",
    "burndown",
    "battery",
    "table",
    "apps",
];

pub const FILTER_OPS: &[&str] = &[
    "is",
    "is_not",
    "contains",
    "gt",
    "gte",
    "lt",
    "lte",
    "is_empty",
    "is_not_empty",
];

/// Widget settings that hold one column reference (`null` leaves them unset).
const REFERENCE_SETTINGS: &[&str] = &[
    "column",
    "groupBy",
    "sprintColumn",
    "effortColumn",
    "doneColumn",
    "dateColumn",
];

/// Widget settings that hold an array of column references.
const REFERENCE_LIST_SETTINGS: &[&str] = &["columns"];

const LAYOUT: [(&str, u64); 4] = [("x", 0), ("y", 0), ("w", 1), ("h", 1)];

/// Checks `config` and returns its board ids, in order.
pub fn check(config: &Value) -> Result<Vec<&str>> {
    let config = config
        .as_object()
        .ok_or_else(|| invalid("config must be a JSON object"))?;
    let board_ids = match config.get("boardIds") {
        None => Vec::new(),
        Some(ids) => unique_strings(ids, "config.boardIds", "a board id")?,
    };
    if let Some(widgets) = config.get("widgets") {
        check_widgets(widgets)?;
    }
    if let Some(filters) = config.get("filters") {
        check_filters(filters)?;
    }
    Ok(board_ids)
}

fn unique_strings<'a>(value: &'a Value, field: &str, what: &str) -> Result<Vec<&'a str>> {
    let array = value
        .as_array()
        .ok_or_else(|| invalid(format!("{field} must be an array of strings")))?;
    let mut seen = HashSet::new();
    array
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let s = v
                .as_str()
                .ok_or_else(|| invalid(format!("{field}[{i}] must be {what} (a string)")))?;
            if !seen.insert(s) {
                return Err(invalid(format!("{field}[{i}] repeats \"{s}\"")));
            }
            Ok(s)
        })
        .collect()
}

fn check_widgets(widgets: &Value) -> Result<()> {
    let widgets = widgets
        .as_array()
        .ok_or_else(|| invalid("config.widgets must be an array"))?;
    let mut ids = HashSet::new();
    for (i, widget) in widgets.iter().enumerate() {
        let widget = widget
            .as_object()
            .ok_or_else(|| invalid(format!("widgets[{i}] must be an object")))?;
        let id = match widget.get("id").and_then(Value::as_str) {
            Some(id) if !id.is_empty() => id,
            _ => {
                return Err(invalid(format!(
                    "widgets[{i}].id must be a non-empty string"
                )));
            }
        };
        if !ids.insert(id) {
            return Err(invalid(format!(
                "widgets[{i}].id \"{id}\" is already the id of another widget"
            )));
        }
        one_of(widget.get("type"), WIDGET_TYPES, || {
            format!("widgets[{i}].type")
        })?;
        check_layout(i, widget.get("layout"))?;
        if let Some(settings) = widget.get("settings").and_then(Value::as_object) {
            check_settings(i, settings)?;
        }
    }
    Ok(())
}

fn one_of(value: Option<&Value>, allowed: &[&str], field: impl Fn() -> String) -> Result<()> {
    match value.and_then(Value::as_str) {
        Some(s) if allowed.contains(&s) => Ok(()),
        _ => Err(invalid(format!(
            "{} must be one of {}",
            field(),
            allowed.join(", ")
        ))),
    }
}

fn check_layout(i: usize, layout: Option<&Value>) -> Result<()> {
    let layout = layout.and_then(Value::as_object).ok_or_else(|| {
        invalid(format!(
            "widgets[{i}].layout must be an object {{\"x\", \"y\", \"w\", \"h\"}}"
        ))
    })?;
    for (key, min) in LAYOUT {
        // `as_u64` is None for negative numbers and for any float, even 2.0.
        match layout.get(key).and_then(Value::as_u64) {
            Some(n) if n >= min => {}
            _ => {
                return Err(invalid(format!(
                    "widgets[{i}].layout.{key} must be an integer of at least {min}"
                )));
            }
        }
    }
    Ok(())
}

fn check_settings(i: usize, settings: &Map<String, Value>) -> Result<()> {
    for key in REFERENCE_SETTINGS {
        match settings.get(*key) {
            None | Some(Value::Null) => {}
            Some(reference) => {
                check_reference(reference, || format!("widgets[{i}].settings.{key}"))?
            }
        }
    }
    for key in REFERENCE_LIST_SETTINGS {
        match settings.get(*key) {
            None | Some(Value::Null) => {}
            Some(Value::Array(references)) => {
                for (j, reference) in references.iter().enumerate() {
                    check_reference(reference, || format!("widgets[{i}].settings.{key}[{j}]"))?;
                }
            }
            Some(_) => {
                return Err(invalid(format!(
                    "widgets[{i}].settings.{key} must be an array of column references"
                )));
            }
        }
    }
    Ok(())
}

/// A column id, or `{"<boardId>": "<columnId>"}` naming it board by board.
fn check_reference(reference: &Value, field: impl Fn() -> String) -> Result<()> {
    let well_formed = match reference {
        Value::String(id) => !id.is_empty(),
        Value::Object(by_board) => by_board.iter().all(|(board, column)| {
            !board.is_empty() && column.as_str().is_some_and(|c| !c.is_empty())
        }),
        _ => false,
    };
    if well_formed {
        Ok(())
    } else {
        Err(invalid(format!(
            "{} must be a column id or an object mapping board ids to column ids",
            field()
        )))
    }
}

fn check_filters(filters: &Value) -> Result<()> {
    let filters = filters
        .as_object()
        .ok_or_else(|| invalid("config.filters must be an object"))?;
    if let Some(people) = filters.get("people") {
        unique_strings(people, "filters.people", "a member id")?;
    }
    let Some(rules) = filters.get("rules") else {
        return Ok(());
    };
    let rules = rules
        .as_array()
        .ok_or_else(|| invalid("filters.rules must be an array"))?;
    for (i, rule) in rules.iter().enumerate() {
        let rule = rule.as_object().ok_or_else(|| {
            invalid(format!(
                "filters.rules[{i}] must be an object {{\"column\", \"op\", \"value\"}}"
            ))
        })?;
        check_reference(rule.get("column").unwrap_or(&Value::Null), || {
            format!("filters.rules[{i}].column")
        })?;
        one_of(rule.get("op"), FILTER_OPS, || {
            format!("filters.rules[{i}].op")
        })?;
    }
    Ok(())
}

/// Every string value anywhere in the config's widgets and filters (object
/// keys excluded). The public read keeps a column exactly when its id is one
/// of them: that covers plain column ids, the column ids of per-board
/// references and any setting a client adds later, at the price of keeping a
/// column whose id happens to equal some other string (a title, a label).
pub fn mentioned_strings(config: &Value) -> HashSet<&str> {
    let mut found = HashSet::new();
    for key in ["widgets", "filters"] {
        if let Some(part) = config.get(key) {
            collect_strings(part, &mut found);
        }
    }
    found
}

fn collect_strings<'a>(value: &'a Value, found: &mut HashSet<&'a str>) {
    match value {
        Value::String(s) => {
            found.insert(s);
        }
        Value::Array(values) => values.iter().for_each(|v| collect_strings(v, found)),
        Value::Object(map) => map.values().for_each(|v| collect_strings(v, found)),
        _ => {}
    }
}
