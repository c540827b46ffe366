//! The calendar's one timeline (`GET /calendar/events`, docs/calendar.md):
//! the accounts' events and the boards' due dates and sprints, merged.
//!
//! Two settings open it. `calendarEnabled` brings the accounts' events;
//! `pmCalendarOverlayEnabled` brings the boards' entries, of the boards in
//! `pmCalendarBoardIds` (empty: every board of the caller's account). With
//! both off there is no calendar at all ([`App::calendar_events`] answers
//! `None`, the route's 403).
//!
//! A board entry is all-day: a date has no zone, so its day runs from
//! midnight UTC to the next, the convention the calendar crate keeps for
//! all-day events. The whole answer is ordered by start, all-day entries
//! first among those that start together, then by title.

use boards::{DueEntry, Overlay, OverlayBoard, SprintSpan};
use calendar::{ItemSource, Occurrence, Source, SprintSource};
use jiff::civil::Date;

use crate::error::{AppResult, blocking};
use crate::services::App;

/// The 403's words when both switches are off.
pub const CALENDAR_OFF: &str = "The calendar is turned off: turn on calendarEnabled (your calendars' events) or pmCalendarOverlayEnabled (the boards' due dates and sprints).";

impl App {
    /// The caller's calendar from `from` to `to` (`YYYY-MM-DD`, both
    /// included): the accounts' events while `calendarEnabled` is on, the
    /// boards' items and sprints while `pmCalendarOverlayEnabled` is on.
    /// `None` when both are off. Bad days are refused before anything is
    /// read, naming the field, whichever switch is on.
    pub async fn calendar_events(
        &self,
        owner: &str,
        from: &str,
        to: &str,
    ) -> AppResult<Option<Vec<Occurrence>>> {
        let accounts = self.settings.calendar_enabled();
        let overlay = self.settings.pm_calendar_overlay_enabled();
        if !accounts && !overlay {
            return Ok(None);
        }
        calendar::check_days(from, to)?;
        let only = self.settings.pm_calendar_board_ids();
        let (app, owner, from, to) = (
            self.clone(),
            owner.to_owned(),
            from.to_owned(),
            to.to_owned(),
        );
        let events = blocking(move || -> AppResult<Vec<Occurrence>> {
            let mut events = if accounts {
                app.calendars.events_on_days(&owner, &from, &to)?
            } else {
                Vec::new()
            };
            if overlay {
                let read = boards::calendar_overlay(&app.db, &owner, &only, &from, &to)?;
                events.extend(board_occurrences(read));
            }
            Ok(events)
        })
        .await?;
        Ok(Some(in_order(events)))
    }
}

/// The boards' entries as calendar occurrences.
pub fn board_occurrences(overlay: Overlay) -> Vec<Occurrence> {
    let items = overlay.items.into_iter().filter_map(item_occurrence);
    let sprints = overlay.sprints.into_iter().filter_map(sprint_occurrence);
    items.chain(sprints).collect()
}

fn item_occurrence(entry: DueEntry) -> Option<Occurrence> {
    let DueEntry {
        board: OverlayBoard { id, name, color },
        item_id,
        item_name,
        column_id,
        day,
    } = entry;
    let (start, end) = all_day(&day, &day)?;
    Some(Occurrence {
        uid: format!("item:{item_id}:{column_id}"),
        title: item_name,
        location: None,
        start,
        end,
        all_day: true,
        recurring: false,
        source: Source::Item(ItemSource {
            board_id: id,
            board: name,
            item_id,
            column_id,
            color,
        }),
    })
}

fn sprint_occurrence(span: SprintSpan) -> Option<Occurrence> {
    let SprintSpan {
        board: OverlayBoard { id, name, color },
        name: sprint,
        first_day,
        last_day,
    } = span;
    let (start, end) = all_day(&first_day, &last_day)?;
    Some(Occurrence {
        uid: format!("sprint:{id}:{sprint}"),
        title: sprint.clone(),
        location: None,
        start,
        end,
        all_day: true,
        recurring: false,
        source: Source::Sprint(SprintSource {
            board_id: id,
            board: name,
            sprint,
            color,
        }),
    })
}

