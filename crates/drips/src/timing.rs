//! What the API shows of when a scheduled message or a drip goes
//! ([`Timing`]) and whether it still does ([`CadenceState`]), read from
//! the timing columns both tables share.

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::when::Kind;

/// Whether a scheduled message or a drip still delivers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CadenceState {
    /// Delivers at `nextAt`.
    Active,
    /// Stopped by the user; resuming waits for the next tick.
    Paused,
    /// Nothing more to deliver: a one-off delivered, or a rule with no
    /// tick left.
    Done,
}

impl CadenceState {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            CadenceState::Active => "active",
            CadenceState::Paused => "paused",
            CadenceState::Done => "done",
        }
    }

    /// A stored state (one this crate did not write reads as `done`:
    /// nothing can be done with it).
    pub(crate) fn parse(text: &str) -> Self {
        [CadenceState::Active, CadenceState::Paused]
            .into_iter()
            .find(|s| s.as_str() == text)
            .unwrap_or(CadenceState::Done)
    }
}

/// When a scheduled message or a drip goes, as the API shows it: exactly
/// one of `at`, `cron` and `rrule` is set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Timing {
    /// A one-off's moment (RFC 3339, UTC); `null` for a recurring one (and
    /// always for a drip, which repeats).
    pub at: Option<String>,
    /// A five-field cron pattern.
    pub cron: Option<String>,
    /// An RRULE, with the DTSTART line it was given or got.
    pub rrule: Option<String>,
    /// The IANA zone the rule (or a local `at`) is read in.
    pub time_zone: String,
    pub state: CadenceState,
    /// The next tick (RFC 3339, UTC); `null` unless active.
    pub next_at: Option<String>,
}

/// The wire [`Timing`] of a row whose `kind`, `spec`, `time_zone`,
/// `state` and `next_at` are its columns from `first` on.
pub(crate) fn read_timing(
    row: &store::rusqlite::Row<'_>,
    first: usize,
) -> store::rusqlite::Result<Timing> {
    let kind: String = row.get(first)?;
    let spec: String = row.get(first + 1)?;
    let state: String = row.get(first + 3)?;
    let (mut at, mut cron, mut rrule) = (None, None, None);
    match Kind::parse(&kind).ok_or_else(|| unreadable(first, "timing kind"))? {
        Kind::Once => at = Some(spec),
        Kind::Cron => cron = Some(spec),
        Kind::Rrule => rrule = Some(spec),
    }
    Ok(Timing {
        at,
        cron,
        rrule,
        time_zone: row.get(first + 2)?,
        state: CadenceState::parse(&state),
        next_at: row.get(first + 4)?,
    })
}

/// A stored value this crate did not write.
pub(crate) fn unreadable(column: usize, what: &str) -> store::rusqlite::Error {
    store::rusqlite::Error::FromSqlConversionFailure(
        column,
        store::rusqlite::types::Type::Text,
        format!("not a {what}").into(),
    )
}
