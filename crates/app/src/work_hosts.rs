//! Where's my work and the code hosts (docs/work.md): every two minutes on
//! the app clock, each pushed piece of work whose remote is on a code host
//! with a saved token (`codehosts.toml`, or github.com / gitlab.com with
//! `GITHUB_TOKEN` / `GITLAB_TOKEN`) has its pull request looked up, with
//! the last ETag so an unchanged answer is a free 304; a pull request
//! merged or closed since makes one inbox row per repository, folded as
//! more arrive. Every ten minutes each repository with such work is
//! fetched with `--prune`, so remote branches deleted on the host are seen
//! by git too. Without a token nothing is asked: git alone decides.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use codehosts::{Client, Lookup, PullRequest, PullRequestState};
use inbox::{Category, NewRow, Source};
use work::hosted::Hosted;

use crate::error::{AppResult, blocking};
use crate::services::App;

const POLL_EVERY: time::Duration = time::Duration::minutes(2);
/// In polls: one fetch of each repository every ten minutes.
const FETCH_EVERY_POLLS: u32 = 5;

pub(crate) fn start(app: &App) {
    let app = app.clone();
    let mut stop = app.stop.subscribe();
    tokio::spawn(async move {
        let mut polls: u32 = 0;
        // A schedule, not a pause after each poll: the clock may move while a
        // poll runs (a test's clock, a slow host), and the next poll is still
        // due two minutes after the last one was, not after it finished.
        let mut due = app.clock.now() + POLL_EVERY;
        loop {
            tokio::select! {
                () = async { drop(stop.wait_for(Option::is_some).await) } => return,
                () = app.clock.sleep_until(due) => {}
            }
            due = next_poll(due, app.clock.now());
            polls = polls.wrapping_add(1);
            if polls.is_multiple_of(FETCH_EVERY_POLLS) {
                fetch_all(&app).await;
            }
            if let Err(e) = app.work_poll_hosts().await {
                tracing::warn!("code hosts were not asked about work: {e}");
            }
        }
    });
}

/// The poll after one due at `due`: on schedule, unless the machine slept
/// through several, when one poll now stands for all that were missed.
fn next_poll(due: time::OffsetDateTime, now: time::OffsetDateTime) -> time::OffsetDateTime {
    let next = due + POLL_EVERY;
    if next < now { now + POLL_EVERY } else { next }
}

/// The host, project, remote branch and token of a piece of work, when its
/// remote is on a code host the account has a token for.
struct Target {
    host: codehosts::Host,
    project: String,
    branch: String,
    token: String,
}

impl App {
    /// Asks the code hosts about every pushed piece of every account's
    /// work here (a runner's work names a remote only its host may reach),
    /// and tells the inbox of pull requests merged or closed since.
    pub async fn work_poll_hosts(&self) -> AppResult<()> {
        let store = self.accounts.clone();
        let accounts = blocking(move || store.list()).await?;
        let hosts = self.code_hosts().await?;
        for account in accounts {
            let entries = self.work_entries_here(&account.id).await?;
            let mut changed = Vec::new();
            for entry in entries.iter().filter(|e| polled(e)) {
                if let Some(done) = self.work_check_host(&account.id, entry, &hosts).await? {
                    changed.push((entry, done));
                }
            }
            self.tell_finished(&account.id, &changed).await?;
        }
        Ok(())
    }

    /// Asks the code host about one piece of work now (after a push or an
    /// opened pull request); returns the pull request when it became merged
    /// or closed with this answer.
    pub(crate) async fn work_check_host(
        &self,
        account: &str,
        entry: &work::Entry,
        hosts: &[codehosts::Host],
    ) -> AppResult<Option<PullRequest>> {
        let Some(target) = self.work_target(account, entry, hosts).await? else {
            return Ok(None);
        };
        let db = self.db.clone();
        let id = entry.id.clone();
        let now = self.clock.now().unix_timestamp();
        blocking(move || {
            let before = work::hosted::one(&db, &id)?;
            let same = before
                .as_ref()
                .filter(|b| b.host == target.host.name && b.project == target.project);
            let answer = Client::new(&target.host, target.token).and_then(|client| {
                client.pull_request(
                    &target.project,
                    &target.branch,
                    same.and_then(|b| b.etag.as_deref()),
                    now,
                )
            });
            let (etag, pull_request, error) = match answer {
                Ok(Lookup::NotModified) => (
                    same.and_then(|b| b.etag.clone()),
                    same.and_then(|b| b.pull_request.clone()),
                    None,
                ),
                Ok(Lookup::Found { etag, pull_request }) => (etag, pull_request, None),
                Err(error) => (
                    same.and_then(|b| b.etag.clone()),
                    same.and_then(|b| b.pull_request.clone()),
                    Some(error.to_string()),
                ),
            };
            let finished = pull_request.clone().filter(|p| {
                p.state != PullRequestState::Open
                    && same
                        .and_then(|b| b.pull_request.as_ref())
                        .is_none_or(|b| b.state != p.state)
            });
            work::hosted::save(
                &db,
                &id,
                &Hosted {
                    host: target.host.name.clone(),
                    project: target.project,
                    etag,
                    pull_request,
                    error,
                    checked_at: now,
                },
            )?;
            Ok::<_, work::WorkError>(finished)
        })
        .await
    }

