//! Work done on runners, in "Where's my work" (docs/work.md): a session
//! isolated in a worktree on a runner host is a piece of work as a local one
//! is, its facts read there by the runner's helper with the code this
//! machine reads its own with, so the same rules decide its state. A runner
//! asked a moment ago is not asked again; one that cannot answer in time
//! shows what it said last, with when, and never holds the list back.

use std::collections::HashMap;
use std::time::Duration;

use sessions::Session;
use tokio::task::JoinSet;

use crate::services::App;

/// How long one runner is given to answer for one piece of work.
const ASK_FOR: Duration = Duration::from_secs(5);

/// Facts read this recently (seconds), while no session on the piece started
/// or ended since, answer without asking the runner again: a page refreshed
/// every few seconds costs the runner one look.
const FRESH_FOR: i64 = 20;

/// The runners other than this machine that the account's sessions ran on.
fn runners_of(sessions: &[Session]) -> Vec<String> {
    let mut names: Vec<String> = sessions
        .iter()
        .filter(|s| s.runner != runners::LOCAL && s.worktree.is_some())
        .map(|s| s.runner.clone())
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The account's pieces of work on runners, each with its runner, under
/// ids apart from this machine's.
fn groups(account: &str, sessions: &[Session]) -> Vec<(String, work::Group)> {
    let no_origins = HashMap::new();
    runners_of(sessions)
        .into_iter()
        .flat_map(|runner| {
            let sources = crate::work::sources(account, &runner, sessions, &no_origins);
            work::group(sources)
                .into_iter()
                .map(move |mut group| {
                    group.id = work::id_on_runner(
                        account,
                        &runner,
                        &group.piece.repository,
                        &group.piece.branch,
                    );
                    (runner.clone(), group)
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

impl App {
    /// The account's work on runners, read there now or lately.
    pub(crate) async fn runner_work_entries(
        &self,
        account: &str,
        sessions: &[Session],
        hosted: &HashMap<String, work::hosted::Hosted>,
        hosts: &[codehosts::Host],
    ) -> Vec<work::Entry> {
        let groups = groups(account, sessions);
        let mut reading = JoinSet::new();
        for (at, (runner, group)) in groups.iter().enumerate() {
            let (app, runner, group) = (self.clone(), runner.clone(), group.clone());
            reading.spawn(async move { (at, app.runner_work_facts(&runner, &group).await) });
        }
        let mut read = vec![None; groups.len()];
        while let Some(done) = reading.join_next().await {
            match done {
                Ok((at, facts)) => read[at] = Some(facts),
                Err(error) => tracing::warn!(%error, "work on a runner was not read"),
            }
        }
        groups
            .iter()
            .zip(read)
            .filter_map(|((runner, group), read)| {
                let (facts, last_read) = read?;
                let mut entry = work::entry(group, &facts, hosted.get(&group.id), hosts)?;
                // Acting on it runs git where its checkout is: on the runner.
                entry.actions.retain(|a| *a == work::Action::Open);
                entry.runner = Some(runner.clone());
                entry.last_read = last_read;
                Some(entry)
            })
            .collect()
    }

    /// The facts of a piece of work on `runner`, and when they were read
    /// when that was not now.
    async fn runner_work_facts(
        &self,
        runner: &str,
        group: &work::Group,
    ) -> (work::facts::Facts, Option<String>) {
        let now = self.clock.now().unix_timestamp();
        let sessions = work::sessions_fingerprint(group);
        let remembered = self.work.remembered(&group.id);
        if let Some((read_under, facts, at)) = &remembered
            && *read_under == sessions
            && now - at < FRESH_FOR
        {
            return (facts.clone(), None);
        }
        let asked = tokio::time::timeout(ASK_FOR, self.runners.work_facts(runner, &group.piece))
            .await
            .unwrap_or_else(|_| Err(format!("the runner `{runner}` did not answer in time")));
        match (asked, remembered) {
            (Ok(facts), _) => {
                self.work.remember(&group.id, sessions, facts.clone(), now);
                (facts, None)
            }
            (Err(_), Some((_, facts, at))) => {
                let when = time::OffsetDateTime::from_unix_timestamp(at)
                    .map(clock::timestamp)
                    .ok();
                (facts, when)
            }
            (Err(reason), None) => (
                work::facts::Facts::RepositoryGone {
                    reason: format!("not read yet: {reason}"),
                },
                None,
            ),
        }
    }

    /// The runner and group of the account's piece of work `id` on a
    /// runner, when it is one.
    pub(crate) fn runner_work_group(
        &self,
        account: &str,
        sessions: &[Session],
        id: &str,
    ) -> Option<(String, work::Group)> {
        groups(account, sessions)
            .into_iter()
            .find(|(_, group)| group.id == id)
    }

    /// A piece of work's diff on `runner`, for its reviewers: `(head, diff,
    /// cut)` as [`work::reviews::diff`] answers here.
    pub(crate) async fn runner_work_diff(
        &self,
        runner: &str,
        piece: &work::facts::Piece,
    ) -> Result<(String, String, bool), String> {
        let diff = self.runners.work_diff(runner, piece).await?;
        Ok((diff.head, diff.diff, diff.cut))
    }
}
