//! Which app a request is for: the name in its Host (HTTP/1) or
//! `:authority` (HTTP/2), accepted only below `.localhost`, so the proxy can
//! never be pointed at another host.

use http::Request;
use http::header::HOST;

/// The app a request names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppHost {
    /// Lowercase, without port, trailing dot and `.localhost`: `web.fix-login`.
    pub name: String,
    /// The Host as the client sent it, for `X-Forwarded-Host`.
    pub original: String,
}

const SUFFIX: &str = ".localhost";

/// The app `request` is for, or `None` when it names no `*.localhost` app:
/// no Host, several, a foreign one, or an absolute URI that disagrees with
/// the Host.
pub fn app_host<B>(request: &Request<B>) -> Option<AppHost> {
    let mut hosts = request.headers().get_all(HOST).iter();
    let header = match (hosts.next(), hosts.next()) {
        (None, _) => None,
        (Some(value), None) => Some(value.to_str().ok()?),
        (Some(_), Some(_)) => return None,
    };
    let authority = request
        .uri()
        .authority()
        .map(|authority| authority.as_str());
    let original = match (authority, header) {
        (Some(authority), Some(header)) => {
            if app_name(authority)? != app_name(header)? {
                return None;
            }
            header
        }
        (Some(authority), None) => authority,
        (None, Some(header)) => header,
        (None, None) => return None,
    };
    Some(AppHost {
        name: app_name(original)?,
        original: original.to_owned(),
    })
}

/// `Web.Fix-Login.localhost.:8080` → `web.fix-login`; anything not below
/// `.localhost`, or with an empty or odd label, → `None`.
fn app_name(host: &str) -> Option<String> {
    let host = host.to_ascii_lowercase();
    let without_port = match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|byte| byte.is_ascii_digit()) => name,
        Some(_) => return None,
        None => host.as_str(),
    };
    let without_dot = without_port.strip_suffix('.').unwrap_or(without_port);
    let name = without_dot.strip_suffix(SUFFIX)?;
    let labels_fine = name.split('.').all(|label| {
        !label.is_empty()
            && label
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
    });
    labels_fine.then(|| name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(uri: &str, hosts: &[&str]) -> Request<()> {
        let mut builder = Request::builder().uri(uri);
        for host in hosts {
            builder = builder.header(HOST, *host);
        }
        builder.body(()).unwrap()
    }

    fn name(uri: &str, hosts: &[&str]) -> Option<String> {
        app_host(&request(uri, hosts)).map(|host| host.name)
    }

    #[test]
    fn names_below_localhost_are_read_from_the_host() {
        assert_eq!(name("/", &["web.localhost"]).as_deref(), Some("web"));
        assert_eq!(
            name("/", &["Web.Fix-Login.LOCALHOST.:4100"]).as_deref(),
            Some("web.fix-login")
        );
        let host = app_host(&request("/a", &["web.localhost:4100"])).unwrap();
        assert_eq!(host.original, "web.localhost:4100");
    }

    #[test]
    fn the_authority_of_an_http2_request_names_the_app() {
        assert_eq!(
            name("http://web.localhost:4100/x", &[]).as_deref(),
            Some("web")
        );
    }

    #[test]
    fn anything_else_names_no_app() {
        for host in [
            "localhost",
            ".localhost",
            "127.0.0.1",
            "[::1]:80",
            "evil.com",
            "web.localhost.evil.com",
            "web..localhost",
            "we b.localhost",
            "web.localhost:80x",
            "user@web.localhost",
        ] {
            assert_eq!(name("/", &[host]), None, "{host}");
        }
        assert_eq!(name("/", &[]), None);
        assert_eq!(name("/", &["a.localhost", "b.localhost"]), None);
    }

    #[test]
    fn an_absolute_uri_to_another_host_is_refused() {
        assert_eq!(name("http://evil.com/", &["web.localhost"]), None);
        assert_eq!(name("http://evil.com/", &[]), None);
        assert_eq!(
            name("http://web.localhost/", &["web.localhost:4100"]).as_deref(),
            Some("web")
        );
    }
}
