//! Team time and meeting rooms (issue 71): the people an account works
//! with, each with an IANA time zone and working hours (the workspace's
//! members always among them), and the account's saved video rooms. The
//! world clock and the meeting planner are the web app's, which computes in
//! each person's zone; this crate keeps the data right. Knows nothing of
//! HTTP or settings: the switches hide pages, never data.

pub mod error;
pub mod people;
pub mod rooms;

pub use error::TeamError;
pub use people::{Member, People, Person, PersonFields};
pub use rooms::{Room, RoomFields, Rooms};

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[store::Migration {
    feature: "team",
    sql: "CREATE TABLE team_people (
            id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            member_account_id TEXT,
            name TEXT NOT NULL,
            zone TEXT NOT NULL,
            start_minute INTEGER NOT NULL,
            end_minute INTEGER NOT NULL,
            workdays TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            UNIQUE (account_id, member_account_id)
          ) STRICT;
          CREATE INDEX team_people_by_account ON team_people (account_id, name);
          CREATE TABLE meeting_rooms (
            id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            name TEXT NOT NULL,
            url TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
          ) STRICT;
          CREATE INDEX meeting_rooms_by_account ON meeting_rooms (account_id, name);",
}];

#[cfg(test)]
mod tests;
