//! Calendars: the user's CalDAV accounts and read-only ICS subscriptions,
//! synchronised incrementally, their events stored with their occurrences
//! expanded for a window around now.
//!
//! - [`Calendars`] is the API: [`Calendars::add`], [`Calendars::accounts`],
//!   [`Calendars::remove`], [`Calendars::sync`] and [`Calendars::events`].
//!   A password (or token) goes to the `secrets` crate's sealed saved keys
//!   and no type this crate returns holds it.
//! - A CalDAV account is found from a base URL (`caldav.rs`: RFC 6764,
//!   principal, calendar home) and each calendar is synchronised by its
//!   sync-token, else its ctag and the members' ETags; only changed
//!   resources are downloaded (calendar-multiget).
//! - An ICS subscription is fetched with If-None-Match / If-Modified-Since
//!   (`subscription.rs`) and, when changed, imported one event at a time.
//! - Occurrences (`expand.rs`): RRULE through the `rrule` crate in the
//!   event's wall time, EXDATE, RDATE, RECURRENCE-ID overrides; zones by
//!   IANA name (jiff) or from the calendar's own VTIMEZONE (`zone.rs`).
//!   A rule that never ends is cut: at most [`MAX_RULE_STEPS`] steps of
//!   it are walked and [`MAX_OCCURRENCES_PER_EVENT`] occurrences kept, and
//!   all the rules of one read (a subscription's file, a CalDAV resource,
//!   the resources one sync downloads from one calendar) walk at most
//!   [`MAX_STEPS_PER_READ`] steps together, so a file of many such rules
//!   costs no more than a few.
//! - The readers of server input alone, without a database (`inputs.rs`),
//!   are what the fuzz targets (crates/fuzzing) drive.
//! - A failing server (401, 404, 5xx, malformed XML, a timeout) marks the
//!   account failing with the reason; the events it had stay.
//!
//! Everything time-based reads the injected [`clock::Clock`]. Knows nothing
//! of HTTP routes, settings or the inbox: the server checks the switches and
//! calls this; the application runs the sync loop.

mod book;
mod caldav;
mod dav;
mod days;
mod error;
mod expand;
mod ics;
mod import;
mod inputs;
mod recur;
mod reminders;
mod screen;
mod service;
mod spam;
mod spam_book;
mod subscription;
mod zone;

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

pub use book::MIGRATIONS;
pub use days::check_days;
pub use error::CalendarError;
pub use inputs::{
    Expanded, MAX_OCCURRENCES_PER_EVENT, MAX_RULE_STEPS, MAX_STEPS_PER_READ, read_multistatus,
    read_resource, read_resources, read_subscription,
};
pub use screen::Screening;
pub use service::{Calendars, Options};
pub use spam::{
    MAX_ORGANIZATION_ENTRIES, Marked, Organization, OwnDomain, SpamSender, TRASH_KEEP_DAYS,
    TrashedInvite,
};

/// What an account reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "CalendarKind")]
#[schema(as = CalendarKind)]
pub enum Kind {
    /// A CalDAV server: its calendars, found from the URL.
    Caldav,
    /// One iCalendar file at a URL, read-only.
    Ics,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Caldav => "caldav",
            Kind::Ics => "ics",
        }
    }

    fn parse(text: &str) -> Kind {
        if text == "ics" {
            Kind::Ics
        } else {
            Kind::Caldav
        }
    }
}

/// An account to add. `Debug` leaves the password out.
#[derive(Clone, Deserialize)]
pub struct NewAccount {
    pub kind: Kind,
    pub url: String,
    pub username: Option<String>,
    /// A password, or a token (sent as a bearer token when there is no
    /// user name). Written to the secrets store, never read back out.
    pub password: Option<String>,
    /// Shown in lists; the URL's host when absent.
    pub name: Option<String>,
}

impl std::fmt::Debug for NewAccount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewAccount")
            .field("kind", &self.kind)
            .field("url", &self.url)
            .field("username", &self.username)
            .field("password", &self.password.as_ref().map(|_| "(hidden)"))
            .field("name", &self.name)
            .finish()
    }
}

/// Whether the last sync worked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "CalendarStatus")]
#[schema(as = CalendarStatus)]
pub enum Status {
    /// Never synchronised yet.
    Pending,
    Ok,
    /// The last sync failed: `failure` says why; the earlier events stay.
    Failing,
}

/// An account as shown: never its password, only whether it has one.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "CalendarAccount")]
#[schema(as = CalendarAccount)]
pub struct Account {
    pub id: String,
    pub kind: Kind,
    pub name: String,
    pub url: String,
    pub username: Option<String>,
    pub has_password: bool,
    pub status: Status,
    pub failure: Option<String>,
    /// What the last successful sync could not read (an unknown time
    /// zone, a rule it could not walk), one sentence each.
    pub warnings: Vec<String>,
    pub last_sync_at: Option<String>,
    pub created_at: String,
    pub calendars: Vec<CalendarInfo>,
}

/// One calendar of an account.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CalendarInfo {
    pub name: String,
    pub color: Option<String>,
}

/// Where an entry of the calendar comes from: a calendar of an account, or,
/// with the boards' overlay on, an item's due date or a sprint's span.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[ts(rename = "CalendarSource")]
#[schema(as = CalendarSource)]
pub enum Source {
    Caldav(AccountSource),
    Ics(AccountSource),
    Item(ItemSource),
    Sprint(SprintSource),
}

/// The account and calendar an event was read from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountSource {
    pub account_id: String,
    pub account: String,
    pub calendar: String,
    pub color: Option<String>,
    /// A CalDAV event's ORGANIZER address (lower case): who invited the
    /// user, or the user themselves; `None` for an event without one and
    /// for a subscription's.
    pub organizer: Option<String>,
    /// The organizer is not one of the user's own addresses: an invitation,
    /// which may be marked spam. Told only while the calendar's spam filter
    /// is on (it knows the user's addresses); `false` otherwise.
    pub invitation: bool,
}

/// A board item on its due date: dragging it writes `column_id`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ItemSource {
    pub board_id: String,
    pub board: String,
    pub item_id: String,
    /// The date column read as the item's due date.
    pub column_id: String,
    /// The board's color on the calendar, the same for all its entries.
    pub color: String,
}

/// A sprint of a board, from its items' first date to their last.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SprintSource {
    pub board_id: String,
    pub board: String,
    pub sprint: String,
    pub color: String,
}

/// One occurrence of an event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Occurrence {
    pub uid: String,
    pub title: String,
    pub location: Option<String>,
    /// RFC 3339 UTC. For an all-day event, midnight UTC of its first day.
    pub start: String,
    /// Exclusive; for an all-day event, midnight UTC after its last day.
    pub end: String,
    pub all_day: bool,
    /// Part of a series (an RRULE, RDATEs or overrides).
    pub recurring: bool,
    pub source: Source,
}

/// What one sync did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SyncReport {
    /// Calendars the account has now.
    pub calendars: usize,
    /// Events (CalDAV resources, or a subscription's UIDs) downloaded.
    pub fetched: usize,
    /// Events removed because the server no longer has them.
    pub removed: usize,
    /// A subscription whose file had not changed (304).
    pub not_modified: bool,
}
