//! Checks the schema against the catalog tables of the spec, row by row, so a
//! transcription slip (a key, a type, a range, a stated default) fails.

use std::io::Write;
use std::path::PathBuf;
use std::sync::OnceLock;

use serde_json::{Value, json};
use settings::{Kind, SettingDef, TakesEffect, definitions};

/// The folder holding the spec's documents 2 and 3: `SWITCHBOARD_SPEC_DIR` when set, else
/// `../shared/spec` beside the repository (where CI has it). `None` when neither is there: a
/// clone on its own has no spec, and the comparison is skipped, said once on stderr.
fn spec_dir() -> Option<&'static PathBuf> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        if let Some(dir) = std::env::var_os("SWITCHBOARD_SPEC_DIR").filter(|d| !d.is_empty()) {
            let dir = PathBuf::from(dir);
            // Someone asked for this folder: a typo must fail, not pass as a skip.
            assert!(
                dir.is_dir(),
                "SWITCHBOARD_SPEC_DIR={} is not a directory (unset it to use ../shared/spec, or to skip)",
                dir.display()
            );
            return Some(dir);
        }
        let beside = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/spec");
        if beside.is_dir() {
            return Some(beside);
        }
        // Written to the stderr handle, not with `eprintln!`, which the test harness captures
        // and shows only for failing tests.
        let _ = writeln!(
            std::io::stderr(),
            "skipped: settings catalog vs spec (no spec dir: set SWITCHBOARD_SPEC_DIR or place ../shared/spec)"
        );
        None
    })
    .as_ref()
}

#[derive(Debug)]
struct Row {
    area: String,
    section: String,
    key: String,
    type_label: String,
    accepted: String,
    effect: String,
}

/// The rows of the spec's settings tables, or `None` when there is no spec to read.
fn spec_rows() -> Option<Vec<Row>> {
    let dir = spec_dir()?;
    let mut rows = Vec::new();
    for name in [
        "2-settings-getting-started-sessions-agents.md",
        "3-settings-inbox-projects.md",
    ] {
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|error| {
            panic!("cannot read the settings spec {}: {error}", path.display())
        });
        let (mut area, mut section) = (String::new(), String::new());
        for line in text.lines() {
            if let Some(title) = line
                .strip_prefix("### ")
                .or_else(|| line.strip_prefix("## "))
            {
                if title == "Getting Started" {
                    (area, section) = (title.to_owned(), "general".to_owned());
                } else if let Some(area_title) = title.strip_prefix("Resources and their fields: ")
                {
                    (area, section) = (area_title.to_owned(), "general".to_owned());
                } else if let Some((a, s)) = title.split_once(": ") {
                    (area, section) = (a.to_owned(), s.to_owned());
                }
                continue;
            }
            let Some(inner) = line.strip_prefix("| ").and_then(|l| l.strip_suffix(" |")) else {
                continue;
            };
            let cells: Vec<&str> = inner.split(" | ").collect();
            if cells[0] == "Setting" || cells[0].starts_with("---") {
                continue;
            }
            assert_eq!(cells.len(), 4, "unexpected table row in {name}: {line}");
            rows.push(Row {
                area: area.clone(),
                section: section.clone(),
                key: cells[0].to_owned(),
                type_label: cells[1].to_owned(),
                accepted: cells[2].to_owned(),
                effect: cells[3].to_owned(),
            });
        }
    }
    Some(rows)
}

/// An owned mirror of `Kind`, so the spec's text and the schema can be compared.
#[derive(Debug, PartialEq)]
enum Shape {
    Toggle,
    Text(Option<usize>),
    Number {
        min: f64,
        max: Option<f64>,
        integer: bool,
        step: Option<f64>,
    },
    Select(Vec<String>),
    List(Box<Shape>),
    Map(Box<Shape>),
    Object(Vec<(String, Shape)>),
    NumberChoice(Vec<i64>),
}

fn shape_of(kind: &Kind) -> Shape {
    match kind {
        Kind::Toggle => Shape::Toggle,
        Kind::Text { max_chars, .. } => Shape::Text(*max_chars),
        Kind::Number(range) => Shape::Number {
            min: range.min,
            max: range.max,
            integer: range.integer,
            step: range.step,
        },
        Kind::Select(options) => Shape::Select(options.iter().map(|o| o.to_string()).collect()),
        Kind::List(item) => Shape::List(Box::new(shape_of(item))),
        Kind::Map(value) => Shape::Map(Box::new(shape_of(value))),
        Kind::Object(fields) => Shape::Object(
            fields
                .iter()
                .map(|field| (field.name.to_owned(), shape_of(&field.kind)))
                .collect(),
        ),
        Kind::NumberChoice(options) => Shape::NumberChoice(options.to_vec()),
    }
}

