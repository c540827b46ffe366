//! The configured code hosts (`DIR/codehosts.toml` and the two public ones
//! built in) and which of them a git remote URL is on.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::CodeHostError;

/// The file in the data folder that names the code hosts.
pub const CONFIG_FILE: &str = "codehosts.toml";

/// Which API a host speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Kind {
    #[serde(rename = "github")]
    GitHub,
    #[serde(rename = "gitlab")]
    GitLab,
}

/// One configured code host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Host {
    pub kind: Kind,
    /// Its name in `codehosts.toml`, e.g. "github".
    pub name: String,
    /// Where its repositories live, as a remote URL normalizes ([`find`]):
    /// "github.com", "gitlab.example.com/gitlab", or a folder for a local
    /// path remote.
    pub remote: String,
    /// The API's base URL, without a trailing '/'.
    pub api: String,
    /// The saved key holding the token.
    pub token_key: String,
}

impl Host {
    fn built_in(kind: Kind, name: &str, remote: &str, api: &str, token_key: &str) -> Host {
        Host {
            kind,
            name: name.to_owned(),
            remote: remote.to_owned(),
            api: api.to_owned(),
            token_key: token_key.to_owned(),
        }
    }

    /// "github (api.github.com)": how messages name the host.
    pub fn label(&self) -> String {
        let rest = self
            .api
            .split_once("://")
            .map_or(self.api.as_str(), |(_, rest)| rest);
        let authority = rest.split('/').next().unwrap_or(rest);
        format!("{} ({authority})", self.name)
    }
}

fn built_ins() -> [Host; 2] {
    [
        Host::built_in(
            Kind::GitHub,
            "github",
            "github.com",
            "https://api.github.com",
            "GITHUB_TOKEN",
        ),
        Host::built_in(
            Kind::GitLab,
            "gitlab",
            "gitlab.com",
            "https://gitlab.com/api/v4",
            "GITLAB_TOKEN",
        ),
    ]
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    hosts: BTreeMap<String, Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    kind: Kind,
    remote: String,
    api: String,
    token_key: String,
}

/// The hosts of `DIR/codehosts.toml`, then the built-in "github" and
/// "gitlab" unless the file names a host so. A missing file gives the
/// built-ins alone.
pub fn load(data_dir: &Path) -> Result<Vec<Host>, CodeHostError> {
    let path = data_dir.join(CONFIG_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(built_ins().to_vec()),
        Err(e) => {
            return Err(CodeHostError::Config {
                path,
                detail: e.to_string(),
            });
        }
    };
    parse(&text).map_err(|detail| CodeHostError::Config { path, detail })
}

fn parse(text: &str) -> Result<Vec<Host>, String> {
    // Only the message and the line: the parser's own text quotes the line,
    // which could hold a token pasted where it does not belong.
    let file: File = toml::from_str(text).map_err(|e| match e.span() {
        Some(span) => format!(
            "line {}: {}",
            text.get(..span.start).unwrap_or(text).matches('\n').count() + 1,
            e.message()
        ),
        None => e.message().to_owned(),
    })?;
    let mut hosts = Vec::new();
    for (name, entry) in file.hosts {
        hosts.push(checked(name, entry)?);
    }
    // The file's hosts come first, so on a tie in `find` the user's wins.
    for host in built_ins() {
        if !hosts.iter().any(|known| known.name == host.name) {
            hosts.push(host);
        }
    }
    Ok(hosts)
}

fn checked(name: String, entry: Entry) -> Result<Host, String> {
    if name.trim().is_empty() {
        return Err("a host needs a name: [hosts.<name>]".to_owned());
    }
    let api = entry.api.trim().trim_end_matches('/').to_owned();
    if !(api.starts_with("https://") || api.starts_with("http://"))
        || api.contains(char::is_whitespace)
    {
        return Err(format!(
            "hosts.{name}.api must be the API's http(s) URL, e.g. https://github.example.com/api/v3"
        ));
    }
    let remote = remote_form(entry.remote.trim());
    if remote.is_empty() {
        return Err(format!(
            "hosts.{name}.remote must say where its repositories live, e.g. github.example.com"
        ));
    }
    if entry.token_key.trim().is_empty() {
        return Err(format!(
            "hosts.{name}.token_key must name the saved key holding its token"
        ));
    }
    Ok(Host {
        kind: entry.kind,
        name,
        remote,
        api,
        token_key: entry.token_key.trim().to_owned(),
    })
}

/// `remote` as remote URLs normalize, so "https://GitHub.example.com/" in
/// the file matches too.
fn remote_form(remote: &str) -> String {
    let normal = normalize(remote);
    if normal.starts_with('/') {
        return normal;
    }
    match normal.split_once('/') {
        Some((host, path)) => format!("{}/{path}", host.to_ascii_lowercase()),
        None => normal.to_ascii_lowercase(),
    }
}

