//! The fleet's own inbox cards: what Switchboard notices about the fleet it
//! runs, beyond any one session, and tells the person once.
//!
//! - [`load`]: one engine login (an `engines.toml` entry) carries far more
//!   running sessions than the others and is near the limit set for it
//!   (`max_sessions`); the card names where to place the next.
//! - [`watching`]: time with a session page in front, per local day, and the
//!   weekly recap once a week held heavy watching.
//! - [`balance`]: the balance the person entered per model vendor, the
//!   spend since, the burn rate and the forecast run-out.
//! - [`words`]: an alarm typed in words, as the utility model is asked to
//!   read it and as its answer is checked.
//!
//! [`Cards`] keeps what these need (the balances, the watched seconds) and
//! which card was made for which period, so each is made at most once per
//! its period. Knows nothing of HTTP, settings, sessions or the inbox: the
//! caller reads those and passes plain figures and moments of its clock.

pub mod balance;
pub mod load;
mod store_rows;
pub mod watching;
pub mod words;

pub use balance::{Balance, Forecast, Vendor};
pub use store_rows::Cards;

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[store::Migration {
    feature: "fleet_cards",
    sql: "CREATE TABLE fleet_cards_made (
            account_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            period TEXT NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY (account_id, kind, period)
          ) STRICT;
          CREATE TABLE fleet_watching (
            account_id TEXT NOT NULL,
            day TEXT NOT NULL,
            seconds INTEGER NOT NULL,
            PRIMARY KEY (account_id, day)
          ) STRICT;
          CREATE TABLE fleet_balances (
            account_id TEXT NOT NULL,
            vendor TEXT NOT NULL,
            balance_usd REAL NOT NULL,
            set_at TEXT NOT NULL,
            PRIMARY KEY (account_id, vendor)
          ) STRICT;",
}];

#[derive(Debug, thiserror::Error)]
pub enum CardsError {
    #[error(transparent)]
    Store(#[from] store::StoreError),
    #[error("a balance is a number of dollars from 0 to 1000000")]
    InvalidBalance,
}

#[cfg(test)]
mod tests;
