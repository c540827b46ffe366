//! Where's my work (docs/work.md) for the routes: each account's pieces
//! of work from its local sessions (their worktrees, and the origins of
//! those in plain folders), and the actions on one, run off the async
//! workers and each decided again by the `work` crate from fresh facts.

use std::collections::HashMap;
use std::path::PathBuf;

use sessions::{Session, Status};

use crate::error::{AppResult, blocking};
use crate::services::App;

/// What a follow-up session needs of a piece of work.
pub struct Continuation {
    pub checkout: PathBuf,
    pub branch: String,
    pub engine: String,
}

fn active(session: &Session) -> bool {
    !session.archived
        && matches!(
            session.status,
            Status::Queued
                | Status::Starting
                | Status::Running
                | Status::WaitingForInput
                | Status::Paused
        )
}

/// What a person calls a session: its title, else its prompt's first line
/// (clipped, as a prompt may be one long paragraph).
fn title_of(session: &Session) -> Option<String> {
    const MAX_CHARS: usize = 120;
    let title = session
        .title
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty());
    let line = title.or_else(|| {
        session
            .prompt
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
    })?;
    if line.chars().count() <= MAX_CHARS {
        return Some(line.to_owned());
    }
    let kept: String = line.chars().take(MAX_CHARS - 1).collect();
    Some(format!("{}…", kept.trim_end()))
}

/// The pieces of work of the account's sessions on `runner`. Origins of
/// plain folders are recorded on this machine only, so on another runner
/// only sessions isolated in a worktree have work.
pub(crate) fn sources(
    account: &str,
    runner: &str,
    sessions: &[Session],
    origins: &HashMap<String, work::origins::Origin>,
) -> Vec<work::Source> {
    sessions
        .iter()
        .filter(|s| s.runner == runner)
        .filter_map(|s| {
            let (repository, branch, base, checkout, own_worktree) = match &s.worktree {
                Some(worktree) => (
                    PathBuf::from(&worktree.repository),
                    worktree.branch.clone(),
                    worktree.base.clone(),
                    PathBuf::from(&worktree.path),
                    true,
                ),
                None => {
                    let origin = origins.get(&s.id)?;
                    (
                        origin.repository.clone(),
                        origin.branch.clone(),
                        origin.base.clone(),
                        origin.checkout.clone(),
                        false,
                    )
                }
            };
            Some(work::Source {
                session_id: s.id.clone(),
                account_id: account.to_owned(),
                title: title_of(s),
                active: active(s),
                updated_at: s.updated_at.clone(),
                repository,
                branch,
                base,
                checkout: Some(checkout),
                own_worktree,
            })
        })
        .collect()
}

impl App {
    async fn work_sources(&self, account: &str) -> AppResult<(Vec<Session>, Vec<work::Source>)> {
        let sessions = self.sessions.list_records(account).await?;
        let db = self.db.clone();
        let origins =
            blocking(move || work::origins::all(&db).map_err(work::WorkError::from)).await?;
        let sources = sources(account, runners::LOCAL, &sessions, &origins);
        Ok((sessions, sources))
    }

    /// The account's work, here and on runners, newest first, with its
    /// reviews.
    pub async fn work_entries(&self, account: &str) -> AppResult<Vec<work::Entry>> {
        self.entries_of(account, true).await
    }

    /// The account's work on this machine alone, for what runs git here
    /// (code host polls, fetches, merges): a runner is not asked.
    pub(crate) async fn work_entries_here(&self, account: &str) -> AppResult<Vec<work::Entry>> {
        self.entries_of(account, false).await
    }

    async fn entries_of(&self, account: &str, on_runners: bool) -> AppResult<Vec<work::Entry>> {
        let (sessions, sources) = self.work_sources(account).await?;
        let hosts = self.hosts_with_token(account).await?;
        let index = self.work.clone();
        let db = self.db.clone();
        let now = self.clock.now().unix_timestamp();
        let (mut entries, hosted) = blocking({
            let hosts = hosts.clone();
            move || {
                let hosted = work::hosted::all(&db)?;
                let entries = index.entries(sources, now, &hosted, &hosts);
                Ok::<_, work::WorkError>((entries, hosted))
            }
        })
        .await?;
        if on_runners {
            entries.extend(
                self.runner_work_entries(account, &sessions, &hosted, &hosts)
                    .await,
            );
        }
        let newest: HashMap<&str, usize> = sessions
            .iter()
            .enumerate()
            .map(|(at, s)| (s.id.as_str(), at))
            .collect();
        entries.sort_by_key(|e| newest.get(e.session_id.as_str()).copied());
        let db = self.db.clone();
        blocking(move || {
            let mut reviews = work::reviews::latest(&db)?;
            for entry in &mut entries {
                entry.reviews = reviews.remove(&entry.id).unwrap_or_default();
            }
            Ok::<_, work::WorkError>(entries)
        })
        .await
    }

