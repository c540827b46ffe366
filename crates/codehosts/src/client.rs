//! A blocking client of one code host: reads a branch's pull request with
//! a conditional request, opens one, and turns every refusal into a
//! [`CodeHostError`] that says what to do. The token travels in a header
//! only; anything quoted from the host or the transport is redacted, and
//! `{:?}` shows no token either.

use std::time::Duration;

use serde_json::Value;

use crate::wire::{self, Answer};
use crate::{CodeHostError, Host, Kind, Limits, Lookup, PullRequest, github, gitlab, pull};

/// Long enough for a slow host; a poll that waits longer is better retried.
const TIMEOUT: Duration = Duration::from_secs(15);

/// What stands in for the token in every message.
const REDACTED: &str = "<token>";

/// A client of one host with one token. Clones share the connection pool
/// and the memory of rate limits.
#[derive(Clone)]
pub struct Client {
    host: Host,
    /// "github (api.github.com)", as messages name the host.
    label: String,
    token: String,
    agent: ureq::Agent,
    limits: Limits,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("host", &self.host)
            .field("token", &REDACTED)
            .field("limits", &self.limits)
            .finish()
    }
}

impl Client {
    /// A client of `host` with the token revealed from its saved key, the
    /// rate limits remembered for the whole process ([`Limits::process`]).
    /// Refuses a token that could not go into a header as it is.
    pub fn new(host: &Host, token: String) -> Result<Client, CodeHostError> {
        Client::with_limits(host, token, Limits::process())
    }

