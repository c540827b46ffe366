//! A crowded login: one engine login carries far more running sessions than
//! the others and is near the limit the person set for it.
//!
//! "Far more": at least [`FAR_FACTOR`] times the sessions of the next
//! busiest login, and at least [`FAR_MARGIN`] more. "Near": at least
//! [`NEAR_SHARE`] of its `max_sessions` (rounded up). A login with no limit
//! is never near one, so it never raises the card; it can still be the
//! place the card suggests.

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

pub const FAR_FACTOR: u32 = 2;
pub const FAR_MARGIN: u32 = 2;
pub const NEAR_SHARE: f64 = 0.8;

/// One engine login as the card reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "FleetLogin")]
#[schema(as = FleetLogin)]
pub struct Login {
    /// Its name in `engines.toml`.
    pub name: String,
    /// Its sessions queued, starting or running now.
    pub running: u32,
    /// `max_sessions` in `engines.toml`; `None` when not set.
    pub limit: Option<u32>,
}

/// The crowded login and where the next session would go better.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "FleetCrowded")]
#[schema(as = FleetCrowded)]
pub struct Crowded {
    pub login: String,
    pub running: u32,
    pub limit: u32,
    /// The other login with room and the fewest running sessions.
    pub suggest: Option<String>,
}

/// The first login, by name, that is crowded among `logins`.
pub fn crowded(logins: &[Login]) -> Option<Crowded> {
    logins.iter().find_map(|login| {
        let limit = login.limit.filter(|limit| *limit > 0)?;
        let others = logins.iter().filter(|other| other.name != login.name);
        let busiest_other = others.clone().map(|other| other.running).max()?;
        let far = login.running >= busiest_other.saturating_mul(FAR_FACTOR)
            && login.running >= busiest_other + FAR_MARGIN;
        let near = f64::from(login.running) >= (f64::from(limit) * NEAR_SHARE).ceil();
        (far && near).then(|| Crowded {
            login: login.name.clone(),
            running: login.running,
            limit,
            suggest: others
                .filter(|other| other.limit.is_none_or(|limit| other.running < limit))
                .min_by_key(|other| (other.running, other.name.clone()))
                .map(|other| other.name.clone()),
        })
    })
}
