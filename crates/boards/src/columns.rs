//! Column types: what settings each accepts and which item values it takes.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use utoipa::ToSchema;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ColumnType {
    Text,
    Number,
    Status,
    People,
    Date,
    Timeline,
    Checkbox,
    Dropdown,
}

impl ColumnType {
    pub const ALL: [ColumnType; 8] = [
        Self::Text,
        Self::Number,
        Self::Status,
        Self::People,
        Self::Date,
        Self::Timeline,
        Self::Checkbox,
        Self::Dropdown,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Text => "text",
            Self::Number => "number",
            Self::Status => "status",
            Self::People => "people",
            Self::Date => "date",
            Self::Timeline => "timeline",
            Self::Checkbox => "checkbox",
            Self::Dropdown => "dropdown",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

/// Labels a status column gets when it is created without any.
fn default_status_settings() -> Value {
    json!({"labels": [
        {"name": "Working on it", "color": "#fdab3d"},
        {"name": "Stuck", "color": "#e2445c"},
        {"name": "Done", "done": true, "color": "#00c875"},
    ]})
}

/// Checks a column's settings for its type and returns them normalised to an
/// object. Unknown keys are kept (the UI may store presentation hints there);
/// the keys the contract names must have their documented shape.
pub fn normalize_settings(kind: ColumnType, settings: Option<&Value>) -> Result<Value, String> {
    let settings = match settings {
        None | Some(Value::Null) => {
            return Ok(if kind == ColumnType::Status {
                default_status_settings()
            } else {
                json!({})
            });
        }
        Some(Value::Object(map)) => map,
        Some(_) => return Err("settings must be an object".into()),
    };
    match kind {
        ColumnType::Number => {
            if let Some(unit) = settings.get("unit")
                && !unit.is_string()
            {
                return Err("settings.unit must be a string such as \"$\"".into());
            }
            if let Some(pos) = settings.get("unitPosition")
                && pos != "left"
                && pos != "right"
            {
                return Err("settings.unitPosition must be \"left\" or \"right\"".into());
            }
        }
        ColumnType::Status => check_labels(settings)?,
        ColumnType::Dropdown => {
            if let Some(options) = settings.get("options")
                && !options
                    .as_array()
                    .is_some_and(|a| a.iter().all(Value::is_string))
            {
                return Err("settings.options must be an array of strings".into());
            }
        }
        _ => {}
    }
    Ok(Value::Object(settings.clone()))
}

fn check_labels(settings: &Map<String, Value>) -> Result<(), String> {
    let labels = settings.get("labels").and_then(Value::as_array).ok_or(
        "a status column needs settings.labels, an array of {\"name\", \"done\"?, \"color\"?}",
    )?;
    let mut seen = HashSet::new();
    for (i, label) in labels.iter().enumerate() {
        let label = label
            .as_object()
            .ok_or_else(|| format!("settings.labels[{i}] must be an object"))?;
        let name = label
            .get("name")
            .and_then(Value::as_str)
            .filter(|n| !n.trim().is_empty())
            .ok_or_else(|| format!("settings.labels[{i}].name must be a non-empty string"))?;
        if !seen.insert(name) {
            return Err(format!("settings.labels has \"{name}\" twice"));
        }
        if label.get("done").is_some_and(|d| !d.is_boolean()) {
            return Err(format!("settings.labels[{i}].done must be a boolean"));
        }
        if label.get("color").is_some_and(|c| !c.is_string()) {
            return Err(format!("settings.labels[{i}].color must be a string"));
        }
    }
    Ok(())
}

/// The label names of a status column's (already normalised) settings.
pub fn label_names(settings: &Value) -> Vec<String> {
    settings
        .get("labels")
        .and_then(Value::as_array)
        .map(|labels| {
            labels
                .iter()
                .filter_map(|l| l.get("name").and_then(Value::as_str).map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// Whether `s` is a real calendar date written `YYYY-MM-DD`.
pub fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    let shape = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    if !shape {
        return false;
    }
    let (Ok(y), Ok(m), Ok(d)) = (s[0..4].parse(), s[5..7].parse::<u8>(), s[8..10].parse()) else {
        return false;
    };
    time::Month::try_from(m)
        .ok()
        .and_then(|m| time::Date::from_calendar_date(y, m, d).ok())
        .is_some()
}

/// One column as the value checks need it.
#[derive(Debug, Clone)]
pub(crate) struct ColumnRule {
    pub id: String,
    pub kind: ColumnType,
    pub labels: Vec<String>,
}

/// Checks a non-null value against its column. `members` is the account's
/// member directory; it is only consulted for people columns.
pub(crate) fn check_value(
    rule: &ColumnRule,
    value: &Value,
    members: &HashSet<String>,
) -> Result<(), String> {
    let id = &rule.id;
    match rule.kind {
        ColumnType::Text => expect(value.is_string(), id, "a string"),
        ColumnType::Number => expect(value.is_number(), id, "a number"),
        ColumnType::Checkbox => expect(value.is_boolean(), id, "true or false"),
        ColumnType::Date => expect(
            value.as_str().is_some_and(is_date),
            id,
            "a date written YYYY-MM-DD",
        ),
        ColumnType::Dropdown => expect(
            value
                .as_array()
                .is_some_and(|a| a.iter().all(Value::is_string)),
            id,
            "an array of strings",
        ),
        ColumnType::Status => {
            let name = value
                .as_str()
                .ok_or_else(|| format!("values.{id} must be one of the column's labels"))?;
            if rule.labels.iter().any(|l| l == name) {
                Ok(())
            } else {
                Err(format!(
                    "values.{id}: \"{name}\" is not a label of the column (labels: {})",
                    rule.labels.join(", ")
                ))
            }
        }
        ColumnType::People => {
            let ids = value
                .as_array()
                .ok_or_else(|| format!("values.{id} must be an array of member ids"))?;
            for member in ids {
                let member = member
                    .as_str()
                    .ok_or_else(|| format!("values.{id} must be an array of member ids"))?;
                if !members.contains(member) {
                    return Err(format!("values.{id}: unknown member \"{member}\""));
                }
            }
            Ok(())
        }
        ColumnType::Timeline => {
            let range = value.as_object().filter(|o| o.len() == 2);
            let from = range.and_then(|o| o.get("from")).and_then(Value::as_str);
            let to = range.and_then(|o| o.get("to")).and_then(Value::as_str);
            match (from, to) {
                (Some(from), Some(to)) if is_date(from) && is_date(to) => {
                    // Fixed-width dates compare correctly as text.
                    expect(from <= to, id, "a timeline whose from is not after its to")
                }
                _ => Err(format!(
                    "values.{id} must be {{\"from\": \"YYYY-MM-DD\", \"to\": \"YYYY-MM-DD\"}}"
                )),
            }
        }
    }
}

fn expect(ok: bool, id: &str, what: &str) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(format!("values.{id} must be {what}"))
    }
}

/// A client-chosen id for a column or group: short, and safe to use as a
/// JSON object key and inside a quoted SQLite JSON path.
pub(crate) fn check_client_id(id: &str) -> Result<(), String> {
    let ok = !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':'));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "id \"{id}\" must be 1 to 64 characters among letters, digits, _ - . :"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_must_be_real_calendar_days() {
        for ok in ["2024-02-29", "2025-12-31", "1999-01-01"] {
            assert!(is_date(ok), "{ok}");
        }
        for bad in [
            "2025-02-29",
            "2025-13-01",
            "2025-00-10",
            "2025-1-01",
            "2025/01/01",
            "20250101",
            "2025-01-01T00:00:00Z",
            "２０２５-01-01",
            "",
        ] {
            assert!(!is_date(bad), "{bad}");
        }
    }

    #[test]
    fn settings_are_checked_per_type() {
        let ok = [
            (
                ColumnType::Number,
                json!({"unit": "$", "unitPosition": "left"}),
            ),
            (ColumnType::Number, json!({})),
            (
                ColumnType::Status,
                json!({"labels": [{"name": "A"}, {"name": "B", "done": true, "color": "#fff"}]}),
            ),
            (ColumnType::Dropdown, json!({"options": ["a", "b"]})),
            (ColumnType::Text, json!({"hint": "x"})),
        ];
        for (kind, settings) in ok {
            assert!(
                normalize_settings(kind, Some(&settings)).is_ok(),
                "{settings}"
            );
        }
        let bad = [
            (ColumnType::Number, json!({"unit": 5})),
            (ColumnType::Number, json!({"unitPosition": "middle"})),
            (ColumnType::Status, json!({})),
            (ColumnType::Status, json!({"labels": [{"name": ""}]})),
            (
                ColumnType::Status,
                json!({"labels": [{"name": "A"}, {"name": "A"}]}),
            ),
            (
                ColumnType::Status,
                json!({"labels": [{"name": "A", "done": "yes"}]}),
            ),
            (ColumnType::Dropdown, json!({"options": [1]})),
            (ColumnType::Text, json!([])),
        ];
        for (kind, settings) in bad {
            assert!(
                normalize_settings(kind, Some(&settings)).is_err(),
                "{settings}"
            );
        }
        let status = normalize_settings(ColumnType::Status, None).unwrap();
        assert!(label_names(&status).contains(&"Done".to_owned()));
    }
}
