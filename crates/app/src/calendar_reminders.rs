//! Calendar reminders and the day's agenda at work (docs/calendar.md): one
//! loop on the app clock tells each account's event `calendarReminderMinutes`
//! before it starts, while `calendarEnabled` is on, as
//! `calendarNotificationDelivery` says (an inbox row of category `calendar`,
//! a `calendar` event on the stream for the open app's toast, or both), and
//! makes the morning's agenda card (`calendar_agenda.rs`).
//!
//! - Each occurrence is told once per account, UID and start (the
//!   `calendar` crate records it before it is told), so a second look or a
//!   restart never repeats one; an event moved to another start is told
//!   again. A reminder whose moment passed while the server was down is
//!   still told while its event has not started; never once it has. A
//!   look that comes late (a busy machine) covers from where the last one
//!   ended, so an event that started less than a minute before is still
//!   told, as starting now.
//! - All-day events get no reminder (they have no moment to start).
//! - Focus mode holds the toast: while it is on, the reminder goes to the
//!   inbox instead (whatever the delivery), where focus mode's summary
//!   counts it when it ends.
//!
//! The loop sleeps until the next reminder's moment or the agenda's
//! morning, and looks again at once when a sync brought changes or a
//! setting changed, and at least every minute (a sync asked for by hand
//! does not wake it).

use std::sync::Arc;

use calendar::{Occurrence, Source};
use events::{Audience, Name};
use inbox::{Action, Category, NewRow};
use jiff::tz::TimeZone;
use serde::Serialize;
use serde_json::json;
use settings::{CalendarNotificationDelivery, SettingsStore};
use time::OffsetDateTime;
use tokio::sync::Notify;

use crate::error::{AppResult, blocking};
use crate::services::App;

/// The loop looks at least this often.
const LONGEST_SLEEP: time::Duration = time::Duration::minutes(1);

/// What a `calendar` event on the stream is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum CalendarNoticeKind {
    /// An event is about to start.
    Reminder,
}

/// The `calendar` event on the stream: an event about to start, for the
/// open app's toast (`calendarNotificationDelivery` `toast` or `both`).
#[derive(Debug, Clone, Serialize, ts_rs::TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CalendarReminder {
    pub kind: CalendarNoticeKind,
    /// Minutes until the start, rounded up: `calendarReminderMinutes` when
    /// told on time, fewer when the server caught up late, 0 at the start.
    pub minutes_before: u32,
    pub event: Occurrence,
}

/// What the loop remembers between looks.
#[derive(Default)]
struct Looks {
    /// The end of the starts the last look covered: the next covers from
    /// there, so a look that comes late (a busy machine) still tells an
    /// event that started meanwhile, up to [`LONGEST_SLEEP`] late.
    covered_to: Option<OffsetDateTime>,
    /// The day whose agenda this process made.
    agenda_made: Option<jiff::civil::Date>,
}

/// Starts the loop; `synced` wakes it after a sync brought changes.
pub(crate) fn start(app: &App, synced: Arc<Notify>) {
    let looks = Arc::new(tokio::sync::Mutex::new(Looks::default()));
    // Its own reads and the morning agenda's (`calendar_agenda.rs`).
    let reads = |s: &SettingsStore| {
        (
            (s.calendar_enabled(), s.calendar_daily_agenda_enabled()),
            s.calendar_reminder_minutes(),
            s.calendar_notification_delivery(),
            s.focus_mode_feature_enabled(),
            s.pm_calendar_overlay_enabled(),
            s.pm_calendar_board_ids(),
        )
    };
    crate::looking::spawn_reading(app, synced, reads, move |app| {
        let looks = looks.clone();
        async move { look(&app, &mut *looks.lock().await).await }
    });
}

