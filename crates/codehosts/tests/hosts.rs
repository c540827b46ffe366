//! The client against `standins::codehost`, GitHub's and GitLab's API shapes
//! alike: each state read, an unchanged poll answered 304, the hosts'
//! refusals as errors that never quote the token, rate limits respected
//! without sending a request, and a pull request opened once.

use codehosts::{Client, CodeHostError, Host, Kind, Limits, Lookup, PullRequest, PullRequestState};
use standins::codehost::{CodeHost, Flavor, PullState};

const TOKEN: &str = "sekret-token-4711";
const NOW: i64 = 1_700_000_000;

struct Rig {
    flavor: Flavor,
    standin: CodeHost,
    host: Host,
    limits: Limits,
    client: Client,
    project: &'static str,
}

impl Rig {
    fn start(flavor: Flavor) -> Rig {
        let standin = CodeHost::start(flavor).unwrap().with_token(TOKEN);
        let (kind, name, key, project) = match flavor {
            Flavor::GitHub => (Kind::GitHub, "github", "GITHUB_TOKEN", "acme/app"),
            Flavor::GitLab => (Kind::GitLab, "gitlab", "GITLAB_TOKEN", "group/sub/app"),
        };
        let host = Host {
            kind,
            name: name.to_owned(),
            remote: "code.example".to_owned(),
            api: standin.url(),
            token_key: key.to_owned(),
        };
        let limits = Limits::new();
        let client = Client::with_limits(&host, TOKEN.to_owned(), limits.clone()).unwrap();
        Rig {
            flavor,
            standin,
            host,
            limits,
            client,
            project,
        }
    }

    fn add(&self, branch: &str, state: PullState, title: &str) -> u64 {
        self.standin
            .add_pull_request(self.project, branch, state, title)
    }

    fn lookup(&self, branch: &str, etag: Option<&str>, now: i64) -> Lookup {
        self.client
            .pull_request(self.project, branch, etag, now)
            .unwrap_or_else(|e| panic!("{:?}: {e}", self.flavor))
    }

    /// The pull request found and the ETag that came with it.
    fn found(&self, branch: &str) -> (Option<PullRequest>, String) {
        match self.lookup(branch, None, NOW) {
            Lookup::Found {
                etag: Some(etag),
                pull_request,
            } => (pull_request, etag),
            other => panic!("{:?}: {other:?}", self.flavor),
        }
    }

    fn page(&self, number: u64) -> String {
        match self.flavor {
            Flavor::GitHub => format!("https://github.example/{}/pull/{number}", self.project),
            Flavor::GitLab => format!(
                "https://gitlab.example/{}/-/merge_requests/{number}",
                self.project
            ),
        }
    }

    fn error(&self, branch: &str, now: i64) -> CodeHostError {
        match self.client.pull_request(self.project, branch, None, now) {
            Err(error) => error,
            Ok(found) => panic!("{:?}: {found:?}", self.flavor),
        }
    }
}

fn both(test: impl Fn(Rig)) {
    for flavor in [Flavor::GitHub, Flavor::GitLab] {
        test(Rig::start(flavor));
    }
}

/// Neither the message nor the debug form quotes the token.
fn assert_secret(error: &CodeHostError) {
    assert!(!error.to_string().contains(TOKEN), "{error}");
    assert!(!format!("{error:?}").contains(TOKEN), "{error:?}");
}

#[test]
fn open_merged_and_closed_are_each_read() {
    both(|rig| {
        let open = rig.add("feature/open", PullState::Open, "Still open");
        let merged = rig.add("feature/merged", PullState::Merged, "Landed");
        let closed = rig.add("feature/closed", PullState::Closed, "Turned down");
        for (branch, number, state, title) in [
            ("feature/open", open, PullRequestState::Open, "Still open"),
            ("feature/merged", merged, PullRequestState::Merged, "Landed"),
            (
                "feature/closed",
                closed,
                PullRequestState::Closed,
                "Turned down",
            ),
        ] {
            let (found, _) = rig.found(branch);
            let found = found.unwrap_or_else(|| panic!("{:?} {branch}: none", rig.flavor));
            assert_eq!(found.number, number, "{:?} {branch}", rig.flavor);
            assert_eq!(found.state, state, "{:?} {branch}", rig.flavor);
            assert_eq!(found.title, title);
            assert_eq!(found.url, rig.page(number));
            assert!(found.updated_at.is_some());
        }
    });
}

#[test]
fn an_unchanged_poll_is_a_304_and_a_change_brings_a_new_etag() {
    both(|rig| {
        let number = rig.add("feature/login", PullState::Open, "Login");
        let (found, etag) = rig.found("feature/login");
        assert_eq!(found.map(|p| p.state), Some(PullRequestState::Open));

        assert_eq!(
            rig.lookup("feature/login", Some(&etag), NOW),
            Lookup::NotModified
        );
        let requests = rig.standin.requests();
        let last = requests.last().unwrap();
        assert!(last.not_modified, "{:?}: {last:?}", rig.flavor);
        assert_eq!(last.if_none_match.as_deref(), Some(etag.as_str()));
        assert!(!requests[0].not_modified);

        assert!(
            rig.standin
                .set_state(rig.project, number, PullState::Merged)
        );
        let Lookup::Found {
            etag: Some(fresh),
            pull_request: Some(changed),
        } = rig.lookup("feature/login", Some(&etag), NOW)
        else {
            panic!("{:?}: the change was not seen", rig.flavor);
        };
        assert_ne!(fresh, etag);
        assert_eq!(changed.state, PullRequestState::Merged);
        assert_eq!(
            rig.lookup("feature/login", Some(&fresh), NOW),
            Lookup::NotModified
        );
    });
}

