//! What a recipe is (its wire shape and the fields that create or replace
//! one), the checks on those fields, and filling its prompt's `{{name}}`
//! placeholders: pure functions, no storage.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::error::AutomationError;
use crate::problems::Problems;

pub const MAX_NAME_CHARS: usize = 80;
/// 100 kB of prompt, counted in bytes as it is stored.
pub const MAX_PROMPT_BYTES: usize = 100_000;
pub const MAX_ENGINE_CHARS: usize = 64;
pub const MAX_RUNNER_CHARS: usize = 200;
pub const MAX_CWD_BYTES: usize = 4_096;
/// The levels `agentPermissionLevel` takes; a recipe may pin one.
pub const PERMISSION_LEVELS: [&str; 4] = ["read_only", "guarded", "autonomous", "full"];

/// How a recipe's session is kept apart from the user's working tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "RecipeIsolation")]
#[schema(as = RecipeIsolation)]
pub enum Isolation {
    /// A git worktree of its own, as a spawn with `isolation: worktree`.
    Worktree,
}

impl Isolation {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Isolation::Worktree => "worktree",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Self> {
        (text == "worktree").then_some(Isolation::Worktree)
    }
}

/// A saved start of a session: run by hand or on a schedule, each run is a
/// normal session under the spawn rules.
#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Recipe {
    pub id: String,
    /// Unique in the account (letter case aside).
    pub name: String,
    pub engine: String,
    /// May hold `{{name}}` placeholders, filled at each run.
    pub prompt: String,
    /// The placeholders the prompt names, in order of first use.
    pub placeholders: Vec<String>,
    /// The folder the session starts in (absolute).
    pub cwd: String,
    pub isolation: Option<Isolation>,
    /// The pool runner to start on; `null`: this machine.
    pub runner: Option<String>,
    /// One of `read_only`, `guarded`, `autonomous`, `full`: the level each
    /// run's session runs at for its whole life (for a run an agent had a
    /// hand in, no higher than `agentPermissionLevel`); `null`: the
    /// account's `agentPermissionLevel`.
    pub permission_level: Option<String>,
    /// The most one run may spend, in US dollars (with
    /// `agentDrivenMaxDollarsPerSession` set, the smaller of the two); a run
    /// whose session reaches it is stopped and ends `incomplete`. `null`: no cap.
    pub spend_cap_usd: Option<f64>,
    /// Made with an agent's token: its runs never get a level above
    /// `agentPermissionLevel`. Only the user makes recipes today, so it is
    /// `false` on every recipe the API made.
    pub created_by_agent: bool,
    pub created_at: String,
    pub updated_at: String,
    /// Whose recipe it is.
    #[serde(skip)]
    #[ts(skip)]
    #[schema(ignore)]
    pub account_id: String,
}

/// The fields that create a recipe, or replace all of one's.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[ts(rename = "RecipeFields")]
#[schema(as = RecipeFields)]
pub struct NewRecipe {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub engine: String,
    #[serde(default)]
    pub prompt: String,
    #[serde(default)]
    pub cwd: String,
    #[ts(optional)]
    pub isolation: Option<Isolation>,
    #[ts(optional)]
    pub runner: Option<String>,
    #[ts(optional)]
    pub permission_level: Option<String>,
    #[ts(optional)]
    pub spend_cap_usd: Option<f64>,
}

