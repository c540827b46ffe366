//! Scheduled messages and drips at work (docs/automations.md): one loop on
//! the app clock claims what is due in the `drips` crate and puts each
//! delivery in the inbox as a `note` row.
//!
//! Each look reads the settings afresh: with `scheduledMessagesEnabled`
//! off no message is claimed, with `dripEnabled` off no drip (their ticks
//! wait, as if the server were down, and make one delivery once it is on
//! again); with `dripGlobalPause` on a drip's due tick is consumed and
//! releases nothing. The loop looks at the soonest tick, at least once a
//! minute, at once when a setting changes or a message or drip is made or
//! resumed ([`App::wake_drips`]), and at start, where it first hands the
//! inbox what a stop left claimed but undelivered.

use drips::{Delivery, ItemKind, Release};
use inbox::{Action, Category, NewRow, Source};
use settings::SettingsStore;

use crate::error::blocking;
use crate::services::App;

/// The loop looks again at least this often.
const LONGEST_SLEEP: time::Duration = time::Duration::seconds(60);

impl App {
    /// A scheduled message or a drip was made or resumed: the delivery loop
    /// looks again now rather than at its next wake.
    pub fn wake_drips(&self) {
        self.drips_wake.notify_one();
    }
}

/// Starts the delivery loop.
pub(crate) fn start(app: &App) {
    let reads = |s: &SettingsStore| {
        (
            s.scheduled_messages_enabled(),
            s.drip_enabled(),
            s.drip_global_pause(),
        )
    };
    crate::looking::spawn_reading(app, app.drips_wake.clone(), reads, |app| async move {
        look(&app).await
    });
}

/// Claims what is due, delivers every waiting delivery, and says until
/// when to sleep: the next tick, a second to a minute after the moment it
/// looked at (a moment, not a length, so a clock moved while it looked
/// wakes it at once).
async fn look(app: &App) -> time::OffsetDateTime {
    let messages = app.settings.scheduled_messages_enabled();
    let queues = app.settings.drip_enabled();
    let paused = app.settings.drip_global_pause();
    let looked = app.clock.now();
    let now = automations::to_jiff(looked);
    let service = app.drips.clone();
    let claimed = blocking(move || {
        if messages {
            service.deliver_due_messages(now)?;
        }
        if queues {
            service.release_due(now, paused)?;
        }
        service.pending_deliveries()
    })
    .await;
    match claimed {
        Ok(deliveries) => {
            for delivery in deliveries {
                deliver(app, delivery).await;
            }
        }
        Err(error) => tracing::warn!(%error, "scheduled messages and drips were not looked at"),
    }
    let service = app.drips.clone();
    let next = blocking(move || service.next_wake(messages, queues)).await;
    let latest = looked + LONGEST_SLEEP;
    match next {
        Ok(next) => next.map(automations::from_jiff).map_or(latest, |at| {
            at.clamp(looked + time::Duration::SECOND, latest)
        }),
        Err(error) => {
            tracing::warn!(%error, "the next scheduled message or drip was not found");
            latest
        }
    }
}

/// Puts one delivery in its account's inbox, then drops it from the
/// outbox. One that fails stays there and is tried at the next look; its
/// dedup key makes a second try after a stop in between bump the same row.
async fn deliver(app: &App, delivery: Delivery) {
    let row = note(&delivery);
    let (inbox, owner) = (app.inbox.clone(), delivery.account_id.clone());
    match blocking(move || inbox.add(&owner, row)).await {
        Ok(added) => {
            crate::publish::inbox_added(app, &delivery.account_id, added);
        }
        Err(error) => {
            tracing::warn!(%error, "a scheduled message or drip item did not reach the inbox");
            return;
        }
    }
    let (service, id) = (app.drips.clone(), delivery.id.clone());
    if let Err(error) = blocking(move || service.delivered(&id)).await {
        tracing::warn!(%error, "a delivered note stays in the outbox");
    }
}