    /// As [`Client::new`], remembering rate limits in `limits`.
    pub fn with_limits(
        host: &Host,
        token: String,
        limits: Limits,
    ) -> Result<Client, CodeHostError> {
        if token.is_empty() || !token.chars().all(|c| c.is_ascii_graphic()) {
            return Err(CodeHostError::BadToken {
                host: host.label(),
                token_key: host.token_key.clone(),
            });
        }
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(TIMEOUT))
            // A redirect would carry GitLab's PRIVATE-TOKEN to wherever it
            // points and turn a POST into a GET: a move is reported instead.
            .max_redirects(0)
            .user_agent("switchboard")
            .build()
            .into();
        let mut host = host.clone();
        host.api = host.api.trim_end_matches('/').to_owned();
        Ok(Client {
            label: host.label(),
            host,
            token,
            agent,
            limits,
        })
    }

    pub fn host(&self) -> &Host {
        &self.host
    }

    /// The branch's pull request on `project`: `NotModified` when the host
    /// answers 304 to `etag`; else the newest whose head is `branch` (an
    /// open one first), or none, with the answer's ETag for the next call.
    pub fn pull_request(
        &self,
        project: &str,
        branch: &str,
        etag: Option<&str>,
        now: i64,
    ) -> Result<Lookup, CodeHostError> {
        let url = match self.host.kind {
            Kind::GitHub => {
                let (owner, repo) = self.github_project(project)?;
                github::list_url(&self.host.api, owner, repo, branch)
            }
            Kind::GitLab => gitlab::list_url(&self.host.api, self.gitlab_project(project)?, branch),
        };
        // A cached ETag that could not be a header value is not sent; the
        // full answer then brings a fresh one.
        let etag = etag.filter(|tag| !tag.is_empty() && tag.bytes().all(|b| b.is_ascii_graphic()));
        let answer = self.send(&url, None, etag, now)?;
        match answer.status {
            304 if etag.is_some() => Ok(Lookup::NotModified),
            304 => Err(self.invalid("304 Not Modified to a request that named no ETag")),
            200 => {
                let pulls = match self.host.kind {
                    Kind::GitHub => github::list(&answer.body, branch),
                    Kind::GitLab => gitlab::list(&answer.body, branch),
                }
                .map_err(|detail| self.invalid(&format!("200 with {detail}")))?;
                Ok(Lookup::Found {
                    etag: answer.header("etag").map(str::to_owned),
                    pull_request: pull::pick(pulls),
                })
            }
            _ => Err(self.refusal(&answer, project, now)),
        }
    }

    /// Opens a pull request from `branch` into `base`. One already open for
    /// the branch is [`CodeHostError::Refused`] with the host's message.
    pub fn open_pull_request(
        &self,
        project: &str,
        branch: &str,
        base: &str,
        title: &str,
        body: &str,
        now: i64,
    ) -> Result<PullRequest, CodeHostError> {
        let (url, request) = match self.host.kind {
            Kind::GitHub => {
                let (owner, repo) = self.github_project(project)?;
                (
                    github::create_url(&self.host.api, owner, repo),
                    github::create_body(branch, base, title, body),
                )
            }
            Kind::GitLab => (
                gitlab::create_url(&self.host.api, self.gitlab_project(project)?),
                gitlab::create_body(branch, base, title, body),
            ),
        };
        let answer = self.send(&url, Some(&request), None, now)?;
        match answer.status {
            200 | 201 => match self.host.kind {
                Kind::GitHub => github::one(&answer.body),
                Kind::GitLab => gitlab::one(&answer.body),
            }
            .map_err(|detail| self.invalid(&format!("{} with {detail}", answer.status))),
            _ => Err(self.refusal(&answer, project, now)),
        }
    }

    fn github_project<'p>(&self, project: &'p str) -> Result<(&'p str, &'p str), CodeHostError> {
        github::split(project).ok_or_else(|| CodeHostError::BadProject {
            host: self.label.clone(),
            project: project.to_owned(),
            detail: "a GitHub repository is owner/name".to_owned(),
        })
    }

    fn gitlab_project<'p>(&self, project: &'p str) -> Result<&'p str, CodeHostError> {
        if project.trim_matches('/').is_empty() {
            return Err(CodeHostError::BadProject {
                host: self.label.clone(),
                project: project.to_owned(),
                detail: "a GitLab project is group/name".to_owned(),
            });
        }
        Ok(project)
    }

    /// One call: a GET, or a POST of `body`. Refused without a request
    /// while a remembered rate limit holds; an answer saying no request is
    /// left is remembered for the next.
    fn send(
        &self,
        url: &str,
        body: Option<&Value>,
        etag: Option<&str>,
        now: i64,
    ) -> Result<Answer, CodeHostError> {
        let key = &self.host.token_key;
        if let Some(until) = self.limits.until(&self.host.api, key, now) {
            return Err(CodeHostError::RateLimited {
                host: self.label.clone(),
                until,
            });
        }
        let result = match body {
            None => {
                let mut request = self.agent.get(url);
                for (name, value) in self.headers() {
                    request = request.header(name, value);
                }
                if let Some(etag) = etag {
                    request = request.header("If-None-Match", etag);
                }
                request.call()
            }
            Some(body) => {
                let mut request = self.agent.post(url);
                for (name, value) in self.headers() {
                    request = request.header(name, value);
                }
                request.send_json(body)
            }
        };
        let mut response = result.map_err(|e| self.transport(&e))?;
        let status = response.status().as_u16();
        let headers = response
            .headers()
            .iter()
            .map(|(name, value)| {
                let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
                (name.as_str().to_ascii_lowercase(), value)
            })
            .collect();
        let body = if status == 304 {
            String::new()
        } else {
            response
                .body_mut()
                .read_to_string()
                .map_err(|e| self.transport(&e))?
        };
        let answer = Answer {
            status,
            headers,
            body,
        };
        let spent = match self.host.kind {
            Kind::GitHub => github::exhausted(&answer),
            Kind::GitLab => gitlab::exhausted(&answer),
        };
        if let Some(until) = spent {
            self.limits.note(&self.host.api, key, until);
        }
        Ok(answer)
    }

    fn headers(&self) -> Vec<(&'static str, String)> {
        match self.host.kind {
            Kind::GitHub => github::headers(&self.token).into(),
            Kind::GitLab => gitlab::headers(&self.token).into(),
        }
    }

    /// What a status other than the expected one means for the user.
    fn refusal(&self, answer: &Answer, project: &str, now: i64) -> CodeHostError {
        let host = self.label.clone();
        let status = answer.status;
        let message = self.redact(&wire::message(&answer.body));
        let limited = match self.host.kind {
            Kind::GitHub => github::limited(answer, &message, now),
            Kind::GitLab => gitlab::limited(answer, now),
        };
        if let Some(until) = limited {
            self.limits
                .note(&self.host.api, &self.host.token_key, until);
            return CodeHostError::RateLimited { host, until };
        }
        let key = &self.host.token_key;
        match status {
            401 => CodeHostError::Unauthorized {
                host,
                detail: format!("401: {message} — the saved key {key} is not accepted"),
            },
            403 => CodeHostError::Unauthorized {
                host,
                detail: format!(
                    "403: {message} — the token in the saved key {key} may not do this on {project}"
                ),
            },
            404 => CodeHostError::NotFound {
                detail: match self.host.kind {
                    Kind::GitHub => format!(
                        "404: {message} — no repository {project} that the token in the saved key {key} can see (GitHub answers so for a private repository the token may not read)"
                    ),
                    Kind::GitLab => format!(
                        "404: {message} — no project {project} that the token in the saved key {key} can see"
                    ),
                },
                host,
            },
            300..=399 => CodeHostError::NotFound {
                detail: match answer.header("location") {
                    Some(to) => format!(
                        "{status}: {project} moved (to {}); point the git remote at its new address",
                        self.redact(to)
                    ),
                    None => format!(
                        "{status}: {project} moved; point the git remote at its new address"
                    ),
                },
                host,
            },
            500..=599 => CodeHostError::Server { host, status },
            400..=499 => CodeHostError::Refused {
                host,
                detail: format!("{status}: {message}"),
            },
            _ => self.invalid(&format!("{status} with {message}")),
        }
    }

    fn invalid(&self, detail: &str) -> CodeHostError {
        CodeHostError::Invalid {
            host: self.label.clone(),
            detail: self.redact(detail),
        }
    }

    fn transport(&self, error: &ureq::Error) -> CodeHostError {
        let detail = match error {
            ureq::Error::Timeout(_) => format!("no answer within {} s", TIMEOUT.as_secs()),
            ureq::Error::HostNotFound => "its name does not resolve".to_owned(),
            ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
                "the connection was refused".to_owned()
            }
            ureq::Error::Io(e) => self.redact(&e.to_string()),
            other => self.redact(&other.to_string()),
        };
        CodeHostError::Transport {
            host: self.label.clone(),
            detail,
        }
    }

    fn redact(&self, text: &str) -> String {
        let encoded = wire::encode(&self.token);
        text.replace(&self.token, REDACTED)
            .replace(&encoded, REDACTED)
    }
}