    /// The code hosts of `codehosts.toml` and the built-ins, read once per
    /// poll or action; a file that cannot be read refuses with its reason.
    pub(crate) async fn code_hosts(&self) -> AppResult<Vec<codehosts::Host>> {
        let dir = self.data_dir.clone();
        blocking(move || codehosts::load(&dir).map_err(|e| work::WorkError::Refused(e.to_string())))
            .await
    }

    async fn work_target(
        &self,
        account: &str,
        entry: &work::Entry,
        hosts: &[codehosts::Host],
    ) -> AppResult<Option<Target>> {
        let Some(upstream) = entry.upstream.clone() else {
            return Ok(None);
        };
        let hosts = hosts.to_vec();
        let repository = PathBuf::from(&entry.repository);
        let secrets = self.secrets.clone();
        let account = account.to_owned();
        blocking(move || {
            let Some((remote, branch)) = upstream.split_once('/') else {
                return Ok(None);
            };
            let Some(url) = work::act::remote_url(&repository, remote) else {
                return Ok(None);
            };
            let Some((host, project)) = codehosts::find(&hosts, url.trim()) else {
                return Ok(None);
            };
            let Ok(token) = secrets.reveal(&account, &host.token_key) else {
                return Ok(None);
            };
            Ok::<_, work::WorkError>(Some(Target {
                host: host.clone(),
                project,
                branch: branch.to_owned(),
                token,
            }))
        })
        .await
    }

    /// Opens a pull request on the work's code host when one is configured
    /// with a token: `Some(url)`, or `None` when there is no such host.
    pub(crate) async fn work_open_pull_request(
        &self,
        account: &str,
        entry: &work::Entry,
    ) -> AppResult<Option<String>> {
        let hosts = self.code_hosts().await?;
        let Some(target) = self.work_target(account, entry, &hosts).await? else {
            return Ok(None);
        };
        let base = entry
            .default_branch
            .as_deref()
            .map(|d| d.rsplit_once('/').map_or(d, |(_, name)| name))
            .unwrap_or("main")
            .to_owned();
        let title = entry
            .last_commit
            .as_ref()
            .map_or_else(|| entry.branch.clone(), |c| c.subject.clone());
        let body = format!(
            "Agent work from Switchboard session {} ({} commit{}).",
            entry.session_id,
            entry.commits,
            if entry.commits == 1 { "" } else { "s" }
        );
        let now = self.clock.now().unix_timestamp();
        // Whatever the host answered (refused, 401, rate limited) is the
        // reason the action was refused.
        let opened = blocking(move || {
            Client::new(&target.host, target.token)
                .and_then(|client| {
                    client.open_pull_request(
                        &target.project,
                        &target.branch,
                        &base,
                        &title,
                        &body,
                        now,
                    )
                })
                .map_err(|e| work::WorkError::Refused(e.to_string()))
        })
        .await?;
        self.work_check_host(account, entry, &hosts).await?;
        Ok(Some(opened.url))
    }

