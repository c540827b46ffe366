//! The proxy's own answers: a plain refusal for requests it does not serve,
//! and small self-contained HTML pages for names that are not running, each
//! listing what is. Names come from users and are escaped.

use http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, X_CONTENT_TYPE_OPTIONS};
use http::{HeaderValue, Response, StatusCode};

use crate::body::ProxyBody;
use crate::routes::Listed;

const ONLY_LOCALHOST: &str = "This proxy only serves the Running apps at *.localhost names.\n";

/// A Host (or absolute URI) that names no `*.localhost` app.
pub fn forbidden() -> Response<ProxyBody> {
    plain(StatusCode::FORBIDDEN, ONLY_LOCALHOST.to_owned())
}

/// CONNECT: the proxy never tunnels anywhere.
pub fn connect_refused() -> Response<ProxyBody> {
    let mut response = plain(StatusCode::METHOD_NOT_ALLOWED, ONLY_LOCALHOST.to_owned());
    response.headers_mut().insert(
        http::header::ALLOW,
        HeaderValue::from_static("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"),
    );
    response
}

/// A request the proxy cannot turn into one for the app.
pub fn bad_request() -> Response<ProxyBody> {
    plain(
        StatusCode::BAD_REQUEST,
        "This request cannot be passed to an app.\n".to_owned(),
    )
}

pub fn unknown(name: &str, running: &[Listed]) -> Response<ProxyBody> {
    page(
        StatusCode::NOT_FOUND,
        &format!("No app is running at {name}.localhost"),
        "Start it from its session, or open one of the apps below.",
        running,
    )
}

pub fn stopped(name: &str, running: &[Listed]) -> Response<ProxyBody> {
    page(
        StatusCode::BAD_GATEWAY,
        &format!("{name} has stopped"),
        "Restart it from the Running apps page, or open one of the apps below.",
        running,
    )
}

pub fn not_answering(name: &str, running: &[Listed]) -> Response<ProxyBody> {
    page(
        StatusCode::BAD_GATEWAY,
        &format!("{name} is not answering (it may be starting or has stopped)"),
        "Reload in a moment; if it stays like this, look at its output on the Running apps page.",
        running,
    )
}

pub fn runner_away(
    name: &str,
    runner: &str,
    reason: &str,
    running: &[Listed],
) -> Response<ProxyBody> {
    page(
        StatusCode::BAD_GATEWAY,
        &format!("{name} cannot be reached: the runner {runner} is away: {reason}"),
        "The app runs on that runner; it is reachable again once the runner reconnects.",
        running,
    )
}

pub fn unreachable(name: &str, reason: &str, running: &[Listed]) -> Response<ProxyBody> {
    page(
        StatusCode::BAD_GATEWAY,
        &format!("{name} cannot be reached: {reason}"),
        "Reload in a moment, or open one of the apps below.",
        running,
    )
}

fn page(status: StatusCode, title: &str, advice: &str, running: &[Listed]) -> Response<ProxyBody> {
    let title = escape(title);
    let advice = escape(advice);
    let list = if running.is_empty() {
        "<p>No apps are running.</p>".to_owned()
    } else {
        let items: String = running
            .iter()
            .map(|app| {
                format!(
                    "<li><a href=\"{}\">{}</a></li>",
                    escape(&app.url),
                    escape(&app.name)
                )
            })
            .collect();
        format!("<h2>Running apps</h2><ul>{items}</ul>")
    };
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{title}</title>\
<style>body{{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#222}}\
h1{{font-size:1.4rem}}h2{{font-size:1.1rem}}\
@media (prefers-color-scheme:dark){{body{{background:#111;color:#ddd}}a{{color:#8ab4f8}}}}</style>\
</head><body><h1>{title}</h1><p>{advice}</p>{list}</body></html>\n"
    );
    respond(status, "text/html; charset=utf-8", html)
}

fn plain(status: StatusCode, text: String) -> Response<ProxyBody> {
    respond(status, "text/plain; charset=utf-8", text)
}

fn respond(status: StatusCode, content_type: &'static str, text: String) -> Response<ProxyBody> {
    let mut response = Response::new(ProxyBody::whole(text));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(
        CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'"),
    );
    response
}

fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            other => escaped.push(other),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_escaped() {
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}
