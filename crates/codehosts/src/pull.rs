//! A pull request as the rest of Switchboard sees it, whichever host it is
//! on, and what a lookup found.

use serde::{Deserialize, Serialize};

/// GitLab's "opened" is `Open`, its "locked" `Closed`; GitHub's "closed" is
/// `Merged` when it has a `merged_at`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "PullRequestState")]
pub enum PullRequestState {
    Open,
    Merged,
    /// Closed without being merged.
    Closed,
}

/// A GitHub pull request or a GitLab merge request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "PullRequest")]
pub struct PullRequest {
    /// GitHub's number, GitLab's `iid` (the `!7` of its project).
    pub number: u64,
    /// Its page on the host.
    pub url: String,
    pub state: PullRequestState,
    pub title: String,
    /// When it last changed (RFC 3339, as the host wrote it).
    pub updated_at: Option<String>,
}

/// What a lookup of a branch's pull request found.
#[derive(Debug, Clone, PartialEq)]
pub enum Lookup {
    /// The host answered 304 to the ETag given: what it found last time
    /// still holds.
    NotModified,
    /// The branch's pull request (an open one first, else the one updated
    /// last), or none; `etag` is for the next lookup's `If-None-Match`.
    Found {
        etag: Option<String>,
        pull_request: Option<PullRequest>,
    },
}

/// The one to show of a branch's pull requests: an open one, else the
/// most recently updated; the higher number breaks a tie. RFC 3339 times
/// in UTC compare as text, which is how both hosts write them.
pub(crate) fn pick(pulls: Vec<PullRequest>) -> Option<PullRequest> {
    pulls.into_iter().max_by(|a, b| {
        let key = |p: &PullRequest| (p.state == PullRequestState::Open, p.updated_at.clone());
        key(a).cmp(&key(b)).then_with(|| a.number.cmp(&b.number))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pull(number: u64, state: PullRequestState, updated_at: &str) -> PullRequest {
        PullRequest {
            number,
            url: format!("https://github.example/acme/app/pull/{number}"),
            state,
            title: format!("#{number}"),
            updated_at: Some(updated_at.to_owned()),
        }
    }

    #[test]
    fn an_open_pull_request_wins_over_newer_closed_ones() {
        let picked = pick(vec![
            pull(1, PullRequestState::Merged, "2024-05-03T00:00:00Z"),
            pull(2, PullRequestState::Open, "2024-05-01T00:00:00Z"),
            pull(3, PullRequestState::Closed, "2024-05-02T00:00:00Z"),
        ]);
        assert_eq!(picked.map(|p| p.number), Some(2));
    }

    #[test]
    fn else_the_most_recently_updated_then_the_highest_number() {
        let picked = pick(vec![
            pull(4, PullRequestState::Closed, "2024-05-01T00:00:00Z"),
            pull(2, PullRequestState::Merged, "2024-05-02T00:00:00Z"),
        ]);
        assert_eq!(picked.map(|p| p.number), Some(2));
        let picked = pick(vec![
            pull(4, PullRequestState::Closed, "2024-05-01T00:00:00Z"),
            pull(5, PullRequestState::Closed, "2024-05-01T00:00:00Z"),
        ]);
        assert_eq!(picked.map(|p| p.number), Some(5));
        assert_eq!(pick(Vec::new()), None);
    }

    #[test]
    fn the_wire_form_is_camel_case_with_snake_case_states() {
        let json =
            serde_json::to_value(pull(7, PullRequestState::Open, "2024-05-01T00:00:00Z")).unwrap();
        assert_eq!(json["updatedAt"], "2024-05-01T00:00:00Z");
        assert_eq!(json["state"], "open");
        let back: PullRequest = serde_json::from_value(json).unwrap();
        assert_eq!(back.number, 7);
    }
}
