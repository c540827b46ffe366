//! The work entries of an account, kept fresh without a `git status` per
//! request: each piece's facts are cached with a fingerprint of the files
//! git changes when its refs or its checkout's index move (the branch's
//! ref, the packed refs, the default branch's refs, the remote's refs, the
//! checkout's index and HEAD), and git is asked again only when that
//! fingerprint changes or a session on it starts or ends. Facts older than
//! [`RECHECK_AFTER`] (which may miss edits in a checkout that touch no
//! index) are still answered, and re-read by a thread behind the answer.

use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::facts::{self, Facts, Piece};
use crate::hosted::Hosted;
use crate::landing::Landing;
use crate::state::{self, Action, Activity, State};

/// Facts older than this are looked at again whatever the fingerprint says.
pub const RECHECK_AFTER: i64 = 300;

/// One session's part in a piece of work, as the caller knows it.
#[derive(Debug, Clone)]
pub struct Source {
    pub session_id: String,
    pub account_id: String,
    /// What a person calls the session: its title, else its prompt's
    /// first line.
    pub title: Option<String>,
    pub active: bool,
    /// When the session last changed (its end, for one that ended).
    pub updated_at: String,
    pub repository: PathBuf,
    pub branch: String,
    pub base: String,
    pub checkout: Option<PathBuf>,
    /// The checkout is a worktree Switchboard made (prune may remove it),
    /// not the user's own working tree.
    pub own_worktree: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "WorkCommit")]
pub struct Commit {
    pub sha: String,
    pub subject: String,
    pub at: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "WorkUncommitted")]
pub struct Uncommitted {
    pub files: u32,
    /// Changed lines (added and removed; an untracked file's all count).
    pub lines: u64,
}

/// One piece of agent work: a branch of a repository that sessions worked on.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "WorkEntry")]
pub struct Entry {
    /// Stable for the account, repository and branch.
    pub id: String,
    /// The latest session on it.
    pub session_id: String,
    /// Every session on it, newest first.
    pub sessions: Vec<String>,
    /// What a person calls it: the title of the session that started it
    /// (else of the oldest one that has one).
    pub title: Option<String>,
    pub repository: String,
    pub branch: String,
    pub state: State,
    /// Why it is in that state, where that says more than the state.
    pub reason: Option<String>,
    /// Where it was worked on (a session's worktree or a plain folder),
    /// while that still exists.
    pub checkout: Option<String>,
    /// The default branch it is compared against.
    pub default_branch: Option<String>,
    /// Commits not in the default branch, and the default branch's commits
    /// not in it.
    pub ahead: u32,
    pub behind: u32,
    /// Commits since the work started.
    pub commits: u32,
    /// Of those, the ones no remote has.
    pub unpushed: u32,
    pub landed_by: Option<Landing>,
    pub last_commit: Option<Commit>,
    pub uncommitted: Option<Uncommitted>,
    /// The remote branch it was pushed to.
    pub upstream: Option<String>,
    /// When its last session ended (RFC 3339); `null` while one runs.
    pub since: Option<String>,
    pub actions: Vec<Action>,
    /// The newest review of each reviewer (`cloudSessionReviewsEnabled`).
    pub reviews: Vec<crate::reviews::Review>,
    /// Its pull request, as the code host last said.
    pub pull_request: Option<codehosts::PullRequest>,
    /// The code host its pull request was last looked up on (one
    /// configured with a token).
    pub code_host: Option<String>,
    /// Where a pull request of it is opened: the code host its remote is
    /// on (`codehosts.toml`, or github.com and gitlab.com), by name, or the
    /// GitHub or GitLab its remote's address names. `null` when it has no
    /// upstream or its remote is on no such host: then `pull-request` is
    /// never among its actions.
    pub pull_request_host: Option<String>,
    /// The runner its checkout is on; `null` on this machine. Work on a
    /// runner is read there through its helper, and acted on there.
    pub runner: Option<String>,
    /// Set only when the facts could not be read now (its runner away):
    /// when they last were (RFC 3339).
    pub last_read: Option<String>,
}

struct Cached {
    fingerprint: u64,
    looked_at: i64,
    facts: Facts,
}

type Cache = Arc<Mutex<HashMap<String, Cached>>>;

