//! The UI server's own paths: `/login`, which turns the owner's link into a
//! browser session, and the embedded web app with its SPA fallback.

use std::collections::HashMap;

use axum::body::Body;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

use crate::auth::UI_COOKIE;
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

#[derive(rust_embed::Embed)]
#[folder = "../../web/dist"]
#[allow_missing = true]
struct WebApp;

/// The browser's login link: sets the session cookie and sends it on.
///
/// `GET /login?token=<cli token>&next=<path>` is the one place a token is
/// read from a URL. It sets the HttpOnly, SameSite=Strict session cookie and
/// sends the browser on, to a local path only (never an open redirect); a
/// token that is not a cli token → 401 (a page that says what to do when a
/// browser asks for HTML, the error JSON otherwise). It is at the UI server's
/// root, not under `/api`; `switchboard serve` prints it.
#[utoipa::path(get, path = "/login", tag = "ui",
    params(
        ("token" = Option<String>, Query, description = "An account's cli token."),
        ("next" = Option<String>, Query, description = "A local path to go on to (default `/`)."),
    ),
    security(()),
    responses((status = 303, description = "Signed in: the cookie is set, and `Location` says where to go on.",
        headers(("Location" = String), ("Set-Cookie" = String)))),
    extensions(("x-listener" = json!("ui-root"))))]
pub async fn login(
    State(state): State<AppState>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let Some(principal) = query
        .get("token")
        .and_then(|t| state.accounts.authenticate(t))
        .filter(|p| p.kind == accounts::TokenKind::Cli)
    else {
        if crate::negotiate::accepts(&headers, "text/html") {
            return Ok(login_refused_page());
        }
        return Err(ApiError::unauthenticated());
    };
    let next = query
        .get("next")
        .map(String::as_str)
        .filter(|n| is_local_path(n))
        .unwrap_or("/");
    let accounts = state.accounts.clone();
    let session = blocking(move || accounts.mint_ui_token(&principal.account_id)).await?;
    let cookie = format!("{UI_COOKIE}={session}; HttpOnly; SameSite=Strict; Path=/");
    Response::builder()
        .status(StatusCode::SEE_OTHER)
        .header(header::LOCATION, next)
        .header(header::SET_COOKIE, cookie)
        .header(header::CACHE_CONTROL, "no-store")
        .header(header::REFERRER_POLICY, "no-referrer")
        .body(Body::empty())
        .map_err(ApiError::internal)
}

/// What a person who opened a stale or cut-short login link sees: why, and
/// where a good link comes from. Self-contained, since it is served without a
/// session and the app's scripts would only ask for one.
fn login_refused_page() -> Response {
    const PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Login link not valid · Switchboard</title>
<style>
body{font-family:system-ui,sans-serif;max-width:36rem;margin:12vh auto;padding:0 1.25rem;line-height:1.5;color:#1d2330;background:#f6f7fb}
@media (prefers-color-scheme:dark){body{color:#e6e8ee;background:#181b23}code{background:#2b303c}a{color:#8ab4ff}}
code{background:#eef0f5;padding:.1em .35em;border-radius:4px}
</style></head><body>
<h1>This login link is not valid</h1>
<p>The token in it is not this Switchboard's: the link may come from an earlier run with another
data folder, or it was copied cut short.</p>
<p>Open the link <code>switchboard serve</code> printed when it started (&ldquo;Open the web UI: &hellip;&rdquo;),
or build one from the token in your data folder: <code>&lt;UI address&gt;/login?token=$(cat &lt;data dir&gt;/cli-token)</code>.</p>
<p><a href="/">Go to the start page</a></p>
</body></html>"#;
    (
        StatusCode::UNAUTHORIZED,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        PAGE,
    )
        .into_response()
}

fn is_local_path(next: &str) -> bool {
    next.starts_with('/')
        && !next.starts_with("//")
        && !next.starts_with("/\\")
        && !next.chars().any(|c| c.is_control())
}

/// Serves the web app: a path with an extension is an asset (404 when there
/// is none), any other path is a route of the single-page app.
pub async fn web_app(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    let last_segment = path.rsplit('/').next().unwrap_or_default();
    if last_segment.contains('.') {
        return match WebApp::get(path) {
            Some(file) => asset_response(path, file),
            None => ApiError::for_status(StatusCode::NOT_FOUND).into_response(),
        };
    }
    match WebApp::get("index.html") {
        Some(file) => asset_response("index.html", file),
        None => (
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            "<!doctype html><title>Switchboard</title><p>This build of Switchboard has no web UI \
             embedded. Build it with <code>make web</code> and rebuild the binary.</p>",
        )
            .into_response(),
    }
}

fn asset_response(path: &str, file: rust_embed::EmbeddedFile) -> Response {
    let cache = if path.starts_with("assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let mime = file.metadata.mimetype().to_owned();
    let mut response = Response::new(Body::from(file.data.into_owned()));
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(&mime) {
        headers.insert(header::CONTENT_TYPE, value);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::is_local_path;

    #[test]
    fn only_local_paths_are_redirect_targets() {
        assert!(is_local_path("/"));
        assert!(is_local_path("/dashboards/abc?x=1"));
        for bad in [
            "https://evil.example",
            "//evil.example",
            "/\\evil.example",
            "dashboards",
            "/a\nb",
        ] {
            assert!(!is_local_path(bad), "{bad}");
        }
    }
}
