//! A stand-in of a code host's REST API on loopback, GitHub's or GitLab's
//! ([`Flavor`]), for the `codehosts` client's tests: the pull (merge)
//! requests a test adds, listed and created as the hosts document it
//! (GitHub's "List pull requests" with `head=owner:branch` and "Create a
//! pull request"; GitLab's "List project merge requests" with
//! `source_branch` and "Create MR"), each list with a strong ETag of its
//! body and a 304 to a matching `If-None-Match`, the hosts' refusals (401
//! for another token, GitHub's 422 and GitLab's 409 for a second open one,
//! a rate limit with the hosts' headers) and any status a test asks for
//! next. Every request is recorded with its credential masked and whether
//! it got a 304.

mod http;

use std::io::{BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use http::{Answer, decode, find, listed, read_request, reason, written};

/// The token the stand-in takes unless given another.
pub const DEFAULT_TOKEN: &str = "standin-token";

/// 2024-05-01T00:00:00Z: when the first pull request was made; each change
/// after it is a second later, so `updated_at` orders changes.
const FIRST_MOMENT: i64 = 1_714_521_600;

/// The hourly quota the rate-limit headers count down from.
const QUOTA: u64 = 5_000;

/// Which API the stand-in speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    /// At the root: `/repos/{owner}/{repo}/pulls`.
    GitHub,
    /// Under `/api/v4`: `/projects/{path, encoded}/merge_requests`.
    GitLab,
}

/// A pull request's state as a test sets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PullState {
    Open,
    Merged,
    /// Closed without being merged.
    Closed,
}

/// One request the stand-in received.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    /// The path with its query, as sent.
    pub path: String,
    pub status: u16,
    /// Answered 304 Not Modified.
    pub not_modified: bool,
    /// The credential header, its secret masked: `Bearer [redacted]`,
    /// `PRIVATE-TOKEN [redacted]`.
    pub auth: Option<String>,
    /// Whether it carried the stand-in's token.
    pub authorized: bool,
    pub if_none_match: Option<String>,
    /// The JSON body; `Null` when there was none.
    pub body: Value,
}

struct Pull {
    project: String,
    number: u64,
    branch: String,
    base: String,
    state: PullState,
    title: String,
    body: String,
    created: i64,
    updated: i64,
    /// When it was merged or closed.
    ended: Option<i64>,
}

struct Hub {
    token: String,
    pulls: Vec<Pull>,
    /// Seconds after [`FIRST_MOMENT`] of the last change.
    clock: i64,
    fail_next: Option<u16>,
    limited: Option<i64>,
    remaining: u64,
    reset: i64,
    requests: Vec<Request>,
}

impl Hub {
    fn tick(&mut self) -> i64 {
        self.clock += 1;
        FIRST_MOMENT + self.clock
    }

    /// Until when every request is refused: a limit the test set, or the
    /// quota spent.
    fn limited_until(&self) -> Option<i64> {
        self.limited.or((self.remaining == 0).then_some(self.reset))
    }

    fn add(&mut self, project: &str, branch: &str, base: &str, title: &str, body: &str) -> u64 {
        let number = self
            .pulls
            .iter()
            .filter(|pull| pull.project == project)
            .map(|pull| pull.number)
            .max()
            .unwrap_or(0)
            + 1;
        let at = self.tick();
        self.pulls.push(Pull {
            project: project.to_owned(),
            number,
            branch: branch.to_owned(),
            base: base.to_owned(),
            state: PullState::Open,
            title: title.to_owned(),
            body: body.to_owned(),
            created: at,
            updated: at,
            ended: None,
        });
        number
    }

    fn set_state(&mut self, project: &str, number: u64, state: PullState) -> bool {
        let at = self.tick();
        let Some(pull) = self
            .pulls
            .iter_mut()
            .find(|pull| pull.project == project && pull.number == number)
        else {
            return false;
        };
        pull.state = state;
        pull.updated = at;
        pull.ended = (state != PullState::Open).then_some(at);
        true
    }
}

/// The running stand-in; clones share it. Its threads end with the process.
#[derive(Clone)]
pub struct CodeHost {
    flavor: Flavor,
    base: String,
    hub: Arc<Mutex<Hub>>,
}