/// The host whose `remote` the remote URL falls under, and the project's
/// path on it ("acme/app", "group/sub/app"). The longest matching `remote`
/// wins; on a tie, the first in `hosts`. None when nothing matches or no
/// project is left.
pub fn find<'a>(hosts: &'a [Host], remote_url: &str) -> Option<(&'a Host, String)> {
    let url = normalize(remote_url.trim());
    let mut best: Option<(&Host, &str)> = None;
    for host in hosts {
        let remote = host.remote.trim_end_matches('/');
        if remote.is_empty() {
            continue;
        }
        let Some(rest) = url
            .strip_prefix(remote)
            .and_then(|rest| rest.strip_prefix('/'))
        else {
            continue;
        };
        if best.is_none_or(|(known, _)| remote.len() > known.remote.trim_end_matches('/').len()) {
            best = Some((host, rest));
        }
    }
    let (host, rest) = best?;
    let rest = rest.trim_end_matches('/');
    let project = rest.strip_suffix(".git").unwrap_or(rest).trim_matches('/');
    (!project.is_empty()).then(|| (host, project.to_owned()))
}

/// A remote URL as "host/path" (the host lower-cased, without user or port;
/// the path as it is): `git@host:path`, `scheme://[user@]host[:port]/path`.
/// A local path (`/srv/git/app.git`, `file:///srv/git/app.git`) is itself.
fn normalize(url: &str) -> String {
    if let Some(path) = url.strip_prefix("file://") {
        return path.trim_end_matches('/').to_owned();
    }
    if let Some((_, rest)) = url.split_once("://") {
        let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
        return join(host_of(authority), path);
    }
    // scp-like `[user@]host:path`: a ':' before any '/'. A local path has a
    // '/' first (or no ':').
    if let Some((authority, path)) = url.split_once(':')
        && !authority.contains('/')
        && !authority.is_empty()
    {
        return join(host_of(authority), path);
    }
    url.trim_end_matches('/').to_owned()
}

fn join(host: String, path: &str) -> String {
    let path = path.trim_matches('/');
    if path.is_empty() {
        host
    } else {
        format!("{host}/{path}")
    }
}

