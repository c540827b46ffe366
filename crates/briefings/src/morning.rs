//! The RSS morning digest's rules: its moment (`rssDigestTime`, `HH:MM` in
//! the user's zone; anything else reads as 08:00), the prompt over the
//! night's entries and `rssDigestInterests`, and what the digest says when
//! the night brought nothing or the model could not write.

use jiff::Timestamp;
use jiff::civil::{Date, Time};
use jiff::tz::TimeZone;

/// The phrase that opens the digest's prompt (the stand-in model in tests
/// answers by it).
pub const RSS_PHRASE: &str = "Pick and summarize the feed entries";

/// The most entries one prompt lists.
pub const MAX_ENTRIES: usize = 100;

/// The hour a time that cannot be read falls back to.
const FALLBACK: Time = Time::constant(8, 0, 0, 0);

/// An entry the night brought.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub feed: String,
    pub title: String,
    pub link: Option<String>,
    pub summary: String,
}

/// `HH:MM` (or `H:MM`) read as a time of day.
pub fn delivery_time(text: &str) -> Time {
    let Some((hour, minute)) = text.trim().split_once(':') else {
        return FALLBACK;
    };
    match (hour.parse::<i8>(), minute.parse::<i8>()) {
        (Ok(h), Ok(m)) if minute.len() == 2 => Time::new(h, m, 0, 0).unwrap_or(FALLBACK),
        _ => FALLBACK,
    }
}

/// The local day whose digest is due at `now`: today once its time has
/// come, none before.
pub fn due_day(zone: &TimeZone, at: Time, now: Timestamp) -> Option<Date> {
    let local = now.to_zoned(zone.clone());
    (local.time() >= at).then(|| local.date())
}

/// The next moment the digest falls due after `now`.
pub fn next_moment(zone: &TimeZone, at: Time, now: Timestamp) -> Timestamp {
    let local = now.to_zoned(zone.clone());
    let today = local.date();
    [Some(today), today.tomorrow().ok()]
        .into_iter()
        .flatten()
        .filter_map(|day| day.to_datetime(at).to_zoned(zone.clone()).ok())
        .map(|z| z.timestamp())
        .find(|t| *t > now)
        .unwrap_or(now)
}

/// The prompt over `entries` for `interests`.
pub fn prompt(interests: &str, entries: &[Entry]) -> String {
    let interests = match interests.trim() {
        "" => "anything a software engineer would want to know",
        given => given,
    };
    let mut listed = String::new();
    for (n, entry) in entries.iter().take(MAX_ENTRIES).enumerate() {
        listed.push_str(&format!(
            "{}. [{}] {} <{}>\n   {}\n",
            n + 1,
            entry.feed,
            entry.title,
            entry.link.as_deref().unwrap_or("no link"),
            entry.summary
        ));
    }
    format!(
        "{RSS_PHRASE} that match these interests: {interests}. Pick at most ten; for each write \
         one Markdown bullet with its title as a link and one sentence of why it matters. If \
         none match, say so in one line. The entries:\n\n{listed}"
    )
}

/// The digest of a night with no entries.
pub fn quiet_night() -> String {
    "A quiet night: no feed brought a new entry.".to_owned()
}

/// The digest when the model could not write: the entries as they came.
pub fn entries_alone(entries: &[Entry]) -> String {
    let mut out = format!(
        "The utility model could not pick today; the night's {} entries:\n",
        entries.len()
    );
    for entry in entries.iter().take(MAX_ENTRIES) {
        match &entry.link {
            Some(link) => out.push_str(&format!("- [{}]({link}) ({})\n", entry.title, entry.feed)),
            None => out.push_str(&format!("- {} ({})\n", entry.title, entry.feed)),
        }
    }
    out.trim_end().to_owned()
}
