//! The shapes a setting's value may take, and everything a shape implies: the
//! check and normalisation of a value, the sentence naming what is accepted,
//! and the JSON Schema fragment.
//!
//! Each of the three is derived from the same [`Kind`], so the refusal message,
//! the catalog and the schema cannot drift apart.

use std::fmt::Write as _;

use serde_json::{Map, Value, json};

/// What values a setting (or a part of one) accepts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// A JSON boolean, nothing else (`"true"` and `1` are refused).
    Toggle,
    /// A string of at most `max_chars` characters (Unicode scalar values, not
    /// bytes), of the given format.
    Text {
        max_chars: Option<usize>,
        format: TextFormat,
    },
    Number(NumberRange),
    /// One of the listed strings.
    Select(&'static [&'static str]),
    /// An array whose every element is accepted by the item kind; when the items
    /// are enumerated strings ([`Kind::Select`]) no value may appear twice.
    List(&'static Kind),
    /// An object whose every value is accepted by the value kind.
    Map(&'static Kind),
    /// An object with only the listed fields, each of its kind. Fields may be
    /// left out: the spec lists what an object may hold, not what it must.
    Object(&'static [Field]),
    /// One of the listed numbers (the spec's type label `unknown`).
    NumberChoice(&'static [i64]),
}

/// What a text setting's string must look like besides its length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextFormat {
    /// Any string.
    Plain,
    /// A time of day, `HH:MM` on the 24-hour clock.
    TimeOfDay,
    /// An IANA time zone name the bundled time-zone database knows, or the
    /// empty string (the system's zone).
    TimeZone,
}

impl TextFormat {
    fn accepts(self, text: &str) -> bool {
        match self {
            TextFormat::Plain => true,
            TextFormat::TimeOfDay => parse_time_of_day(text).is_some(),
            // jiff's database: the system's zoneinfo, else the copy bundled
            // into the binary, so a machine without zoneinfo still knows names.
            TextFormat::TimeZone => text.is_empty() || jiff::tz::db().get(text).is_ok(),
        }
    }
}

/// Hours and minutes of an `HH:MM` time of day (two digits each, 00:00 to 23:59).
pub fn parse_time_of_day(text: &str) -> Option<(u8, u8)> {
    let (h, m) = text.split_once(':')?;
    if h.len() != 2 || m.len() != 2 || !(h.bytes().chain(m.bytes())).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (h, m) = (h.parse::<u8>().ok()?, m.parse::<u8>().ok()?);
    (h < 24 && m < 60).then_some((h, m))
}

/// A numeric range, inclusive at both ends. A step counts from `min`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NumberRange {
    pub min: f64,
    pub max: Option<f64>,
    pub integer: bool,
    pub step: Option<f64>,
}

/// One field of a [`Kind::Object`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Field {
    pub name: &'static str,
    pub kind: Kind,
}

/// Why a value was refused: where inside it (empty for the value as a whole,
/// else a path such as `[0].taskView.urlCol`) and what is wrong there.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Refusal {
    pub path: String,
    pub reason: String,
}

/// Integers beyond this lose precision as `f64`, so they cannot be checked
/// against a range or step exactly.
const EXACT_INTEGER_LIMIT: f64 = 9_007_199_254_740_992.0;

