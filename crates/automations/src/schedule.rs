//! What a schedule is (a recipe on a cron pattern or an RRULE, in a time
//! zone), its states and missed-run policy, and the checks on the fields
//! that create one: pure, no storage.

use std::collections::BTreeMap;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::error::AutomationError;
use crate::ical::normalize_rrule;
use crate::problems::Problems;
use crate::recipe::{MAX_PROMPT_BYTES, is_name};
use crate::rule::{Rule, time_zone};

/// When a schedule fires: exactly one of a cron pattern or an RRULE.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "ScheduleSpec")]
#[schema(as = ScheduleSpec)]
pub enum Spec {
    /// Five fields: minute, hour, day of month, month, day of week.
    Cron(String),
    /// `DTSTART;TZID=…` and `RRULE:…` lines, as stored (the DTSTART given,
    /// or the first minute after the schedule was made).
    Rrule(String),
}

impl Spec {
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Spec::Cron(_) => "cron",
            Spec::Rrule(_) => "rrule",
        }
    }

    pub(crate) fn text(&self) -> &str {
        match self {
            Spec::Cron(text) | Spec::Rrule(text) => text,
        }
    }

    pub(crate) fn from_parts(kind: &str, text: String) -> Option<Spec> {
        match kind {
            "cron" => Some(Spec::Cron(text)),
            "rrule" => Some(Spec::Rrule(text)),
            _ => None,
        }
    }
}

/// What happens to ticks that passed while the server was down.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "ScheduleMissed")]
#[schema(as = ScheduleMissed)]
pub enum Missed {
    /// One catch-up run, however many ticks passed.
    #[default]
    RunOnce,
    /// No run for them; the schedule waits for its next tick.
    Skip,
}

impl Missed {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Missed::RunOnce => "run_once",
            Missed::Skip => "skip",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Self> {
        [Missed::RunOnce, Missed::Skip]
            .into_iter()
            .find(|m| m.as_str() == text)
    }
}

/// Whether a schedule fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "ScheduleState")]
#[schema(as = ScheduleState)]
pub enum State {
    /// Fires at `nextAt`.
    Active,
    /// Made by an agent: fires only once the user approves it.
    Pending,
    /// Stopped by the user; resuming waits for the next tick.
    Paused,
}

impl State {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            State::Active => "active",
            State::Pending => "pending",
            State::Paused => "paused",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Self> {
        [State::Active, State::Pending, State::Paused]
            .into_iter()
            .find(|s| s.as_str() == text)
    }
}

/// A recipe on a schedule.
#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "RecipeSchedule")]
#[schema(as = RecipeSchedule)]
pub struct Schedule {
    pub id: String,
    pub recipe_id: String,
    /// `cron` or `rrule`.
    #[serde(flatten)]
    pub spec: Spec,
    /// The IANA zone the rule is read in.
    pub time_zone: String,
    pub missed: Missed,
    pub state: State,
    /// Made with an agent's token (so it waited for approval).
    pub created_by_agent: bool,
    /// The values of the recipe prompt's placeholders for every run.
    pub values: BTreeMap<String, String>,
    /// The next tick it waits for (RFC 3339, UTC); `null` unless active, or
    /// once the rule has no more ticks.
    pub next_at: Option<String>,
    /// When it last started a run.
    pub last_run_at: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    #[serde(skip)]
    #[ts(skip)]
    #[schema(ignore)]
    pub account_id: String,
}

impl Schedule {
    /// Its rule, compiled in its zone.
    pub fn rule(&self) -> Result<Rule, AutomationError> {
        let (_, zone) = time_zone(&self.time_zone)?;
        match &self.spec {
            Spec::Cron(pattern) => Rule::cron(pattern, &zone),
            Spec::Rrule(text) => Rule::rrule(text, &zone),
        }
    }
}

/// The fields that create a schedule.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[ts(rename = "RecipeScheduleFields")]
#[schema(as = RecipeScheduleFields)]
pub struct NewSchedule {
    #[serde(default)]
    pub recipe_id: String,
    /// Five fields; give this or `rrule`.
    #[ts(optional)]
    pub cron: Option<String>,
    /// An RFC 5545 RRULE (`FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0`),
    /// optionally after a `DTSTART` line; give this or `cron`.
    #[ts(optional)]
    pub rrule: Option<String>,
    /// An IANA zone such as `Europe/Berlin`.
    #[serde(default)]
    pub time_zone: String,
    /// Default `run_once`.
    #[ts(optional)]
    pub missed: Option<Missed>,
    /// Values for the recipe prompt's placeholders.
    #[serde(default)]
    #[ts(as = "Option<BTreeMap<String, String>>", optional)]
    pub values: BTreeMap<String, String>,
}

