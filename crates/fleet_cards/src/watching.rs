//! Agent-watching time: seconds with a session page in front, summed per
//! local day, and the week's recap once it held heavy watching.
//!
//! The caller samples every [`SAMPLE`]: a sample that finds a session page
//! in front counts the time since the previous sample, or since the page
//! came in front when that was later, at most
//! [`MAX_STEP`], so a server asleep for an hour does not count the hour. A
//! week runs Monday to Sunday in the person's zone; its recap is due once
//! it is over and held at least [`HEAVY_WEEK`].

use serde::Serialize;
use time::{Date, Duration, Weekday};
use ts_rs::TS;
use utoipa::ToSchema;

pub const SAMPLE: Duration = Duration::minutes(1);
pub const MAX_STEP: Duration = Duration::minutes(2);
pub const HEAVY_WEEK: Duration = Duration::hours(10);

/// The Monday of `day`'s week.
pub fn week_start(day: Date) -> Date {
    day - Duration::days(i64::from(day.weekday().number_days_from_monday()))
}

/// The Monday of the week before `day`'s.
pub fn last_week_start(day: Date) -> Date {
    week_start(day) - Duration::days(7)
}

/// One week's figures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "WatchingRecap")]
#[schema(as = WatchingRecap)]
pub struct Recap {
    /// The week's Monday, `YYYY-MM-DD`.
    pub week: String,
    pub total_seconds: i64,
    /// Days with any watching.
    pub days: u32,
    /// The day with the most, `YYYY-MM-DD`, and its seconds.
    pub busiest_day: String,
    pub busiest_seconds: i64,
}

impl Recap {
    /// The figures of the week starting `monday` from its days' seconds.
    pub fn of(monday: Date, days: &[(Date, i64)]) -> Recap {
        let in_week: Vec<&(Date, i64)> = days
            .iter()
            .filter(|(day, seconds)| week_start(*day) == monday && *seconds > 0)
            .collect();
        let busiest = in_week
            .iter()
            .max_by_key(|(day, seconds)| (*seconds, std::cmp::Reverse(*day)));
        Recap {
            week: monday.to_string(),
            total_seconds: in_week.iter().map(|(_, seconds)| seconds).sum(),
            days: u32::try_from(in_week.len()).unwrap_or(u32::MAX),
            busiest_day: busiest.map_or_else(String::new, |(day, _)| day.to_string()),
            busiest_seconds: busiest.map_or(0, |(_, seconds)| *seconds),
        }
    }

    pub fn heavy(&self) -> bool {
        self.total_seconds >= HEAVY_WEEK.whole_seconds()
    }

    /// The card's body: the week's figures in hours.
    pub fn body(&self) -> String {
        let hours = |seconds: i64| seconds as f64 / 3600.0;
        format!(
            "The week of {} had {:.1} hours with a session page in front, over {} day{}; \
             the most was {:.1} hours on {} ({}).",
            self.week,
            hours(self.total_seconds),
            self.days,
            if self.days == 1 { "" } else { "s" },
            hours(self.busiest_seconds),
            self.busiest_day,
            weekday_name(&self.busiest_day),
        )
    }
}

fn weekday_name(day: &str) -> &'static str {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    match Date::parse(day, format).map(Date::weekday) {
        Ok(Weekday::Monday) => "Monday",
        Ok(Weekday::Tuesday) => "Tuesday",
        Ok(Weekday::Wednesday) => "Wednesday",
        Ok(Weekday::Thursday) => "Thursday",
        Ok(Weekday::Friday) => "Friday",
        Ok(Weekday::Saturday) => "Saturday",
        Ok(Weekday::Sunday) => "Sunday",
        Err(_) => "",
    }
}

/// The seconds a sample at `now` adds for a session page in front since
/// `in_front_since`, after the previous sample at `last` (none before the
/// first): the time since the later of the two, at most [`MAX_STEP`].
pub fn step(
    last: Option<time::OffsetDateTime>,
    in_front_since: time::OffsetDateTime,
    now: time::OffsetDateTime,
) -> i64 {
    let from = last.map_or(in_front_since, |last| last.max(in_front_since));
    if now > from {
        (now - from).min(MAX_STEP).whole_seconds()
    } else {
        0
    }
}
