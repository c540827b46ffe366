//! [`Alarms`]: the stored alarms of every account, what a person does with
//! one (create, list, snooze, dismiss, delete) and the moves the scheduler
//! makes (ring what is due, give up on what rang too long), each in one
//! write transaction that re-reads the row, so a Dismiss and a ring racing
//! each other leave one consistent answer.

use std::sync::Arc;

use clock::Clock;
use jiff::Timestamp;
use jiff::civil::Time;
use jiff::tz::TimeZone;
use store::Db;
use store::rusqlite::{self, OptionalExtension, Row, Transaction, params};
use tokio::sync::Notify;

use crate::alarm::{Alarm, AlarmError, Fired, MAX_LABEL_CHARS, Repeat, SnoozeRule, Status};
use crate::schedule::{first_ring, next_occurrence};

const COLUMNS: &str = "id, account_id, label, at, repeat, time_of_day, status, snoozes, \
                       ringing_since, created_at, updated_at";

pub struct Alarms {
    db: Arc<Db>,
    clock: Arc<dyn Clock>,
    zone: TimeZone,
    /// Woken on every change, so the scheduler re-reads its next moment.
    pub(crate) changed: Arc<Notify>,
}

impl Alarms {
    /// Alarms whose local times (`HH:MM`, repeats) are read in `zone`.
    pub fn new(db: Arc<Db>, clock: Arc<dyn Clock>, zone: TimeZone) -> Self {
        Self {
            db,
            clock,
            zone,
            changed: Arc::new(Notify::new()),
        }
    }

    /// Alarms in the system's local time zone (`TZ`, else `/etc/localtime`,
    /// else UTC).
    pub fn in_system_zone(db: Arc<Db>, clock: Arc<dyn Clock>) -> Self {
        Self::new(db, clock, TimeZone::system())
    }

    pub(crate) fn clock(&self) -> &Arc<dyn Clock> {
        &self.clock
    }

    fn now(&self) -> Timestamp {
        to_jiff(self.clock.now())
    }