/// Tells what is due and says until when to sleep.
async fn look(app: &App, looks: &mut Looks) -> OffsetDateTime {
    let now = app.clock.now();
    let mut next = now + LONGEST_SLEEP;
    if app.settings.calendar_enabled() {
        if let Some(at) = remind(app, now, &mut looks.covered_to).await {
            next = next.min(at);
        }
    } else {
        looks.covered_to = None;
    }
    if app.settings.calendar_daily_agenda_enabled() {
        next = next.min(crate::calendar_agenda::look(app, now, &mut looks.agenda_made).await);
    }
    next
}

/// Tells the reminders due at `now`; returns the next one's moment.
/// `covered_to` is where the last look's starts ended, and becomes this
/// one's end.
async fn remind(
    app: &App,
    now: OffsetDateTime,
    covered_to: &mut Option<OffsetDateTime>,
) -> Option<OffsetDateTime> {
    let lead = time::Duration::minutes(i64::from(app.settings.calendar_reminder_minutes()));
    let second = now.replace_nanosecond(0).unwrap_or(now);
    // Starts from where the last look ended (never more than the longest
    // sleep back, and never for the first look of this process: an event
    // that started while the server was down is not told) to the end of
    // the lead, both included.
    let from = covered_to.map_or(second, |end| end.clamp(second - LONGEST_SLEEP, second));
    let to = second + lead + time::Duration::SECOND;
    let service = app.calendars.clone();
    let found = blocking(move || -> AppResult<_> {
        let next_start = service.next_start_after(second + lead)?;
        let mut due = Vec::new();
        // A failure stops only its owner: what was claimed is still told.
        let mut failure = None;
        for owner in service.owners()? {
            let claimed = service.starting(&owner, from, to).and_then(|occurrences| {
                for occurrence in occurrences {
                    if service.claim_reminder(&owner, &occurrence)? {
                        due.push((owner.clone(), occurrence));
                    }
                }
                Ok(())
            });
            if let Err(error) = claimed {
                failure = Some(error);
            }
        }
        Ok((due, next_start, failure))
    })
    .await;
    let (due, next_start, failure) = match found {
        Ok(found) => found,
        Err(error) => {
            tracing::warn!(%error, "calendar reminders were not read");
            return None;
        }
    };
    if let Some(error) = failure {
        tracing::warn!(%error, "some calendar reminders were not read");
    } else {
        *covered_to = Some(to);
    }
    for (owner, occurrence) in due {
        tell(app, &owner, occurrence, now).await;
    }
    next_start.map(|start| start - lead)
}

/// Tells one reminder as the delivery setting and focus mode say.
async fn tell(app: &App, owner: &str, occurrence: Occurrence, now: OffsetDateTime) {
    let minutes = minutes_until(&occurrence.start, now);
    let delivery = app.settings.calendar_notification_delivery();
    let focused = app.settings.focus_mode_feature_enabled() && {
        let (focus, account) = (app.focus.clone(), owner.to_owned());
        blocking(move || focus.focus(&account))
            .await
            .is_ok_and(|state| state.on)
    };
    let to_toast = matches!(
        delivery,
        CalendarNotificationDelivery::Toast | CalendarNotificationDelivery::Both
    );
    let to_inbox = focused || !to_toast || delivery == CalendarNotificationDelivery::Both;
    if to_inbox {
        let row = reminder_row(&occurrence, minutes, app.calendars.zone());
        crate::publish::add_row(app, owner, row).await;
    }
    if to_toast && !focused {
        let reminder = CalendarReminder {
            kind: CalendarNoticeKind::Reminder,
            minutes_before: minutes,
            event: occurrence,
        };
        app.events.publish(
            Audience::Account(owner.to_owned()),
            Name::Calendar,
            &json!(reminder),
        );
    }
}

/// Whole minutes from `now` to `start`, rounded up, never below 0.
fn minutes_until(start: &str, now: OffsetDateTime) -> u32 {
    let Ok(start) = start.parse::<jiff::Timestamp>() else {
        return 0;
    };
    let seconds = start.as_second() - now.unix_timestamp();
    u32::try_from((seconds.max(0) + 59) / 60).unwrap_or(0)
}

