//! The title of a run's session, so five runs of one recipe read as five
//! different things: "Triage issues — repo=web, 27 Nov 10:00" for a run by
//! hand or a schedule's tick (the values of the placeholders its prompt
//! names), "Triage issues — “Fix login” moved to Ready, 10:05" for a
//! rule's (the event it answered). Pure: the caller gives the time zone.

use std::collections::BTreeMap;

use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::recipe::placeholders;
use crate::run::Start;
use crate::stamp::parse_stamp;
use crate::trigger::{Event, SessionOutcome};

/// As long as a session's title may be.
pub const MAX_TITLE_CHARS: usize = 200;
/// What the run is about, at most: the title is read in a list, where the
/// time after it must still show.
const MAX_ABOUT_CHARS: usize = 60;
/// One value or name inside that.
const MAX_PART_CHARS: usize = 24;

/// "Triage issues — repo=web, 27 Nov 10:00": the recipe's name, what the
/// run is about (`None`: nothing beyond the recipe), and when, in `zone`
/// (`None`: not known). Never longer than [`MAX_TITLE_CHARS`]: the name is
/// clipped before what follows it.
pub fn run_title(
    recipe: &str,
    about: Option<&str>,
    at: Option<Timestamp>,
    zone: &TimeZone,
) -> String {
    let when = at.map(|at| {
        at.to_zoned(zone.clone())
            .strftime("%-d %b %H:%M")
            .to_string()
    });
    let about = about.map(|a| clip(&one_line(a), MAX_ABOUT_CHARS));
    let rest = match (about.filter(|a| !a.is_empty()), when) {
        (Some(about), Some(when)) => format!("{about}, {when}"),
        (Some(about), None) => about,
        (None, Some(when)) => when,
        (None, None) => return clip(&one_line(recipe), MAX_TITLE_CHARS),
    };
    const DASH: &str = " — ";
    let room = MAX_TITLE_CHARS.saturating_sub(rest.chars().count() + DASH.chars().count());
    format!("{}{DASH}{rest}", clip(&one_line(recipe), room.max(1)))
}

/// "repo=web, label=bug": the values of the placeholders `prompt` names,
/// in the order it first names them, each clipped; `None` when it names
/// none. Values it does not name (a rule's event fields) are left out.
pub fn values_about(prompt: &str, values: &BTreeMap<String, String>) -> Option<String> {
    let parts: Vec<String> = placeholders(prompt)
        .iter()
        .filter_map(|name| {
            let value = values.get(name)?;
            Some(format!(
                "{}={}",
                clip(name, MAX_PART_CHARS),
                clip(&one_line(value), MAX_PART_CHARS)
            ))
        })
        .collect();
    (!parts.is_empty()).then(|| clip(&parts.join(", "), MAX_ABOUT_CHARS))
}

/// The event a rule answered, in a few words: "“Fix login” moved to
/// Ready", "webhook “CI failed”", "session “Nightly” failed".
pub fn event_about(event: &Event) -> String {
    let quoted = |text: &str| format!("“{}”", clip(&one_line(text), MAX_PART_CHARS));
    match event {
        Event::Webhook { title, .. } => format!("webhook {}", quoted(title)),
        Event::ItemStatus { item, status, .. } => {
            format!(
                "{} moved to {}",
                quoted(&item.name),
                clip(status, MAX_PART_CHARS)
            )
        }
        // The group is known by its id alone, which says nothing to a reader.
        Event::ItemGroup { item, .. } => format!("{} moved", quoted(&item.name)),
        Event::SessionEnd { title, outcome, .. } => {
            let ended = match outcome {
                SessionOutcome::Finished => "finished",
                SessionOutcome::Failed => "failed",
                SessionOutcome::NeedsUser => "waits for you",
            };
            format!("session {} {ended}", quoted(title))
        }
        Event::Schedule { .. } => "a schedule's tick".to_owned(),
    }
}

impl Start {
    /// The title of the run's session ([`run_title`]): what the run is
    /// about, at the tick it stands for (a schedule's) or when it started,
    /// in `zone`.
    pub fn title(&self, zone: &TimeZone) -> String {
        let at = self
            .run
            .scheduled_for
            .as_deref()
            .unwrap_or(&self.run.started_at);
        run_title(
            &self.recipe.name,
            self.about.as_deref(),
            parse_stamp(at).ok(),
            zone,
        )
    }
}