/// A [`NewSchedule`] checked: the spec in its stored form, the zone's
/// canonical name, and the rule compiled.
#[derive(Debug, Clone)]
pub struct Checked {
    pub spec: Spec,
    pub time_zone: String,
    pub missed: Missed,
    pub rule: Rule,
}

pub const MAX_SPEC_BYTES: usize = 2_000;

impl NewSchedule {
    /// Checks every field it can alone (`now` is an RRULE's DTSTART when
    /// it gives none): the recipe and the values are checked against the
    /// store. Every problem is said, not only the first: a bad rule is
    /// read in UTC when the zone is bad too, so both are told.
    pub fn validate(&self, now: Timestamp) -> Result<Checked, AutomationError> {
        let mut problems = Problems::new();
        if self.recipe_id.trim().is_empty() {
            problems.add("recipeId", "Choose the recipe to run.");
        }
        let given = |v: &Option<String>| {
            v.as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
        };
        let spec = match (given(&self.cron), given(&self.rrule)) {
            (Some(_), Some(_)) => {
                problems.add("cron", "Give a cron pattern or an RRULE, not both.");
                None
            }
            (Some(cron), None) => Some(("cron", cron)),
            (None, Some(rrule)) => Some(("rrule", rrule)),
            (None, None) => {
                problems.add("cron", "Give a cron pattern or an RRULE.");
                None
            }
        };
        let spec = spec.filter(|(field, text)| {
            let fits = text.len() <= MAX_SPEC_BYTES;
            if !fits {
                problems.add(
                    field,
                    format!("A rule can be at most {MAX_SPEC_BYTES} bytes."),
                );
            }
            fits
        });
        if let Some(bad) = self.values.keys().find(|name| !is_name(name)) {
            problems.add(
                "values",
                format!(
                    "{bad:?} is not a placeholder's name (a letter or _, then letters, digits, _, - or .)."
                ),
            );
        }
        let size: usize = self.values.iter().map(|(k, v)| k.len() + v.len()).sum();
        if size > MAX_PROMPT_BYTES {
            problems.add(
                "values",
                format!("The values can be at most {MAX_PROMPT_BYTES} bytes in all."),
            );
        }
        let zone = match time_zone(&self.time_zone) {
            Ok(zone) => Some(zone),
            Err(error) => {
                problems.absorb(error)?;
                None
            }
        };
        let (zone_name, tz) = zone
            .clone()
            .unwrap_or_else(|| ("UTC".to_owned(), jiff::tz::TimeZone::UTC));
        let compiled = match spec {
            Some((field, text)) => {
                let compiled = if field == "cron" {
                    let pattern = text.split_whitespace().collect::<Vec<_>>().join(" ");
                    Rule::cron(&pattern, &tz).map(|rule| (Spec::Cron(pattern), rule))
                } else {
                    normalize_rrule(&text, &zone_name, &tz, now).and_then(|normalized| {
                        let rule = Rule::rrule(&normalized, &tz)?;
                        Ok((Spec::Rrule(normalized), rule))
                    })
                };
                match compiled {
                    Ok((spec, rule)) => {
                        if zone.is_some() && rule.next_after(now).is_none() {
                            problems.add(field, never_again(field));
                        }
                        Some((spec, rule))
                    }
                    Err(error) => {
                        problems.absorb(error)?;
                        None
                    }
                }
            }
            None => None,
        };
        match compiled {
            Some((spec, rule)) if problems.is_empty() => Ok(Checked {
                spec,
                time_zone: zone_name,
                missed: self.missed.unwrap_or_default(),
                rule,
            }),
            _ => Err(problems.into_error()),
        }
    }
}