    pub fn create(
        &self,
        account_id: &str,
        label: &str,
        at: &str,
        repeat: Option<Repeat>,
    ) -> Result<Alarm, AlarmError> {
        let label = label.trim();
        if label.is_empty() || label.chars().count() > MAX_LABEL_CHARS {
            return Err(AlarmError::InvalidLabel);
        }
        let now = self.now();
        let first = first_ring(at, repeat, now, &self.zone)?;
        let stamp = stamp(now);
        let alarm = Alarm {
            id: store::new_id(),
            label: label.to_owned(),
            at: self::stamp(first.at),
            repeat,
            time_of_day: first.time_of_day.map(|t| t.to_string()),
            status: Status::Scheduled,
            snoozes: 0,
            ringing_since: None,
            created_at: stamp.clone(),
            updated_at: stamp,
            account_id: account_id.to_owned(),
        };
        self.db.write(|tx| {
            tx.execute(
                "INSERT INTO alarms (id, account_id, label, at, repeat, time_of_day, status,
                                     snoozes, ringing_since, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0, NULL, ?8, ?8)",
                params![
                    alarm.id,
                    alarm.account_id,
                    alarm.label,
                    alarm.at,
                    alarm.repeat.map(Repeat::as_str),
                    alarm.time_of_day,
                    alarm.status.as_str(),
                    alarm.created_at,
                ],
            )
        })?;
        self.changed.notify_one();
        Ok(alarm)
    }

    /// The account's alarms, soonest first.
    pub fn list(&self, account_id: &str) -> Result<Vec<Alarm>, AlarmError> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare(&format!(
                "SELECT {COLUMNS} FROM alarms WHERE account_id = ?1 ORDER BY at, seq"
            ))?;
            let rows = stmt.query_map([account_id], read_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    pub fn get(&self, account_id: &str, id: &str) -> Result<Alarm, AlarmError> {
        self.db.read(|tx| find(tx, account_id, id))
    }

    /// Snooze a ringing alarm for `rule.minutes`, unless it has been
    /// snoozed `rule.max_snoozes` times already.
    pub fn snooze(
        &self,
        account_id: &str,
        id: &str,
        rule: SnoozeRule,
    ) -> Result<Alarm, AlarmError> {
        let now = self.now();
        let alarm = self.db.write(|tx| -> Result<Alarm, AlarmError> {
            let mut alarm = find(tx, account_id, id)?;
            if alarm.status != Status::Ringing {
                return Err(AlarmError::NotRinging);
            }
            if let Some(max) = rule.max_snoozes
                && alarm.snoozes >= max
            {
                return Err(AlarmError::SnoozeLimit(alarm.snoozes));
            }
            alarm.status = Status::Snoozed;
            alarm.snoozes += 1;
            alarm.at = stamp(now + jiff::SignedDuration::from_mins(i64::from(rule.minutes)));
            alarm.ringing_since = None;
            alarm.updated_at = stamp(now);
            save(tx, &alarm)?;
            Ok(alarm)
        })?;
        self.changed.notify_one();
        Ok(alarm)
    }

    /// Dismiss an alarm: a ringing or snoozed one stops, a scheduled one
    /// will not ring; a repeating one moves on to its next occurrence. An
    /// alarm already dismissed or missed is answered as it is.
    pub fn dismiss(&self, account_id: &str, id: &str) -> Result<Alarm, AlarmError> {
        let now = self.now();
        let alarm = self.db.write(|tx| -> Result<Alarm, AlarmError> {
            let mut alarm = find(tx, account_id, id)?;
            if !alarm.status.is_active() {
                return Ok(alarm);
            }
            self.finish(&mut alarm, Status::Dismissed, now)?;
            save(tx, &alarm)?;
            Ok(alarm)
        })?;
        self.changed.notify_one();
        Ok(alarm)
    }

    pub fn delete(&self, account_id: &str, id: &str) -> Result<(), AlarmError> {
        let deleted = self.db.write(|tx| {
            tx.execute(
                "DELETE FROM alarms WHERE account_id = ?1 AND id = ?2",
                params![account_id, id],
            )
        })?;
        if deleted == 0 {
            return Err(AlarmError::NotFound);
        }
        self.changed.notify_one();
        Ok(())
    }

    /// Ends this ring of `alarm` as `outcome` (dismissed or missed): a
    /// one-time alarm keeps that status, a repeating one is scheduled again
    /// at its next occurrence after both now and its last due time.
    fn finish(&self, alarm: &mut Alarm, outcome: Status, now: Timestamp) -> Result<(), AlarmError> {
        alarm.ringing_since = None;
        alarm.updated_at = stamp(now);
        match (alarm.repeat, alarm.time_of_day.as_deref()) {
            (Some(repeat), Some(time)) => {
                let time: Time = time.parse().map_err(|_| AlarmError::Corrupt)?;
                let due = parse_stamp(&alarm.at)?;
                match next_occurrence(time, Some(repeat), now.max(due), &self.zone) {
                    Some(next) => {
                        alarm.at = stamp(next);
                        alarm.status = Status::Scheduled;
                        alarm.snoozes = 0;
                    }
                    // The end of representable time: it has no next day.
                    None => alarm.status = outcome,
                }
            }
            _ => alarm.status = outcome,
        }
        Ok(())
    }

    /// The scheduler's move at `now`: every alarm due rings, and every alarm
    /// that has rung for `max_ringing` is missed. With `at_start`, alarms
    /// that fell due while the server was down are missed instead of rung
    /// late.
    pub(crate) fn tick(
        &self,
        max_ringing: jiff::SignedDuration,
        at_start: bool,
    ) -> Result<Vec<Fired>, AlarmError> {
        let now = self.now();
        let now_stamp = stamp(now);
        let expired_before = stamp(now - max_ringing);
        self.db.write(|tx| -> Result<Vec<Fired>, AlarmError> {
            let mut fired = Vec::new();
            let due = select(
                tx,
                "status IN ('scheduled', 'snoozed') AND at <= ?1",
                &now_stamp,
            )?;
            for mut alarm in due {
                if at_start {
                    let due_at = alarm.at.clone();
                    self.finish(&mut alarm, Status::Missed, now)?;
                    save(tx, &alarm)?;
                    fired.push(Fired::Missed { alarm, due_at });
                } else {
                    alarm.status = Status::Ringing;
                    alarm.ringing_since = Some(now_stamp.clone());
                    alarm.updated_at = now_stamp.clone();
                    save(tx, &alarm)?;
                    fired.push(Fired::Ringing(alarm));
                }
            }
            let expired = select(
                tx,
                "status = 'ringing' AND ringing_since <= ?1",
                &expired_before,
            )?;
            for mut alarm in expired {
                let due_at = alarm.at.clone();
                self.finish(&mut alarm, Status::Missed, now)?;
                save(tx, &alarm)?;
                fired.push(Fired::Missed { alarm, due_at });
            }
            Ok(fired)
        })
    }

    /// The next moment the scheduler has something to do: the soonest due
    /// alarm, or the soonest end of a ring.
    pub(crate) fn next_wake(
        &self,
        max_ringing: jiff::SignedDuration,
    ) -> Result<Option<Timestamp>, AlarmError> {
        let (due, ringing): (Option<String>, Option<String>) = self.db.read(|tx| {
            tx.query_row(
                "SELECT (SELECT min(at) FROM alarms WHERE status IN ('scheduled', 'snoozed')),
                        (SELECT min(ringing_since) FROM alarms WHERE status = 'ringing')",
                [],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
        })?;
        let due = due.map(|t| parse_stamp(&t)).transpose()?;
        let ends = ringing
            .map(|t| parse_stamp(&t).map(|t| t + max_ringing))
            .transpose()?;
        Ok(match (due, ends) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        })
    }
}

