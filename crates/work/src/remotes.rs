//! Where a git remote takes a pull request: a code host the account saved
//! a token for (opened through its API), else the GitHub or GitLab page
//! its address names (opened by the user there). Pure: the address and the
//! hosts are given.

/// Where a pull request of work pushed to `remote_url` can be opened, by
/// name: the code host it is on among `hosts` (those with a saved token,
/// opened through their API), else the GitHub or GitLab its address names
/// (the host's own page opens one). `None` for any other remote, where the
/// pull-request action would only be refused.
pub fn pull_request_host(remote_url: &str, hosts: &[codehosts::Host]) -> Option<String> {
    if let Some((host, _)) = codehosts::find(hosts, remote_url) {
        return Some(host.name.clone());
    }
    let page = new_pull_request_url(remote_url, "main", "branch")?;
    let rest = page
        .split_once("://")
        .map_or(page.as_str(), |(_, rest)| rest);
    rest.split('/').next().map(str::to_owned)
}

/// The page that opens a pull (merge) request of `branch` into `default`
/// on the host of `remote` (`git@github.com:o/r.git`,
/// `https://gitlab.example.com/g/r.git`).
pub fn new_pull_request_url(remote: &str, default: &str, branch: &str) -> Option<String> {
    let without_scheme = remote
        .strip_prefix("https://")
        .or_else(|| remote.strip_prefix("http://"))
        .or_else(|| remote.strip_prefix("ssh://"))
        .map(|rest| {
            rest.split_once('@')
                .map_or(rest, |(_, host)| host)
                .to_owned()
        })
        .or_else(|| {
            let (user_host, path) = remote.split_once(':')?;
            let host = user_host.split_once('@').map_or(user_host, |(_, h)| h);
            Some(format!("{host}/{path}"))
        })?;
    let (host, path) = without_scheme.split_once('/')?;
    let host = host.split_once(':').map_or(host, |(h, _)| h);
    let path = path.trim_end_matches('/').trim_end_matches(".git");
    if path.is_empty() {
        return None;
    }
    if host == "github.com" {
        Some(format!(
            "https://github.com/{path}/compare/{default}...{branch}?expand=1"
        ))
    } else if host.contains("gitlab") {
        Some(format!(
            "https://{host}/{path}/-/merge_requests/new?merge_request%5Bsource_branch%5D={branch}&merge_request%5Btarget_branch%5D={default}"
        ))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::{new_pull_request_url, pull_request_host};

    #[test]
    fn github_and_gitlab_remotes_give_their_new_pull_request_pages() {
        for remote in [
            "git@github.com:acme/app.git",
            "https://github.com/acme/app.git",
            "ssh://git@github.com/acme/app",
        ] {
            assert_eq!(
                new_pull_request_url(remote, "main", "switchboard/ab12cd34").as_deref(),
                Some("https://github.com/acme/app/compare/main...switchboard/ab12cd34?expand=1"),
                "{remote}"
            );
        }
        assert_eq!(
            new_pull_request_url("git@gitlab.example.com:group/sub/app.git", "trunk", "x")
                .as_deref(),
            Some(
                "https://gitlab.example.com/group/sub/app/-/merge_requests/new?merge_request%5Bsource_branch%5D=x&merge_request%5Btarget_branch%5D=trunk"
            )
        );
        assert_eq!(new_pull_request_url("/srv/git/app.git", "main", "x"), None);
        assert_eq!(
            new_pull_request_url("https://example.com/app.git", "main", "x"),
            None
        );
    }

    #[test]
    fn a_pull_request_is_offered_only_where_a_host_takes_one() {
        let configured = codehosts::Host {
            kind: codehosts::Kind::GitHub,
            name: "work".into(),
            remote: "git.example.com".into(),
            api: "https://git.example.com/api/v3".into(),
            token_key: "WORK_TOKEN".into(),
        };
        let hosts = [configured];
        assert_eq!(
            pull_request_host("git@git.example.com:team/app.git", &hosts).as_deref(),
            Some("work")
        );
        // Without a token the host is not among `hosts`: no page to fall back to.
        assert_eq!(
            pull_request_host("git@git.example.com:team/app.git", &[]),
            None
        );
        assert_eq!(
            pull_request_host("git@github.com:acme/app.git", &[]).as_deref(),
            Some("github.com")
        );
        assert_eq!(
            pull_request_host("https://gitlab.example.com/group/app.git", &[]).as_deref(),
            Some("gitlab.example.com")
        );
        assert_eq!(pull_request_host("/srv/git/app.git", &hosts), None);
        assert_eq!(
            pull_request_host("https://bitbucket.org/acme/app.git", &hosts),
            None
        );
    }
}
