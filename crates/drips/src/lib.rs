//! Scheduled messages and drips (docs/automations.md), the domain only.
//!
//! - [`message`]: a [`ScheduledMessage`] is a Markdown note for the inbox,
//!   delivered once (`at`) or on a five-field cron pattern or an RFC 5545
//!   RRULE in an IANA time zone; its first line is the title.
//! - [`queue`] and [`item`]: a [`Drip`] is a queue of items (the `.md`,
//!   `.html` and `.txt` files of a folder, in name order, or items added in
//!   the app) released one at a time, in order, on a cron pattern or an
//!   RRULE. A drip whose queue is empty says so (`exhausted`), and its
//!   first empty tick tells the inbox once.
//! - [`when`]: the timing, on the `automations` crate's schedule rules
//!   (their daylight-saving behaviour, and `missed: run_once`: ticks that
//!   passed while nobody looked make one delivery, never one each).
//! - [`Drips`] keeps them in SQLite ([`MIGRATIONS`]). Claiming a due tick
//!   ([`Drips::deliver_due_messages`], [`Drips::release_due`], which
//!   consumes ticks without releasing while the global pause is on) moves
//!   it on and records its [`Delivery`] in an outbox in one transaction;
//!   the caller hands each to the inbox ([`Drips::pending_deliveries`]) and
//!   drops it ([`Drips::delivered`]), so a stop in between loses nothing.
//!
//! Knows nothing of HTTP, sessions, settings or the inbox: the caller
//! reads the settings, says whether the global pause is on, and turns each
//! [`Release`] into an inbox row.
//!
//! ```
//! # use std::sync::Arc;
//! # use drips::{Drips, NewMessage, MIGRATIONS};
//! # let dir = tempfile::tempdir().unwrap();
//! # let db = Arc::new(store::Db::open(&dir.path().join("db.sqlite")).unwrap());
//! # db.migrate(MIGRATIONS).unwrap();
//! let clock = Arc::new(clock::ManualClock::new(time::macros::datetime!(2026-01-05 08:00 UTC)));
//! let drips = Drips::new(db, clock, Vec::new());
//! let message = drips.create_message("me", &NewMessage {
//!     markdown: "# Stand-up\nWhat did you ship yesterday?".into(),
//!     rrule: Some("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0".into()),
//!     time_zone: Some("Europe/Berlin".into()),
//!     ..NewMessage::default()
//! }, None).unwrap();
//! assert_eq!(message.title, "Stand-up");
//! assert_eq!(message.timing.next_at.as_deref(), Some("2026-01-06T08:00:00.000Z"));
//! ```

mod deliveries;
mod error;
mod folder;
pub mod item;
pub mod message;
mod messages;
pub mod queue;
mod queues;
mod service;
mod timed;
mod timing;
pub mod when;

pub use deliveries::{Delivery, Release};
pub use error::DripError;
pub use item::{Item, ItemContent, ItemKind, NewItem};
pub use message::{NewMessage, ScheduledMessage};
pub use queue::{Drip, NewDrip};
pub use service::Drips;
pub use timing::{CadenceState, Timing};

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[store::Migration {
    feature: "drips",
    // Times are the clock's stored form (UTC, milliseconds), so `next_at`
    // compares as text. A timing is `kind` (once, cron, rrule) and `spec`
    // (the moment, the pattern, or the RRULE with its DTSTART line). A
    // folder item's `content` is NULL until it is released (then the copy
    // that went out); an app item's is its content from the start. The
    // outbox holds a claimed tick's delivery until the inbox has it.
    sql: "CREATE TABLE scheduled_messages (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            account_id TEXT NOT NULL,
            markdown TEXT NOT NULL,
            kind TEXT NOT NULL,
            spec TEXT NOT NULL,
            time_zone TEXT NOT NULL,
            state TEXT NOT NULL,
            next_at TEXT,
            last_delivered_at TEXT,
            deliveries INTEGER NOT NULL,
            created_by_session TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
          ) STRICT;
          CREATE INDEX scheduled_messages_by_account ON scheduled_messages (account_id, seq);
          CREATE INDEX scheduled_messages_due ON scheduled_messages (state, next_at);
          CREATE TABLE drips (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            account_id TEXT NOT NULL,
            name TEXT NOT NULL,
            folder TEXT,
            kind TEXT NOT NULL,
            spec TEXT NOT NULL,
            time_zone TEXT NOT NULL,
            state TEXT NOT NULL,
            next_at TEXT,
            last_released_at TEXT,
            skipped INTEGER NOT NULL,
            exhausted_at TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
          ) STRICT;
          CREATE INDEX drips_by_account ON drips (account_id, seq);
          CREATE INDEX drips_due ON drips (state, next_at);
          CREATE TABLE drip_items (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            drip_id TEXT NOT NULL REFERENCES drips (id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            kind TEXT NOT NULL,
            content TEXT,
            released_at TEXT,
            created_at TEXT NOT NULL
          ) STRICT;
          CREATE INDEX drip_items_by_drip ON drip_items (drip_id, name);
          CREATE TABLE drip_deliveries (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            account_id TEXT NOT NULL,
            payload TEXT NOT NULL,
            tick TEXT NOT NULL,
            late INTEGER NOT NULL,
            passed_over INTEGER NOT NULL,
            created_at TEXT NOT NULL
          ) STRICT;",
}];
