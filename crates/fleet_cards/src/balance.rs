//! Balance watch for the two model vendors: the balance the person entered,
//! the spend since, a burn rate and the forecast run-out.
//!
//! Vendor A is Anthropic (the `claude` engines' spend), vendor B is OpenAI
//! (the `codex` engines'). Neither offers an API key a balance endpoint, so
//! the balance is the one the person enters; what was spent since it was
//! entered comes off it. The burn rate is the spend of the last
//! [`BURN_WINDOW`] per hour, and the run-out is when the remainder lasts at
//! that rate.

use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};
use ts_rs::TS;
use utoipa::ToSchema;

pub const BURN_WINDOW: Duration = Duration::days(7);
pub const MAX_BALANCE_USD: f64 = 1_000_000.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "BalanceVendor")]
#[schema(as = BalanceVendor)]
pub enum Vendor {
    /// Anthropic: the `claude` engines.
    A,
    /// OpenAI: the `codex` engines.
    B,
}

impl Vendor {
    pub const ALL: [Vendor; 2] = [Vendor::A, Vendor::B];

    pub fn as_str(self) -> &'static str {
        match self {
            Vendor::A => "a",
            Vendor::B => "b",
        }
    }

    pub fn parse(text: &str) -> Option<Vendor> {
        Vendor::ALL.into_iter().find(|v| v.as_str() == text)
    }

    pub fn name(self) -> &'static str {
        match self {
            Vendor::A => "Anthropic",
            Vendor::B => "OpenAI",
        }
    }

    /// The `engines.toml` kind whose spend is this vendor's.
    pub fn engine_kind(self) -> &'static str {
        match self {
            Vendor::A => "claude",
            Vendor::B => "codex",
        }
    }

    /// Where the person adds credit.
    pub fn recharge_url(self) -> &'static str {
        match self {
            Vendor::A => "https://console.anthropic.com/settings/billing",
            Vendor::B => "https://platform.openai.com/settings/organization/billing/overview",
        }
    }
}

/// `PUT /balances/{vendor}`: the balance the vendor's billing page shows now.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SetBalance {
    pub balance_usd: f64,
}

/// A balance as the person entered it.
#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Balance {
    pub vendor: Vendor,
    pub balance_usd: f64,
    /// When it was entered (the clock's stored form).
    pub set_at: String,
}

/// Where a vendor's balance stands now.
#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "BalanceForecast")]
#[schema(as = BalanceForecast)]
pub struct Forecast {
    pub vendor: Vendor,
    pub vendor_name: String,
    /// The balance entered; `None` when none was.
    pub balance_usd: Option<f64>,
    pub set_at: Option<String>,
    pub spent_since_usd: f64,
    pub remaining_usd: Option<f64>,
    /// Dollars an hour over the last seven days.
    pub burn_usd_per_hour: f64,
    /// When the remainder runs out at that rate; `None` with no balance or
    /// no spend.
    pub runs_out_at: Option<String>,
    pub recharge_url: String,
}

/// The spend a forecast reads, from the ledger.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spend {
    /// Since the balance was entered.
    pub since_set_usd: f64,
    /// Over the burn window that ends now.
    pub window_usd: f64,
    /// How long that window really is (shorter when the ledger is younger).
    pub window: Duration,
}

pub fn forecast(
    vendor: Vendor,
    balance: Option<&Balance>,
    spend: Spend,
    now: OffsetDateTime,
) -> Forecast {
    let hours = spend.window.as_seconds_f64() / 3600.0;
    let burn = if hours > 0.0 {
        spend.window_usd.max(0.0) / hours
    } else {
        0.0
    };
    let remaining = balance.map(|b| b.balance_usd - spend.since_set_usd);
    let runs_out_at = remaining.filter(|_| burn > 0.0).map(|remaining| {
        let left = Duration::seconds_f64((remaining.max(0.0) / burn * 3600.0).min(1e12));
        clock::timestamp(now.saturating_add(left))
    });
    Forecast {
        vendor,
        vendor_name: vendor.name().to_owned(),
        balance_usd: balance.map(|b| b.balance_usd),
        set_at: balance.map(|b| b.set_at.clone()),
        spent_since_usd: if balance.is_some() {
            spend.since_set_usd
        } else {
            0.0
        },
        remaining_usd: remaining,
        burn_usd_per_hour: burn,
        runs_out_at,
        recharge_url: vendor.recharge_url().to_owned(),
    }
}

/// Hours until the run-out, when there is one.
pub fn hours_left(forecast: &Forecast, now: OffsetDateTime) -> Option<f64> {
    let at = OffsetDateTime::parse(
        forecast.runs_out_at.as_deref()?,
        &time::format_description::well_known::Rfc3339,
    )
    .ok()?;
    Some((at - now).as_seconds_f64() / 3600.0)
}

/// Vendor A's card: the run-out is `lead_hours` away or nearer.
pub fn run_out_due(forecast: &Forecast, lead_hours: f64, now: OffsetDateTime) -> bool {
    if forecast.remaining_usd.is_some_and(|r| r <= 0.0) {
        return true;
    }
    hours_left(forecast, now).is_some_and(|left| left <= lead_hours)
}

/// Vendor B's card: the remainder is under `threshold_usd`.
pub fn under_threshold(forecast: &Forecast, threshold_usd: f64) -> bool {
    forecast.remaining_usd.is_some_and(|r| r < threshold_usd)
}