fn words(list: &str) -> Vec<String> {
    list.split(", ").map(str::to_owned).collect()
}

fn range(text: &str, integer: bool) -> Shape {
    let (min, max) = text
        .split_once("..")
        .unwrap_or_else(|| panic!("not a range: {text}"));
    Shape::Number {
        min: min.parse().unwrap(),
        max: Some(max.parse().unwrap()),
        integer,
        step: None,
    }
}

/// Splits at `separator` where no parenthesis is open.
fn split_top(text: &str, separator: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' => depth += 1,
            b')' => depth -= 1,
            _ if depth == 0 && text[i..].starts_with(separator) => {
                parts.push(text[start..i].to_owned());
                i += separator.len();
                start = i;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(text[start..].to_owned());
    parts
}

/// Object fields in either of the spec's two notations:
/// `name (TYPE), name (TYPE)` or `a, b each TYPE; c each TYPE`.
fn parse_fields(text: &str) -> Vec<(String, Shape)> {
    if !text.contains('(') {
        return split_top(text, "; ")
            .iter()
            .flat_map(|group| {
                let (names, kind) = group.split_once(" each ").unwrap();
                words(names)
                    .into_iter()
                    .map(|name| (name, parse_accepted(kind)))
                    .collect::<Vec<_>>()
            })
            .collect();
    }
    split_top(text, ", ")
        .iter()
        .map(|part| {
            let (name, kind) = part.split_once(" (").unwrap();
            (
                name.to_owned(),
                parse_accepted(kind.strip_suffix(')').unwrap()),
            )
        })
        .collect()
}

/// The spec's Accepted column (for every type but select) as a shape.
fn parse_accepted(text: &str) -> Shape {
    let text = text.trim();
    if text == "boolean" {
        return Shape::Toggle;
    }
    if text == "string" {
        return Shape::Text(None);
    }
    if let Some(rest) = text.strip_prefix("string up to ") {
        let max = rest.trim_end_matches(" characters");
        return Shape::Text(Some(max.parse().unwrap()));
    }
    if text == "number from 0 upward, no stated maximum" {
        return Shape::Number {
            min: 0.0,
            max: None,
            integer: false,
            step: None,
        };
    }
    if let Some(rest) = text.strip_prefix("integer ") {
        return range(rest, true);
    }
    if let Some(rest) = text.strip_prefix("number ") {
        return range(rest, false);
    }
    if let Some(rest) = text.strip_prefix("one of ") {
        return Shape::NumberChoice(rest.split(", ").map(|n| n.parse().unwrap()).collect());
    }
    if let Some(rest) = text.strip_prefix("array of: ") {
        return Shape::List(Box::new(Shape::Select(words(rest))));
    }
    if let Some(rest) = text.strip_prefix("array of string, each up to ") {
        let max = rest.strip_suffix(" characters").unwrap();
        return Shape::List(Box::new(Shape::Text(Some(max.parse().unwrap()))));
    }
    if let Some(rest) = text.strip_prefix("array of objects: ") {
        return Shape::List(Box::new(Shape::Object(parse_fields(rest))));
    }
    if let Some(rest) = text.strip_prefix("array of ") {
        return Shape::List(Box::new(parse_accepted(rest)));
    }
    if let Some(rest) = text.strip_prefix("map of string to one of: ") {
        return Shape::Map(Box::new(Shape::Select(words(rest))));
    }
    if let Some(rest) = text.strip_prefix("object with boolean fields: ") {
        return Shape::Object(
            words(rest)
                .into_iter()
                .map(|n| (n, Shape::Toggle))
                .collect(),
        );
    }
    if let Some(rest) = text.strip_prefix("object: ") {
        return Shape::Object(parse_fields(rest));
    }
    panic!("the test does not understand the Accepted text {text:?}")
}

fn spec_shape(row: &Row) -> Shape {
    let mut shape = if row.type_label == "select" {
        Shape::Select(words(&row.accepted))
    } else {
        parse_accepted(&row.accepted)
    };
    if let Some(rest) = row.effect.split("Range step ").nth(1) {
        let step: f64 = rest.trim_end_matches('.').parse().unwrap();
        match &mut shape {
            Shape::Number { step: s, .. } => *s = Some(step),
            other => panic!("{}: a step on a non-number {other:?}", row.key),
        }
    }
    shape
}

/// The default the Effect text states, as written: "Default on/off" anywhere
/// (any case), or a sentence "Default X." for other values.
fn stated_default(effect: &str) -> Option<&str> {
    let lower = effect.to_lowercase();
    for word in ["on", "off"] {
        let phrase = format!("default {word}");
        if let Some(at) = lower.find(&phrase) {
            let next = lower[at + phrase.len()..].chars().next();
            if !next.is_some_and(char::is_alphanumeric) {
                return Some(word);
            }
        }
    }
    effect
        .split(". ")
        .map(|sentence| sentence.trim_end_matches('.'))
        .find_map(|sentence| sentence.strip_prefix("Default "))
        .filter(|value| !value.contains(' '))
}

/// A stated default as the key's value: on/off is a boolean for a toggle and
/// the option's own name for a select (imageBridgeMode: "Default off").
fn stated_value(type_label: &str, stated: &str) -> Value {
    match (type_label, stated) {
        ("toggle", "on") => json!(true),
        ("toggle", "off") => json!(false),
        _ => json!(stated),
    }
}

fn stated_effect(effect: &str) -> TakesEffect {
    let lower = effect.to_lowercase();
    if lower.contains("next start") || lower.contains("app start") {
        TakesEffect::NextStart
    } else if ["next new session", "next session", "next cloud launch"]
        .iter()
        .any(|phrase| lower.contains(phrase))
    {
        TakesEffect::NextSession
    } else {
        TakesEffect::Immediately
    }
}

#[test]
fn the_schema_has_every_spec_key_in_spec_order() {
    let Some(rows) = spec_rows() else { return };
    let spec: Vec<String> = rows.into_iter().map(|row| row.key).collect();
    let schema: Vec<&str> = definitions().iter().map(|def| def.key).collect();
    assert_eq!(spec.len(), 247);
    assert_eq!(schema, spec);
}

#[test]
fn every_row_matches_the_spec() {
    let Some(rows) = spec_rows() else { return };
    let defs = definitions();
    assert_eq!(rows.len(), defs.len());
    let mut defaults_stated = 0;
    for (row, def) in rows.iter().zip(defs) {
        let key = &row.key;
        assert_eq!(def.key, key);
        assert_eq!(def.area.title(), row.area, "{key}: area");
        assert_eq!(def.section, row.section, "{key}: section");
        assert_eq!(def.type_label(), row.type_label, "{key}: type");
        assert_eq!(
            shape_of(&def.kind),
            spec_shape(row),
            "{key}: accepted values"
        );
        if let Some(stated) = stated_default(&row.effect) {
            defaults_stated += 1;
            let stated = stated_value(&row.type_label, stated);
            assert_eq!(def.default_value(), &stated, "{key}: the spec's default");
        }
        assert_eq!(
            def.takes_effect,
            stated_effect(&row.effect),
            "{key}: takes effect"
        );
        if key != "tasksV2HideCompleted" {
            assert_eq!(def.description, row.effect, "{key}: description");
        }
        assert_eq!(
            def.nullable,
            row.effect.contains("null inherits"),
            "{key}: null accepted only where the spec gives it a meaning"
        );
    }
    assert!(
        defaults_stated >= 40,
        "only {defaults_stated} stated defaults found: is the parser still right?"
    );
}

#[test]
fn stated_defaults_are_read_as_the_spec_means_them() {
    assert_eq!(
        stated_default("Which filename. Default PRIMARY.md."),
        Some("PRIMARY.md")
    );
    assert_eq!(stated_default("Paid; default off; applies."), Some("off"));
    assert_eq!(
        stated_default("Default off: the route is disabled."),
        Some("off")
    );
    assert_eq!(stated_value("select", "off"), json!("off"));
    assert_eq!(stated_value("toggle", "off"), json!(false));
    assert_eq!(stated_default("Default snooze length."), None);
    assert_eq!(
        stated_default("Default search query for loading the inbox."),
        None
    );
    assert_eq!(
        stated_default("Timezone; defaults to the system timezone."),
        None
    );
}

fn def(key: &str) -> &'static SettingDef {
    settings::lookup(key).unwrap()
}

#[test]
fn the_spec_limits_table_agrees() {
    assert_eq!(
        def("sessionCpuCapPercent").accepted(),
        "an integer from 25 to 90 in steps of 5"
    );
    assert_eq!(
        def("sessionMemoryGuardPercent").accepted(),
        "an integer from 50 to 95 in steps of 5"
    );
    assert_eq!(
        def("agentDrivenMaxDollarsPerSession").accepted(),
        "a number from 0 to 20"
    );
}