/// Midnight UTC of `first` to midnight UTC after `last`, in the calendar's
/// wire form; `None` for a text that is not a day (never stored, but a
/// calendar skips it rather than fail).
fn all_day(first: &str, last: &str) -> Option<(String, String)> {
    let first: Date = first.parse().ok()?;
    let after = last.parse::<Date>().ok()?.tomorrow().ok()?;
    Some((midnight(first), midnight(after)))
}

fn midnight(day: Date) -> String {
    format!("{day}T00:00:00.000Z")
}

/// By start, all-day first among those that start together, then by title
/// (the uid last, so equal entries keep one order).
fn in_order(mut events: Vec<Occurrence>) -> Vec<Occurrence> {
    // Every start is RFC 3339 UTC with milliseconds, so text order is time order.
    events.sort_by(|a, b| {
        (&a.start, !a.all_day, &a.title, &a.uid).cmp(&(&b.start, !b.all_day, &b.title, &b.uid))
    });
    events
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> OverlayBoard {
        OverlayBoard {
            id: "b1".into(),
            name: "Platform".into(),
            color: "#1e6fd9".into(),
        }
    }

    fn timed(title: &str, start: &str) -> Occurrence {
        Occurrence {
            uid: title.into(),
            title: title.into(),
            location: None,
            start: start.into(),
            end: start.into(),
            all_day: false,
            recurring: false,
            source: Source::Caldav(calendar::AccountSource {
                account_id: "a".into(),
                account: "Work".into(),
                calendar: "Team".into(),
                color: None,
                organizer: None,
                invitation: false,
            }),
        }
    }

    #[test]
    fn items_take_one_whole_day_and_sprints_run_through_their_last_day() {
        let overlay = Overlay {
            items: vec![DueEntry {
                board: board(),
                item_id: "i1".into(),
                item_name: "Ship".into(),
                column_id: "due".into(),
                day: "2026-12-31".into(),
            }],
            sprints: vec![SprintSpan {
                board: board(),
                name: "Sprint 4".into(),
                first_day: "2026-03-02".into(),
                last_day: "2026-03-13".into(),
            }],
        };
        let events = board_occurrences(overlay);
        assert_eq!(events[0].uid, "item:i1:due");
        assert_eq!(events[0].start, "2026-12-31T00:00:00.000Z");
        assert_eq!(events[0].end, "2027-01-01T00:00:00.000Z");
        assert!(events[0].all_day && !events[0].recurring);
        assert_eq!(events[1].uid, "sprint:b1:Sprint 4");
        assert_eq!(events[1].title, "Sprint 4");
        assert_eq!(events[1].start, "2026-03-02T00:00:00.000Z");
        assert_eq!(events[1].end, "2026-03-14T00:00:00.000Z");
        let Source::Sprint(source) = &events[1].source else {
            panic!("a sprint's source: {:?}", events[1].source);
        };
        assert_eq!(
            (source.board.as_str(), source.color.as_str()),
            ("Platform", "#1e6fd9")
        );
    }

    #[test]
    fn the_answer_is_by_start_then_all_day_first_then_title() {
        let mut all_day = timed("Zebra", "2026-03-02T00:00:00.000Z");
        all_day.all_day = true;
        let events = vec![
            timed("Stand-up", "2026-03-02T08:30:00.000Z"),
            timed("Midnight call", "2026-03-02T00:00:00.000Z"),
            all_day,
            timed("Alpha", "2026-03-01T09:00:00.000Z"),
        ];
        let titles: Vec<String> = in_order(events).into_iter().map(|e| e.title).collect();
        assert_eq!(titles, ["Alpha", "Zebra", "Midnight call", "Stand-up"]);
    }
}