impl NewRecipe {
    /// The fields checked and tidied (names and paths trimmed, a blank
    /// optional field as none), or every field that is wrong. `folder`
    /// says why a folder of this machine cannot be used, if it cannot; a
    /// folder on a pool runner is the runner's to check.
    pub fn validate(
        &self,
        folder: &dyn Fn(&str) -> Option<String>,
    ) -> Result<NewRecipe, AutomationError> {
        let mut problems = Problems::new();
        let name = self.name.trim();
        if name.is_empty() {
            problems.add("name", "Give the recipe a name.");
        } else if name.chars().count() > MAX_NAME_CHARS {
            problems.add(
                "name",
                format!("The name can be at most {MAX_NAME_CHARS} characters."),
            );
        }
        let engine = self.engine.trim();
        let engine_chars = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
        if engine.is_empty() {
            problems.add("engine", "Choose an engine.");
        } else if engine.len() > MAX_ENGINE_CHARS || !engine.chars().all(engine_chars) {
            problems.add(
                "engine",
                "An engine's name has only letters, digits, '-', '_' and '.'.",
            );
        }
        if self.prompt.trim().is_empty() {
            problems.add("prompt", "Write the prompt the session starts with.");
        } else if self.prompt.len() > MAX_PROMPT_BYTES {
            problems.add(
                "prompt",
                format!("The prompt can be at most {MAX_PROMPT_BYTES} bytes."),
            );
        }
        let runner = blank_as_none(&self.runner);
        let cwd = self.cwd.trim();
        if cwd.is_empty() {
            problems.add("cwd", "Give the folder the session starts in.");
        } else if !Path::new(cwd).is_absolute() || cwd.len() > MAX_CWD_BYTES || cwd.contains('\0') {
            problems.add(
                "cwd",
                "Give the folder as an absolute path, such as /home/me/project.",
            );
        } else if runner.is_none()
            && let Some(why) = folder(cwd)
        {
            problems.add("cwd", why);
        }
        if runner
            .as_ref()
            .is_some_and(|r| r.chars().count() > MAX_RUNNER_CHARS)
        {
            problems.add(
                "runner",
                format!("A runner's name can be at most {MAX_RUNNER_CHARS} characters."),
            );
        }
        let permission_level = blank_as_none(&self.permission_level);
        if let Some(level) = &permission_level
            && !PERMISSION_LEVELS.contains(&level.as_str())
        {
            problems.add(
                "permissionLevel",
                format!(
                    "The permission level must be one of {}.",
                    PERMISSION_LEVELS.join(", ")
                ),
            );
        }
        if let Some(cap) = self.spend_cap_usd
            && !(cap.is_finite() && cap > 0.0)
        {
            problems.add(
                "spendCapUsd",
                "The spend cap must be a number of dollars above 0.",
            );
        }
        problems.or(|| NewRecipe {
            name: name.to_owned(),
            engine: engine.to_owned(),
            prompt: self.prompt.clone(),
            cwd: cwd.to_owned(),
            isolation: self.isolation,
            runner,
            permission_level,
            spend_cap_usd: self.spend_cap_usd,
        })
    }
}

/// Why a folder of this machine cannot be a session's, if it cannot.
pub fn folder_here(cwd: &str) -> Option<String> {
    match std::fs::metadata(Path::new(cwd)) {
        Ok(meta) if meta.is_dir() => None,
        Ok(_) => Some(format!("{cwd} is a file, not a folder.")),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Some(format!("No folder {cwd} exists on this machine."))
        }
        Err(_) => Some(format!("The folder {cwd} cannot be opened.")),
    }
}

fn blank_as_none(value: &Option<String>) -> Option<String> {
    value
        .as_deref()
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(str::to_owned)
}

/// One piece of a prompt: text as it is, or a placeholder to fill.
enum Piece<'a> {
    Text(&'a str),
    Placeholder(&'a str),
}

/// A placeholder's name: a letter or `_`, then letters, digits, `_`, `-`
/// or `.`. Anything else between braces (a template of the user's own, a
/// code sample) is text.
pub(crate) fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// Splits a prompt into text and `{{name}}` placeholders (spaces inside the
/// braces allowed). A `{{` with no `}}` after it, or braces around no name,
/// stay text.
fn pieces(prompt: &str) -> Vec<Piece<'_>> {
    let mut pieces = Vec::new();
    let mut rest = prompt;
    let mut text_start = 0;
    let mut offset = 0;
    while let Some(open) = rest.find("{{") {
        let after_open = &rest[open + 2..];
        let Some(close) = after_open.find("}}") else {
            break;
        };
        let name = after_open[..close].trim();
        let whole_end = offset + open + 2 + close + 2;
        if is_name(name) {
            pieces.push(Piece::Text(&prompt[text_start..offset + open]));
            pieces.push(Piece::Placeholder(name));
            text_start = whole_end;
            offset = whole_end;
            rest = &prompt[whole_end..];
        } else {
            // Braces around no name: step past the first brace only, so a
            // later `{{name}}` inside them is still found.
            offset += open + 1;
            rest = &prompt[offset..];
        }
    }
    pieces.push(Piece::Text(&prompt[text_start..]));
    pieces
}

