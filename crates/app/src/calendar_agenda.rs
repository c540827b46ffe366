//! Today's Agenda card (`calendarDailyAgendaEnabled`, docs/calendar.md):
//! once per local day of the installation's zone (the calendar's), at
//! 07:00 (there is no digest hour setting to follow), one inbox row of
//! category `calendar` per account listing the day's events of its
//! calendars (while `calendarEnabled` is on) and its board items due that
//! day and not done (with `pmCalendarOverlayEnabled` on, of the boards of
//! `pmCalendarBoardIds` only, none listed meaning all), each board's due
//! date read from the column the calendar shows. A server that was
//! down at 07:00 makes it at its first look later that day. A day with
//! nothing on it has no card. Each account's day is considered once (the
//! `calendar` crate records it), across restarts.

use boards::DatedItem;
use calendar::Occurrence;
use inbox::{Action, Category, NewRow};
use jiff::civil::{Date, Time};
use jiff::tz::TimeZone;
use time::OffsetDateTime;

use crate::calendar_words::{event_line, on_day};
use crate::error::{AppResult, blocking};
use crate::services::App;

/// When the card is made, local time.
const MORNING: Time = Time::constant(7, 0, 0, 0);

/// Makes the day's cards once the morning has come, unless `made` says
/// this process made them already; returns the next morning to look at.
pub(crate) async fn look(
    app: &App,
    now: OffsetDateTime,
    made: &mut Option<Date>,
) -> OffsetDateTime {
    let zone = app.calendars.zone().clone();
    let today = pm_inbox::window::local_day(&zone, pm_inbox::window::instant(now));
    let morning = moment(&zone, today).unwrap_or(now);
    if now < morning {
        return morning;
    }
    let tomorrow = today.tomorrow().ok().and_then(|day| moment(&zone, day));
    // The loop looks every minute all day: the day's claims are written once.
    if *made != Some(today) {
        match make(app, today, &zone).await {
            Ok(()) => *made = Some(today),
            Err(error) => tracing::warn!(%error, "the day's agenda was not made"),
        }
    }
    tomorrow.unwrap_or(now + time::Duration::DAY)
}

/// 07:00 of `day` in `zone` (later, should a gap skip it).
fn moment(zone: &TimeZone, day: Date) -> Option<OffsetDateTime> {
    let zoned = zone
        .to_ambiguous_zoned(day.to_datetime(MORNING))
        .compatible()
        .ok()?;
    OffsetDateTime::from_unix_timestamp(zoned.timestamp().as_second()).ok()
}

/// Makes the cards of `day` for the accounts that have not had theirs. An
/// account's day is claimed only once its card is built, so a read that
/// fails leaves it for the next look, and one account's failure is not
/// another's (an error is returned after the others were made).
async fn make(app: &App, day: Date, zone: &TimeZone) -> AppResult<()> {
    let events_on = app.settings.calendar_enabled();
    let only = if app.settings.pm_calendar_overlay_enabled() {
        app.settings.pm_calendar_board_ids()
    } else {
        Vec::new()
    };
    let (app_, zone_) = (app.clone(), zone.clone());
    let (cards, failure) = blocking(move || -> AppResult<_> {
        let (app, zone) = (app_, zone_);
        let text = day.to_string();
        let accounts = app.accounts.list()?;
        let items = boards::dated_items(&app.db, &text, None)?;
        let mut cards = Vec::new();
        let mut failure = None;
        for account in accounts {
            let owner = account.id;
            let built = (|| -> AppResult<Option<NewRow>> {
                let events = if events_on {
                    app.calendars
                        .events_on_days(&owner, &text, &text)?
                        .into_iter()
                        .filter(|o| on_day(o, &text, &zone))
                        .collect()
                } else {
                    Vec::new()
                };
                let due_columns = boards::due_columns(&app.db, &owner, &only)?;
                let due: Vec<&DatedItem> = items
                    .iter()
                    .filter(|i| {
                        i.account_id == owner
                            && i.date == text
                            && !i.done
                            && due_columns.get(&i.board_id) == Some(&i.column_id)
                    })
                    .collect();
                let Some(row) = card(&events, &due, &zone) else {
                    return Ok(None);
                };
                Ok(app.calendars.claim_agenda(&owner, &text)?.then_some(row))
            })();
            match built {
                Ok(Some(row)) => cards.push((owner, row)),
                Ok(None) => {}
                Err(error) => failure = Some(error),
            }
        }
        Ok((cards, failure))
    })
    .await?;
    for (owner, row) in cards {
        crate::publish::add_row(app, &owner, row).await;
    }
    failure.map_or(Ok(()), Err)
}