#[test]
fn a_branch_without_a_pull_request_finds_none() {
    both(|rig| {
        rig.add("feature/other", PullState::Open, "Another branch");
        let (found, _) = rig.found("feature/nothing");
        assert_eq!(found, None, "{:?}", rig.flavor);
    });
}

#[test]
fn an_open_pull_request_wins_over_the_branch_s_closed_ones() {
    both(|rig| {
        rig.add("feature/retry", PullState::Closed, "First try");
        let second = rig.add("feature/retry", PullState::Open, "Second try");
        rig.add("feature/retry", PullState::Closed, "Third try");
        let (found, _) = rig.found("feature/retry");
        assert_eq!(found.map(|p| p.number), Some(second), "{:?}", rig.flavor);
        // All closed: the one that changed last.
        rig.standin
            .set_state(rig.project, second, PullState::Merged);
        let (found, _) = rig.found("feature/retry");
        assert_eq!(
            found.map(|p| (p.number, p.state)),
            Some((second, PullRequestState::Merged))
        );
    });
}

#[test]
fn branch_names_with_slashes_travel_encoded() {
    both(|rig| {
        let number = rig.add("agent/fix-login/2", PullState::Open, "Slashes");
        rig.add("agent", PullState::Open, "Prefix only");
        let (found, _) = rig.found("agent/fix-login/2");
        assert_eq!(found.map(|p| p.number), Some(number), "{:?}", rig.flavor);
        let requests = rig.standin.requests();
        let sent = &requests.last().unwrap().path;
        let expected = match rig.flavor {
            Flavor::GitHub => {
                "/repos/acme/app/pulls?head=acme%3Aagent%2Ffix-login%2F2&state=all&per_page=10"
            }
            Flavor::GitLab => {
                "/api/v4/projects/group%2Fsub%2Fapp/merge_requests?source_branch=agent%2Ffix-login%2F2&state=all&per_page=10"
            }
        };
        assert_eq!(sent, expected);
    });
}

#[test]
fn the_token_goes_in_the_host_s_header() {
    both(|rig| {
        rig.found("feature/x");
        let request = rig.standin.requests().pop().unwrap();
        assert!(request.authorized, "{:?}", rig.flavor);
        let masked = match rig.flavor {
            Flavor::GitHub => "Bearer [redacted]",
            Flavor::GitLab => "PRIVATE-TOKEN [redacted]",
        };
        assert_eq!(request.auth.as_deref(), Some(masked));
        assert!(!format!("{:?}", rig.client).contains(TOKEN));
    });
}

#[test]
fn a_refused_token_is_unauthorized_and_names_the_saved_key() {
    both(|rig| {
        let wrong =
            Client::with_limits(&rig.host, "not-the-token".to_owned(), Limits::new()).unwrap();
        let error = wrong
            .pull_request(rig.project, "feature/x", None, NOW)
            .unwrap_err();
        assert!(
            matches!(error, CodeHostError::Unauthorized { .. }),
            "{error:?}"
        );
        let text = error.to_string();
        let said = match rig.flavor {
            Flavor::GitHub => {
                "answered 401: Bad credentials — the saved key GITHUB_TOKEN is not accepted"
            }
            Flavor::GitLab => {
                "answered 401: 401 Unauthorized — the saved key GITLAB_TOKEN is not accepted"
            }
        };
        assert!(text.contains(said), "{text}");
        assert!(
            text.starts_with(&format!("{} (127.0.0.1:", rig.host.name)),
            "{text}"
        );

        rig.standin.fail_next(401);
        let error = rig.error("feature/x", NOW);
        assert!(
            matches!(error, CodeHostError::Unauthorized { .. }),
            "{error:?}"
        );
        assert_secret(&error);
    });
}

#[test]
fn not_found_and_server_errors_are_told_apart() {
    both(|rig| {
        rig.standin.fail_next(404);
        let error = rig.error("feature/x", NOW);
        let CodeHostError::NotFound { detail, .. } = &error else {
            panic!("{:?}: {error:?}", rig.flavor);
        };
        assert!(detail.contains(rig.project), "{detail}");
        if rig.flavor == Flavor::GitHub {
            assert!(detail.contains("private repository"), "{detail}");
        }
        assert_secret(&error);

        rig.standin.fail_next(500);
        let error = rig.error("feature/x", NOW);
        assert!(
            matches!(error, CodeHostError::Server { status: 500, .. }),
            "{error:?}"
        );
        assert_secret(&error);

        // The host is well again.
        assert!(matches!(
            rig.lookup("feature/x", None, NOW),
            Lookup::Found { .. }
        ));
    });
}