impl CodeHost {
    /// Binds 127.0.0.1 on a free port and serves `flavor`'s API.
    pub fn start(flavor: Flavor) -> std::io::Result<CodeHost> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let base = format!("http://{}", listener.local_addr()?);
        let host = CodeHost {
            flavor,
            base,
            hub: Arc::new(Mutex::new(Hub {
                token: DEFAULT_TOKEN.to_owned(),
                pulls: Vec::new(),
                clock: 0,
                fail_next: None,
                limited: None,
                remaining: QUOTA,
                reset: FIRST_MOMENT + 3_600,
                requests: Vec::new(),
            })),
        };
        let served = host.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let host = served.clone();
                std::thread::spawn(move || host.serve(stream));
            }
        });
        Ok(host)
    }

    /// Takes `token` instead of [`DEFAULT_TOKEN`].
    pub fn with_token(self, token: &str) -> CodeHost {
        self.lock().token = token.to_owned();
        self
    }

    pub fn token(&self) -> String {
        self.lock().token.clone()
    }

    pub fn flavor(&self) -> Flavor {
        self.flavor
    }

    /// The API's base URL, as a host's `api`: the root for GitHub,
    /// `/api/v4` for GitLab.
    pub fn url(&self) -> String {
        match self.flavor {
            Flavor::GitHub => self.base.clone(),
            Flavor::GitLab => format!("{}/api/v4", self.base),
        }
    }

    /// Adds a pull request from `branch` into `main` of `project`
    /// ("acme/app"; GitLab's "group/sub/app") and gives its number (GitLab's
    /// `iid`), counted per project from 1.
    pub fn add_pull_request(
        &self,
        project: &str,
        branch: &str,
        state: PullState,
        title: &str,
    ) -> u64 {
        let mut hub = self.lock();
        let number = hub.add(project, branch, "main", title, "");
        if state != PullState::Open {
            hub.set_state(project, number, state);
        }
        number
    }

    /// Moves a pull request to `state`, as a reviewer would; false when
    /// there is no such pull request.
    pub fn set_state(&self, project: &str, number: u64, state: PullState) -> bool {
        self.lock().set_state(project, number, state)
    }

    /// Answers the next request, whatever it is, with `status` and the
    /// host's body for it.
    pub fn fail_next(&self, status: u16) {
        self.lock().fail_next = Some(status);
    }

    /// Refuses every request as rate limited until `until` (seconds since
    /// the epoch), until [`CodeHost::lift_rate_limit`]: GitHub's 403 with
    /// `x-ratelimit-remaining: 0` and `x-ratelimit-reset`, GitLab's 429 with
    /// `RateLimit-Reset` and `Retry-After`.
    pub fn rate_limit(&self, until: i64) {
        self.lock().limited = Some(until);
    }

    /// The quota left and when it resets, as every answer's headers say;
    /// each counted request (GitHub does not count a 304) takes one, and
    /// once none is left requests are refused as by
    /// [`CodeHost::rate_limit`] until `reset`.
    pub fn set_remaining(&self, remaining: u64, reset: i64) {
        let mut hub = self.lock();
        hub.remaining = remaining;
        hub.reset = reset;
    }

    /// Ends a rate limit and fills the quota again, as the hour's reset does.
    pub fn lift_rate_limit(&self) {
        let mut hub = self.lock();
        hub.limited = None;
        hub.remaining = QUOTA;
    }

    /// Every request so far, in order.
    pub fn requests(&self) -> Vec<Request> {
        self.lock().requests.clone()
    }

    /// The pull requests of `project`, as `(number, branch, state)`.
    pub fn pull_requests(&self, project: &str) -> Vec<(u64, String, PullState)> {
        self.lock()
            .pulls
            .iter()
            .filter(|pull| pull.project == project)
            .map(|pull| (pull.number, pull.branch.clone(), pull.state))
            .collect()
    }

    fn lock(&self) -> MutexGuard<'_, Hub> {
        self.hub.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn serve(&self, stream: TcpStream) {
        let Ok(mut writer) = stream.try_clone() else {
            return;
        };
        let mut reader = BufReader::new(stream);
        loop {
            let Some((method, target, headers, body)) = read_request(&mut reader) else {
                return;
            };
            let answer = self.answer(&method, &target, &headers, &body);
            if writer.write_all(&written(&answer)).is_err() {
                return;
            }
        }
    }

    fn answer(
        &self,
        method: &str,
        target: &str,
        headers: &[(String, String)],
        body: &[u8],
    ) -> Answer {
        let body: Value = if body.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(body)
                .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(body).into_owned()))
        };
        let mut hub = self.lock();
        let (auth, presented) = credential(self.flavor, headers);
        let authorized = presented.as_deref() == Some(hub.token.as_str());
        let if_none_match = find(headers, "if-none-match").map(str::to_owned);
        let failure = hub.fail_next.take();
        let limit = hub
            .limited_until()
            .filter(|_| failure.is_none() && authorized);
        let mut answer = if let Some(status) = failure {
            self.failure(status)
        } else if !authorized {
            self.failure(401)
        } else if let Some(until) = limit {
            self.limited(until)
        } else {
            self.route(&mut hub, method, target, &body, if_none_match.as_deref())
        };
        // A refusal for the limit carries its own headers and counts for
        // nothing; GitHub does not count a 304 either.
        if limit.is_none() {
            if !(self.flavor == Flavor::GitHub && answer.status == 304) {
                hub.remaining = hub.remaining.saturating_sub(1);
            }
            let (remaining, reset) = (hub.remaining, hub.reset);
            answer.headers.extend(self.quota_headers(remaining, reset));
        }
        hub.requests.push(Request {
            method: method.to_owned(),
            path: target.to_owned(),
            status: answer.status,
            not_modified: answer.status == 304,
            auth,
            authorized,
            if_none_match,
            body,
        });
        answer
    }

    fn route(
        &self,
        hub: &mut Hub,
        method: &str,
        target: &str,
        body: &Value,
        if_none_match: Option<&str>,
    ) -> Answer {
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        let segments: Vec<String> = path.split('/').skip(1).map(|s| decode(s, false)).collect();
        let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
        let query = |name: &str| {
            query
                .split('&')
                .filter_map(|pair| pair.split_once('='))
                .find(|(key, _)| *key == name)
                .map(|(_, value)| decode(value, true))
        };
        match (self.flavor, method, segments.as_slice()) {
            (Flavor::GitHub, "GET", ["repos", owner, repo, "pulls"]) => {
                let project = format!("{owner}/{repo}");
                let head = query("head").unwrap_or_default();
                let (head_owner, branch) = head.split_once(':').unwrap_or((owner, head.as_str()));
                let state = query("state").unwrap_or_else(|| "open".to_owned());
                let per_page = query("per_page").and_then(|n| n.parse().ok()).unwrap_or(30);
                let hub: &Hub = hub;
                let items: Vec<Value> = newest_first(hub, &project)
                    .filter(|pull| {
                        head.is_empty() || (head_owner == *owner && pull.branch == branch)
                    })
                    .filter(|pull| match state.as_str() {
                        "open" => pull.state == PullState::Open,
                        "closed" => pull.state != PullState::Open,
                        _ => true,
                    })
                    .take(per_page)
                    .map(|pull| self.github_pull(pull))
                    .collect();
                listed(&json!(items), if_none_match)
            }
            (Flavor::GitHub, "POST", ["repos", owner, repo, "pulls"]) => {
                self.github_create(hub, &format!("{owner}/{repo}"), owner, body)
            }
            (Flavor::GitLab, "GET", ["api", "v4", "projects", project, "merge_requests"]) => {
                let branch = query("source_branch");
                let state = query("state").unwrap_or_else(|| "all".to_owned());
                let per_page = query("per_page").and_then(|n| n.parse().ok()).unwrap_or(20);
                let hub: &Hub = hub;
                let items: Vec<Value> = newest_first(hub, project)
                    .filter(|pull| branch.as_deref().is_none_or(|branch| pull.branch == branch))
                    .filter(|pull| state == "all" || gitlab_state(pull.state) == state)
                    .take(per_page)
                    .map(|pull| self.gitlab_request(hub, pull))
                    .collect();
                listed(&json!(items), if_none_match)
            }
            (Flavor::GitLab, "POST", ["api", "v4", "projects", project, "merge_requests"]) => {
                self.gitlab_create(hub, project, body)
            }
            _ => self.failure(404),
        }
    }

    fn github_create(&self, hub: &mut Hub, project: &str, owner: &str, body: &Value) -> Answer {
        let field = |name: &str| body.get(name).and_then(Value::as_str).unwrap_or("");
        for name in ["title", "head", "base"] {
            if field(name).is_empty() {
                return Answer::json(
                    422,
                    &json!({"message": "Validation Failed", "errors": [
                        {"resource": "PullRequest", "field": name, "code": "missing_field"}],
                        "documentation_url": "https://docs.github.com/rest/pulls/pulls#create-a-pull-request",
                        "status": "422"}),
                );
            }
        }
        let head = field("head");
        let branch = head.split_once(':').map_or(head, |(_, branch)| branch);
        if open_for(hub, project, branch).is_some() {
            return Answer::json(
                422,
                &json!({"message": "Validation Failed", "errors": [
                    {"resource": "PullRequest", "code": "custom",
                     "message": format!("A pull request already exists for {owner}:{branch}.")}],
                    "documentation_url": "https://docs.github.com/rest/pulls/pulls#create-a-pull-request",
                    "status": "422"}),
            );
        }
        let number = hub.add(
            project,
            branch,
            field("base"),
            field("title"),
            field("body"),
        );
        let Some(made) = hub.pulls.last().map(|pull| self.github_pull(pull)) else {
            return self.failure(500);
        };
        let mut answer = Answer::json(201, &made);
        answer.headers.push((
            "location".to_owned(),
            format!("{}/repos/{project}/pulls/{number}", self.url()),
        ));
        answer
    }

    fn gitlab_create(&self, hub: &mut Hub, project: &str, body: &Value) -> Answer {
        let field = |name: &str| body.get(name).and_then(Value::as_str).unwrap_or("");
        for name in ["source_branch", "target_branch", "title"] {
            if field(name).is_empty() {
                return Answer::json(400, &json!({"error": format!("{name} is missing")}));
            }
        }
        let branch = field("source_branch");
        if let Some(number) = open_for(hub, project, branch) {
            return Answer::json(
                409,
                &json!({"message": [format!(
                    "Another open merge request already exists for this source branch: !{number}"
                )]}),
            );
        }
        hub.add(
            project,
            branch,
            field("target_branch"),
            field("title"),
            field("description"),
        );
        let Some(made) = hub.pulls.last().map(|pull| self.gitlab_request(hub, pull)) else {
            return self.failure(500);
        };
        Answer::json(201, &made)
    }

    /// GitHub's pull request object, the fields a client reads and a few
    /// around them.
    fn github_pull(&self, pull: &Pull) -> Value {
        let (owner, repo) = pull.project.split_once('/').unwrap_or((&pull.project, ""));
        let ended = pull.ended.map(|at| moment(at, false));
        json!({
            "url": format!("{}/repos/{}/pulls/{}", self.url(), pull.project, pull.number),
            "id": 1_000_000 + pull.number,
            "html_url": format!("https://github.example/{}/pull/{}", pull.project, pull.number),
            "number": pull.number,
            "state": if pull.state == PullState::Open { "open" } else { "closed" },
            "locked": false,
            "title": pull.title,
            "user": {"login": owner, "type": "User"},
            "body": pull.body,
            "created_at": moment(pull.created, false),
            "updated_at": moment(pull.updated, false),
            "closed_at": ended,
            "merged_at": if pull.state == PullState::Merged { ended } else { None },
            "merge_commit_sha": null,
            "draft": false,
            "head": {"label": format!("{owner}:{}", pull.branch), "ref": pull.branch,
                     "sha": "0000000000000000000000000000000000000001",
                     "repo": {"name": repo, "full_name": pull.project}},
            "base": {"label": format!("{owner}:{}", pull.base), "ref": pull.base,
                     "sha": "0000000000000000000000000000000000000000",
                     "repo": {"name": repo, "full_name": pull.project}},
        })
    }

    /// GitLab's merge request object, likewise.
    fn gitlab_request(&self, hub: &Hub, pull: &Pull) -> Value {
        let project_id = project_id(hub, &pull.project);
        let ended = pull.ended.map(|at| moment(at, true));
        json!({
            "id": 1_000_000 + pull.number,
            "iid": pull.number,
            "project_id": project_id,
            "title": pull.title,
            "description": pull.body,
            "state": gitlab_state(pull.state),
            "created_at": moment(pull.created, true),
            "updated_at": moment(pull.updated, true),
            "merged_at": if pull.state == PullState::Merged { ended.clone() } else { None },
            "closed_at": if pull.state == PullState::Closed { ended } else { None },
            "target_branch": pull.base,
            "source_branch": pull.branch,
            "source_project_id": project_id,
            "target_project_id": project_id,
            "draft": false,
            "merge_status": "can_be_merged",
            "sha": "0000000000000000000000000000000000000001",
            "web_url": format!("https://gitlab.example/{}/-/merge_requests/{}", pull.project, pull.number),
        })
    }

    /// The host's answer to `status` with the body it documents for it.
    fn failure(&self, status: u16) -> Answer {
        let body = match (self.flavor, status) {
            (Flavor::GitHub, 401) => json!({"message": "Bad credentials",
                "documentation_url": "https://docs.github.com/rest", "status": "401"}),
            (Flavor::GitHub, _) => json!({"message": reason(status),
                "documentation_url": "https://docs.github.com/rest", "status": status.to_string()}),
            (Flavor::GitLab, 401) => json!({"message": "401 Unauthorized"}),
            (Flavor::GitLab, 404) => json!({"message": "404 Project Not Found"}),
            (Flavor::GitLab, _) => json!({"message": format!("{status} {}", reason(status))}),
        };
        Answer::json(status, &body)
    }

    fn limited(&self, until: i64) -> Answer {
        match self.flavor {
            Flavor::GitHub => {
                let mut answer = Answer::json(
                    403,
                    &json!({"message": "API rate limit exceeded for user ID 1.",
                        "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"}),
                );
                answer.headers = self.quota_headers(0, until);
                answer
            }
            Flavor::GitLab => {
                let now = OffsetDateTime::now_utc().unix_timestamp();
                let mut headers = self.quota_headers(0, until);
                headers.push(("retry-after".to_owned(), (until - now).max(0).to_string()));
                Answer {
                    status: 429,
                    headers,
                    body: Some("Retry later\n".to_owned()),
                }
            }
        }
    }

    fn quota_headers(&self, remaining: u64, reset: i64) -> Vec<(String, String)> {
        let used = QUOTA.saturating_sub(remaining);
        let headers = match self.flavor {
            Flavor::GitHub => [
                ("x-ratelimit-limit", QUOTA.to_string()),
                ("x-ratelimit-remaining", remaining.to_string()),
                ("x-ratelimit-reset", reset.to_string()),
                ("x-ratelimit-used", used.to_string()),
            ],
            Flavor::GitLab => [
                ("ratelimit-limit", QUOTA.to_string()),
                ("ratelimit-observed", used.to_string()),
                ("ratelimit-remaining", remaining.to_string()),
                ("ratelimit-reset", reset.to_string()),
            ],
        };
        headers
            .into_iter()
            .map(|(name, value)| (name.to_owned(), value))
            .collect()
    }
}