/// The cache of facts, shared by every request.
#[derive(Default)]
pub struct Index {
    cache: Cache,
    /// A thread is re-reading facts that grew old ([`RECHECK_AFTER`]).
    refreshing: Arc<AtomicBool>,
}

/// One piece of work with the sessions on it, newest first.
#[derive(Clone)]
pub struct Group {
    pub id: String,
    pub piece: Piece,
    pub sources: Vec<Source>,
}

impl Group {
    pub fn activity(&self) -> Activity {
        if self.sources.iter().any(|s| s.active) {
            Activity::Active
        } else {
            Activity::Ended
        }
    }

    /// Whether prune and discard may remove the checkout (a worktree that
    /// Switchboard made), or must leave it (the user's own working tree).
    pub fn own_worktree(&self) -> bool {
        self.sources
            .iter()
            .any(|s| s.own_worktree && s.checkout == self.piece.checkout)
    }
}

/// The id of the account's work on `branch` of `repository`.
pub fn id_of(account_id: &str, repository: &Path, branch: &str) -> String {
    let mut hash = Sha256::new();
    hash.update(account_id.as_bytes());
    hash.update([0]);
    hash.update(repository.as_os_str().as_encoded_bytes());
    hash.update([0]);
    hash.update(branch.as_bytes());
    hex::encode(&hash.finalize()[..8])
}

/// The id of the account's work on `branch` of `repository` on runner
/// `runner`: apart from this machine's, where the same path may hold
/// another repository.
pub fn id_on_runner(account_id: &str, runner: &str, repository: &Path, branch: &str) -> String {
    id_of(
        account_id,
        &Path::new(runner).join(repository.strip_prefix("/").unwrap_or(repository)),
        branch,
    )
}

/// Groups sessions (newest first) into pieces of work: one per account,
/// repository and branch. The base is the oldest session's, the checkout
/// the newest one's that still exists.
pub fn group(sources: Vec<Source>) -> Vec<Group> {
    let mut groups: BTreeMap<String, Vec<Source>> = BTreeMap::new();
    let mut order = Vec::new();
    for source in sources {
        let id = id_of(&source.account_id, &source.repository, &source.branch);
        if !groups.contains_key(&id) {
            order.push(id.clone());
        }
        groups.entry(id).or_default().push(source);
    }
    order
        .into_iter()
        .filter_map(|id| {
            let sources = groups.remove(&id)?;
            let newest = sources.first()?;
            let oldest = sources.last()?;
            let checkout = sources
                .iter()
                .filter_map(|s| s.checkout.clone())
                .find(|c| c.is_dir())
                .or_else(|| newest.checkout.clone());
            Some(Group {
                piece: Piece {
                    repository: newest.repository.clone(),
                    branch: newest.branch.clone(),
                    base: oldest.base.clone(),
                    checkout,
                },
                id,
                sources,
            })
        })
        .collect()
}

impl Index {
    /// The entries for `sources` (one account's sessions, newest first),
    /// at `now` (Unix seconds). Blocking: runs git for what changed.
    /// `hosted` is what code hosts last said, by work id; `hosts` the code
    /// hosts with a saved token ([`crate::remotes::pull_request_host`]).
    pub fn entries(
        &self,
        sources: Vec<Source>,
        now: i64,
        hosted: &HashMap<String, Hosted>,
        hosts: &[codehosts::Host],
    ) -> Vec<Entry> {
        let groups = group(sources);
        let facts = self.all_facts(&groups, now);
        groups
            .iter()
            .zip(facts)
            .filter_map(|(group, facts)| entry(group, &facts, hosted.get(&group.id), hosts))
            .collect()
    }

