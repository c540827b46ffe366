//! What became of a piece of work, decided from its sessions and what git
//! found ([`decide`]), and the actions that fit it ([`actions`]). Pure: the
//! rules are tested here without a repository.

use serde::Serialize;

use codehosts::PullRequestState;

use crate::facts::{Facts, Found};
use crate::hosted::Hosted;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "WorkState")]
pub enum State {
    /// A session on it is running or waiting on the user.
    InProgress,
    /// Uncommitted changes, or commits on no remote, and no session on it.
    Stranded,
    /// Pushed, with an open pull request or none.
    WaitingOnReview,
    /// Its changes are in the default branch (merged, rebased or squashed).
    Landed,
    /// Its pull request was closed unmerged, or its remote branch deleted
    /// unmerged.
    TurnedDown,
    /// It cannot be told (the repository is gone); `reason` says why. Never
    /// shown as landed.
    Unknown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS, utoipa::ToSchema)]
#[serde(rename_all = "kebab-case")]
#[ts(rename = "WorkAction")]
// Named apart from the inbox's `Action` in the OpenAPI document too, where
// two schemas of one name silently become one.
#[schema(as = WorkAction)]
pub enum Action {
    /// Open its (latest) session.
    Open,
    /// The changes view of its newest session (worktree sessions only).
    Diff,
    /// A follow-up session in the same checkout.
    Continue,
    Push,
    PullRequest,
    /// Remove the worktree and the local branch (landed work only).
    Prune,
    /// Throw the work away (stranded work only, after typing the branch).
    Discard,
}

/// Whether any session on the work is still going.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activity {
    Active,
    Ended,
}

/// The state, and the reason when it is [`State::Unknown`] or needs one.
/// `hosted` is what the code host last said, when one is configured: a
/// merged pull request lands work git cannot see landed (the default
/// branch not fetched), a closed one turns it down, and a host that could
/// not be asked makes pushed work unknown rather than guessed, never
/// landed. What git proves (dirty, landed by content, unpushed) wins.
pub fn decide(
    activity: Activity,
    facts: &Facts,
    hosted: Option<&Hosted>,
) -> (State, Option<String>) {
    let found = match facts {
        Facts::RepositoryGone { reason } => return (State::Unknown, Some(reason.clone())),
        Facts::Gone => return (State::Unknown, Some("nothing of it is left".to_owned())),
        Facts::Found(found) => found,
    };
    if activity == Activity::Active {
        return (State::InProgress, None);
    }
    let dirty = found.uncommitted.as_ref().is_some_and(|u| u.files > 0);
    if dirty {
        return (State::Stranded, Some("uncommitted changes".to_owned()));
    }
    if found.landing.is_some() || found.commits == 0 {
        return (State::Landed, None);
    }
    if let Some(decided) = hosted.and_then(|hosted| by_host(found, hosted)) {
        return decided;
    }
    if found.upstream_gone {
        return (
            State::TurnedDown,
            Some("its remote branch was deleted unmerged".to_owned()),
        );
    }
    if found.unpushed > 0 {
        return (
            State::Stranded,
            Some(format!(
                "{} commit{} on no remote",
                found.unpushed,
                if found.unpushed == 1 { "" } else { "s" }
            )),
        );
    }
    (State::WaitingOnReview, None)
}

fn by_host(found: &Found, hosted: &Hosted) -> Option<(State, Option<String>)> {
    if found.unpushed > 0 {
        return None;
    }
    if let Some(error) = &hosted.error {
        return Some((
            State::Unknown,
            Some(format!("{} could not be asked: {error}", hosted.host)),
        ));
    }
    let pull_request = hosted.pull_request.as_ref()?;
    match pull_request.state {
        PullRequestState::Merged => Some((
            State::Landed,
            Some(format!("pull request #{} merged", pull_request.number)),
        )),
        PullRequestState::Closed => Some((
            State::TurnedDown,
            Some(format!(
                "pull request #{} was closed unmerged",
                pull_request.number
            )),
        )),
        PullRequestState::Open => Some((State::WaitingOnReview, None)),
    }
}

