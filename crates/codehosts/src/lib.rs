//! GitHub and GitLab pull requests (GitLab calls them merge requests) over
//! the hosts' REST APIs, for "Where's my work": which configured code host a
//! git remote is on, whether a branch has a pull request and whether it is
//! open, merged or closed unmerged, and opening one.
//!
//! - [`load`] reads `DIR/codehosts.toml` ([`Host`]s, the public github.com
//!   and gitlab.com built in) and [`find`] picks the host a remote URL falls
//!   under, with the project's path on it.
//! - A [`Client`] holds one host and the token the caller revealed from a
//!   saved key (never stored here, never in a message or `{:?}`).
//!   [`Client::pull_request`] lists the branch's pull requests with
//!   `If-None-Match`, so an unchanged poll is a 304 ([`Lookup::NotModified`])
//!   that GitHub does not count against the rate limit;
//!   [`Client::open_pull_request`] opens one.
//! - [`Limits`] remembers, per API, until when the host said to stop: after
//!   a rate-limited answer, or an answer saying no request is left, calls
//!   fail fast with [`CodeHostError::RateLimited`] and send nothing. Clients
//!   made with [`Client::new`] share one process-wide memory.
//!
//! The time is always the caller's `now` (seconds since the epoch), so tests
//! move it without waiting. The client is blocking (ureq, 15 s per call):
//! async callers run it off their workers.
//!
//! The responses read are the documented ones (GitHub REST API version
//! 2022-11-28, GitLab REST API v4): GitHub's "List pull requests"
//! (`number`, `html_url`, `state`, `merged_at`, `title`, `updated_at`,
//! `head.ref`) and "Create a pull request" (201, or 422 "Validation Failed"
//! with `errors`), its `{"message", "documentation_url"}` errors, its
//! `x-ratelimit-remaining`/`x-ratelimit-reset` and `retry-after` headers
//! (a limit is a 403 or 429); GitLab's "List project merge requests" with
//! `source_branch` (`iid`, `web_url`, `state` opened, closed, locked or
//! merged, `updated_at`, `source_branch`, `source_project_id`) and "Create
//! MR" (201, or 409 "Another open merge request already exists"), its
//! `{"message"}` and `{"error"}` errors, and its 429 with `RateLimit-Reset`
//! and `Retry-After`. `standins::codehost` serves the same shapes for the
//! tests.
//!
//! ```no_run
//! # fn main() -> Result<(), codehosts::CodeHostError> {
//! let hosts = codehosts::load(std::path::Path::new("/data"))?;
//! if let Some((host, project)) = codehosts::find(&hosts, "git@github.com:acme/app.git") {
//!     let client = codehosts::Client::new(host, "token revealed from host.token_key".to_owned())?;
//!     let now = 1_700_000_000;
//!     match client.pull_request(&project, "feature/login", None, now)? {
//!         codehosts::Lookup::Found { etag, pull_request } => { /* keep etag for the next poll */ }
//!         codehosts::Lookup::NotModified => { /* what was found last time still holds */ }
//!     }
//! }
//! # Ok(())
//! # }
//! ```

mod client;
mod error;
mod github;
mod gitlab;
mod hosts;
mod limits;
mod pull;
mod wire;

pub use client::Client;
pub use error::CodeHostError;
pub use hosts::{CONFIG_FILE, Host, Kind, find, load};
pub use limits::Limits;
pub use pull::{Lookup, PullRequest, PullRequestState};
