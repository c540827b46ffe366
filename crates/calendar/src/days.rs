//! A range of whole days, as people ask for events ("from 2026-01-01 to
//! 2026-01-31"), turned into the moments that bound it in a time zone: the
//! start of the first day to the start of the day after the last.

use jiff::civil::Date;
use jiff::tz::TimeZone;
use time::OffsetDateTime;

use crate::error::CalendarError;
use crate::{Calendars, Occurrence};

/// The longest range one read covers.
pub const MAX_DAYS: i32 = 400;

/// `from` and `to` as days `YYYY-MM-DD`, `to` not before `from` and under
/// [`MAX_DAYS`] after it; otherwise [`CalendarError::Invalid`] naming the
/// field. Every reader of a range of days checks it so.
pub fn check_days(from: &str, to: &str) -> Result<(Date, Date), CalendarError> {
    let day = |field: &'static str, text: &str| {
        text.parse::<Date>()
            .map_err(|_| CalendarError::invalid(field, format!("{text:?} is not a day YYYY-MM-DD")))
    };
    let (first, last) = (day("from", from)?, day("to", to)?);
    let days = first.until(last).map(|span| span.get_days()).unwrap_or(-1);
    if !(0..MAX_DAYS).contains(&days) {
        return Err(CalendarError::invalid(
            "to",
            format!("must be from `from` to {MAX_DAYS} days after it"),
        ));
    }
    Ok((first, last))
}

/// `from` and `to` (`YYYY-MM-DD`, both included) in `zone`, as `[start,
/// end)`, checked by [`check_days`].
pub fn day_range(
    from: &str,
    to: &str,
    zone: &TimeZone,
) -> Result<(OffsetDateTime, OffsetDateTime), CalendarError> {
    let (first, last) = check_days(from, to)?;
    let out_of_range = || CalendarError::invalid("to", "the day is out of range");
    let moment = |date: Date| {
        date.to_zoned(zone.clone())
            .ok()
            .and_then(|z| OffsetDateTime::from_unix_timestamp(z.timestamp().as_second()).ok())
            .ok_or_else(out_of_range)
    };
    Ok((
        moment(first)?,
        moment(last.tomorrow().map_err(|_| out_of_range())?)?,
    ))
}

impl Calendars {
    /// The owner's occurrences on the days `from` to `to` (both included,
    /// `YYYY-MM-DD`), the days read in the installation's zone.
    pub fn events_on_days(
        &self,
        owner: &str,
        from: &str,
        to: &str,
    ) -> Result<Vec<Occurrence>, CalendarError> {
        let (start, end) = day_range(from, to, &self.options.floating_zone)?;
        self.events(owner, start, end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_bounded_by_midnights_of_the_zone_with_the_last_day_included() {
        let berlin = TimeZone::get("Europe/Berlin").unwrap_or(TimeZone::UTC);
        let (start, end) = day_range("2026-03-29", "2026-03-29", &berlin)
            .unwrap_or((OffsetDateTime::UNIX_EPOCH, OffsetDateTime::UNIX_EPOCH));
        // The day summer time begins has 23 hours.
        assert_eq!(start.unix_timestamp(), 1_774_738_800);
        assert_eq!((end - start).whole_hours(), 23);
    }

    #[test]
    fn bad_days_and_ranges_are_refused_naming_the_field() {
        let utc = TimeZone::UTC;
        let message = |from: &str, to: &str| {
            day_range(from, to, &utc)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default()
        };
        assert!(message("2026-13-01", "2026-01-02").starts_with("from:"));
        assert!(message("2026-01-02", "tomorrow").starts_with("to:"));
        assert!(message("2026-01-02", "2026-01-01").starts_with("to:"));
        assert!(message("2026-01-01", "2027-06-01").starts_with("to:"));
        assert_eq!(message("2026-01-01", "2026-12-31"), "");
    }
}