/// The `note` row a delivery makes.
fn note(delivery: &Delivery) -> NewRow {
    let (title, body, reason, source, actions) = match &delivery.release {
        Release::Message {
            title,
            markdown,
            session_id,
            ..
        } => (
            title.clone(),
            markdown.clone(),
            "scheduled_message",
            Source {
                session_id: session_id.clone(),
                ..Source::default()
            },
            session_id
                .iter()
                .map(|id| Action::OpenSession {
                    session_id: id.clone(),
                })
                .collect(),
        ),
        Release::Item {
            drip_id,
            drip_name,
            item_id,
            item_name,
            item_kind,
            content,
        } => {
            let body = match item_kind {
                // The inbox shows text, never markup: the page previews it.
                ItemKind::Html => {
                    format!("{item_name} is an HTML item: open the drip to preview it.")
                }
                ItemKind::Markdown | ItemKind::Text => content.clone(),
            };
            (
                format!("{drip_name}: {}", stem(item_name)),
                body,
                "drip",
                Source::default(),
                vec![open_drip(drip_id, Some(item_id))],
            )
        }
        Release::Exhausted {
            drip_id,
            drip_name,
            reason,
        } => (
            format!("{drip_name}: nothing left to release"),
            reason.clone().unwrap_or_else(|| {
                "Its queue is empty. Add items (or files to its folder) and its next tick \
                 releases the first."
                    .to_owned()
            }),
            "drip_exhausted",
            Source::default(),
            vec![open_drip(drip_id, None)],
        ),
    };
    let mut body = body;
    if delivery.late {
        let missed = match delivery.passed_over {
            0 => String::new(),
            1 => ", standing for 1 earlier one that passed unseen".to_owned(),
            n => format!(", standing for {n} earlier ones that passed unseen"),
        };
        body.push_str(&format!(
            "\n\n_Due {}; delivered late{missed}._",
            delivery.tick
        ));
    }
    let mut row = NewRow::new(Category::Note, inbox::clip(&title, inbox::MAX_TITLE_CHARS));
    row.body = Some(inbox::clip(&body, inbox::MAX_BODY_CHARS));
    row.reason = Some(if delivery.late { "late" } else { reason }.to_owned());
    row.source = source;
    row.actions = actions;
    row.dedup_key = Some(format!("delivery:{}", delivery.id));
    row
}

/// The Drips page open on a drip (and one of its items).
fn open_drip(drip_id: &str, item_id: Option<&str>) -> Action {
    let mut path = format!("/drips/{drip_id}");
    if let Some(item) = item_id {
        path.push_str(&format!("?item={item}"));
    }
    Action::OpenPath { path }
}

/// A file name without its extension.
fn stem(name: &str) -> &str {
    match name.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem,
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delivery(release: Release, late: bool, passed_over: u64) -> Delivery {
        Delivery {
            id: "d1".into(),
            account_id: "a".into(),
            release,
            tick: "2026-01-05T09:00:00.000Z".into(),
            late,
            passed_over,
        }
    }

    #[test]
    fn a_message_is_a_note_that_names_its_agent_session() {
        let row = note(&delivery(
            Release::Message {
                message_id: "m1".into(),
                title: "Stand-up".into(),
                markdown: "# Stand-up\nNotes".into(),
                session_id: Some("s1".into()),
            },
            false,
            0,
        ));
        assert_eq!(row.category, Category::Note);
        assert_eq!(row.title, "Stand-up");
        assert_eq!(row.body.as_deref(), Some("# Stand-up\nNotes"));
        assert_eq!(row.source.session_id.as_deref(), Some("s1"));
        assert_eq!(row.dedup_key.as_deref(), Some("delivery:d1"));
    }

    #[test]
    fn an_html_item_is_not_put_in_the_inbox_as_markup() {
        let row = note(&delivery(
            Release::Item {
                drip_id: "dr".into(),
                drip_name: "Tips".into(),
                item_id: "i1".into(),
                item_name: "03-card.html".into(),
                item_kind: ItemKind::Html,
                content: "<script>alert(1)</script>".into(),
            },
            true,
            2,
        ));
        assert_eq!(row.title, "Tips: 03-card");
        let body = row.body.unwrap_or_default();
        assert!(!body.contains("<script>"), "{body}");
        assert!(body.contains("standing for 2 earlier ones"), "{body}");
        assert_eq!(row.reason.as_deref(), Some("late"));
        assert_eq!(
            row.actions,
            vec![Action::OpenPath {
                path: "/drips/dr?item=i1".into()
            }]
        );
    }

    #[test]
    fn a_long_item_is_clipped_to_what_a_row_holds() {
        let row = note(&delivery(
            Release::Item {
                drip_id: "dr".into(),
                drip_name: "Book".into(),
                item_id: "i1".into(),
                item_name: "chapter".into(),
                item_kind: ItemKind::Markdown,
                content: "x".repeat(50_000),
            },
            false,
            0,
        ));
        assert_eq!(
            row.body.map(|b| b.chars().count()),
            Some(inbox::MAX_BODY_CHARS)
        );
        assert_eq!(row.title, "Book: chapter");
        let empty = note(&delivery(
            Release::Exhausted {
                drip_id: "dr".into(),
                drip_name: "Book".into(),
                reason: None,
            },
            false,
            0,
        ));
        assert_eq!(empty.title, "Book: nothing left to release");
    }
}
