//! What git says about one piece of work: where its branch is, how far it
//! is from the default branch, whether its changes are already there (by
//! ancestry, by patch or by content), what is left uncommitted in its
//! checkout, and what is on no remote. Reads only: nothing here changes a
//! repository, and no git run takes an index lock (`GIT_OPTIONAL_LOCKS=0`).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use worktrees::git;

use crate::landing::{self, Landing};

/// Where to look: a branch of a repository, the commit the work started
/// from, and the checkout it may still be checked out in. It travels to a
/// runner host, which looks at a piece there as this machine does here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    /// The repository's main working tree.
    pub repository: PathBuf,
    pub branch: String,
    /// The commit the first session on the branch started from.
    pub base: String,
    /// Where the branch was worked on: a session's worktree, or the
    /// repository's own working tree for a session in a plain folder.
    pub checkout: Option<PathBuf>,
}

/// The uncommitted part of a checkout.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Uncommitted {
    pub files: u32,
    pub lines: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastCommit {
    pub sha: String,
    pub subject: String,
    pub at: String,
}

/// Everything [`inspect`] found (on this machine, or a runner host's
/// helper's answer).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Facts {
    /// The repository is gone or is no repository any more.
    RepositoryGone {
        reason: String,
    },
    /// Neither the branch nor a checkout on it is left: nothing to show.
    Gone,
    // Boxed: the other variants are a word or two, and facts are cached by the hundred.
    Found(Box<Found>),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Found {
    /// The branch as it is now (renamed by hand in its checkout: the new
    /// name; `None` for a detached HEAD).
    pub branch: Option<String>,
    pub head: String,
    /// The default branch compared against (`origin/main`, `main`).
    pub default: Option<String>,
    /// Commits of the work not in the default branch, and the reverse.
    pub ahead: u32,
    pub behind: u32,
    /// Commits since the base.
    pub commits: u32,
    /// Commits since the base that no remote has.
    pub unpushed: u32,
    pub last_commit: Option<LastCommit>,
    pub landing: Option<Landing>,
    /// `None` when there is no checkout left to look at.
    pub uncommitted: Option<Uncommitted>,
    /// The checkout still exists on disk.
    pub checkout_exists: bool,
    /// The local branch exists (a detached or renamed one may not).
    pub branch_exists: bool,
    /// The branch had an upstream, and the remote branch is gone.
    pub upstream_gone: bool,
    /// The remote branch it was pushed to, when it has one.
    pub upstream: Option<String>,
    /// The address of that branch's remote (`git@github.com:acme/app.git`),
    /// which decides where a pull request of it can be opened.
    pub remote_url: Option<String>,
}

/// git's trimmed stdout, when it succeeded.
pub(crate) fn text(dir: &Path, args: &[&str]) -> Option<String> {
    let output = git::run(dir, args).ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

fn count(dir: &Path, args: &[&str]) -> u32 {
    text(dir, args).and_then(|t| t.parse().ok()).unwrap_or(0)
}

fn resolve(dir: &Path, name: &str) -> Option<String> {
    text(
        dir,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{name}^{{commit}}"),
        ],
    )
    .filter(|s| !s.is_empty())
}

/// The branches the work lands in: the remote's default (`origin/HEAD`,
/// else `origin/main` or `origin/master`) and the local one (what the main
/// working tree has checked out, when it is not the work's own branch, else
/// `main` or `master`). Landing in either counts.
fn defaults(repository: &Path, branch: &str) -> Vec<String> {
    let mut found = Vec::new();
    let remote_head = text(
        repository,
        &[
            "symbolic-ref",
            "--quiet",
            "--short",
            "refs/remotes/origin/HEAD",
        ],
    );
    let remote = remote_head.or_else(|| {
        ["origin/main", "origin/master"]
            .into_iter()
            .find(|name| resolve(repository, &format!("refs/remotes/{name}")).is_some())
            .map(str::to_owned)
    });
    found.extend(remote);
    let checked_out = text(repository, &["symbolic-ref", "--quiet", "--short", "HEAD"])
        .filter(|name| name != branch);
    let local = checked_out.or_else(|| {
        ["main", "master"]
            .into_iter()
            .find(|name| resolve(repository, &format!("refs/heads/{name}")).is_some())
            .map(str::to_owned)
    });
    found.extend(local.filter(|name| name != branch));
    found
}

