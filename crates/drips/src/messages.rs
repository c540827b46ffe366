//! The `scheduled_messages` table: create (active at once, whoever makes
//! it), list, pause, resume, delete, and claiming the deliveries that are
//! due.
//!
//! [`Drips::deliver_due_messages`] moves every due message to its next
//! tick (or to `done`) and records its delivery in the outbox in one write
//! transaction, so a tick is delivered once even if the server stops right
//! after.

use jiff::Timestamp;
use store::rusqlite::{self, OptionalExtension, Row, Transaction, params};

use crate::deliveries::{Release, insert};
use automations::Problems;

use crate::error::{DripError, gather};
use crate::message::{NewMessage, ScheduledMessage, title_of};
use crate::service::Drips;
use crate::timed::{self, Move, Table};
use crate::timing::read_timing;
use automations::stamp;

use crate::when::{self, Fields};

const COLUMNS: &str = "id, account_id, markdown, kind, spec, time_zone, state, next_at, \
                       last_delivered_at, deliveries, created_by_session, created_at, updated_at";

/// What a note without a line of text is called.
const UNTITLED: &str = "Scheduled message";

impl Drips {
    /// Makes a scheduled message, active at once. `session` is the agent
    /// session whose token made it (its deliveries name it).
    pub fn create_message(
        &self,
        account_id: &str,
        fields: &NewMessage,
        session: Option<&str>,
    ) -> Result<ScheduledMessage, DripError> {
        let now = self.now();
        let mut problems = Problems::new();
        let markdown = match fields.checked_markdown() {
            Ok(markdown) => Some(markdown.to_owned()),
            Err(error) => {
                gather(&mut problems, error)?;
                None
            }
        };
        let timing = when::check_into(
            Fields {
                at: fields.at.as_deref(),
                cron: fields.cron.as_deref(),
                rrule: fields.rrule.as_deref(),
                time_zone: fields.time_zone.as_deref(),
            },
            now,
            true,
            &mut problems,
        )?;
        let (Some(markdown), Some(timing)) = (markdown, timing) else {
            return Err(problems.into());
        };
        if !problems.is_empty() {
            return Err(problems.into());
        }
        let id = store::new_id();
        let created = stamp(now);
        self.db.write(|tx| {
            tx.execute(
                &format!(
                    "INSERT INTO scheduled_messages ({COLUMNS})
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'active', ?7, NULL, 0, ?8, ?9, ?9)"
                ),
                params![
                    id,
                    account_id,
                    markdown,
                    timing.kind.as_str(),
                    timing.spec,
                    timing.time_zone,
                    stamp(timing.first),
                    session,
                    created,
                ],
            )?;
            find_message(tx, account_id, &id)
        })
    }

    /// The account's scheduled messages, oldest first.
    pub fn list_messages(&self, account_id: &str) -> Result<Vec<ScheduledMessage>, DripError> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare(&format!(
                "SELECT {COLUMNS} FROM scheduled_messages WHERE account_id = ?1 ORDER BY seq"
            ))?;
            let rows = stmt.query_map([account_id], read_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    pub fn message(&self, account_id: &str, id: &str) -> Result<ScheduledMessage, DripError> {
        self.db.read(|tx| find_message(tx, account_id, id))
    }

    /// Stops an active message; nothing it would have delivered meanwhile
    /// is caught up on resuming.
    pub fn pause_message(&self, account_id: &str, id: &str) -> Result<ScheduledMessage, DripError> {
        self.change(Table::Messages, Move::Pause, account_id, id, find_message)
    }

    /// Starts a paused message again at its next tick (a one-off whose
    /// moment has passed: at once).
    pub fn resume_message(
        &self,
        account_id: &str,
        id: &str,
    ) -> Result<ScheduledMessage, DripError> {
        self.change(Table::Messages, Move::Resume, account_id, id, find_message)
    }

    pub fn delete_message(&self, account_id: &str, id: &str) -> Result<(), DripError> {
        self.db
            .write(|tx| timed::delete(tx, Table::Messages, account_id, id))
    }

    /// Claims every active message due at `now`: moves each to its first
    /// tick after now (a one-off, or a rule that ended, to `done`) and puts
    /// one delivery in the outbox, however many ticks passed unseen. How
    /// many deliveries it recorded.
    pub fn deliver_due_messages(&self, now: Timestamp) -> Result<usize, DripError> {
        self.db.write(|tx| {
            let mut delivered = 0;
            for due in timed::due(tx, Table::Messages, now)? {
                let decision = due.decide(now)?;
                if !timed::advance(tx, Table::Messages, &due, decision.next_at, now)? {
                    continue;
                }
                let Some(tick) = decision.due else { continue };
                let message = find_message(tx, &due.account_id, &due.id)?;
                tx.execute(
                    "UPDATE scheduled_messages
                     SET deliveries = deliveries + 1, last_delivered_at = ?2 WHERE id = ?1",
                    params![message.id, stamp(now)],
                )?;
                let release = Release::Message {
                    message_id: message.id,
                    title: message.title,
                    markdown: message.markdown,
                    session_id: message.created_by_session,
                };
                insert(tx, &message.account_id, &release, &tick, &stamp(now))?;
                delivered += 1;
            }
            Ok(delivered)
        })
    }

    /// The soonest tick an active message or drip waits for, of the kinds
    /// asked about: when to look again.
    pub fn next_wake(&self, messages: bool, drips: bool) -> Result<Option<Timestamp>, DripError> {
        self.db.read(|tx| {
            let mut soonest = None;
            for (asked, table) in [(messages, Table::Messages), (drips, Table::Drips)] {
                if asked && let Some(at) = timed::soonest(tx, table)? {
                    soonest = Some(soonest.map_or(at, |s: Timestamp| s.min(at)));
                }
            }
            Ok(soonest)
        })
    }
}

fn find_message(
    tx: &Transaction<'_>,
    account_id: &str,
    id: &str,
) -> Result<ScheduledMessage, DripError> {
    tx.query_row(
        &format!("SELECT {COLUMNS} FROM scheduled_messages WHERE account_id = ?1 AND id = ?2"),
        params![account_id, id],
        read_row,
    )
    .optional()?
    .ok_or(DripError::MessageNotFound)
}

fn read_row(row: &Row<'_>) -> rusqlite::Result<ScheduledMessage> {
    let markdown: String = row.get(2)?;
    Ok(ScheduledMessage {
        id: row.get(0)?,
        account_id: row.get(1)?,
        title: title_of(&markdown, UNTITLED),
        markdown,
        timing: read_timing(row, 3)?,
        last_delivered_at: row.get(8)?,
        deliveries: row.get(9)?,
        created_by_session: row.get(10)?,
        created_at: row.get(11)?,
        updated_at: row.get(12)?,
    })
}