/// Runs of whitespace, line breaks included, as one space.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` in at most `max` characters, the last an ellipsis when cut.
fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let kept: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{}…", kept.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trigger::{Cause, ItemFacts};

    fn at(text: &str) -> Option<Timestamp> {
        Some(text.parse().unwrap())
    }

    fn values(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    fn berlin() -> TimeZone {
        TimeZone::get("Europe/Berlin").unwrap()
    }

    #[test]
    fn a_run_is_titled_by_its_recipe_what_it_is_about_and_when_in_the_zone() {
        let title = run_title(
            "Triage issues",
            Some("repo=web"),
            at("2026-11-27T09:00:00Z"),
            &berlin(),
        );
        assert_eq!(title, "Triage issues — repo=web, 27 Nov 10:00");
        let title = run_title(
            "Triage issues",
            None,
            at("2026-11-03T09:05:00Z"),
            &TimeZone::UTC,
        );
        assert_eq!(title, "Triage issues — 3 Nov 09:05");
        assert_eq!(
            run_title("Triage issues", Some("repo=web"), None, &TimeZone::UTC),
            "Triage issues — repo=web"
        );
        assert_eq!(
            run_title("Triage issues", Some("  "), None, &TimeZone::UTC),
            "Triage issues"
        );
    }

    #[test]
    fn the_values_are_the_prompts_placeholders_in_order_each_on_one_line_and_clipped() {
        let prompt = "Triage {{repo}} issues labelled {{label}}, again {{repo}}";
        let given = values(&[
            ("label", "bug\n  urgent"),
            ("repo", "web"),
            ("item.id", "i-1"),
        ]);
        assert_eq!(
            values_about(prompt, &given).as_deref(),
            Some("repo=web, label=bug urgent")
        );
        assert_eq!(values_about("No placeholders", &given), None);
        let long = values(&[("repo", &"x".repeat(100))]);
        let about = values_about("{{repo}}", &long).unwrap();
        assert_eq!(about.chars().count(), "repo=".len() + MAX_PART_CHARS);
        assert!(about.ends_with('…'), "{about}");
        let many: BTreeMap<String, String> = (0..10)
            .map(|n| (format!("p{n}"), "value".repeat(4)))
            .collect();
        let prompt: String = (0..10).map(|n| format!("{{{{p{n}}}}}")).collect();
        let about = values_about(&prompt, &many).unwrap();
        assert_eq!(about.chars().count(), MAX_ABOUT_CHARS);
    }

    #[test]
    fn a_rules_run_is_about_its_event() {
        let item = ItemFacts {
            board_id: "b".into(),
            item_id: "i".into(),
            name: "Fix login".into(),
            group_id: "g-123".into(),
            values: serde_json::Map::new(),
        };
        let moved = Event::ItemStatus {
            item: item.clone(),
            column: "status".into(),
            status: "Ready for agent".into(),
            cause: Cause::default(),
        };
        assert_eq!(event_about(&moved), "“Fix login” moved to Ready for agent");
        let grouped = Event::ItemGroup {
            item,
            cause: Cause::default(),
        };
        assert_eq!(event_about(&grouped), "“Fix login” moved");
        let hook = Event::Webhook {
            webhook_id: "w".into(),
            title: "CI failed on main".into(),
            body: serde_json::Value::Null,
        };
        assert_eq!(event_about(&hook), "webhook “CI failed on main”");
        let ended = Event::SessionEnd {
            session_id: "s".into(),
            title: "Nightly".into(),
            outcome: SessionOutcome::Failed,
            recipe_id: None,
            summary: None,
            cause: Cause::default(),
        };
        assert_eq!(event_about(&ended), "session “Nightly” failed");
        let title = run_title(
            "Triage issues",
            Some(&event_about(&moved)),
            at("2026-11-27T09:05:00Z"),
            &berlin(),
        );
        assert_eq!(
            title,
            "Triage issues — “Fix login” moved to Ready for agent, 27 Nov 10:05"
        );
    }

    #[test]
    fn a_title_never_passes_a_sessions_limit_and_keeps_its_time() {
        let name = "N".repeat(500);
        let title = run_title(
            &name,
            Some("repo=web"),
            at("2026-11-27T09:00:00Z"),
            &TimeZone::UTC,
        );
        assert_eq!(title.chars().count(), MAX_TITLE_CHARS);
        assert!(title.ends_with("… — repo=web, 27 Nov 09:00"), "{title}");
        assert_eq!(
            run_title("Two\nlines", None, None, &TimeZone::UTC),
            "Two lines"
        );
    }
}
