//! The actions on a piece of work that change a repository, each decided
//! again from fresh facts at the moment it runs, never from what a page
//! showed: prune removes only landed work with nothing uncommitted, and
//! discard only stranded work, after the branch's name is typed, and
//! neither ever touches a checkout that Switchboard did not make.

use std::path::Path;

use worktrees::git;

use crate::facts::{self, Facts};
use crate::hosted::Hosted;
use crate::index::Group;
use crate::remotes::new_pull_request_url;
use crate::state::{self, State};

#[derive(Debug, thiserror::Error)]
pub enum WorkError {
    #[error("no such work")]
    NotFound,
    /// The action does not fit the work as it is now; the reason says why.
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Git(#[from] worktrees::WorktreeError),
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

fn refused(reason: impl Into<String>) -> WorkError {
    WorkError::Refused(reason.into())
}

/// The state of `group` as git has it now.
fn fresh(group: &Group, hosted: Option<&Hosted>) -> (State, Facts) {
    let facts = facts::inspect(&group.piece);
    let (state, _) = state::decide(group.activity(), &facts, hosted);
    (state, facts)
}

/// Removes the worktree and the local branch of landed work. Refused for
/// anything else, and for any uncommitted change, whatever the caller asks.
///
/// `hosted` is what the code host said: its merged pull request lands
/// pushed work git cannot see landed; it never makes dirty or unpushed
/// work prunable.
pub fn prune(group: &Group, hosted: Option<&Hosted>) -> Result<(), WorkError> {
    let (state, facts) = fresh(group, hosted);
    let Facts::Found(found) = facts else {
        return Err(refused("nothing of this work can be found"));
    };
    if state != State::Landed {
        return Err(refused(format!(
            "only landed work is pruned; this is {}",
            describe(state)
        )));
    }
    if found.uncommitted.as_ref().is_some_and(|u| u.files > 0) {
        return Err(refused("its checkout has uncommitted changes"));
    }
    if !group.own_worktree() {
        return Err(refused(
            "it was done in your own working tree, which prune never removes",
        ));
    }
    remove(group, &found, false)
}

/// Throws stranded work away: its worktree, changes and all, and its
/// branch. `confirm` must be the branch's name.
pub fn discard(group: &Group, confirm: Option<&str>) -> Result<(), WorkError> {
    let (state, facts) = fresh(group, None);
    let Facts::Found(found) = facts else {
        return Err(refused("nothing of this work can be found"));
    };
    let branch = found.branch.as_deref().unwrap_or(&group.piece.branch);
    if confirm != Some(branch) {
        return Err(refused(format!(
            "type the branch's name, {branch}, to discard its work"
        )));
    }
    if state != State::Stranded {
        return Err(refused(format!(
            "only stranded work is discarded; this is {}",
            describe(state)
        )));
    }
    if !group.own_worktree() {
        return Err(refused(
            "it was done in your own working tree, which discard never touches",
        ));
    }
    remove(group, &found, true)
}

fn remove(group: &Group, found: &facts::Found, force: bool) -> Result<(), WorkError> {
    let repository = &group.piece.repository;
    let lock = worktrees::lock_repository(repository);
    let _turn = lock.hold();
    if let Some(checkout) = group.piece.checkout.as_ref().filter(|c| c.is_dir()) {
        let mut args = vec!["worktree".as_ref(), "remove".as_ref()];
        if force {
            args.push("--force".as_ref());
        }
        args.push(checkout.as_os_str());
        git::checked(repository, args)?;
    } else {
        git::checked(repository, ["worktree", "prune"])?;
    }
    if found.branch_exists
        && let Some(branch) = &found.branch
    {
        // Landed by squash or rebase is not merged by ancestry, so `-d`
        // would refuse what was just checked by content.
        git::checked(repository, ["branch", "-D", branch])?;
    }
    Ok(())
}

/// Pushes the branch to `origin` (the only remote, if it has another
/// name) and sets it as the upstream.
pub fn push(group: &Group) -> Result<(), WorkError> {
    let (state, facts) = fresh(group, None);
    let Facts::Found(found) = facts else {
        return Err(refused("nothing of this work can be found"));
    };
    if state == State::InProgress {
        return Err(refused("a session is still working on it"));
    }
    let Some(branch) = found.branch.clone().filter(|_| found.branch_exists) else {
        return Err(refused(
            "its checkout is on a detached HEAD: no branch to push",
        ));
    };
    if found.commits == 0 {
        return Err(refused("it has no commits to push"));
    }
    let repository = &group.piece.repository;
    let remotes = git::checked(repository, ["remote"])?;
    let remotes: Vec<&str> = remotes.lines().filter(|r| !r.is_empty()).collect();
    let remote = match remotes.as_slice() {
        [] => return Err(refused("the repository has no remote to push to")),
        [only] => *only,
        many if many.contains(&"origin") => "origin",
        _ => {
            return Err(refused(
                "the repository has several remotes and none is origin",
            ));
        }
    };
    git::checked(repository, ["push", "--set-upstream", remote, &branch])?;
    Ok(())
}

fn describe(state: State) -> &'static str {
    match state {
        State::InProgress => "in progress",
        State::Stranded => "stranded",
        State::WaitingOnReview => "waiting on review",
        State::Landed => "landed",
        State::TurnedDown => "turned down",
        State::Unknown => "in an unknown state",
    }
}

/// The address of `remote` of `repository`, when it has one.
pub fn remote_url(repository: &Path, remote: &str) -> Option<String> {
    git::checked(repository, ["remote", "get-url", remote])
        .ok()
        .map(|url| url.trim().to_owned())
}

/// Brings `remote`'s branches up to date and forgets those deleted there
/// (`git fetch --prune`), never asking for a password: a remote that needs
/// one fails instead of hanging a background fetch.
pub fn fetch(repository: &Path, remote: &str) -> Result<(), WorkError> {
    let output = git::command(
        repository,
        [
            "-c",
            "http.lowSpeedLimit=1000",
            "-c",
            "http.lowSpeedTime=30",
            "fetch",
            "--prune",
            "--quiet",
            "--no-write-fetch-head",
            remote,
        ],
    )
    .env("GIT_TERMINAL_PROMPT", "0")
    .env(
        "GIT_SSH_COMMAND",
        "ssh -o BatchMode=yes -o ConnectTimeout=15",
    )
    .output()
    .map_err(|e| refused(format!("git cannot run: {e}")))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(refused(format!(
            "git fetch {remote} failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        )))
    }
}

/// Where the user opens a pull request for pushed work, on GitHub or
/// GitLab as its remote's address names them (no token needed: the host's
/// own page to open one), with the remote's address; `None` for another
/// host. Refused for unpushed work.
pub fn pull_request_page(group: &Group) -> Result<(Option<String>, String), WorkError> {
    let (state, facts) = fresh(group, None);
    let Facts::Found(found) = facts else {
        return Err(refused("nothing of this work can be found"));
    };
    if !matches!(state, State::WaitingOnReview | State::TurnedDown) || found.unpushed > 0 {
        return Err(refused(format!(
            "push it first: a pull request needs the branch on its remote; this is {}",
            describe(state)
        )));
    }
    let (Some(branch), Some(upstream)) = (&found.branch, &found.upstream) else {
        return Err(refused("its branch has no upstream on a remote"));
    };
    let remote = upstream.split('/').next().unwrap_or("origin");
    let url = git::checked(&group.piece.repository, ["remote", "get-url", remote])?;
    let default = found
        .default
        .as_deref()
        .map(|d| d.rsplit_once('/').map_or(d, |(_, name)| name))
        .unwrap_or("main");
    let url = url.trim().to_owned();
    Ok((new_pull_request_url(&url, default, branch), url))
}