impl Kind {
    /// The catalog's type label.
    pub fn type_label(&self) -> &'static str {
        match self {
            Kind::Toggle => "toggle",
            Kind::Text { .. } => "text",
            Kind::Number(_) => "number",
            Kind::Select(_) => "select",
            Kind::List(_) => "list",
            Kind::Map(_) => "map",
            Kind::Object(_) => "object",
            Kind::NumberChoice(_) => "unknown",
        }
    }

    /// What this kind accepts, as a phrase that completes "KEY takes ...".
    pub fn describe(&self) -> String {
        let mut out = String::new();
        self.write_description(&mut out);
        out
    }

    fn write_description(&self, out: &mut String) {
        match self {
            Kind::Toggle => out.push_str("true or false"),
            Kind::Text {
                format: TextFormat::TimeOfDay,
                ..
            } => out.push_str("a time of day as HH:MM, 00:00 to 23:59"),
            Kind::Text {
                format: TextFormat::TimeZone,
                ..
            } => out.push_str(
                "an IANA time zone name such as \"Europe/Berlin\", or \"\" for the system's zone",
            ),
            Kind::Text {
                max_chars: None, ..
            } => out.push_str("a string"),
            Kind::Text {
                max_chars: Some(max),
                ..
            } => {
                let _ = write!(out, "a string of at most {max} characters");
            }
            Kind::Number(range) => range.write_description(out),
            Kind::Select(options) => {
                out.push_str("one of ");
                write_quoted_list(out, options);
            }
            Kind::List(item @ Kind::Select(_)) => {
                out.push_str("a list without repeats, each item ");
                item.write_description(out);
            }
            Kind::List(item) => {
                out.push_str("a list, each item ");
                item.write_description(out);
            }
            Kind::Map(value) => {
                out.push_str("an object whose every value is ");
                value.write_description(out);
            }
            Kind::Object(fields) => {
                out.push_str("an object with only the fields ");
                write_fields(out, fields);
            }
            Kind::NumberChoice(options) => {
                out.push_str("one of the numbers ");
                let listed: Vec<String> = options.iter().map(i64::to_string).collect();
                out.push_str(&listed.join(", "));
            }
        }
    }

    /// Checks `value` and returns it normalised (a whole float such as `5.0`
    /// becomes the integer `5` where an integer is expected).
    pub(crate) fn check(&self, value: &Value) -> Result<Value, Refusal> {
        let mut path = String::new();
        self.check_at(value, &mut path)
    }

    fn check_at(&self, value: &Value, path: &mut String) -> Result<Value, Refusal> {
        let accepted = match (self, value) {
            (Kind::Toggle, Value::Bool(_)) => Some(value.clone()),
            (Kind::Text { max_chars, format }, Value::String(text))
                if max_chars.is_none_or(|max| text.chars().count() <= max)
                    && format.accepts(text) =>
            {
                Some(value.clone())
            }
            (Kind::Number(range), Value::Number(number)) => range.accept(number),
            (Kind::Select(options), Value::String(text)) if options.contains(&text.as_str()) => {
                Some(value.clone())
            }
            (Kind::NumberChoice(options), Value::Number(number)) => whole_number(number)
                .filter(|n| options.contains(n))
                .map(Value::from),
            (Kind::List(item), Value::Array(items)) => {
                return check_list(item, items, path).map(Value::Array);
            }
            (Kind::Map(kind), Value::Object(entries)) => {
                let mut out = Map::new();
                for (name, entry) in entries {
                    let mark = path.len();
                    let _ = write!(path, "[{}]", Value::from(name.as_str()));
                    out.insert(name.clone(), kind.check_at(entry, path)?);
                    path.truncate(mark);
                }
                return Ok(Value::Object(out));
            }
            (Kind::Object(fields), Value::Object(entries)) => {
                return check_object(fields, entries, path).map(Value::Object);
            }
            _ => None,
        };
        accepted.ok_or_else(|| Refusal {
            path: path.clone(),
            reason: format!("must be {}", self.describe()),
        })
    }

    /// The JSON Schema (draft 2020-12) fragment that accepts what this kind accepts.
    pub fn json_schema(&self) -> Value {
        match self {
            Kind::Toggle => json!({"type": "boolean"}),
            Kind::Text { max_chars, format } => {
                let mut schema = json!({"type": "string"});
                if let Some(max) = max_chars {
                    schema["maxLength"] = json!(max);
                }
                if *format == TextFormat::TimeOfDay {
                    schema["pattern"] = json!("^([01][0-9]|2[0-3]):[0-5][0-9]$");
                }
                schema
            }
            Kind::Number(range) => range.json_schema(),
            Kind::Select(options) => json!({"type": "string", "enum": options}),
            Kind::List(item) => {
                let mut schema = json!({"type": "array", "items": item.json_schema()});
                if matches!(item, Kind::Select(_)) {
                    schema["uniqueItems"] = json!(true);
                }
                schema
            }
            Kind::Map(value) => {
                json!({"type": "object", "additionalProperties": value.json_schema()})
            }
            Kind::Object(fields) => {
                let properties: Map<String, Value> = fields
                    .iter()
                    .map(|field| (field.name.to_owned(), field.kind.json_schema()))
                    .collect();
                json!({"type": "object", "properties": properties, "additionalProperties": false})
            }
            Kind::NumberChoice(options) => json!({"enum": options}),
        }
    }
}

impl NumberRange {
    fn write_description(&self, out: &mut String) {
        out.push_str(if self.integer {
            "an integer"
        } else {
            "a number"
        });
        let _ = match self.max {
            Some(max) => write!(out, " from {} to {}", self.min, max),
            None => write!(out, " of at least {}", self.min),
        };
        if let Some(step) = self.step {
            let _ = write!(out, " in steps of {step}");
        }
    }

    fn accept(&self, number: &serde_json::Number) -> Option<Value> {
        let x = number.as_f64()?;
        if x < self.min || self.max.is_some_and(|max| x > max) {
            return None;
        }
        if let Some(step) = self.step {
            let steps = (x - self.min) / step;
            if (steps - steps.round()).abs() > 1e-9 {
                return None;
            }
        }
        if self.integer {
            whole_number(number).map(Value::from)
        } else {
            Some(Value::Number(number.clone()))
        }
    }

    fn json_schema(&self) -> Value {
        let mut schema = json!({
            "type": if self.integer { "integer" } else { "number" },
            "minimum": plain_number(self.min),
        });
        if let Some(max) = self.max {
            schema["maximum"] = plain_number(max);
        }
        if let Some(step) = self.step {
            // `multipleOf` counts from zero; the catalog's steps count from the
            // minimum, which the tests check is itself a multiple of the step.
            schema["multipleOf"] = plain_number(step);
        }
        schema
    }
}