/// The inbox row of a reminder: "Stand-up in 10 min", its time, place and
/// calendar below.
fn reminder_row(occurrence: &Occurrence, minutes: u32, zone: &TimeZone) -> NewRow {
    let title = if minutes == 0 {
        format!("{} starts now", occurrence.title)
    } else {
        format!("{} in {minutes} min", occurrence.title)
    };
    let mut body = vec![when(occurrence, zone)];
    if let Some(location) = occurrence.location.as_deref().filter(|l| !l.is_empty()) {
        body.push(location.to_owned());
    }
    if let Source::Caldav(from) | Source::Ics(from) = &occurrence.source {
        if from.calendar == from.account {
            body.push(format!("Calendar: {}", from.calendar));
        } else {
            body.push(format!("Calendar: {} ({})", from.calendar, from.account));
        }
    }
    let mut row = NewRow::new(
        Category::Calendar,
        inbox::clip(&title, inbox::MAX_TITLE_CHARS),
    );
    row.body = Some(inbox::clip(&body.join("\n"), inbox::MAX_BODY_CHARS));
    row.reason = Some("reminder".to_owned());
    row.actions.push(Action::OpenPath {
        path: "/calendar".to_owned(),
    });
    row
}

/// "Mon 5 Jan, 09:30–09:45" in `zone`.
fn when(occurrence: &Occurrence, zone: &TimeZone) -> String {
    match crate::calendar_words::local(&occurrence.start, zone) {
        Some(start) => format!(
            "{}, {}",
            start.strftime("%a %-d %b"),
            crate::calendar_words::span(occurrence, zone)
        ),
        None => occurrence.start.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use calendar::AccountSource;

    fn standup() -> Occurrence {
        Occurrence {
            uid: "standup@test".to_owned(),
            title: "Stand-up".to_owned(),
            location: Some("Room 1".to_owned()),
            start: "2026-01-05T08:30:00.000Z".to_owned(),
            end: "2026-01-05T08:45:00.000Z".to_owned(),
            all_day: false,
            recurring: true,
            source: Source::Ics(AccountSource {
                account_id: "a1".to_owned(),
                account: "Team".to_owned(),
                calendar: "Work".to_owned(),
                color: None,
                organizer: None,
                invitation: false,
            }),
        }
    }

    #[test]
    fn minutes_are_rounded_up_and_never_negative() {
        let at = |text: &str| {
            OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).unwrap()
        };
        let start = "2026-01-05T08:30:00.000Z";
        assert_eq!(minutes_until(start, at("2026-01-05T08:20:00Z")), 10);
        assert_eq!(minutes_until(start, at("2026-01-05T08:27:30Z")), 3);
        assert_eq!(minutes_until(start, at("2026-01-05T08:30:00Z")), 0);
        assert_eq!(minutes_until(start, at("2026-01-05T08:31:00Z")), 0);
    }

    #[test]
    fn a_reminder_row_says_when_where_and_which_calendar() {
        let berlin = TimeZone::get("Europe/Berlin").unwrap();
        let row = reminder_row(&standup(), 10, &berlin);
        assert_eq!(row.category, Category::Calendar);
        assert_eq!(row.title, "Stand-up in 10 min");
        assert_eq!(
            row.body.as_deref(),
            Some("Mon 5 Jan, 09:30–09:45\nRoom 1\nCalendar: Work (Team)")
        );
        assert_eq!(row.reason.as_deref(), Some("reminder"));
        assert_eq!(
            reminder_row(&standup(), 0, &berlin).title,
            "Stand-up starts now"
        );
    }

    #[test]
    fn the_stream_event_has_the_contract_shape() {
        let reminder = CalendarReminder {
            kind: CalendarNoticeKind::Reminder,
            minutes_before: 10,
            event: standup(),
        };
        let value = json!(reminder);
        assert_eq!(value["kind"], "reminder");
        assert_eq!(value["minutesBefore"], 10);
        assert_eq!(value["event"]["uid"], "standup@test");
        assert_eq!(value["event"]["source"]["kind"], "ics");
    }
}
