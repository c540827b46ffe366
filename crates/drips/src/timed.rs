//! What the two timed tables share (`scheduled_messages` and `drips` have
//! the same timing columns: `kind`, `spec`, `time_zone`, `state`,
//! `next_at`): pausing, resuming, deleting, finding what is due, and moving
//! a row to its next tick only if no one moved it meanwhile.
//!
//! States are `active` (waits for `next_at`), `paused` (no `next_at`) and
//! `done` (no tick left: a one-off delivered, a rule that ended).

use jiff::Timestamp;
use store::rusqlite::{OptionalExtension, Transaction, params};

use crate::error::DripError;
use crate::service::Drips;
use crate::timing::{CadenceState, unreadable};
use automations::stamp;

use crate::when::{Cadence, Decision, Kind, cadence, decide, parse_stamp};

/// One of the two timed tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Table {
    Messages,
    Drips,
}

impl Table {
    fn name(self) -> &'static str {
        match self {
            Table::Messages => "scheduled_messages",
            Table::Drips => "drips",
        }
    }

    fn not_found(self) -> DripError {
        match self {
            Table::Messages => DripError::MessageNotFound,
            Table::Drips => DripError::DripNotFound,
        }
    }
}

/// A row's timing columns.
#[derive(Debug, Clone)]
pub(crate) struct Timed {
    pub id: String,
    pub account_id: String,
    pub kind: Kind,
    pub spec: String,
    pub time_zone: String,
    pub state: CadenceState,
    pub next_at: Option<String>,
}

impl Timed {
    pub(crate) fn cadence(&self) -> Result<Cadence, DripError> {
        cadence(self.kind, &self.spec, &self.time_zone)
    }

    /// What this row, found due, does at `now`. A stored rule that no
    /// longer reads (a zone gone from a newer database) would be due
    /// forever: nothing is due and no tick follows, so it is done.
    pub(crate) fn decide(&self, now: Timestamp) -> Result<Decision, DripError> {
        let next_at = parse_stamp(self.next_at.as_deref().unwrap_or_default())?;
        Ok(match self.cadence() {
            Ok(cadence) => decide(&cadence, next_at, now),
            Err(_) => Decision {
                due: None,
                next_at: None,
            },
        })
    }
}

const COLUMNS: &str = "id, account_id, kind, spec, time_zone, state, next_at";

fn read_timed(row: &store::rusqlite::Row<'_>) -> store::rusqlite::Result<Timed> {
    let kind: String = row.get(2)?;
    Ok(Timed {
        id: row.get(0)?,
        account_id: row.get(1)?,
        kind: Kind::parse(&kind).ok_or_else(|| unreadable(2, "timing kind"))?,
        spec: row.get(3)?,
        time_zone: row.get(4)?,
        state: CadenceState::parse(&row.get::<_, String>(5)?),
        next_at: row.get(6)?,
    })
}

pub(crate) fn find(
    tx: &Transaction<'_>,
    table: Table,
    account_id: &str,
    id: &str,
) -> Result<Timed, DripError> {
    tx.query_row(
        &format!(
            "SELECT {COLUMNS} FROM {} WHERE account_id = ?1 AND id = ?2",
            table.name()
        ),
        params![account_id, id],
        read_timed,
    )
    .optional()?
    .ok_or_else(|| table.not_found())
}

/// A move the user makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Move {
    Pause,
    Resume,
}