/// The credential a request carried, masked, and its secret.
fn credential(flavor: Flavor, headers: &[(String, String)]) -> (Option<String>, Option<String>) {
    if flavor == Flavor::GitLab
        && let Some(token) = find(headers, "private-token")
    {
        return (
            Some("PRIVATE-TOKEN [redacted]".to_owned()),
            Some(token.to_owned()),
        );
    }
    let Some(value) = find(headers, "authorization") else {
        return (None, None);
    };
    match value.split_once(' ') {
        Some((scheme, token)) => (
            Some(format!("{scheme} [redacted]")),
            Some(token.trim().to_owned()),
        ),
        None => (Some("[redacted]".to_owned()), None),
    }
}

fn newest_first<'h>(hub: &'h Hub, project: &'h str) -> impl Iterator<Item = &'h Pull> {
    let mut pulls: Vec<&Pull> = hub
        .pulls
        .iter()
        .filter(|pull| pull.project == project)
        .collect();
    pulls.sort_by_key(|pull| std::cmp::Reverse(pull.number));
    pulls.into_iter()
}

fn open_for(hub: &Hub, project: &str, branch: &str) -> Option<u64> {
    hub.pulls
        .iter()
        .find(|pull| {
            pull.project == project && pull.branch == branch && pull.state == PullState::Open
        })
        .map(|pull| pull.number)
}

fn project_id(hub: &Hub, project: &str) -> usize {
    let mut seen: Vec<&str> = Vec::new();
    for pull in &hub.pulls {
        if !seen.contains(&pull.project.as_str()) {
            seen.push(&pull.project);
        }
    }
    seen.iter()
        .position(|known| *known == project)
        .map_or(0, |at| at + 1)
}

fn gitlab_state(state: PullState) -> &'static str {
    match state {
        PullState::Open => "opened",
        PullState::Merged => "merged",
        PullState::Closed => "closed",
    }
}

/// RFC 3339 in UTC; GitLab writes milliseconds.
fn moment(epoch: i64, millis: bool) -> String {
    let text = OffsetDateTime::from_unix_timestamp(epoch)
        .ok()
        .and_then(|at| at.format(&Rfc3339).ok())
        .unwrap_or_default();
    if millis {
        text.replace('Z', ".000Z")
    } else {
        text
    }
}
