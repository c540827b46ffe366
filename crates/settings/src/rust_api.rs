//! The catalog as Rust: one typed accessor on [`crate::SettingsStore`] per
//! key, and an enum per select. The output is checked in as `accessors.rs`,
//! so a misspelt or mistyped setting read fails to compile instead of
//! falling back to a default at run time.

use std::collections::HashSet;
use std::fmt::Write as _;

use crate::index::definitions;
use crate::kind::Kind;
use crate::schema::{DefaultValue, SettingDef};

/// The Rust source of `src/accessors.rs`.
pub fn rust_accessors() -> String {
    let mut out = String::from(
        "//! Generated from the catalog by `cargo test -p settings`: one typed accessor per\n\
         //! setting and an enum per select. Do not edit: change `catalog.rs`, then run the\n\
         //! tests to regenerate.\n\n\
         use crate::SettingsStore;\n",
    );
    let mut enums = String::new();
    let mut methods = String::new();
    let mut names = HashSet::new();
    for (index, def) in definitions().iter().enumerate() {
        let method = def.accessor_name();
        assert!(names.insert(method.clone()), "two keys read as {method}");
        let (ty, body) = accessor(def, index, &mut enums);
        methods.push('\n');
        for line in def.description.lines() {
            let _ = writeln!(methods, "    /// {line}");
        }
        if !def.in_effect {
            methods
                .push_str("    ///\n    /// Stored only: this version does not act on it yet.\n");
        }
        let _ = writeln!(
            methods,
            "    pub fn {method}(&self) -> {ty} {{\n        {body}\n    }}"
        );
    }
    out.push_str(&enums);
    out.push_str("\nimpl SettingsStore {");
    out.push_str(&methods);
    out.push_str("}\n");
    out
}

/// The return type and body of the accessor of the key at `index`; a select
/// also writes its enum into `enums`.
fn accessor(def: &SettingDef, index: usize, enums: &mut String) -> (String, String) {
    let (ty, read) = match def.kind {
        Kind::Toggle => ("bool", "toggle_at"),
        Kind::Number(range) if range.integer && range.min >= 0.0 && fits_u32(range.max) => {
            ("u32", "count_at")
        }
        Kind::Number(range) if range.integer => ("i64", "integer_at"),
        Kind::Number(_) => ("f64", "number_at"),
        Kind::NumberChoice(choices) if choices.iter().all(|n| u32::try_from(*n).is_ok()) => {
            ("u32", "count_at")
        }
        Kind::NumberChoice(_) => ("i64", "integer_at"),
        Kind::Text { .. } if def.nullable => ("Option<String>", "optional_text_at"),
        Kind::Text { .. } => ("String", "text_at"),
        Kind::Select(options) => {
            let name = pascal_case(def.key);
            enums.push_str(&select_enum(&name, def, options));
            return (
                name.clone(),
                format!(
                    "{name}::from_name(&self.text_at({index})).unwrap_or({name}::{})",
                    default_variant(def)
                ),
            );
        }
        Kind::List(Kind::Text { .. } | Kind::Select(_)) => ("Vec<String>", "strings_at"),
        Kind::List(_) | Kind::Map(_) | Kind::Object(_) => ("serde_json::Value", "json_at"),
    };
    (ty.to_owned(), format!("self.{read}({index})"))
}

fn fits_u32(max: Option<f64>) -> bool {
    max.is_some_and(|max| max <= f64::from(u32::MAX))
}

fn default_variant(def: &SettingDef) -> String {
    match def.default {
        DefaultValue::Str(name) => variant(name),
        other => panic!("the select {} has the default {other:?}", def.key),
    }
}

fn select_enum(name: &str, def: &SettingDef, options: &[&str]) -> String {
    let mut out = format!(
        "\n/// The values of `{}`.\n#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]\npub enum {name} {{\n",
        def.key
    );
    let mut seen = HashSet::new();
    for option in options {
        let variant = variant(option);
        assert!(
            seen.insert(variant.clone()),
            "{}: two values read as {variant}",
            def.key
        );
        let _ = writeln!(out, "    /// `{option}`\n    {variant},");
    }
    let _ = writeln!(out, "}}\n\nimpl {name} {{");
    let listed: Vec<String> = options
        .iter()
        .map(|o| format!("Self::{}", variant(o)))
        .collect();
    let _ = writeln!(
        out,
        "    pub const ALL: [Self; {}] = [{}];\n",
        options.len(),
        listed.join(", ")
    );
    out.push_str("    /// The value as stored and sent.\n    pub fn as_str(self) -> &'static str {\n        match self {\n");
    for option in options {
        let _ = writeln!(out, "            Self::{} => {option:?},", variant(option));
    }
    out.push_str("        }\n    }\n\n    pub fn from_name(name: &str) -> Option<Self> {\n        Self::ALL.into_iter().find(|value| value.as_str() == name)\n    }\n}\n");
    out
}

impl SettingDef {
    /// The name of the key's typed accessor on [`crate::SettingsStore`].
    pub fn accessor_name(&self) -> String {
        snake_case(self.key)
    }
}

/// `sessionRefillDailySpendCapUSD` → `session_refill_daily_spend_cap_usd`.
fn snake_case(key: &str) -> String {
    let chars: Vec<char> = key.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            let previous = chars[i - 1];
            let next_is_lower = chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
            if previous.is_ascii_lowercase()
                || previous.is_ascii_digit()
                || (previous.is_ascii_uppercase() && next_is_lower)
            {
                out.push('_');
            }
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// `agentPermissionLevel` → `AgentPermissionLevel`.
fn pascal_case(key: &str) -> String {
    let mut chars = key.chars();
    chars
        .next()
        .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// A select value as a variant: `assigned-only` → `AssignedOnly`,
/// `PRIMARY.md` → `PrimaryMd`, `.altrules3/base.md` → `Altrules3BaseMd`.
fn variant(value: &str) -> String {
    let name: String = value
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|part| !part.is_empty())
        .map(|part| {
            let part = if part.chars().all(|c| !c.is_ascii_lowercase()) {
                part.to_ascii_lowercase()
            } else {
                part.to_owned()
            };
            pascal_case(&part)
        })
        .collect();
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("V{name}")
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::{snake_case, variant};

    #[test]
    fn keys_become_snake_case_methods() {
        assert_eq!(
            snake_case("sessionRefillDailySpendCapUSD"),
            "session_refill_daily_spend_cap_usd"
        );
        assert_eq!(
            snake_case("contextWarning75Enabled"),
            "context_warning75_enabled"
        );
        assert_eq!(
            snake_case("vendorABalanceAlertLeadHours"),
            "vendor_a_balance_alert_lead_hours"
        );
        assert_eq!(
            snake_case("tasksV2HideCompleted"),
            "tasks_v2_hide_completed"
        );
    }

    #[test]
    fn select_values_become_variants() {
        assert_eq!(variant("assigned-only"), "AssignedOnly");
        assert_eq!(variant("PRIMARY.md"), "PrimaryMd");
        assert_eq!(
            variant(".github/alt4-instructions.md"),
            "GithubAlt4InstructionsMd"
        );
        assert_eq!(variant("latest_topic"), "LatestTopic");
    }
}
