//! Weekday rules that start pomodoro runs ("weekdays at 09:00 in
//! Europe/Berlin, four blocks"): when a rule is due, on wall time in its
//! own zone, so a rule at 09:00 still starts at 09:00 after a change to or
//! from summer time.
//!
//! A rule starts at most one run a day. A server that was not running at
//! the start time still starts the run while its first block would not be
//! over yet; later than that, the day's run is left out rather than
//! started hours late.

use jiff::civil::{Date, Time, Weekday};
use jiff::tz::TimeZone;
use jiff::{Timestamp, Zoned};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::error::FocusError;
use crate::pomodoro::Plan;

/// One rule, as the wire and the store spell it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PomodoroRule {
    /// Made by the server when the rule is new.
    #[serde(default)]
    pub id: String,
    /// `mon` … `sun`.
    pub weekdays: Vec<String>,
    /// `HH:MM`, wall time in `time_zone`.
    pub start: String,
    /// An IANA zone such as `Europe/Berlin`.
    pub time_zone: String,
    #[serde(default)]
    pub plan: Plan,
}

const WEEKDAYS: [(&str, Weekday); 7] = [
    ("mon", Weekday::Monday),
    ("tue", Weekday::Tuesday),
    ("wed", Weekday::Wednesday),
    ("thu", Weekday::Thursday),
    ("fri", Weekday::Friday),
    ("sat", Weekday::Saturday),
    ("sun", Weekday::Sunday),
];

impl PomodoroRule {
    /// Refuses what could never be due, naming the field.
    pub fn validate(&self) -> Result<(), FocusError> {
        let invalid = |field: &'static str, message: String| FocusError::Invalid { field, message };
        if self.weekdays.is_empty() {
            return Err(invalid("weekdays", "name at least one day".into()));
        }
        if let Some(day) = self.weekdays.iter().find(|d| weekday(d).is_none()) {
            return Err(invalid(
                "weekdays",
                format!("{day:?} is not one of mon, tue, wed, thu, fri, sat, sun"),
            ));
        }
        start_time(&self.start)
            .ok_or_else(|| invalid("start", format!("{:?} is not a time HH:MM", self.start)))?;
        TimeZone::get(&self.time_zone).map_err(|_| {
            invalid(
                "timeZone",
                format!("{:?} is not an IANA time zone", self.time_zone),
            )
        })?;
        self.plan.validate()
    }

    /// The start of today's run (today in the rule's zone) when it is due
    /// at `now` and `last_started` is not today: the start time has come,
    /// and the first block would not be over yet.
    pub fn due(&self, now: Timestamp, last_started: Option<Date>) -> Option<Timestamp> {
        let zone = TimeZone::get(&self.time_zone).ok()?;
        let here = now.to_zoned(zone.clone());
        let today = here.date();
        if last_started == Some(today) {
            return None;
        }
        if !self
            .weekdays
            .iter()
            .any(|d| weekday(d) == Some(today.weekday()))
        {
            return None;
        }
        let start: Zoned = today
            .to_datetime(start_time(&self.start)?)
            .to_zoned(zone)
            .ok()?;
        let start = start.timestamp();
        let first_block =
            jiff::SignedDuration::from_mins(i64::from(self.plan.focus_minutes.max(1)));
        (start <= now && now < start + first_block).then_some(start)
    }

    /// The rule's local date at `at`: what [`PomodoroRule::due`] compares with.
    pub fn local_date(&self, at: Timestamp) -> Option<Date> {
        Some(at.to_zoned(TimeZone::get(&self.time_zone).ok()?).date())
    }
}

fn weekday(name: &str) -> Option<Weekday> {
    WEEKDAYS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, d)| *d)
}

fn start_time(text: &str) -> Option<Time> {
    let (hour, minute) = text.split_once(':')?;
    if hour.len() != 2 || minute.len() != 2 {
        return None;
    }
    Time::new(hour.parse().ok()?, minute.parse().ok()?, 0, 0).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(weekdays: &[&str], start: &str) -> PomodoroRule {
        PomodoroRule {
            id: "r".into(),
            weekdays: weekdays.iter().map(|d| d.to_string()).collect(),
            start: start.into(),
            time_zone: "Europe/Berlin".into(),
            plan: Plan::default(),
        }
    }

    fn at(text: &str) -> Timestamp {
        text.parse().unwrap_or(Timestamp::UNIX_EPOCH)
    }

    #[test]
    fn a_rule_is_due_on_its_weekdays_from_its_start_time_for_one_block() {
        let weekdays = rule(&["mon", "tue", "wed", "thu", "fri"], "09:00");
        // Monday 2026-01-05, 09:00 in Berlin is 08:00 UTC.
        assert_eq!(weekdays.due(at("2026-01-05T07:59:00Z"), None), None);
        assert_eq!(
            weekdays.due(at("2026-01-05T08:00:00Z"), None),
            Some(at("2026-01-05T08:00:00Z"))
        );
        assert!(weekdays.due(at("2026-01-05T08:24:00Z"), None).is_some());
        assert_eq!(weekdays.due(at("2026-01-05T08:25:00Z"), None), None);
        // Saturday.
        assert_eq!(weekdays.due(at("2026-01-10T08:00:00Z"), None), None);
    }

    #[test]
    fn a_rule_starts_once_a_day() {
        let daily = rule(&["mon"], "09:00");
        let now = at("2026-01-05T08:05:00Z");
        let today = daily.local_date(now);
        assert_eq!(daily.due(now, today), None);
        assert!(daily.due(at("2026-01-12T08:05:00Z"), today).is_some());
    }

    #[test]
    fn the_start_stays_on_wall_time_across_summer_time() {
        let monday = rule(&["mon"], "09:00");
        // 2026-03-30 is the Monday after Berlin moved to UTC+2.
        assert_eq!(monday.due(at("2026-03-30T08:00:00Z"), None), None);
        assert_eq!(
            monday.due(at("2026-03-30T07:00:00Z"), None),
            Some(at("2026-03-30T07:00:00Z"))
        );
    }

    #[test]
    fn bad_rules_name_their_field() {
        let field = |r: PomodoroRule| match r.validate() {
            Err(FocusError::Invalid { field, .. }) => field,
            _ => "valid",
        };
        assert_eq!(field(rule(&[], "09:00")), "weekdays");
        assert_eq!(field(rule(&["monday"], "09:00")), "weekdays");
        assert_eq!(field(rule(&["mon"], "9:00")), "start");
        assert_eq!(field(rule(&["mon"], "24:00")), "start");
        let mut zone = rule(&["mon"], "09:00");
        zone.time_zone = "Mars/Olympus".into();
        assert_eq!(field(zone), "timeZone");
        assert_eq!(field(rule(&["mon"], "09:00")), "valid");
    }
}