#[test]
fn a_rate_limit_stops_requests_until_it_ends() {
    both(|rig| {
        let until = NOW + 600;
        rig.standin.rate_limit(until);
        let error = rig.error("feature/x", NOW);
        assert_eq!(
            error,
            CodeHostError::RateLimited {
                host: rig.host.label(),
                until
            },
            "{:?}",
            rig.flavor
        );
        assert_secret(&error);
        let sent = rig.standin.requests().len();

        // Before `until`: refused here, nothing sent, for clones and other
        // clients sharing the memory too.
        assert!(
            matches!(rig.error("feature/x", until - 1), CodeHostError::RateLimited { until: u, .. } if u == until)
        );
        let other = Client::with_limits(&rig.host, TOKEN.to_owned(), rig.limits.clone()).unwrap();
        assert!(
            other
                .pull_request(rig.project, "feature/x", None, NOW + 1)
                .is_err()
        );
        assert!(
            rig.client
                .clone()
                .open_pull_request(rig.project, "b", "main", "t", "", NOW + 2)
                .is_err()
        );
        assert_eq!(rig.standin.requests().len(), sent, "{:?}", rig.flavor);

        rig.standin.lift_rate_limit();
        assert!(matches!(
            rig.lookup("feature/x", None, until),
            Lookup::Found { .. }
        ));
        assert_eq!(rig.standin.requests().len(), sent + 1);
    });
}

#[test]
fn an_answer_saying_no_request_is_left_stops_the_next_one() {
    both(|rig| {
        let reset = NOW + 300;
        rig.standin.set_remaining(1, reset);
        rig.found("feature/x");
        let sent = rig.standin.requests().len();
        let error = rig.error("feature/x", NOW + 10);
        assert!(
            matches!(error, CodeHostError::RateLimited { until, .. } if until == reset),
            "{:?}: {error:?}",
            rig.flavor
        );
        assert_eq!(rig.standin.requests().len(), sent);

        rig.standin.lift_rate_limit();
        assert!(matches!(
            rig.lookup("feature/x", None, reset),
            Lookup::Found { .. }
        ));
    });
}

#[test]
fn opening_a_pull_request_creates_it_once() {
    both(|rig| {
        let made = rig
            .client
            .open_pull_request(
                rig.project,
                "feature/new-ui",
                "main",
                "New UI",
                "Made by an agent.",
                NOW,
            )
            .unwrap_or_else(|e| panic!("{:?}: {e}", rig.flavor));
        assert_eq!(made.state, PullRequestState::Open);
        assert_eq!(made.title, "New UI");
        assert_eq!(made.url, rig.page(made.number));
        assert_eq!(
            rig.standin.pull_requests(rig.project),
            [(made.number, "feature/new-ui".to_owned(), PullState::Open)]
        );
        let (found, _) = rig.found("feature/new-ui");
        assert_eq!(found, Some(made));

        let error = rig
            .client
            .open_pull_request(rig.project, "feature/new-ui", "main", "Again", "", NOW)
            .unwrap_err();
        let CodeHostError::Refused { detail, .. } = &error else {
            panic!("{:?}: {error:?}", rig.flavor);
        };
        let said = match rig.flavor {
            Flavor::GitHub => {
                "422: Validation Failed: A pull request already exists for acme:feature/new-ui."
            }
            Flavor::GitLab => {
                "409: Another open merge request already exists for this source branch: !1"
            }
        };
        assert_eq!(detail, said);
        assert_secret(&error);
        assert_eq!(rig.standin.pull_requests(rig.project).len(), 1);
    });
}

#[test]
fn a_host_that_is_not_there_is_a_transport_error() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let host = Host {
        kind: Kind::GitHub,
        name: "github".to_owned(),
        remote: "github.com".to_owned(),
        api: format!("http://127.0.0.1:{port}"),
        token_key: "GITHUB_TOKEN".to_owned(),
    };
    let client = Client::with_limits(&host, TOKEN.to_owned(), Limits::new()).unwrap();
    let error = client
        .pull_request("acme/app", "main", None, NOW)
        .unwrap_err();
    assert!(
        matches!(error, CodeHostError::Transport { .. }),
        "{error:?}"
    );
    assert_secret(&error);
}

#[test]
fn a_token_that_cannot_be_a_header_and_a_project_github_cannot_have_are_refused_here() {
    let rig = Rig::start(Flavor::GitHub);
    for token in ["", "two words", "line\nbreak", "tab\there"] {
        let error = Client::new(&rig.host, token.to_owned()).unwrap_err();
        assert!(
            matches!(error, CodeHostError::BadToken { .. }),
            "{token:?}: {error:?}"
        );
        assert!(error.to_string().contains("GITHUB_TOKEN"));
    }
    let error = rig
        .client
        .pull_request("group/sub/app", "main", None, NOW)
        .unwrap_err();
    assert!(
        matches!(error, CodeHostError::BadProject { .. }),
        "{error:?}"
    );
    assert!(rig.standin.requests().is_empty());
}