    /// The code hosts the account saved a token for: work on one has its
    /// pull request opened through the host's API. A `codehosts.toml` that
    /// cannot be read counts as none here (the pull-request action itself
    /// refuses with the file's reason).
    async fn hosts_with_token(&self, account: &str) -> AppResult<Vec<codehosts::Host>> {
        let hosts = match self.code_hosts().await {
            Ok(hosts) => hosts,
            Err(error) => {
                tracing::warn!(%error, "work: the code hosts could not be read");
                return Ok(Vec::new());
            }
        };
        let secrets = self.secrets.clone();
        let account = account.to_owned();
        let saved = blocking(move || secrets.keys(&account)).await?;
        Ok(hosts
            .into_iter()
            .filter(|h| saved.iter().any(|key| key.name == h.token_key))
            .collect())
    }

    /// The commit a piece of work started from, while it is known.
    pub(crate) async fn work_base(&self, account: &str, id: &str) -> Option<String> {
        let (_, group) = self.work_group(account, id).await.ok()?;
        Some(group.piece.base)
    }

    /// One piece of the account's work.
    pub async fn work_entry(&self, account: &str, id: &str) -> AppResult<work::Entry> {
        self.work_entries(account)
            .await?
            .into_iter()
            .find(|e| e.id == id)
            .ok_or(work::WorkError::NotFound.into())
    }

    async fn work_group(&self, account: &str, id: &str) -> AppResult<(Vec<Session>, work::Group)> {
        let (sessions, sources) = self.work_sources(account).await?;
        if let Some(group) = work::group(sources).into_iter().find(|g| g.id == id) {
            return Ok((sessions, group));
        }
        match self.runner_work_group(account, &sessions, id) {
            Some((runner, _)) => Err(work::WorkError::Refused(format!(
                "this work is on the runner `{runner}`: act on it there"
            ))
            .into()),
            None => Err(work::WorkError::NotFound.into()),
        }
    }

    /// Prunes, discards or pushes a piece of work; the `work` crate checks
    /// again, from fresh facts, that the action fits.
    pub async fn work_act(
        &self,
        account: &str,
        id: &str,
        action: work::Action,
        confirm: Option<String>,
    ) -> AppResult<()> {
        let (_, group) = self.work_group(account, id).await?;
        let index = self.work.clone();
        let db = self.db.clone();
        let forget = id.to_owned();
        blocking(move || {
            let id = forget;
            let done = match action {
                work::Action::Prune => {
                    let hosted = work::hosted::one(&db, &id)?;
                    work::act::prune(&group, hosted.as_ref())
                }
                work::Action::Discard => work::act::discard(&group, confirm.as_deref()),
                work::Action::Push => work::act::push(&group),
                _ => Err(work::WorkError::Refused(
                    "that action is not one that changes the repository".into(),
                )),
            };
            index.forget(&id);
            done
        })
        .await?;
        if action == work::Action::Push
            && let Ok(entry) = self.work_entry(account, id).await
        {
            let hosts = self.code_hosts().await?;
            self.work_check_host(account, &entry, &hosts).await?;
        }
        Ok(())
    }

    /// A pull request for pushed work: opened on its code host when one is
    /// configured with a token (`true`), else the host's own page that
    /// opens one (`false`).
    pub async fn work_pull_request(&self, account: &str, id: &str) -> AppResult<(String, bool)> {
        let (_, group) = self.work_group(account, id).await?;
        // Unpushed work is refused before any host is asked.
        let (page, remote) = blocking(move || work::act::pull_request_page(&group)).await?;
        let entry = self.work_entry(account, id).await?;
        if let Some(url) = self.work_open_pull_request(account, &entry).await? {
            return Ok((url, true));
        }
        let page = page.ok_or_else(|| {
            work::WorkError::Refused(format!(
                "{remote} is neither a GitHub nor a GitLab remote, and no code host is configured"
            ))
        })?;
        Ok((page, false))
    }