    /// The facts of every group, in order. Pieces whose fingerprint moved
    /// (or that were never read) are inspected now, on one thread per
    /// core: a first read of hundreds runs several git commands for each,
    /// and they wait mostly on git's own start-up and disk. Pieces whose
    /// fingerprint holds but whose facts are older than [`RECHECK_AFTER`]
    /// are answered from the cache and re-read by one thread behind the
    /// answer, so a page opened after a quiet hour never waits on git for
    /// edits it might have missed.
    fn all_facts(&self, groups: &[Group], now: i64) -> Vec<Facts> {
        let mut found: Vec<Option<Facts>> = vec![None; groups.len()];
        let mut stale = Vec::new();
        {
            let cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
            for (at, group) in groups.iter().enumerate() {
                if let Some(cached) = cache.get(&group.id)
                    && cached.fingerprint == fingerprint(group)
                {
                    found[at] = Some(cached.facts.clone());
                    if now - cached.looked_at >= RECHECK_AFTER {
                        stale.push(group.clone());
                    }
                }
            }
        }
        let missing: Vec<usize> = (0..groups.len())
            .filter(|at| found[*at].is_none())
            .collect();
        let threads = std::thread::available_parallelism()
            .map_or(2, std::num::NonZeroUsize::get)
            .clamp(1, 8)
            .min(missing.len().max(1));
        let next = AtomicUsize::new(0);
        let found = Mutex::new(found);
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    loop {
                        let Some(at) = missing.get(next.fetch_add(1, Ordering::Relaxed)) else {
                            return;
                        };
                        let facts = read(&self.cache, &groups[*at], now);
                        found.lock().unwrap_or_else(PoisonError::into_inner)[*at] = Some(facts);
                    }
                });
            }
        });
        if !stale.is_empty() && !self.refreshing.swap(true, Ordering::AcqRel) {
            let (cache, refreshing) = (self.cache.clone(), self.refreshing.clone());
            std::thread::spawn(move || {
                for group in stale {
                    read(&cache, &group, now);
                }
                refreshing.store(false, Ordering::Release);
            });
        }
        found
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .into_iter()
            .map(|facts| facts.unwrap_or(Facts::Gone))
            .collect()
    }

    /// Whether a re-read of old facts is under way ([`Index::entries`]).
    pub fn refreshing(&self) -> bool {
        self.refreshing.load(Ordering::Acquire)
    }

    /// Keeps facts read elsewhere (a runner host's helper) at `now`, with
    /// the [`sessions_fingerprint`] they were read under, so they answer
    /// while that place cannot be asked ([`Index::remembered`]).
    pub fn remember(&self, id: &str, fingerprint: u64, facts: Facts, now: i64) {
        let kept = Cached {
            fingerprint,
            looked_at: now,
            facts,
        };
        self.cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id.to_owned(), kept);
    }

    /// The facts [`Index::remember`] kept of a piece: its fingerprint then,
    /// the facts, and when.
    pub fn remembered(&self, id: &str) -> Option<(u64, Facts, i64)> {
        self.cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(id)
            .map(|c| (c.fingerprint, c.facts.clone(), c.looked_at))
    }

    /// Forgets a piece's facts (after an action changed it).
    pub fn forget(&self, id: &str) {
        self.cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(id);
    }
}

/// Asks git about one piece and keeps the answer.
fn read(cache: &Mutex<HashMap<String, Cached>>, group: &Group, now: i64) -> Facts {
    let fingerprint = fingerprint(group);
    let facts = facts::inspect(&group.piece);
    cache.lock().unwrap_or_else(PoisonError::into_inner).insert(
        group.id.clone(),
        Cached {
            fingerprint,
            looked_at: now,
            facts: facts.clone(),
        },
    );
    facts
}

