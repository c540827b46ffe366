//! `GET /usage`: what an account's sessions spent, per UTC day (of each turn's
//! end) and engine, summed from the per-turn figures the adapters stored.

use store::rusqlite::{Transaction, params};
use time::Date;
use time::macros::format_description;

use crate::error::{Result, SessionError};
use crate::model::{Tokens, Usage, UsageDay};
use crate::supervisor::Supervisor;

impl Supervisor {
    /// Daily totals per engine for `account_id`'s turns that ended between
    /// `from` and `to` (`YYYY-MM-DD`, both included, both optional), oldest
    /// day first. A date that does not parse, or `from` after `to`, is invalid input.
    pub async fn usage(
        &self,
        account_id: &str,
        from: Option<&str>,
        to: Option<&str>,
    ) -> Result<Usage> {
        let from = from.map(|d| parse_day("from", d)).transpose()?;
        let to = to.map(|d| parse_day("to", d)).transpose()?;
        if let (Some(from), Some(to)) = (from, to)
            && from > to
        {
            return Err(SessionError::InvalidInput(format!(
                "from ({from}) is after to ({to})."
            )));
        }
        // Stored times are UTC RFC 3339 strings, so a day's bounds compare as text.
        let lower = from.map_or_else(String::new, |d| d.to_string());
        let upper = match to.and_then(Date::next_day) {
            Some(day) => day.to_string(),
            None => "~".to_owned(),
        };
        let account = account_id.to_owned();
        let days = self
            .inner
            .read(move |tx| daily(tx, &account, &lower, &upper))
            .await?;
        Ok(Usage { days })
    }
}

fn parse_day(name: &str, text: &str) -> Result<Date> {
    Date::parse(text.trim(), format_description!("[year]-[month]-[day]")).map_err(|_| {
        SessionError::InvalidInput(format!(
            "{name} must be a date written YYYY-MM-DD; {text:?} is not."
        ))
    })
}

/// Turns ended at or after `lower` and before `upper` (timestamp prefixes).
fn daily(tx: &Transaction<'_>, account: &str, lower: &str, upper: &str) -> Result<Vec<UsageDay>> {
    let mut stmt = tx.prepare(
        "SELECT substr(t.ended_at, 1, 10) AS day, s.engine, COUNT(DISTINCT t.session_id),
            COUNT(*), SUM(t.cost_usd), COALESCE(SUM(t.input_tokens), 0),
            COALESCE(SUM(t.output_tokens), 0), COALESCE(SUM(t.cached_input_tokens), 0)
         FROM session_turns t JOIN sessions s ON s.id = t.session_id
         WHERE s.account_id = ?1 AND t.ended_at >= ?2 AND t.ended_at < ?3
         GROUP BY day, s.engine ORDER BY day, s.engine",
    )?;
    let rows = stmt.query_map(params![account, lower, upper], |r| {
        Ok(UsageDay {
            date: r.get(0)?,
            engine: r.get(1)?,
            sessions: r.get(2)?,
            turns: r.get(3)?,
            cost_usd: r.get(4)?,
            tokens: Tokens {
                input: r.get(5)?,
                output: r.get(6)?,
                cached_input: r.get(7)?,
            },
        })
    })?;
    Ok(rows.collect::<store::rusqlite::Result<_>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_parse_strictly() {
        assert!(parse_day("from", "2026-01-05").is_ok());
        for bad in [
            "2026-1-5",
            "2026-02-30",
            "yesterday",
            "",
            "2026-01-05T00:00:00Z",
        ] {
            assert!(parse_day("from", bad).is_err(), "{bad}");
        }
    }
}

/// One session started in a window, as a coaching report reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionHistory {
    pub cwd: String,
    pub status: crate::model::Status,
    pub turns: i64,
    /// Turns that answered a follow-up of the user's or a script's.
    pub follow_ups: i64,
    /// Turns the watchdog restarted (a stall or a loop).
    pub restarts: i64,
    pub failed_turns: i64,
    pub cost_usd: Option<f64>,
}

impl Supervisor {
    /// The account's sessions created at or after `since` (a stored
    /// timestamp), with their turns counted by kind and outcome: one query.
    pub async fn history_since(
        &self,
        account_id: &str,
        since: &str,
    ) -> Result<Vec<SessionHistory>> {
        let (account, since) = (account_id.to_owned(), since.to_owned());
        self.inner
            .read(move |tx| {
                let mut stmt = tx.prepare_cached(
                    "SELECT s.cwd, s.status, COUNT(t.turn),
                            COALESCE(SUM(t.kind = 'message'), 0),
                            COALESCE(SUM(t.status = 'restarted'), 0),
                            COALESCE(SUM(t.status = 'failed'), 0),
                            SUM(t.cost_usd)
                     FROM sessions s LEFT JOIN session_turns t ON t.session_id = s.id
                     WHERE s.account_id = ?1 AND s.created_at >= ?2
                     GROUP BY s.id",
                )?;
                let rows = stmt.query_map(params![account, since], |r| {
                    Ok(SessionHistory {
                        cwd: r.get(0)?,
                        status: crate::model::Status::parse(&r.get::<_, String>(1)?)
                            .unwrap_or(crate::model::Status::Failed),
                        turns: r.get(2)?,
                        follow_ups: r.get(3)?,
                        restarts: r.get(4)?,
                        failed_turns: r.get(5)?,
                        cost_usd: r.get(6)?,
                    })
                })?;
                Ok(rows.collect::<store::rusqlite::Result<_>>()?)
            })
            .await
    }
}
