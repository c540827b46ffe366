//! What `GET /metrics` reads at scrape time, from where it is kept (the
//! sessions' rows, the runners' last look, the turns' costs, the inbox), so
//! a gauge is never a copy that could drift from the truth.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use metrics::{InboxCount, RunnerCount, SessionCount, Snapshot};
use time::format_description::well_known::Rfc3339;
use time::{OffsetDateTime, UtcOffset};

use crate::error::{AppResult, blocking};
use crate::services::App;

impl App {
    /// The scrape-time gauges. Runners are as their last look found them
    /// (every 15 s while runners are on): a scrape reaches no host.
    pub async fn metrics_snapshot(&self) -> AppResult<Snapshot> {
        let census = self.sessions.census().await?;
        let now = self.clock.now();
        let runners = self
            .runners
            .list(&BTreeMap::new(), runners::LocalFacts::default());
        let names: BTreeSet<String> = runners
            .iter()
            .map(|runner| runner.name.clone())
            .chain(census.by_status.iter().map(|(_, runner, _)| runner.clone()))
            .collect();
        let oldest_queued_wait = census
            .oldest_queued_since
            .as_deref()
            .and_then(|since| OffsetDateTime::parse(since, &Rfc3339).ok())
            .and_then(|since| Duration::try_from(now - since).ok())
            .map(whole_milliseconds)
            .unwrap_or_default();
        let accounts = {
            let accounts = self.accounts.clone();
            blocking(move || accounts.list()).await?
        };
        Ok(Snapshot {
            sessions: sessions_by_state(&census.by_status, &names),
            queued: census.queued,
            oldest_queued_wait,
            spend_today_dollars: self.spend_today(&accounts, now).await?,
            runners: runners_by_state(&runners),
            inbox_unread: self.inbox_unread(accounts).await?,
        })
    }

    /// What `GET /usage` says every account's turns that ended today (its
    /// UTC day) cost.
    async fn spend_today(
        &self,
        accounts: &[accounts::Account],
        now: OffsetDateTime,
    ) -> AppResult<f64> {
        let today = now.to_offset(UtcOffset::UTC).date().to_string();
        let mut spent = 0.0;
        for account in accounts {
            let usage = self
                .sessions
                .usage(&account.id, Some(&today), Some(&today))
                .await?;
            spent += usage
                .days
                .iter()
                .filter_map(|day| day.cost_usd)
                .sum::<f64>();
        }
        Ok(spent)
    }

    /// Unread rows by category over every account, hidden categories
    /// included: a row a setting hides still waits to be read.
    async fn inbox_unread(&self, accounts: Vec<accounts::Account>) -> AppResult<Vec<InboxCount>> {
        let inbox = self.inbox.clone();
        let counts = blocking(move || {
            let mut counts = BTreeMap::<&'static str, u64>::new();
            for account in &accounts {
                for (category, n) in inbox.unread_counts(&account.id, &[])? {
                    *counts.entry(category.as_str()).or_default() +=
                        u64::try_from(n).unwrap_or_default();
                }
            }
            Ok::<_, inbox::InboxError>(counts)
        })
        .await?;
        Ok(counts
            .into_iter()
            .map(|(category, count)| InboxCount {
                category: category.to_owned(),
                count,
            })
            .collect())
    }
}

/// Stored times keep milliseconds, so a finer wait would be the cut's noise.
fn whole_milliseconds(wait: Duration) -> Duration {
    u64::try_from(wait.as_millis()).map_or(wait, Duration::from_millis)
}

/// Every status for every runner, counted or 0, so a state that empties
/// reads 0 rather than vanishing from a query.
fn sessions_by_state(
    counted: &[(sessions::Status, String, u64)],
    runners: &BTreeSet<String>,
) -> Vec<SessionCount> {
    let mut counts = Vec::with_capacity(runners.len() * sessions::Status::ALL.len());
    for runner in runners {
        for status in sessions::Status::ALL {
            let count = counted
                .iter()
                .find(|(s, r, _)| *s == status && r == runner)
                .map_or(0, |(_, _, n)| *n);
            counts.push(SessionCount {
                state: status.as_str().to_owned(),
                runner: runner.clone(),
                count,
            });
        }
    }
    counts
}

fn runners_by_state(runners: &[runners::RunnerInfo]) -> Vec<RunnerCount> {
    let mut counts = BTreeMap::<(&str, &str), u64>::new();
    for runner in runners {
        *counts
            .entry((runner.state.as_str(), kind_name(runner.kind)))
            .or_default() += 1;
    }
    counts
        .into_iter()
        .map(|((state, kind), count)| RunnerCount {
            state: state.to_owned(),
            kind: kind.to_owned(),
            count,
        })
        .collect()
}

/// The kind as `GET /runners` writes it; a new kind does not compile
/// until it is named here too.
fn kind_name(kind: runners::RunnerKind) -> &'static str {
    match kind {
        runners::RunnerKind::Local => "local",
        runners::RunnerKind::Ssh => "ssh",
        runners::RunnerKind::Pool => "pool",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sessions::Status;

    #[test]
    fn every_state_of_every_runner_is_counted_or_zero() {
        let counted = vec![
            (Status::Running, "local".to_owned(), 2),
            (Status::Queued, "gpu".to_owned(), 1),
        ];
        let runners: BTreeSet<String> = ["local", "gpu"].map(str::to_owned).into();
        let counts = sessions_by_state(&counted, &runners);
        assert_eq!(counts.len(), 2 * Status::ALL.len());
        let count = |state: &str, runner: &str| {
            counts
                .iter()
                .find(|c| c.state == state && c.runner == runner)
                .map(|c| c.count)
        };
        assert_eq!(count("running", "local"), Some(2));
        assert_eq!(count("queued", "gpu"), Some(1));
        assert_eq!(count("queued", "local"), Some(0));
        assert_eq!(count("paused", "gpu"), Some(0));
    }
}