/// The entry for a group, or `None` when nothing of it is left (pruned).
/// `hosts`: the code hosts with a saved token.
pub fn entry(
    group: &Group,
    facts: &Facts,
    hosted: Option<&Hosted>,
    hosts: &[codehosts::Host],
) -> Option<Entry> {
    if matches!(facts, Facts::Gone) {
        return None;
    }
    let (state, reason) = state::decide(group.activity(), facts, hosted);
    let pull_request = hosted.and_then(|h| h.pull_request.clone());
    // A pull request already there is opened from its link, not again.
    let has_pull_request = pull_request
        .as_ref()
        .is_some_and(|p| p.state != codehosts::PullRequestState::Closed);
    let found = match facts {
        Facts::Found(found) => Some(&**found),
        _ => None,
    };
    let newest = group.sources.first()?;
    let pull_request_host = found
        .and_then(|f| f.remote_url.as_deref())
        .and_then(|url| crate::remotes::pull_request_host(url, hosts));
    Some(Entry {
        id: group.id.clone(),
        session_id: newest.session_id.clone(),
        sessions: group.sources.iter().map(|s| s.session_id.clone()).collect(),
        title: group.sources.iter().rev().find_map(|s| s.title.clone()),
        repository: group.piece.repository.display().to_string(),
        branch: found
            .and_then(|f| f.branch.clone())
            .unwrap_or_else(|| group.piece.branch.clone()),
        state,
        reason,
        checkout: group
            .piece
            .checkout
            .as_ref()
            .filter(|_| found.is_some_and(|f| f.checkout_exists))
            .map(|c| c.display().to_string()),
        default_branch: found.and_then(|f| f.default.clone()),
        ahead: found.map_or(0, |f| f.ahead),
        behind: found.map_or(0, |f| f.behind),
        commits: found.map_or(0, |f| f.commits),
        unpushed: found.map_or(0, |f| f.unpushed),
        landed_by: found.and_then(|f| f.landing),
        last_commit: found.and_then(|f| f.last_commit.as_ref()).map(|c| Commit {
            sha: c.sha.clone(),
            subject: c.subject.clone(),
            at: c.at.clone(),
        }),
        uncommitted: found
            .and_then(|f| f.uncommitted.as_ref())
            .map(|u| Uncommitted {
                files: u.files,
                lines: u.lines,
            }),
        upstream: found.and_then(|f| f.upstream.clone()),
        since: (group.activity() == Activity::Ended).then(|| newest.updated_at.clone()),
        actions: state::actions(state, found)
            .into_iter()
            // Only a worktree session has a changes view to open, and only
            // a worktree Switchboard made may be removed.
            .filter(|a| {
                group.own_worktree() || !matches!(a, Action::Prune | Action::Discard | Action::Diff)
            })
            // A remote on no code host would only refuse one.
            .filter(|a| {
                *a != Action::PullRequest || (!has_pull_request && pull_request_host.is_some())
            })
            .collect(),
        reviews: Vec::new(),
        code_host: hosted.map(|h| h.host.clone()),
        pull_request,
        pull_request_host,
        runner: None,
        last_read: None,
    })
}

/// The sessions on a piece and their states: a session that starts or
/// ends may have moved it.
fn sessions_moved(group: &Group, hasher: &mut impl Hasher) {
    for source in &group.sources {
        source.active.hash(hasher);
        source.updated_at.hash(hasher);
    }
}

/// What can be known here of a piece whose checkout is elsewhere (a
/// runner's): its sessions and their states ([`Index::remember`]).
pub fn sessions_fingerprint(group: &Group) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    sessions_moved(group, &mut hasher);
    hasher.finish()
}

/// The modification times and sizes of the files git rewrites when the
/// piece's refs or its checkout's index move, and the sessions' states.
fn fingerprint(group: &Group) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    sessions_moved(group, &mut hasher);
    let git_dir = git_dir(&group.piece.repository);
    let branch = &group.piece.branch;
    let mut watched: Vec<PathBuf> = [
        "HEAD",
        // Where its remote is (`git remote set-url`) decides the pull request.
        "config",
        "packed-refs",
        "FETCH_HEAD",
        "refs/heads/main",
        "refs/heads/master",
        "refs/remotes/origin/HEAD",
        "refs/remotes/origin/main",
        "refs/remotes/origin/master",
    ]
    .iter()
    .map(|p| git_dir.join(p))
    .collect();
    watched.push(git_dir.join("refs/heads").join(branch));
    watched.push(git_dir.join("refs/remotes/origin").join(branch));
    if let Some(checkout) = &group.piece.checkout {
        watched.push(checkout.clone());
        let own = git_dir_of_checkout(checkout);
        watched.push(own.join("index"));
        watched.push(own.join("HEAD"));
    }
    for path in watched {
        match std::fs::metadata(&path) {
            Ok(meta) => {
                meta.len().hash(&mut hasher);
                meta.modified().ok().hash(&mut hasher);
            }
            Err(_) => 0u8.hash(&mut hasher),
        }
    }
    hasher.finish()
}

/// `.git` of a main working tree.
fn git_dir(repository: &Path) -> PathBuf {
    repository.join(".git")
}

/// A checkout's own git folder: `.git` itself, or for a linked worktree
/// the folder its `.git` file names.
fn git_dir_of_checkout(checkout: &Path) -> PathBuf {
    let dot_git = checkout.join(".git");
    match std::fs::read_to_string(&dot_git) {
        Ok(text) => text
            .strip_prefix("gitdir:")
            .map(|p| PathBuf::from(p.trim()))
            .unwrap_or(dot_git),
        Err(_) => dot_git,
    }
}