/// The host of `[user@]host[:port]`, lower-cased; an IPv6 literal keeps
/// its brackets.
fn host_of(authority: &str) -> String {
    let host = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    let host = if host.starts_with('[') {
        host.split_once(']')
            .map_or(host, |(inside, _)| inside)
            .to_owned()
            + "]"
    } else {
        host.split_once(':')
            .map_or(host, |(name, _)| name)
            .to_owned()
    };
    host.to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(name: &str, kind: Kind, remote: &str) -> Host {
        Host::built_in(kind, name, remote, "https://example.invalid", "KEY")
    }

    #[test]
    fn every_remote_url_form_finds_its_host_and_project() {
        let hosts = built_ins().to_vec();
        let cases = [
            ("git@github.com:acme/app.git", "github", "acme/app"),
            ("https://github.com/acme/app.git", "github", "acme/app"),
            ("https://github.com/acme/app", "github", "acme/app"),
            ("https://github.com/acme/app/", "github", "acme/app"),
            ("ssh://git@github.com:22/acme/app", "github", "acme/app"),
            ("ssh://git@github.com/acme/app.git", "github", "acme/app"),
            ("https://user@GitHub.com/acme/app.git", "github", "acme/app"),
            (
                "git@gitlab.com:group/sub/app.git",
                "gitlab",
                "group/sub/app",
            ),
            (
                "https://oauth2:x@gitlab.com:443/group/sub/app.git",
                "gitlab",
                "group/sub/app",
            ),
        ];
        for (url, name, project) in cases {
            let (found, path) = find(&hosts, url).unwrap_or_else(|| panic!("{url}: no host"));
            assert_eq!(
                (found.name.as_str(), path.as_str()),
                (name, project),
                "{url}"
            );
        }
    }

    #[test]
    fn a_self_hosted_gitlab_with_a_user_in_the_url_is_found() {
        let hosts = vec![host("work", Kind::GitLab, "gitlab.example.com")];
        let (found, project) =
            find(&hosts, "https://user@gitlab.example.com/group/sub/app.git").unwrap();
        assert_eq!(found.name, "work");
        assert_eq!(project, "group/sub/app");
    }

    #[test]
    fn the_longest_matching_remote_wins() {
        let hosts = vec![
            host("short", Kind::GitLab, "example.com"),
            host("long", Kind::GitLab, "example.com/gitlab"),
        ];
        let (found, project) = find(&hosts, "https://example.com/gitlab/team/app.git").unwrap();
        assert_eq!(
            (found.name.as_str(), project.as_str()),
            ("long", "team/app")
        );
        let (found, project) = find(&hosts, "git@example.com:team/app.git").unwrap();
        assert_eq!(
            (found.name.as_str(), project.as_str()),
            ("short", "team/app")
        );
    }

    #[test]
    fn a_remote_is_matched_on_whole_segments_only() {
        let hosts = built_ins().to_vec();
        assert!(find(&hosts, "https://github.com.evil.example/acme/app").is_none());
        assert!(find(&hosts, "https://notgithub.com/acme/app").is_none());
        assert!(find(&hosts, "https://bitbucket.org/acme/app.git").is_none());
    }

    #[test]
    fn no_project_left_is_no_match() {
        let hosts = built_ins().to_vec();
        assert!(find(&hosts, "https://github.com/").is_none());
        assert!(find(&hosts, "https://github.com/.git").is_none());
        assert!(find(&hosts, "git@github.com:").is_none());
    }

    #[test]
    fn a_local_path_remote_is_its_path() {
        let hosts = vec![host("local", Kind::GitHub, "/tmp/x/remotes")];
        let (found, project) = find(&hosts, "/tmp/x/remotes/acme/app.git").unwrap();
        assert_eq!(
            (found.name.as_str(), project.as_str()),
            ("local", "acme/app")
        );
        let (_, project) = find(&hosts, "file:///tmp/x/remotes/acme/app.git/").unwrap();
        assert_eq!(project, "acme/app");
        assert!(find(&hosts, "/tmp/x/remotes-other/acme/app.git").is_none());
        assert!(find(&built_ins(), "/srv/git/acme/app.git").is_none());
    }

    #[test]
    fn a_missing_file_gives_the_built_ins() {
        let dir = tempfile::tempdir().unwrap();
        let hosts = load(dir.path()).unwrap();
        assert_eq!(hosts, built_ins().to_vec());
        assert_eq!(hosts[0].label(), "github (api.github.com)");
        assert_eq!(hosts[1].label(), "gitlab (gitlab.com)");
    }

    #[test]
    fn the_file_can_override_a_built_in_and_add_hosts() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            r#"
[hosts.github]
kind = "github"
remote = "github.com"
api = "https://ghproxy.example/api/"
token_key = "MY_GITHUB"

[hosts.ghe]
kind = "github"
remote = "https://GitHub.Example.com/"
api = "https://github.example.com/api/v3"
token_key = "GHE_TOKEN"
"#,
        )
        .unwrap();
        let hosts = load(dir.path()).unwrap();
        let names: Vec<&str> = hosts.iter().map(|h| h.name.as_str()).collect();
        assert_eq!(names, ["ghe", "github", "gitlab"]);
        assert_eq!(hosts[0].remote, "github.example.com");
        assert_eq!(hosts[1].api, "https://ghproxy.example/api");
        assert_eq!(hosts[1].token_key, "MY_GITHUB");
        let (found, _) = find(&hosts, "git@github.example.com:acme/app.git").unwrap();
        assert_eq!(found.name, "ghe");
    }

    #[test]
    fn a_bad_kind_is_an_error_naming_the_file_and_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(CONFIG_FILE);
        std::fs::write(
            &path,
            "[hosts.bb]\nkind = \"bitbucket\"\nremote = \"bitbucket.org\"\napi = \"https://api.bitbucket.org\"\ntoken_key = \"BB\"\n",
        )
        .unwrap();
        let error = load(dir.path()).unwrap_err();
        let CodeHostError::Config {
            path: named,
            detail,
        } = &error
        else {
            panic!("{error:?}");
        };
        assert_eq!(named, &path);
        assert!(
            detail.contains("line 2") && detail.contains("bitbucket"),
            "{detail}"
        );
        assert!(error.to_string().contains(CONFIG_FILE), "{error}");
    }

    #[test]
    fn unknown_fields_and_bad_values_are_refused() {
        for (text, says) in [
            (
                "[hosts.a]\nkind = \"github\"\nremote = \"a\"\napi = \"https://a\"\ntoken_key = \"K\"\ntoken = \"x\"\n",
                "token",
            ),
            (
                "[hosts.a]\nkind = \"github\"\nremote = \"a\"\napi = \"a.example\"\ntoken_key = \"K\"\n",
                "api",
            ),
            (
                "[hosts.a]\nkind = \"github\"\nremote = \"\"\napi = \"https://a\"\ntoken_key = \"K\"\n",
                "remote",
            ),
            (
                "[hosts.a]\nkind = \"gitlab\"\nremote = \"a\"\napi = \"https://a\"\ntoken_key = \" \"\n",
                "token_key",
            ),
            ("hosts = 1\n", "line 1"),
        ] {
            let detail = parse(text).unwrap_err();
            assert!(detail.contains(says), "{text}: {detail}");
        }
    }
}