/// The integer a JSON number stands for, if it is a whole number (`5.0` is 5).
fn whole_number(number: &serde_json::Number) -> Option<i64> {
    if let Some(n) = number.as_i64() {
        return Some(n);
    }
    let x = number.as_f64()?;
    (x.fract() == 0.0 && x.abs() <= EXACT_INTEGER_LIMIT).then_some(x as i64)
}

/// A bound written as an integer when it is whole, so `25` does not read `25.0`.
fn plain_number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() <= EXACT_INTEGER_LIMIT {
        json!(x as i64)
    } else {
        json!(x)
    }
}

fn check_list(item: &Kind, items: &[Value], path: &mut String) -> Result<Vec<Value>, Refusal> {
    let enumerated = matches!(item, Kind::Select(_));
    let mut out = Vec::with_capacity(items.len());
    for (index, element) in items.iter().enumerate() {
        let mark = path.len();
        let _ = write!(path, "[{index}]");
        let accepted = item.check_at(element, path)?;
        if enumerated && out.contains(&accepted) {
            return Err(Refusal {
                path: path.clone(),
                reason: format!("repeats {accepted}"),
            });
        }
        out.push(accepted);
        path.truncate(mark);
    }
    Ok(out)
}

fn check_object(
    fields: &[Field],
    entries: &Map<String, Value>,
    path: &mut String,
) -> Result<Map<String, Value>, Refusal> {
    let mut out = Map::new();
    for (name, entry) in entries {
        let mark = path.len();
        let _ = write!(path, ".{name}");
        let Some(field) = fields.iter().find(|field| field.name == name) else {
            return Err(Refusal {
                path: path.clone(),
                reason: "is not an accepted field".to_owned(),
            });
        };
        out.insert(name.clone(), field.kind.check_at(entry, path)?);
        path.truncate(mark);
    }
    Ok(out)
}

fn write_quoted_list(out: &mut String, items: &[&str]) {
    for (index, item) in items.iter().enumerate() {
        if index > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{}", Value::from(*item));
    }
}

/// Lists fields, naming the kind once for each run of fields that share it:
/// `a, b (each true or false), label (a string of at most 100 characters)`.
fn write_fields(out: &mut String, fields: &[Field]) {
    for (index, run) in fields.chunk_by(|a, b| a.kind == b.kind).enumerate() {
        if index > 0 {
            out.push_str(", ");
        }
        let names: Vec<&str> = run.iter().map(|field| field.name).collect();
        out.push_str(&names.join(", "));
        out.push_str(if run.len() > 1 { " (each " } else { " (" });
        run[0].kind.write_description(out);
        out.push(')');
    }
}

/// Constructors for the catalog table, short enough to keep one row a line.
pub(crate) mod build {
    use super::{Kind, NumberRange, TextFormat};

    pub const TOGGLE: Kind = Kind::Toggle;
    pub const TEXT: Kind = Kind::Text {
        max_chars: None,
        format: TextFormat::Plain,
    };
    pub const TIME_OF_DAY: Kind = Kind::Text {
        max_chars: None,
        format: TextFormat::TimeOfDay,
    };

    pub const fn text(max_chars: usize) -> Kind {
        Kind::Text {
            max_chars: Some(max_chars),
            format: TextFormat::Plain,
        }
    }

    pub const fn time_zone(max_chars: usize) -> Kind {
        Kind::Text {
            max_chars: Some(max_chars),
            format: TextFormat::TimeZone,
        }
    }

    pub const fn int(min: i64, max: i64) -> Kind {
        Kind::Number(NumberRange {
            min: min as f64,
            max: Some(max as f64),
            integer: true,
            step: None,
        })
    }

    pub const fn int_step(min: i64, max: i64, step: i64) -> Kind {
        Kind::Number(NumberRange {
            min: min as f64,
            max: Some(max as f64),
            integer: true,
            step: Some(step as f64),
        })
    }

    pub const fn number(min: f64, max: f64) -> Kind {
        Kind::Number(NumberRange {
            min,
            max: Some(max),
            integer: false,
            step: None,
        })
    }

    pub const fn number_from(min: f64) -> Kind {
        Kind::Number(NumberRange {
            min,
            max: None,
            integer: false,
            step: None,
        })
    }
}

impl Kind {
    /// The TypeScript type of a value of this kind, for the generated client.
    pub fn typescript(&self) -> String {
        match self {
            Kind::Toggle => "boolean".to_owned(),
            Kind::Text { .. } => "string".to_owned(),
            Kind::Number(_) => "number".to_owned(),
            Kind::Select(options) => options
                .iter()
                .map(|o| format!("{o:?}"))
                .collect::<Vec<_>>()
                .join(" | "),
            Kind::List(item) => format!("Array<{}>", item.typescript()),
            Kind::Map(value) => format!("Record<string, {}>", value.typescript()),
            Kind::Object(fields) => {
                let fields: Vec<String> = fields
                    .iter()
                    .map(|f| format!("{:?}?: {}", f.name, f.kind.typescript()))
                    .collect();
                format!("{{ {} }}", fields.join("; "))
            }
            Kind::NumberChoice(choices) => choices
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(" | "),
        }
    }
}