/// The placeholders a prompt names, each once, in order of first use.
pub fn placeholders(prompt: &str) -> Vec<String> {
    let mut seen = BTreeSet::new();
    pieces(prompt)
        .into_iter()
        .filter_map(|piece| match piece {
            Piece::Placeholder(name) if seen.insert(name) => Some(name.to_owned()),
            _ => None,
        })
        .collect()
}

/// The prompt with each `{{name}}` replaced by its value. Values are not
/// read again for placeholders, so a value holding `{{x}}` stays as it is;
/// values the prompt does not name are ignored. Every placeholder without
/// a value is named in the error.
pub fn render(prompt: &str, values: &BTreeMap<String, String>) -> Result<String, AutomationError> {
    let mut out = String::with_capacity(prompt.len());
    let mut missing: Vec<String> = Vec::new();
    for piece in pieces(prompt) {
        match piece {
            Piece::Text(text) => out.push_str(text),
            Piece::Placeholder(name) => match values.get(name) {
                Some(value) => out.push_str(value),
                None if !missing.iter().any(|m| m == name) => missing.push(name.to_owned()),
                None => {}
            },
        }
    }
    if missing.is_empty() {
        Ok(out)
    } else {
        Err(AutomationError::MissingValues(missing))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    /// Every folder exists.
    fn anywhere(_: &str) -> Option<String> {
        None
    }

    fn recipe() -> NewRecipe {
        NewRecipe {
            name: "  Nightly triage ".into(),
            engine: "claude".into(),
            prompt: "Triage {{label}}".into(),
            cwd: "/home/me/project".into(),
            runner: Some("  ".into()),
            ..NewRecipe::default()
        }
    }

    #[test]
    fn placeholders_are_filled_and_missing_ones_named() {
        let prompt = "Fix {{ticket}} on {{ branch }}; then {{ticket}} again.";
        assert_eq!(placeholders(prompt), vec!["ticket", "branch"]);
        let filled = render(prompt, &values(&[("ticket", "#42"), ("branch", "main")])).unwrap();
        assert_eq!(filled, "Fix #42 on main; then #42 again.");
        let error = render(prompt, &values(&[("other", "x")])).unwrap_err();
        assert!(
            matches!(&error, AutomationError::MissingValues(names) if names == &["ticket", "branch"]),
            "{error}"
        );
        assert_eq!(
            error.to_string(),
            "no value for the placeholders {{ticket}}, {{branch}}"
        );
    }

    #[test]
    fn unclosed_or_nameless_braces_are_text() {
        let empty = BTreeMap::new();
        for literal in [
            "no placeholders",
            "a {{ left open",
            "{{}} and {{ 1x }} and {{two words}}",
            "}} {{",
            "{",
            "",
        ] {
            assert_eq!(render(literal, &empty).unwrap(), literal, "{literal:?}");
            assert!(placeholders(literal).is_empty(), "{literal:?}");
        }
        // A name inside braces that are not one is still found.
        let nested = "{{ {{name}} }}";
        assert_eq!(placeholders(nested), vec!["name"]);
        assert_eq!(
            render(nested, &values(&[("name", "v")])).unwrap(),
            "{{ v }}"
        );
        // A value is not read again for placeholders.
        assert_eq!(
            render("{{a}}", &values(&[("a", "{{b}}")])).unwrap(),
            "{{b}}"
        );
        assert_eq!(render("é{{a}}ß", &values(&[("a", "ü")])).unwrap(), "éüß");
    }

    #[test]
    fn a_valid_recipe_is_tidied() {
        let clean = recipe().validate(&anywhere).unwrap();
        assert_eq!(clean.name, "Nightly triage");
        assert_eq!(clean.runner, None);
        let capped = NewRecipe {
            spend_cap_usd: Some(2.5),
            permission_level: Some("autonomous".into()),
            isolation: Some(Isolation::Worktree),
            ..recipe()
        };
        assert_eq!(capped.validate(&anywhere).unwrap().spend_cap_usd, Some(2.5));
    }

    #[test]
    fn each_bad_field_is_named() {
        let cases: Vec<(NewRecipe, &str)> = vec![
            (
                NewRecipe {
                    name: " ".into(),
                    ..recipe()
                },
                "name",
            ),
            (
                NewRecipe {
                    name: "x".repeat(81),
                    ..recipe()
                },
                "name",
            ),
            (
                NewRecipe {
                    engine: "two words".into(),
                    ..recipe()
                },
                "engine",
            ),
            (
                NewRecipe {
                    prompt: " \n".into(),
                    ..recipe()
                },
                "prompt",
            ),
            (
                NewRecipe {
                    prompt: "x".repeat(MAX_PROMPT_BYTES + 1),
                    ..recipe()
                },
                "prompt",
            ),
            (
                NewRecipe {
                    cwd: "relative/dir".into(),
                    ..recipe()
                },
                "cwd",
            ),
            (
                NewRecipe {
                    permission_level: Some("root".into()),
                    ..recipe()
                },
                "permissionLevel",
            ),
            (
                NewRecipe {
                    spend_cap_usd: Some(0.0),
                    ..recipe()
                },
                "spendCapUsd",
            ),
            (
                NewRecipe {
                    spend_cap_usd: Some(f64::NAN),
                    ..recipe()
                },
                "spendCapUsd",
            ),
        ];
        for (fields, field) in cases {
            let error = fields.validate(&anywhere).unwrap_err();
            assert_eq!(error.field(), Some(field), "{error}");
        }
        // Exactly the limits are fine.
        let at_limits = NewRecipe {
            name: "é".repeat(80),
            prompt: "x".repeat(MAX_PROMPT_BYTES),
            ..recipe()
        };
        assert!(at_limits.validate(&anywhere).is_ok());
    }

    fn messages(error: AutomationError) -> Vec<(&'static str, String)> {
        match error {
            AutomationError::Fields(list) => {
                list.into_iter().map(|p| (p.field, p.message)).collect()
            }
            other => panic!("not a list of fields: {other}"),
        }
    }

    #[test]
    fn bad_inputs_are_said_in_words() {
        let table: Vec<(NewRecipe, &str, &str)> = vec![
            (
                NewRecipe {
                    name: " ".into(),
                    ..recipe()
                },
                "name",
                "Give the recipe a name.",
            ),
            (
                NewRecipe {
                    name: "x".repeat(81),
                    ..recipe()
                },
                "name",
                "The name can be at most 80 characters.",
            ),
            (
                NewRecipe {
                    engine: "".into(),
                    ..recipe()
                },
                "engine",
                "Choose an engine.",
            ),
            (
                NewRecipe {
                    prompt: "".into(),
                    ..recipe()
                },
                "prompt",
                "Write the prompt the session starts with.",
            ),
            (
                NewRecipe {
                    cwd: "".into(),
                    ..recipe()
                },
                "cwd",
                "Give the folder the session starts in.",
            ),
            (
                NewRecipe {
                    cwd: "project".into(),
                    ..recipe()
                },
                "cwd",
                "Give the folder as an absolute path, such as /home/me/project.",
            ),
            (
                NewRecipe {
                    spend_cap_usd: Some(-1.0),
                    ..recipe()
                },
                "spendCapUsd",
                "The spend cap must be a number of dollars above 0.",
            ),
        ];
        for (fields, field, message) in table {
            let found = messages(fields.validate(&anywhere).unwrap_err());
            assert_eq!(found, vec![(field, message.to_owned())]);
        }
    }

    #[test]
    fn every_bad_field_is_said_at_once_and_a_missing_folder_is_one() {
        let empty = NewRecipe::default().validate(&anywhere).unwrap_err();
        let fields: Vec<&str> = messages(empty).into_iter().map(|(f, _)| f).collect();
        assert_eq!(fields, ["name", "engine", "prompt", "cwd"]);

        let dir = tempfile::tempdir().unwrap();
        let gone = dir.path().join("never").display().to_string();
        let here = NewRecipe {
            cwd: gone.clone(),
            ..recipe()
        };
        assert_eq!(
            messages(here.validate(&folder_here).unwrap_err()),
            vec![("cwd", format!("No folder {gone} exists on this machine."))]
        );
        // A folder on a pool runner is the runner's to check.
        let remote = NewRecipe {
            runner: Some("gpu-box".into()),
            ..here
        };
        assert!(remote.validate(&folder_here).is_ok());
        let file = dir.path().join("notes.txt");
        std::fs::write(&file, "x").unwrap();
        let file = file.display().to_string();
        assert_eq!(
            folder_here(&file),
            Some(format!("{file} is a file, not a folder."))
        );
        assert_eq!(folder_here(&dir.path().display().to_string()), None);
    }
}