/// The card, or `None` when the day has nothing on it.
fn card(events: &[Occurrence], due: &[&DatedItem], zone: &TimeZone) -> Option<NewRow> {
    if events.is_empty() && due.is_empty() {
        return None;
    }
    let plural = |n: usize, one: &str, many: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {many}")
        }
    };
    let mut counts = Vec::new();
    let mut sections = Vec::new();
    if !events.is_empty() {
        counts.push(plural(events.len(), "event", "events"));
        let lines: Vec<String> = events
            .iter()
            .map(|e| format!("- {}", event_line(e, zone)))
            .collect();
        sections.push(format!("Events\n{}", lines.join("\n")));
    }
    if !due.is_empty() {
        counts.push(plural(due.len(), "item due", "items due"));
        let lines: Vec<String> = due
            .iter()
            .map(|i| format!("- {} ({})", i.item_name, i.board_name))
            .collect();
        sections.push(format!("Due today\n{}", lines.join("\n")));
    }
    let title = format!("Today's agenda: {}", counts.join(", "));
    let mut row = NewRow::new(
        Category::Calendar,
        inbox::clip(&title, inbox::MAX_TITLE_CHARS),
    );
    row.body = Some(inbox::clip(&sections.join("\n\n"), inbox::MAX_BODY_CHARS));
    row.reason = Some("agenda".to_owned());
    row.actions.push(Action::OpenPath {
        path: "/calendar".to_owned(),
    });
    Some(row)
}

#[cfg(test)]
mod tests {
    use super::*;
    use calendar::{AccountSource, Source};

    fn event(title: &str, start: &str, end: &str, all_day: bool) -> Occurrence {
        Occurrence {
            uid: format!("{title}@test"),
            title: title.to_owned(),
            location: None,
            start: start.to_owned(),
            end: end.to_owned(),
            all_day,
            recurring: false,
            source: Source::Caldav(AccountSource {
                account_id: "a1".to_owned(),
                account: "Team".to_owned(),
                calendar: "Work".to_owned(),
                color: None,
                organizer: None,
                invitation: false,
            }),
        }
    }

    fn item(name: &str) -> DatedItem {
        DatedItem {
            account_id: "me".to_owned(),
            board_id: "b1".to_owned(),
            board_name: "Ops".to_owned(),
            item_id: format!("{name}-id"),
            item_name: name.to_owned(),
            column_id: "due".to_owned(),
            column_title: "Due".to_owned(),
            date: "2026-01-05".to_owned(),
            done: false,
            people: Vec::new(),
        }
    }

    #[test]
    fn days_are_local_for_timed_events_and_dates_for_all_day_ones() {
        let berlin = TimeZone::get("Europe/Berlin").unwrap();
        // 23:30 UTC on the 4th is 00:30 on the 5th in Berlin.
        let late = event(
            "Late",
            "2026-01-04T23:30:00.000Z",
            "2026-01-05T00:00:00.000Z",
            false,
        );
        assert!(on_day(&late, "2026-01-05", &berlin));
        assert!(!on_day(&late, "2026-01-04", &berlin));
        // An event ending at midnight is not on the next day.
        let evening = event(
            "Eve",
            "2026-01-05T20:00:00.000Z",
            "2026-01-05T23:00:00.000Z",
            false,
        );
        assert!(on_day(&evening, "2026-01-05", &berlin));
        assert!(!on_day(&evening, "2026-01-06", &berlin));
        // An all-day event of the 4th overlaps the 5th's first Berlin hour
        // in absolute time, but is not on the 5th.
        let holiday = event(
            "Holiday",
            "2026-01-04T00:00:00.000Z",
            "2026-01-05T00:00:00.000Z",
            true,
        );
        assert!(on_day(&holiday, "2026-01-04", &berlin));
        assert!(!on_day(&holiday, "2026-01-05", &berlin));
    }

    #[test]
    fn the_card_lists_events_and_items_and_is_absent_on_an_empty_day() {
        let berlin = TimeZone::get("Europe/Berlin").unwrap();
        assert!(card(&[], &[], &berlin).is_none());
        let events = [
            event(
                "Holiday",
                "2026-01-05T00:00:00.000Z",
                "2026-01-06T00:00:00.000Z",
                true,
            ),
            event(
                "Stand-up",
                "2026-01-05T08:30:00.000Z",
                "2026-01-05T08:45:00.000Z",
                false,
            ),
        ];
        let fix = item("Fix login");
        let row = card(&events, &[&fix], &berlin).expect("a card");
        assert_eq!(row.title, "Today's agenda: 2 events, 1 item due");
        assert_eq!(
            row.body.as_deref(),
            Some(
                "Events\n- All day: Holiday\n- 09:30–09:45 Stand-up\n\n\
                 Due today\n- Fix login (Ops)"
            )
        );
        assert_eq!(row.reason.as_deref(), Some("agenda"));
    }
}