fn find(tx: &Transaction<'_>, account_id: &str, id: &str) -> Result<Alarm, AlarmError> {
    tx.query_row(
        &format!("SELECT {COLUMNS} FROM alarms WHERE account_id = ?1 AND id = ?2"),
        params![account_id, id],
        read_row,
    )
    .optional()?
    .ok_or(AlarmError::NotFound)
}

fn select(tx: &Transaction<'_>, filter: &str, arg: &str) -> Result<Vec<Alarm>, AlarmError> {
    let mut stmt = tx.prepare(&format!(
        "SELECT {COLUMNS} FROM alarms WHERE {filter} ORDER BY at, seq"
    ))?;
    let rows = stmt.query_map([arg], read_row)?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}

fn save(tx: &Transaction<'_>, alarm: &Alarm) -> Result<(), AlarmError> {
    tx.execute(
        "UPDATE alarms SET at = ?2, status = ?3, snoozes = ?4, ringing_since = ?5, updated_at = ?6
         WHERE id = ?1",
        params![
            alarm.id,
            alarm.at,
            alarm.status.as_str(),
            alarm.snoozes,
            alarm.ringing_since,
            alarm.updated_at,
        ],
    )?;
    Ok(())
}

fn read_row(row: &Row<'_>) -> rusqlite::Result<Alarm> {
    let repeat: Option<String> = row.get(4)?;
    let status: String = row.get(6)?;
    Ok(Alarm {
        id: row.get(0)?,
        account_id: row.get(1)?,
        label: row.get(2)?,
        at: row.get(3)?,
        repeat: repeat.as_deref().and_then(Repeat::parse),
        time_of_day: row.get(5)?,
        // Only this crate writes the column, from `Status::as_str`.
        status: Status::parse(&status).unwrap_or(Status::Missed),
        snoozes: row.get(7)?,
        ringing_since: row.get(8)?,
        created_at: row.get(9)?,
        updated_at: row.get(10)?,
    })
}

/// The clock's time as jiff's. Both cover years -9999..=9999; the fallback
/// is for a clock outside them, which no clock is.
pub(crate) fn to_jiff(at: time::OffsetDateTime) -> Timestamp {
    Timestamp::from_nanosecond(at.unix_timestamp_nanos()).unwrap_or(Timestamp::UNIX_EPOCH)
}

pub(crate) fn from_jiff(at: Timestamp) -> time::OffsetDateTime {
    time::OffsetDateTime::from_unix_timestamp_nanos(at.as_nanosecond())
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH)
}

/// The stored form (the clock crate's: UTC, milliseconds, so times sort as
/// text and compare in SQL).
fn stamp(at: Timestamp) -> String {
    clock::timestamp(from_jiff(at))
}

fn parse_stamp(text: &str) -> Result<Timestamp, AlarmError> {
    text.parse().map_err(|_| AlarmError::Corrupt)
}
