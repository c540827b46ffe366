//! Alarms: a label and a time, rung by the server whether or not a browser
//! is open.
//!
//! - [`Alarms`] stores each account's alarms and answers what a person does
//!   with one: create (`at` as RFC 3339, or `HH:MM` for the next such local
//!   time; `daily` or `weekdays` repeats), list, snooze (within a
//!   [`SnoozeRule`]), dismiss, delete.
//! - [`schedule`] holds the rules for local times in a time zone (the
//!   system's by default, injectable so tests pin one), across daylight-saving
//!   changes.
//! - [`scheduler::start`] first makes alarms that fell due while the server
//!   was down missed, then rings the rest on time: it sleeps on the injected
//!   [`clock::Clock`], marks a due alarm `ringing`, and after the longest ring
//!   marks it `missed`, handing each move ([`Fired`]) to the caller.
//!
//! A repeating alarm, once dismissed or missed, is scheduled again at its
//! next occurrence. Knows nothing of HTTP, settings or the inbox: the caller
//! passes the snooze rule and the longest ring, and turns [`Fired`] into
//! events and inbox rows.

mod alarm;
pub mod schedule;
pub mod scheduler;
mod service;

pub use alarm::{Alarm, AlarmError, Fired, MAX_LABEL_CHARS, Repeat, SnoozeRule, Status};
pub use jiff::SignedDuration;
pub use jiff::tz::TimeZone;
pub use service::Alarms;

use store::Migration;

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[Migration] = &[Migration {
    feature: "alarms",
    // `at` and the other times are the clock's stored form (UTC,
    // milliseconds), so they compare as text; `time_of_day` is the local
    // `HH:MM:SS` a repeating alarm keeps.
    sql: "CREATE TABLE alarms (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            account_id TEXT NOT NULL,
            label TEXT NOT NULL,
            at TEXT NOT NULL,
            repeat TEXT,
            time_of_day TEXT,
            status TEXT NOT NULL,
            snoozes INTEGER NOT NULL DEFAULT 0,
            ringing_since TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
          ) STRICT;
          CREATE INDEX alarms_by_account ON alarms (account_id, at);
          CREATE INDEX alarms_by_status ON alarms (status, at);",
}];

#[cfg(test)]
mod tests;