impl Drips {
    /// Pauses or resumes a row of `table` and reads it back with `read`.
    pub(crate) fn change<T>(
        &self,
        table: Table,
        change: Move,
        account_id: &str,
        id: &str,
        read: fn(&Transaction<'_>, &str, &str) -> Result<T, DripError>,
    ) -> Result<T, DripError> {
        let now = self.now();
        self.db.write(|tx| {
            apply(tx, table, change, (account_id, id), now)?;
            read(tx, account_id, id)
        })
    }
}

/// Pauses an active row (no `next_at` until it is resumed), or resumes a
/// paused one: a rule at its first tick after now (ticks passed while
/// paused are not caught up), a one-off at its moment (at once when that
/// has passed); no tick left makes it `done`.
fn apply(
    tx: &Transaction<'_>,
    table: Table,
    change: Move,
    (account_id, id): (&str, &str),
    now: Timestamp,
) -> Result<(), DripError> {
    let timed = find(tx, table, account_id, id)?;
    let (from, refusal) = match change {
        Move::Pause => (CadenceState::Active, "only an active one is paused"),
        Move::Resume => (CadenceState::Paused, "only a paused one is resumed"),
    };
    if timed.state != from {
        return Err(DripError::WrongState {
            state: timed.state.as_str(),
            message: refusal,
        });
    }
    let next = match (change, timed.kind) {
        (Move::Pause, _) => None,
        (Move::Resume, Kind::Once) => Some(parse_stamp(&timed.spec)?),
        (Move::Resume, Kind::Cron | Kind::Rrule) => timed.cadence()?.next_after(now),
    };
    let state = match (change, next) {
        (Move::Pause, _) => CadenceState::Paused,
        (Move::Resume, Some(_)) => CadenceState::Active,
        (Move::Resume, None) => CadenceState::Done,
    };
    set(tx, table, id, state, next, now)
}

fn set(
    tx: &Transaction<'_>,
    table: Table,
    id: &str,
    state: CadenceState,
    next: Option<Timestamp>,
    now: Timestamp,
) -> Result<(), DripError> {
    tx.execute(
        &format!(
            "UPDATE {} SET state = ?2, next_at = ?3, updated_at = ?4 WHERE id = ?1",
            table.name()
        ),
        params![id, state.as_str(), next.map(stamp), stamp(now)],
    )?;
    Ok(())
}

pub(crate) fn delete(
    tx: &Transaction<'_>,
    table: Table,
    account_id: &str,
    id: &str,
) -> Result<(), DripError> {
    let deleted = tx.execute(
        &format!(
            "DELETE FROM {} WHERE account_id = ?1 AND id = ?2",
            table.name()
        ),
        params![account_id, id],
    )?;
    if deleted == 0 {
        return Err(table.not_found());
    }
    Ok(())
}

/// Every active row whose `next_at` has come, soonest first.
pub(crate) fn due(
    tx: &Transaction<'_>,
    table: Table,
    now: Timestamp,
) -> Result<Vec<Timed>, DripError> {
    let mut stmt = tx.prepare(&format!(
        "SELECT {COLUMNS} FROM {} WHERE state = 'active' AND next_at IS NOT NULL AND next_at <= ?1
         ORDER BY next_at, seq",
        table.name()
    ))?;
    let rows = stmt.query_map([stamp(now)], read_timed)?;
    Ok(rows.collect::<store::rusqlite::Result<Vec<_>>>()?)
}

/// Moves a row from the `next_at` it was read with to `next` (`done` when
/// there is none), only if it still waits for that tick and is active: the
/// tick is claimed once. False when someone moved it meanwhile.
pub(crate) fn advance(
    tx: &Transaction<'_>,
    table: Table,
    timed: &Timed,
    next: Option<Timestamp>,
    now: Timestamp,
) -> Result<bool, DripError> {
    let moved = tx.execute(
        &format!(
            "UPDATE {} SET next_at = ?3, updated_at = ?4,
                    state = CASE WHEN ?3 IS NULL THEN 'done' ELSE state END
             WHERE id = ?1 AND state = 'active' AND next_at IS ?2",
            table.name()
        ),
        params![timed.id, timed.next_at, next.map(stamp), stamp(now)],
    )?;
    Ok(moved == 1)
}

/// The soonest tick an active row of the table waits for.
pub(crate) fn soonest(tx: &Transaction<'_>, table: Table) -> Result<Option<Timestamp>, DripError> {
    let soonest: Option<String> = tx.query_row(
        &format!(
            "SELECT min(next_at) FROM {} WHERE state = 'active'",
            table.name()
        ),
        [],
        |row| row.get(0),
    )?;
    soonest.as_deref().map(parse_stamp).transpose()
}
