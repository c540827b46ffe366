//! Moments between the clock's `time` values, jiff's `Timestamp` (the
//! crate's arithmetic) and the stored text (the clock's form: UTC with
//! milliseconds, so times compare as text in SQL).

use jiff::Timestamp;

use crate::error::AutomationError;

/// The clock's time as jiff's. Both cover years -9999..=9999; the fallback
/// is for a clock outside them, which no clock is.
pub fn to_jiff(at: time::OffsetDateTime) -> Timestamp {
    Timestamp::from_nanosecond(at.unix_timestamp_nanos()).unwrap_or(Timestamp::UNIX_EPOCH)
}

pub fn from_jiff(at: Timestamp) -> time::OffsetDateTime {
    time::OffsetDateTime::from_unix_timestamp_nanos(at.as_nanosecond())
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH)
}

/// The stored form.
pub fn stamp(at: Timestamp) -> String {
    clock::timestamp(from_jiff(at))
}

pub fn parse_stamp(text: &str) -> Result<Timestamp, AutomationError> {
    text.parse().map_err(|_| AutomationError::Corrupt("time"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_times_round_trip_and_sort_as_text() {
        let at: Timestamp = "2026-03-29T01:00:00Z".parse().unwrap();
        assert_eq!(stamp(at), "2026-03-29T01:00:00.000Z");
        assert_eq!(parse_stamp(&stamp(at)).unwrap(), at);
        assert_eq!(to_jiff(from_jiff(at)), at);
        assert!(stamp(at) < stamp(at + jiff::SignedDuration::from_millis(1)));
        assert!(parse_stamp("yesterday").is_err());
    }
}
