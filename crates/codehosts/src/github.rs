//! GitHub's REST API (version 2022-11-28): the addresses and bodies of
//! "List pull requests" and "Create a pull request", the pull request they
//! answer, and how it says a rate limit was met.

use serde::Deserialize;
use serde_json::{Value, json};

use crate::wire::{Answer, encode};
use crate::{PullRequest, PullRequestState};

/// The headers every call carries beside the token.
pub(crate) fn headers(token: &str) -> [(&'static str, String); 3] {
    [
        ("Authorization", format!("Bearer {token}")),
        ("Accept", "application/vnd.github+json".to_owned()),
        ("X-GitHub-Api-Version", "2022-11-28".to_owned()),
    ]
}

/// A GitHub project is exactly `owner/repo`.
pub(crate) fn split(project: &str) -> Option<(&str, &str)> {
    let (owner, repo) = project.split_once('/')?;
    (!owner.is_empty() && !repo.is_empty() && !repo.contains('/')).then_some((owner, repo))
}

/// The branch's pull requests in every state; `head` needs the owner, and
/// names only the branch in the repository itself (not a fork's).
pub(crate) fn list_url(api: &str, owner: &str, repo: &str, branch: &str) -> String {
    format!(
        "{api}/repos/{}/{}/pulls?head={}&state=all&per_page=10",
        encode(owner),
        encode(repo),
        encode(&format!("{owner}:{branch}"))
    )
}

pub(crate) fn create_url(api: &str, owner: &str, repo: &str) -> String {
    format!("{api}/repos/{}/{}/pulls", encode(owner), encode(repo))
}

pub(crate) fn create_body(branch: &str, base: &str, title: &str, body: &str) -> Value {
    json!({"title": title, "head": branch, "base": base, "body": body})
}

/// The fields read of GitHub's pull request object.
#[derive(Deserialize)]
struct Pull {
    number: u64,
    html_url: String,
    state: String,
    title: String,
    updated_at: Option<String>,
    merged_at: Option<String>,
    head: Option<Head>,
}

#[derive(Deserialize)]
struct Head {
    #[serde(rename = "ref")]
    name: Option<String>,
}

impl Pull {
    fn read(self) -> Result<PullRequest, String> {
        let state = match (self.state.as_str(), self.merged_at.is_some()) {
            ("open", _) => PullRequestState::Open,
            ("closed", true) => PullRequestState::Merged,
            ("closed", false) => PullRequestState::Closed,
            (other, _) => {
                return Err(format!(
                    "pull request #{} has the state {other:?}",
                    self.number
                ));
            }
        };
        Ok(PullRequest {
            number: self.number,
            url: self.html_url,
            state,
            title: self.title,
            updated_at: self.updated_at,
        })
    }
}

/// The pull requests of a list whose head is `branch` (the filter is the
/// host's; this only guards against one it ignored).
pub(crate) fn list(body: &str, branch: &str) -> Result<Vec<PullRequest>, String> {
    let pulls: Vec<Pull> = serde_json::from_str(body)
        .map_err(|e| format!("a body that is not a list of pull requests ({e})"))?;
    pulls
        .into_iter()
        .filter(|pull| {
            pull.head
                .as_ref()
                .and_then(|head| head.name.as_deref())
                .is_none_or(|name| name == branch)
        })
        .map(Pull::read)
        .collect()
}

pub(crate) fn one(body: &str) -> Result<PullRequest, String> {
    serde_json::from_str::<Pull>(body)
        .map_err(|e| format!("a body that is not a pull request ({e})"))?
        .read()
}

/// When a refusal is a rate limit, until when: a 403 or 429 with
/// `retry-after` (seconds), `x-ratelimit-remaining: 0` (until
/// `x-ratelimit-reset`), or a message saying so; a minute when no header
/// says how long, as GitHub's guide asks.
pub(crate) fn limited(answer: &Answer, message: &str, now: i64) -> Option<i64> {
    if !matches!(answer.status, 403 | 429) {
        return None;
    }
    let retry = answer
        .number("retry-after")
        .map(|seconds| now.saturating_add(seconds.max(0)));
    let spent = answer.number("x-ratelimit-remaining") == Some(0);
    let reset = spent.then(|| answer.number("x-ratelimit-reset")).flatten();
    let says = message.to_ascii_lowercase().contains("rate limit");
    if answer.status == 429 || spent || retry.is_some() || says {
        Some(retry.max(reset).unwrap_or(now.saturating_add(60)))
    } else {
        None
    }
}

/// Until when no request is left, from any answer's headers.
pub(crate) fn exhausted(answer: &Answer) -> Option<i64> {
    (answer.number("x-ratelimit-remaining") == Some(0))
        .then(|| answer.number("x-ratelimit-reset"))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(status: u16, headers: &[(&str, &str)]) -> Answer {
        Answer {
            status,
            headers: headers
                .iter()
                .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
                .collect(),
            body: String::new(),
        }
    }

    #[test]
    fn the_documented_list_maps_each_state() {
        let body = r#"[
          {"number": 3, "html_url": "https://github.com/acme/app/pull/3", "state": "closed",
           "title": "Merged", "updated_at": "2024-05-03T00:00:00Z", "merged_at": "2024-05-03T00:00:00Z",
           "head": {"ref": "feature/x", "label": "acme:feature/x"}},
          {"number": 2, "html_url": "https://github.com/acme/app/pull/2", "state": "closed",
           "title": "Closed", "updated_at": "2024-05-02T00:00:00Z", "merged_at": null,
           "head": {"ref": "feature/x"}},
          {"number": 1, "html_url": "https://github.com/acme/app/pull/1", "state": "open",
           "title": "Other branch", "updated_at": "2024-05-01T00:00:00Z", "merged_at": null,
           "head": {"ref": "other"}}
        ]"#;
        let pulls = list(body, "feature/x").unwrap();
        let states: Vec<_> = pulls.iter().map(|p| (p.number, p.state)).collect();
        assert_eq!(
            states,
            [(3, PullRequestState::Merged), (2, PullRequestState::Closed)]
        );
        assert_eq!(pulls[0].url, "https://github.com/acme/app/pull/3");
        assert!(list(r#"{"message": "x"}"#, "b").is_err());
        assert!(list(r#"[{"number": 1}]"#, "b").is_err());
    }

    #[test]
    fn only_owner_slash_repo_is_a_project() {
        assert_eq!(split("acme/app"), Some(("acme", "app")));
        assert_eq!(split("acme/sub/app"), None);
        assert_eq!(split("acme"), None);
        assert_eq!(split("/app"), None);
    }

    #[test]
    fn rate_limits_are_read_as_documented() {
        let now = 1_000;
        let primary = answer(
            403,
            &[
                ("x-ratelimit-remaining", "0"),
                ("x-ratelimit-reset", "1500"),
            ],
        );
        assert_eq!(
            limited(&primary, "API rate limit exceeded", now),
            Some(1_500)
        );
        let secondary = answer(
            403,
            &[("retry-after", "30"), ("x-ratelimit-remaining", "12")],
        );
        assert_eq!(limited(&secondary, "secondary", now), Some(1_030));
        let bare = answer(429, &[]);
        assert_eq!(limited(&bare, "", now), Some(1_060));
        let said = answer(403, &[("x-ratelimit-remaining", "40")]);
        assert_eq!(
            limited(&said, "You have exceeded a secondary rate limit", now),
            Some(1_060)
        );
        let forbidden = answer(403, &[("x-ratelimit-remaining", "40")]);
        assert_eq!(
            limited(
                &forbidden,
                "Resource not accessible by personal access token",
                now
            ),
            None
        );
        assert_eq!(
            limited(&answer(404, &[("retry-after", "5")]), "", now),
            None
        );
        assert_eq!(exhausted(&primary), Some(1_500));
        assert_eq!(exhausted(&forbidden), None);
    }

    #[test]
    fn the_branch_is_encoded_into_head() {
        assert_eq!(
            list_url("https://api.github.com", "acme", "app", "feature/login"),
            "https://api.github.com/repos/acme/app/pulls?head=acme%3Afeature%2Flogin&state=all&per_page=10"
        );
    }
}