    async fn tell_finished(
        &self,
        account: &str,
        changed: &[(&work::Entry, PullRequest)],
    ) -> AppResult<()> {
        let db = self.db.clone();
        let told = blocking(move || {
            let mut told = work::notices::told(&db, work::notices::MERGED)?;
            told.extend(work::notices::told(&db, work::notices::CLOSED)?);
            Ok::<_, work::WorkError>(told)
        })
        .await?;
        let mut by_repository: BTreeMap<&str, Vec<&(&work::Entry, PullRequest)>> = BTreeMap::new();
        for change in changed {
            if !told.contains(&change.0.id) {
                by_repository
                    .entry(change.0.repository.as_str())
                    .or_default()
                    .push(change);
            }
        }
        for (repository, pieces) in by_repository {
            tell(self, account, repository, &pieces).await?;
            let db = self.db.clone();
            let now = self.clock.now().unix_timestamp();
            let told: Vec<(String, &'static str)> = pieces
                .iter()
                .map(|(entry, pull)| {
                    let kind = match pull.state {
                        PullRequestState::Merged => work::notices::MERGED,
                        _ => work::notices::CLOSED,
                    };
                    (entry.id.clone(), kind)
                })
                .collect();
            blocking(move || {
                for (id, kind) in told {
                    work::notices::tell(&db, kind, &[id], now)?;
                }
                Ok::<_, work::WorkError>(())
            })
            .await?;
        }
        Ok(())
    }
}

/// Pushed work the host may still have news of: a merged pull request is
/// final, and running work is asked about too (its pull request may be
/// open while a session works on review comments).
fn polled(entry: &work::Entry) -> bool {
    entry.upstream.is_some()
        && entry
            .pull_request
            .as_ref()
            .is_none_or(|p| p.state != PullRequestState::Merged)
}

async fn tell(
    app: &App,
    account: &str,
    repository: &str,
    pieces: &[&(&work::Entry, PullRequest)],
) -> AppResult<()> {
    let name = crate::work_watch::short(repository);
    let word = |p: &PullRequest| match p.state {
        PullRequestState::Merged => "merged",
        _ => "closed unmerged",
    };
    let title = match pieces {
        [(_, pull)] => format!("Pull request #{} {} in {name}", pull.number, word(pull)),
        _ => format!("{} pull requests merged or closed in {name}", pieces.len()),
    };
    let mut row = NewRow::new(Category::Session, title);
    row.body = Some(
        pieces
            .iter()
            .map(|(entry, pull)| {
                format!(
                    "{}: #{} {} ({})",
                    entry.branch,
                    pull.number,
                    word(pull),
                    pull.url
                )
            })
            .collect::<Vec<_>>()
            .join("\n"),
    );
    row.source = Source {
        session_id: pieces.first().map(|(e, _)| e.session_id.clone()),
        ..Source::default()
    };
    let row = row.dedup(&format!("pull requests in {repository}"));
    let inbox = app.inbox.clone();
    let owner = account.to_owned();
    let count = u32::try_from(pieces.len()).unwrap_or(u32::MAX);
    let added = blocking(move || {
        inbox.add_counted(&owner, row, count, &|total| {
            (total > 1).then(|| format!("{total} pull requests merged or closed in {name}"))
        })
    })
    .await?;
    crate::publish::inbox_added(app, account, added);
    Ok(())
}

/// `git fetch --prune` of every repository with pushed work, so branches
/// deleted on the remote show as gone; a failure is logged once a round.
async fn fetch_all(app: &App) {
    let Ok(accounts) = ({
        let store = app.accounts.clone();
        blocking(move || store.list()).await
    }) else {
        return;
    };
    let mut repositories: HashSet<(PathBuf, String)> = HashSet::new();
    for account in accounts {
        let Ok(entries) = app.work_entries_here(&account.id).await else {
            continue;
        };
        for entry in entries {
            if let Some((remote, _)) = entry.upstream.as_deref().and_then(|u| u.split_once('/')) {
                repositories.insert((PathBuf::from(&entry.repository), remote.to_owned()));
            }
        }
    }
    let failures: HashMap<String, String> = blocking(move || {
        let mut failures = HashMap::new();
        for (repository, remote) in repositories {
            if let Err(e) = work::act::fetch(Path::new(&repository), &remote) {
                failures.insert(repository.display().to_string(), e.to_string());
            }
        }
        Ok::<_, work::WorkError>(failures)
    })
    .await
    .unwrap_or_default();
    for (repository, error) in failures {
        tracing::warn!(repository, "work: fetch --prune failed: {error}");
    }
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::{POLL_EVERY, next_poll};

    #[test]
    fn polls_keep_their_schedule_and_a_long_sleep_costs_one_poll() {
        let due = datetime!(2026-11-29 10:00 UTC);
        assert_eq!(
            next_poll(due, due + time::Duration::seconds(5)),
            due + POLL_EVERY
        );
        assert_eq!(next_poll(due, due + POLL_EVERY), due + POLL_EVERY);
        let woke = due + time::Duration::hours(3);
        assert_eq!(next_poll(due, woke), woke + POLL_EVERY);
    }
}