/// The actions that fit `state` for what was found.
pub fn actions(state: State, found: Option<&Found>) -> Vec<Action> {
    let checkout = found.is_some_and(|f| f.checkout_exists);
    let pushable = found.is_some_and(|f| f.commits > 0 && f.branch_exists);
    let removable = found.is_some_and(|f| f.checkout_exists || f.branch_exists);
    let mut actions = vec![Action::Open];
    match state {
        State::InProgress => actions.push(Action::Diff),
        State::Stranded => {
            actions.extend([Action::Diff, Action::Continue]);
            if pushable {
                actions.push(Action::Push);
            }
            actions.push(Action::Discard);
        }
        State::WaitingOnReview => {
            actions.extend([Action::Diff, Action::Continue, Action::PullRequest]);
        }
        State::TurnedDown => {
            actions.extend([Action::Diff, Action::Continue]);
            if pushable {
                actions.push(Action::Push);
            }
        }
        State::Landed if removable => actions.push(Action::Prune),
        State::Landed | State::Unknown => {}
    }
    if !checkout {
        actions.retain(|a| !matches!(a, Action::Diff | Action::Continue));
    }
    actions
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::Uncommitted;
    use crate::landing::Landing;

    fn found() -> Found {
        Found {
            branch: Some("switchboard/ab12cd34".into()),
            head: "h".into(),
            default: Some("origin/main".into()),
            ahead: 2,
            behind: 0,
            commits: 2,
            unpushed: 2,
            last_commit: None,
            landing: None,
            uncommitted: Some(Uncommitted::default()),
            checkout_exists: true,
            branch_exists: true,
            upstream_gone: false,
            upstream: None,
            remote_url: None,
        }
    }

    fn state(activity: Activity, found: Found) -> State {
        decide(activity, &Facts::Found(Box::new(found)), None).0
    }

    #[test]
    fn a_running_session_is_in_progress_whatever_git_says() {
        let mut dirty = found();
        dirty.uncommitted = Some(Uncommitted {
            files: 3,
            lines: 40,
        });
        assert_eq!(state(Activity::Active, dirty), State::InProgress);
    }

    #[test]
    fn uncommitted_or_unpushed_work_of_an_ended_session_is_stranded() {
        let mut dirty = found();
        dirty.unpushed = 0;
        dirty.uncommitted = Some(Uncommitted { files: 1, lines: 2 });
        assert_eq!(state(Activity::Ended, dirty), State::Stranded);
        assert_eq!(state(Activity::Ended, found()), State::Stranded);
    }

    #[test]
    fn dirty_work_is_stranded_even_when_its_commits_landed() {
        let mut landed_but_dirty = found();
        landed_but_dirty.landing = Some(Landing::Squash);
        landed_but_dirty.uncommitted = Some(Uncommitted { files: 1, lines: 1 });
        assert_eq!(state(Activity::Ended, landed_but_dirty), State::Stranded);
    }

    #[test]
    fn landed_pushed_and_deleted_branches() {
        let mut landed = found();
        landed.landing = Some(Landing::Squash);
        assert_eq!(state(Activity::Ended, landed.clone()), State::Landed);
        let mut pushed = found();
        pushed.unpushed = 0;
        assert_eq!(
            state(Activity::Ended, pushed.clone()),
            State::WaitingOnReview
        );
        let mut deleted = pushed;
        deleted.upstream_gone = true;
        deleted.unpushed = 2;
        assert_eq!(state(Activity::Ended, deleted), State::TurnedDown);
        landed.upstream_gone = true;
        assert_eq!(state(Activity::Ended, landed), State::Landed);
    }

    #[test]
    fn a_gone_repository_is_unknown_never_landed() {
        let (state, reason) = decide(
            Activity::Ended,
            &Facts::RepositoryGone {
                reason: "gone".into(),
            },
            None,
        );
        assert_eq!(state, State::Unknown);
        assert_eq!(reason.as_deref(), Some("gone"));
    }

    fn hosted(state: Option<PullRequestState>, error: Option<&str>) -> Hosted {
        Hosted {
            host: "github".into(),
            project: "acme/app".into(),
            etag: None,
            pull_request: state.map(|state| codehosts::PullRequest {
                number: 7,
                url: "https://github.com/acme/app/pull/7".into(),
                state,
                title: "t".into(),
                updated_at: None,
            }),
            error: error.map(str::to_owned),
            checked_at: 0,
        }
    }

    #[test]
    fn the_code_host_decides_pushed_work_but_never_overrules_git() {
        let mut pushed = found();
        pushed.unpushed = 0;
        let with = |found: &Found, hosted: &Hosted| {
            decide(
                Activity::Ended,
                &Facts::Found(Box::new(found.clone())),
                Some(hosted),
            )
        };
        let merged = hosted(Some(PullRequestState::Merged), None);
        assert_eq!(with(&pushed, &merged).0, State::Landed);
        let closed = hosted(Some(PullRequestState::Closed), None);
        assert_eq!(with(&pushed, &closed).0, State::TurnedDown);
        let open = hosted(Some(PullRequestState::Open), None);
        assert_eq!(with(&pushed, &open).0, State::WaitingOnReview);
        // A merged pull request whose branch deletion git saw is landed,
        // not turned down.
        let mut deleted = pushed.clone();
        deleted.upstream_gone = true;
        assert_eq!(with(&deleted, &merged).0, State::Landed);
        // A host that could not be asked: unknown with the reason, never
        // landed, even where it once said merged.
        let mut failed = hosted(Some(PullRequestState::Merged), Some("answered 401"));
        let (state, reason) = with(&pushed, &failed);
        assert_eq!(state, State::Unknown);
        assert!(reason.unwrap().contains("answered 401"));
        // What git proves wins over the host.
        failed.error = None;
        assert_eq!(with(&found(), &failed).0, State::Stranded);
        let mut dirty = pushed.clone();
        dirty.uncommitted = Some(Uncommitted { files: 1, lines: 1 });
        assert_eq!(with(&dirty, &merged).0, State::Stranded);
        let mut landed = pushed;
        landed.landing = Some(Landing::Squash);
        assert_eq!(with(&landed, &closed).0, State::Landed);
    }

    #[test]
    fn prune_is_offered_for_landed_work_only_and_discard_for_stranded_only() {
        for state in [
            State::InProgress,
            State::Stranded,
            State::WaitingOnReview,
            State::TurnedDown,
            State::Unknown,
        ] {
            assert!(!actions(state, Some(&found())).contains(&Action::Prune));
        }
        assert!(actions(State::Landed, Some(&found())).contains(&Action::Prune));
        assert!(actions(State::Stranded, Some(&found())).contains(&Action::Discard));
        assert!(!actions(State::TurnedDown, Some(&found())).contains(&Action::Discard));
        let mut gone = found();
        gone.checkout_exists = false;
        gone.branch_exists = false;
        assert_eq!(actions(State::Landed, Some(&gone)), vec![Action::Open]);
    }
}