/// Looks at `piece`. Slow (a dozen git runs): callers cache it and look
/// again only when the repository's refs or the checkout's index move.
pub fn inspect(piece: &Piece) -> Facts {
    let repository = &piece.repository;
    if text(repository, &["rev-parse", "--git-dir"]).is_none() {
        return Facts::RepositoryGone {
            reason: format!("{} is no longer a git repository", repository.display()),
        };
    }
    let checkout = piece.checkout.as_deref().filter(|c| c.is_dir());
    let branch_ref = format!("refs/heads/{}", piece.branch);
    let branch_head = resolve(repository, &branch_ref);
    // A branch renamed by hand, or a HEAD detached, in the checkout.
    let (branch, head) = match (&branch_head, checkout) {
        (Some(head), _) => (Some(piece.branch.clone()), head.clone()),
        (None, Some(checkout)) => {
            let Some(head) = resolve(checkout, "HEAD") else {
                return Facts::Gone;
            };
            let current = text(checkout, &["symbolic-ref", "--quiet", "--short", "HEAD"]);
            (current, head)
        }
        (None, None) => return Facts::Gone,
    };
    let defaults = defaults(repository, branch.as_deref().unwrap_or(&piece.branch));
    let default = defaults.first().cloned();
    let (ahead, behind) = match &default {
        Some(default) => {
            let counts = text(
                repository,
                &[
                    "rev-list",
                    "--left-right",
                    "--count",
                    &format!("{head}...{default}"),
                ],
            )
            .unwrap_or_default();
            let mut parts = counts.split_whitespace().map(|n| n.parse().unwrap_or(0));
            (parts.next().unwrap_or(0), parts.next().unwrap_or(0))
        }
        None => (0, 0),
    };
    let base_known = resolve(repository, &piece.base).is_some();
    let since_base = if base_known {
        format!("{}..{head}", piece.base)
    } else {
        head.clone()
    };
    let commits = count(repository, &["rev-list", "--count", &since_base]);
    let unpushed = if base_known {
        count(
            repository,
            &[
                "rev-list",
                "--count",
                &head,
                &format!("^{}", piece.base),
                "--not",
                "--remotes",
            ],
        )
    } else {
        count(
            repository,
            &["rev-list", "--count", &head, "--not", "--remotes"],
        )
    };
    let last_commit = (commits > 0)
        .then(|| {
            text(
                repository,
                &["log", "-1", "--format=%H%x00%s%x00%cI", &head],
            )
        })
        .flatten()
        .and_then(|line| {
            let mut parts = line.splitn(3, '\0');
            Some(LastCommit {
                sha: parts.next()?.to_owned(),
                subject: parts.next()?.to_owned(),
                at: parts.next()?.to_owned(),
            })
        });
    let landing = if commits == 0 {
        None
    } else {
        defaults.iter().find_map(|default| {
            landing::landed(
                repository,
                &head,
                default,
                base_known.then_some(&*piece.base),
            )
        })
    };
    let (upstream, upstream_gone, remote) = match &branch {
        Some(name) if branch_head.is_some() || checkout.is_some() => upstream_of(repository, name),
        _ => (None, false, None),
    };
    let remote_url = remote
        .and_then(|remote| text(repository, &["remote", "get-url", &remote]))
        .filter(|url| !url.is_empty());
    Facts::Found(Box::new(Found {
        branch_exists: branch
            .as_ref()
            .is_some_and(|name| resolve(repository, &format!("refs/heads/{name}")).is_some()),
        branch,
        head,
        default,
        ahead,
        behind,
        commits,
        unpushed,
        last_commit,
        landing,
        uncommitted: checkout.map(uncommitted),
        checkout_exists: checkout.is_some(),
        upstream_gone,
        upstream,
        remote_url,
    }))
}

/// The branch's upstream (`origin/switchboard/ab12cd34`), whether it is
/// gone (configured, but the remote branch deleted, as `git branch -vv`
/// shows `[gone]` after a fetch with `--prune`), and its remote's name.
fn upstream_of(repository: &Path, branch: &str) -> (Option<String>, bool, Option<String>) {
    let line = text(
        repository,
        &[
            "for-each-ref",
            "--format=%(upstream:short)%00%(upstream:track)%00%(upstream:remotename)",
            &format!("refs/heads/{branch}"),
        ],
    )
    .unwrap_or_default();
    let mut parts = line.splitn(3, '\0');
    let upstream = parts.next().filter(|u| !u.is_empty()).map(str::to_owned);
    let gone = parts.next().is_some_and(|track| track.contains("gone"));
    let remote = parts
        .next()
        .filter(|r| upstream.is_some() && !r.is_empty())
        .map(str::to_owned);
    (upstream, gone, remote)
}

/// Files with uncommitted changes (tracked or untracked, not ignored) and
/// their changed lines (an untracked file's lines count as added).
fn uncommitted(checkout: &Path) -> Uncommitted {
    let status = git::run(
        checkout,
        ["status", "--porcelain=v1", "-z", "--untracked-files=all"],
    )
    .ok()
    .filter(|o| o.status.success())
    .map(|o| o.stdout)
    .unwrap_or_default();
    let mut files = 0;
    let mut untracked = Vec::new();
    let mut entries = status.split(|b| *b == 0).filter(|e| e.len() > 3);
    while let Some(entry) = entries.next() {
        files += 1;
        let (code, path) = entry.split_at(3);
        if code.starts_with(b"??") {
            untracked.push(String::from_utf8_lossy(path).into_owned());
        }
        // A rename names its source next, which is not a file of its own.
        if code[0] == b'R' || code[0] == b'C' {
            entries.next();
        }
    }
    let tracked: u64 = text(checkout, &["diff", "HEAD", "--numstat"])
        .unwrap_or_default()
        .lines()
        .map(|line| {
            line.split_whitespace()
                .take(2)
                .filter_map(|n| n.parse::<u64>().ok())
                .sum::<u64>()
        })
        .sum();
    let added: u64 = untracked
        .iter()
        .map(|path| lines_in(&checkout.join(path)))
        .sum();
    Uncommitted {
        files,
        lines: tracked + added,
    }
}

/// Lines in a file, reading at most 1 MiB of it.
fn lines_in(path: &Path) -> u64 {
    use std::io::Read;
    let mut kept = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(1 << 20).read_to_end(&mut kept));
    match read {
        Ok(_) => kept.iter().filter(|b| **b == b'\n').count() as u64,
        Err(_) => 0,
    }
}
