//! What the cards keep: the balances entered, the watched seconds per day,
//! and the card made per account, kind and period.

use std::sync::Arc;

use store::rusqlite::{OptionalExtension, params};
use store::{Db, StoreError};
use time::Date;

use crate::CardsError;
use crate::balance::{Balance, MAX_BALANCE_USD, Vendor};

#[derive(Debug, Clone)]
pub struct Cards {
    db: Arc<Db>,
}

impl Cards {
    pub fn new(db: Arc<Db>) -> Self {
        Self { db }
    }

    /// Records the card `kind` of `period` for the account; false when it
    /// was made already, so the caller makes it at most once.
    pub fn first(
        &self,
        account_id: &str,
        kind: &str,
        period: &str,
        at: &str,
    ) -> Result<bool, CardsError> {
        Ok(self.db.write(|tx| {
            let added = tx.execute(
                "INSERT INTO fleet_cards_made (account_id, kind, period, at)
                 VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING",
                params![account_id, kind, period, at],
            )?;
            Ok::<_, StoreError>(added == 1)
        })?)
    }

    pub fn add_watching(
        &self,
        account_id: &str,
        day: Date,
        seconds: i64,
    ) -> Result<(), CardsError> {
        if seconds <= 0 {
            return Ok(());
        }
        Ok(self.db.write(|tx| {
            tx.execute(
                "INSERT INTO fleet_watching (account_id, day, seconds) VALUES (?1, ?2, ?3)
                 ON CONFLICT (account_id, day) DO UPDATE SET seconds = seconds + excluded.seconds",
                params![account_id, day.to_string(), seconds],
            )?;
            Ok::<_, StoreError>(())
        })?)
    }

    /// The account's watched seconds per day from `from` to `to`, both included.
    pub fn watching(
        &self,
        account_id: &str,
        from: Date,
        to: Date,
    ) -> Result<Vec<(Date, i64)>, CardsError> {
        let format = time::macros::format_description!("[year]-[month]-[day]");
        let rows: Vec<(String, i64)> = self.db.read(|tx| {
            let mut statement = tx.prepare_cached(
                "SELECT day, seconds FROM fleet_watching
                 WHERE account_id = ?1 AND day >= ?2 AND day <= ?3 ORDER BY day",
            )?;
            let rows = statement
                .query_map(params![account_id, from.to_string(), to.to_string()], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })?
                .collect::<store::rusqlite::Result<Vec<_>>>()?;
            Ok::<_, StoreError>(rows)
        })?;
        Ok(rows
            .into_iter()
            .filter_map(|(day, seconds)| Some((Date::parse(&day, format).ok()?, seconds)))
            .collect())
    }

    pub fn set_balance(
        &self,
        account_id: &str,
        vendor: Vendor,
        balance_usd: f64,
        at: &str,
    ) -> Result<Balance, CardsError> {
        if !balance_usd.is_finite() || !(0.0..=MAX_BALANCE_USD).contains(&balance_usd) {
            return Err(CardsError::InvalidBalance);
        }
        self.db.write(|tx| {
            tx.execute(
                "INSERT INTO fleet_balances (account_id, vendor, balance_usd, set_at)
                 VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (account_id, vendor) DO UPDATE
                 SET balance_usd = excluded.balance_usd, set_at = excluded.set_at",
                params![account_id, vendor.as_str(), balance_usd, at],
            )?;
            Ok::<_, StoreError>(())
        })?;
        Ok(Balance {
            vendor,
            balance_usd,
            set_at: at.to_owned(),
        })
    }

    pub fn clear_balance(&self, account_id: &str, vendor: Vendor) -> Result<(), CardsError> {
        Ok(self.db.write(|tx| {
            tx.execute(
                "DELETE FROM fleet_balances WHERE account_id = ?1 AND vendor = ?2",
                params![account_id, vendor.as_str()],
            )?;
            Ok::<_, StoreError>(())
        })?)
    }

    pub fn balance(&self, account_id: &str, vendor: Vendor) -> Result<Option<Balance>, CardsError> {
        Ok(self.db.read(|tx| {
            Ok::<_, StoreError>(
                tx.query_row(
                    "SELECT balance_usd, set_at FROM fleet_balances
                     WHERE account_id = ?1 AND vendor = ?2",
                    params![account_id, vendor.as_str()],
                    |r| {
                        Ok(Balance {
                            vendor,
                            balance_usd: r.get(0)?,
                            set_at: r.get(1)?,
                        })
                    },
                )
                .optional()?,
            )
        })?)
    }

    /// The accounts with a balance entered, for the watch.
    pub fn accounts_with_balances(&self) -> Result<Vec<String>, CardsError> {
        Ok(self.db.read(|tx| {
            let mut statement =
                tx.prepare_cached("SELECT DISTINCT account_id FROM fleet_balances ORDER BY 1")?;
            let rows = statement
                .query_map([], |r| r.get(0))?
                .collect::<store::rusqlite::Result<Vec<String>>>()?;
            Ok::<_, StoreError>(rows)
        })?)
    }
}