/// What a rule with no tick left after now is told.
pub fn never_again(field: &str) -> &'static str {
    if field == "cron" {
        "The cron pattern never comes round: no date matches it."
    } else {
        "The RRULE has no time left after now."
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(cron: Option<&str>, rrule: Option<&str>, zone: &str) -> NewSchedule {
        NewSchedule {
            recipe_id: "r1".into(),
            cron: cron.map(str::to_owned),
            rrule: rrule.map(str::to_owned),
            time_zone: zone.into(),
            ..NewSchedule::default()
        }
    }

    #[test]
    fn bad_input_names_its_field() {
        let now: Timestamp = "2026-01-05T08:00:00Z".parse().unwrap();
        let cases = [
            (fields(Some("0 9 * * *"), Some("FREQ=DAILY"), "UTC"), "cron"),
            (fields(None, None, "UTC"), "cron"),
            (fields(Some("  "), None, "UTC"), "cron"),
            (fields(Some("0 9 * *"), None, "UTC"), "cron"),
            (fields(Some("0 0 30 2 *"), None, "UTC"), "cron"),
            (
                fields(None, Some("FREQ=HOURLY;BYMINUTE=61"), "UTC"),
                "rrule",
            ),
            (
                fields(
                    None,
                    Some("DTSTART:20250101T090000Z\nRRULE:FREQ=DAILY;COUNT=2"),
                    "UTC",
                ),
                "rrule",
            ),
            (
                fields(Some("0 9 * * *"), None, "Atlantis/Capital"),
                "timeZone",
            ),
            (fields(Some("0 9 * * *"), None, ""), "timeZone"),
            (
                NewSchedule {
                    values: [("not a name".to_owned(), "x".to_owned())].into(),
                    ..fields(Some("0 9 * * *"), None, "UTC")
                },
                "values",
            ),
            (
                NewSchedule {
                    recipe_id: " ".into(),
                    ..fields(Some("0 9 * * *"), None, "UTC")
                },
                "recipeId",
            ),
        ];
        for (new, field) in cases {
            let error = new.validate(now).unwrap_err();
            assert_eq!(error.field(), Some(field), "{new:?}: {error}");
        }
    }

    #[test]
    fn a_good_schedule_is_stored_in_its_clean_form() {
        let now: Timestamp = "2026-01-05T08:00:00Z".parse().unwrap();
        let cron = fields(Some(" 0  9 * *   MON-FRI "), None, "america/new_york")
            .validate(now)
            .unwrap();
        assert_eq!(cron.spec, Spec::Cron("0 9 * * MON-FRI".into()));
        assert_eq!(cron.time_zone, "America/New_York");
        assert_eq!(cron.missed, Missed::RunOnce);
        let json = serde_json::to_value(Spec::Cron("0 9 * * *".into())).unwrap();
        assert_eq!(json, serde_json::json!({"cron": "0 9 * * *"}));
        let body: NewSchedule = serde_json::from_value(serde_json::json!({
            "recipeId": "r1", "rrule": "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
            "timeZone": "Europe/Berlin", "missed": "skip"
        }))
        .unwrap();
        let rrule = body.validate(now).unwrap();
        assert_eq!(rrule.missed, Missed::Skip);
        assert!(
            matches!(rrule.spec, Spec::Rrule(ref t) if t.starts_with("DTSTART;TZID=Europe/Berlin:20260105T090100\n"))
        );
    }

    #[test]
    fn a_bad_rule_and_a_bad_zone_are_both_said() {
        let now: Timestamp = "2026-01-05T08:00:00Z".parse().unwrap();
        let error = fields(Some("61 25 * * *"), None, "Mars/Olympus")
            .validate(now)
            .unwrap_err();
        let AutomationError::Fields(list) = error else {
            panic!("not a list of fields");
        };
        let said: Vec<(&str, &str)> = list.iter().map(|p| (p.field, p.message.as_str())).collect();
        assert_eq!(
            said,
            [
                (
                    "timeZone",
                    "No time zone is called Mars/Olympus: use a name such as Europe/Berlin."
                ),
                ("cron", "The minute must be 0–59, not 61."),
                ("cron", "The hour must be 0–23, not 25."),
            ]
        );
        let never = fields(Some("0 0 30 2 *"), None, "UTC")
            .validate(now)
            .unwrap_err();
        assert_eq!(
            never.to_string(),
            "The cron pattern never comes round: no date matches it."
        );
    }
}
