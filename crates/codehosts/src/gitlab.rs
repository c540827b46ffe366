//! GitLab's REST API v4: the addresses and bodies of "List project merge
//! requests" (by `source_branch`) and "Create MR", the merge request they
//! answer, and how it says a rate limit was met.

use serde::Deserialize;
use serde_json::{Value, json};

use crate::wire::{Answer, encode};
use crate::{PullRequest, PullRequestState};

pub(crate) fn headers(token: &str) -> [(&'static str, String); 2] {
    [
        ("PRIVATE-TOKEN", token.to_owned()),
        ("Accept", "application/json".to_owned()),
    ]
}

/// The project's path is its id once encoded whole ("group%2Fsub%2Fapp").
pub(crate) fn list_url(api: &str, project: &str, branch: &str) -> String {
    format!(
        "{api}/projects/{}/merge_requests?source_branch={}&state=all&per_page=10",
        encode(project),
        encode(branch)
    )
}

pub(crate) fn create_url(api: &str, project: &str) -> String {
    format!("{api}/projects/{}/merge_requests", encode(project))
}

pub(crate) fn create_body(branch: &str, base: &str, title: &str, body: &str) -> Value {
    json!({
        "source_branch": branch,
        "target_branch": base,
        "title": title,
        "description": body,
    })
}

/// The fields read of GitLab's merge request object.
#[derive(Deserialize)]
struct MergeRequest {
    iid: u64,
    web_url: String,
    state: String,
    title: String,
    updated_at: Option<String>,
    source_branch: Option<String>,
    source_project_id: Option<u64>,
    target_project_id: Option<u64>,
}

impl MergeRequest {
    /// From the project itself: a fork's branch of the same name is
    /// another piece of work.
    fn is_for(&self, branch: &str) -> bool {
        let same_branch = self
            .source_branch
            .as_deref()
            .is_none_or(|name| name == branch);
        let same_project = match (self.source_project_id, self.target_project_id) {
            (Some(source), Some(target)) => source == target,
            _ => true,
        };
        same_branch && same_project
    }

    fn read(self) -> Result<PullRequest, String> {
        let state = match self.state.as_str() {
            "opened" => PullRequestState::Open,
            "merged" => PullRequestState::Merged,
            "closed" | "locked" => PullRequestState::Closed,
            other => {
                return Err(format!(
                    "merge request !{} has the state {other:?}",
                    self.iid
                ));
            }
        };
        Ok(PullRequest {
            number: self.iid,
            url: self.web_url,
            state,
            title: self.title,
            updated_at: self.updated_at,
        })
    }
}

pub(crate) fn list(body: &str, branch: &str) -> Result<Vec<PullRequest>, String> {
    let requests: Vec<MergeRequest> = serde_json::from_str(body)
        .map_err(|e| format!("a body that is not a list of merge requests ({e})"))?;
    requests
        .into_iter()
        .filter(|request| request.is_for(branch))
        .map(MergeRequest::read)
        .collect()
}

pub(crate) fn one(body: &str) -> Result<PullRequest, String> {
    serde_json::from_str::<MergeRequest>(body)
        .map_err(|e| format!("a body that is not a merge request ({e})"))?
        .read()
}

/// A 429, until `RateLimit-Reset` (an epoch) or `Retry-After` (seconds),
/// the later if both; a minute when neither says.
pub(crate) fn limited(answer: &Answer, now: i64) -> Option<i64> {
    if answer.status != 429 {
        return None;
    }
    let reset = answer.number("ratelimit-reset");
    let retry = answer
        .number("retry-after")
        .map(|seconds| now.saturating_add(seconds.max(0)));
    Some(reset.max(retry).unwrap_or(now.saturating_add(60)))
}

/// Until when no request is left, from any answer's headers.
pub(crate) fn exhausted(answer: &Answer) -> Option<i64> {
    (answer.number("ratelimit-remaining") == Some(0))
        .then(|| answer.number("ratelimit-reset"))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_list_maps_each_state() {
        let body = r#"[
          {"iid": 4, "web_url": "https://gitlab.com/g/app/-/merge_requests/4", "state": "locked",
           "title": "Locked", "updated_at": "2024-05-04T00:00:00.000Z", "source_branch": "f/x",
           "source_project_id": 9, "target_project_id": 9},
          {"iid": 3, "web_url": "https://gitlab.com/g/app/-/merge_requests/3", "state": "merged",
           "title": "Merged", "updated_at": "2024-05-03T00:00:00.000Z", "source_branch": "f/x",
           "source_project_id": 9, "target_project_id": 9},
          {"iid": 2, "web_url": "https://gitlab.com/g/app/-/merge_requests/2", "state": "opened",
           "title": "From a fork", "source_branch": "f/x", "source_project_id": 12, "target_project_id": 9},
          {"iid": 1, "web_url": "https://gitlab.com/g/app/-/merge_requests/1", "state": "closed",
           "title": "Closed", "source_branch": "f/x"}
        ]"#;
        let pulls = list(body, "f/x").unwrap();
        let states: Vec<_> = pulls.iter().map(|p| (p.number, p.state)).collect();
        assert_eq!(
            states,
            [
                (4, PullRequestState::Closed),
                (3, PullRequestState::Merged),
                (1, PullRequestState::Closed)
            ]
        );
        assert!(
            list(
                r#"[{"iid": 1, "web_url": "u", "state": "draft", "title": "t"}]"#,
                "b"
            )
            .is_err()
        );
    }

    #[test]
    fn rate_limits_are_read_as_documented() {
        let answer = |headers: &[(&str, &str)]| Answer {
            status: 429,
            headers: headers
                .iter()
                .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
                .collect(),
            body: String::new(),
        };
        let now = 1_000;
        assert_eq!(
            limited(&answer(&[("RateLimit-Reset", "1200")]), now),
            Some(1_200)
        );
        assert_eq!(limited(&answer(&[("Retry-After", "30")]), now), Some(1_030));
        assert_eq!(
            limited(
                &answer(&[("RateLimit-Reset", "1200"), ("Retry-After", "500")]),
                now
            ),
            Some(1_500)
        );
        assert_eq!(limited(&answer(&[]), now), Some(1_060));
        let spent = answer(&[("RateLimit-Remaining", "0"), ("RateLimit-Reset", "1200")]);
        assert_eq!(exhausted(&spent), Some(1_200));
    }

    #[test]
    fn the_project_is_one_encoded_segment() {
        assert_eq!(
            list_url("https://gitlab.com/api/v4", "group/sub/app", "feature/x"),
            "https://gitlab.com/api/v4/projects/group%2Fsub%2Fapp/merge_requests?source_branch=feature%2Fx&state=all&per_page=10"
        );
    }
}
