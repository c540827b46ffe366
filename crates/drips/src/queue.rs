//! What a drip is (a queue of items released one at a time, in order, to
//! the inbox on a cron pattern or an RRULE) and the fields that make one:
//! pure, no storage.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::timing::Timing;

/// The longest drip name.
pub const MAX_DRIP_NAME_CHARS: usize = 100;

/// A queue of items and its cadence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Drip {
    pub id: String,
    pub name: String,
    /// The folder its items are the files of; `null` when they are added
    /// in the app.
    pub folder: Option<String>,
    /// Its cadence (`cron` or `rrule`; `at` is always `null`), zone, state
    /// and next tick.
    #[serde(flatten)]
    pub timing: Timing,
    pub last_released_at: Option<String>,
    /// Items released so far.
    pub released: i64,
    /// Items waiting, in order.
    pub remaining: i64,
    /// Nothing is left to release: its ticks release nothing until an item
    /// is added (its first empty tick said so in the inbox).
    pub exhausted: bool,
    /// Ticks that released nothing because `dripGlobalPause` was on.
    pub skipped: i64,
    /// Why its folder cannot be read now, when it cannot.
    pub problem: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    #[serde(skip)]
    #[ts(skip)]
    #[schema(ignore)]
    pub account_id: String,
}

/// The fields that make a drip: a name, where its items come from, and
/// exactly one of `cron` or `rrule` in a zone.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[ts(rename = "DripFields")]
#[schema(as = DripFields)]
pub struct NewDrip {
    /// 1 to 100 characters.
    #[serde(default)]
    pub name: String,
    /// An absolute path to a folder whose `.md`, `.html` and `.txt` files
    /// are the items, released in name order (numbers as numbers). Leave
    /// it out to add items in the app (`POST /drips/{id}/items`).
    #[ts(optional)]
    pub folder: Option<String>,
    /// Five fields (minute hour day-of-month month day-of-week); give this
    /// or `rrule`.
    #[ts(optional)]
    pub cron: Option<String>,
    /// An RFC 5545 RRULE, optionally after a `DTSTART` line; give this or
    /// `cron`.
    #[ts(optional)]
    pub rrule: Option<String>,
    /// An IANA zone such as `Europe/Berlin`.
    #[serde(default)]
    pub time_zone: String,
}