    /// Where and on what engine a follow-up session of a piece of work runs:
    /// its checkout, on its latest session's engine. Refused while a session
    /// still works on it, or when its checkout is gone.
    pub async fn work_continuation(&self, account: &str, id: &str) -> AppResult<Continuation> {
        let (sessions, group) = self.work_group(account, id).await?;
        if group.activity() == work::Activity::Active {
            return Err(work::WorkError::Refused("a session is still working on it".into()).into());
        }
        let checkout = group
            .piece
            .checkout
            .clone()
            .filter(|c| c.is_dir())
            .ok_or_else(|| work::WorkError::Refused("its checkout is gone".into()))?;
        let latest = group.sources.first().map(|s| s.session_id.as_str());
        let engine = sessions
            .iter()
            .find(|s| Some(s.id.as_str()) == latest)
            .map(|s| s.engine.clone())
            .unwrap_or_else(|| "primary".to_owned());
        Ok(Continuation {
            checkout,
            branch: group.piece.branch.clone(),
            engine,
        })
    }
}

/// What a merge of a repository's ready branches runs: where, what it is
/// asked, and which branches.
pub struct MergePlan {
    pub repository: String,
    pub prompt: String,
    pub branches: Vec<String>,
}

impl App {
    /// The merge of `repository`'s ready branches (the account's work there
    /// waiting on review), refused when none is ready.
    pub async fn work_merge_plan(&self, account: &str, repository: &str) -> AppResult<MergePlan> {
        // A merge runs here: work on a runner is merged there.
        let entries = self.work_entries_here(account).await?;
        let given = std::path::Path::new(repository);
        let canonical = std::fs::canonicalize(given).unwrap_or_else(|_| given.to_path_buf());
        let repository = entries
            .iter()
            .map(|e| e.repository.clone())
            .find(|r| std::path::Path::new(r) == given || std::path::Path::new(r) == canonical)
            .ok_or_else(|| {
                work::WorkError::Refused(format!("no agent work is known in {repository}"))
            })?;
        let ready = work::merges::ready(&entries, &repository);
        if ready.is_empty() {
            return Err(work::WorkError::Refused(format!(
                "no branch of {repository} is ready to merge (pushed, not landed, nothing uncommitted)"
            ))
            .into());
        }
        let default = ready
            .iter()
            .find_map(|e| e.default_branch.as_deref())
            .map(|d| d.rsplit_once('/').map_or(d, |(_, name)| name))
            .unwrap_or("main")
            .to_owned();
        Ok(MergePlan {
            prompt: work::merges::prompt(&default, &ready),
            branches: ready.iter().map(|e| e.branch.clone()).collect(),
            repository,
        })
    }

    /// Records that `session_id` runs `plan`, for the merge boost.
    pub async fn work_merge_started(
        &self,
        account: &str,
        session_id: &str,
        plan: &MergePlan,
    ) -> AppResult<()> {
        let db = self.db.clone();
        let (account, session_id) = (account.to_owned(), session_id.to_owned());
        let (repository, branches) = (plan.repository.clone(), plan.branches.clone());
        let now = self.clock.now().unix_timestamp();
        blocking(move || {
            work::merges::record(&db, &session_id, &account, &repository, &branches, now)
                .map_err(work::WorkError::from)
        })
        .await
    }

    /// The merge session `mergePriorityBoostEnabled` puts first now: the
    /// newest one started in the last 30 minutes that is still starting or
    /// running.
    pub(crate) async fn merge_to_boost(&self) -> Option<String> {
        if !self.settings.merge_priority_boost_enabled() {
            return None;
        }
        let db = self.db.clone();
        let since = self.clock.now().unix_timestamp() - work::merges::BOOST_FOR;
        let merges =
            blocking(move || work::merges::since(&db, since).map_err(work::WorkError::from))
                .await
                .ok()?;
        for merge in merges {
            let running = self
                .sessions
                .get(&merge.account_id, &merge.session_id)
                .await
                .is_ok_and(|s| {
                    !s.archived && matches!(s.status, Status::Starting | Status::Running)
                });
            if running {
                return Some(merge.session_id);
            }
        }
        None
    }
}
