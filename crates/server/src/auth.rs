//! Authentication as extractors: a handler's signature says what credential
//! it needs. `Caller` admits any authenticated caller, agent tokens included;
//! `User` refuses agent tokens, so a route must opt in to agents explicitly;
//! `Owner` admits only the owner's cli token; `MetricsReader` admits it or a
//! token scoped to `/metrics`, which no other extractor takes.
//!
//! Which credential counts depends on the listener: a bearer cli or agent
//! token on the control server, only the ui cookie on the UI server (so that
//! turning the control server off really shuts tooling out). A token in the
//! query string is never read here.
//!
//! A read-only agent token (the Ask tutor's) is refused here, before any
//! handler, on every method but `GET` (and `POST /mcp`, whose tool calls
//! come back through here): 403 `forbidden`.

use accounts::scoped::Scope;
use accounts::{Principal, TokenKind};
use axum::extract::FromRequestParts;
use axum::http::{HeaderMap, header, request::Parts};

use crate::error::ApiError;
use crate::state::AppState;

pub const UI_COOKIE: &str = "switchboard_ui";

/// Set on each listener's router: how callers prove themselves there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthMode {
    Bearer,
    Cookie,
}

/// Any authenticated caller, agent tokens included, and the listener it
/// came through.
#[derive(Debug, Clone)]
pub struct Caller(pub Principal, pub AuthMode);

/// An authenticated person or script: cli token or ui cookie, never an agent.
#[derive(Debug, Clone)]
pub struct User(pub Principal);

impl User {
    /// What is the installation's rather than an account's (the utility
    /// model's record, the messenger bot, inbound email) is the owner
    /// account's: another account → 403 `owner_only`, saying whose `what` is.
    pub fn owner_only(&self, what: &str) -> Result<(), ApiError> {
        if self.0.is_owner {
            Ok(())
        } else {
            Err(ApiError::forbidden(
                "owner_only",
                format!("{what} belongs to the owner account."),
            ))
        }
    }
}

/// Whoever the credential speaks for, or nobody: for the one route that
/// answers a visitor without a session too.
#[derive(Debug, Clone)]
pub struct Visitor(pub Option<Principal>);

/// The owner account's cli token, as the contract requires for `POST /accounts`.
#[derive(Debug, Clone)]
pub struct Owner(pub Principal);

/// Who may read `GET /metrics`: the owner's cli token, or a token scoped to
/// metrics (`POST /metrics/tokens`), which a scraper holds and which opens
/// nothing else. Any other token is refused as [`Owner`] refuses it.
#[derive(Debug, Clone)]
pub struct MetricsReader;

impl Caller {
    pub fn account_id(&self) -> &str {
        &self.0.account_id
    }

    pub fn is_agent(&self) -> bool {
        self.0.kind == TokenKind::Agent
    }
}

impl User {
    pub fn account_id(&self) -> &str {
        &self.0.account_id
    }
}

fn authenticate(parts: &Parts, state: &AppState) -> Result<(Principal, AuthMode), ApiError> {
    let mode = parts
        .extensions
        .get::<AuthMode>()
        .copied()
        .ok_or_else(ApiError::unauthenticated)?;
    let principal = match mode {
        AuthMode::Bearer => bearer_token(&parts.headers)
            .and_then(|t| state.accounts.authenticate(t))
            .filter(|p| match (&p.kind, &p.session_id) {
                (TokenKind::Cli, _) => true,
                // Revoked when its session ends; checked here too so that no
                // path can keep a dead session's token alive.
                (TokenKind::Agent, Some(session)) => state.sessions.is_live(session),
                _ => false,
            }),
        AuthMode::Cookie => cookie(&parts.headers, UI_COOKIE)
            .and_then(|t| state.accounts.authenticate(t))
            .filter(|p| p.kind == TokenKind::Ui),
    };
    let principal = principal.ok_or_else(ApiError::unauthenticated)?;
    if principal.read_only && !read_only_may(parts, &principal) {
        return Err(ApiError::forbidden(
            "forbidden",
            "This token may only read: every method but GET is refused.",
        ));
    }
    Ok((principal, mode))
}

/// What a read-only agent token (the Ask tutor's, docs/ask.md) may do:
/// every `GET` and `HEAD`; `POST /mcp`, the transport of Switchboard's own
/// tools, each of whose calls comes back through here with its route's own
/// method and this token, so a tool that writes is refused all the same;
/// and its own session's permission check, which its engine's hook must
/// ask before each tool, reading included, and which changes nothing.
/// Everything else is refused whatever the route.
fn read_only_may(parts: &Parts, principal: &Principal) -> bool {
    use axum::http::Method;
    if matches!(parts.method, Method::GET | Method::HEAD) {
        return true;
    }
    if parts.method == Method::POST && parts.uri.path() == "/mcp" {
        return true;
    }
    let Some(own) = principal.session_id.as_deref() else {
        return false;
    };
    parts.method == Method::POST
        && parts
            .uri
            .path()
            .strip_prefix("/sessions/")
            .and_then(|rest| rest.strip_prefix(own))
            .and_then(|rest| rest.strip_prefix("/permission-check"))
            .is_some_and(|rest| {
                rest.is_empty()
                    || rest
                        .strip_prefix('/')
                        .is_some_and(|approval| !approval.is_empty() && !approval.contains('/'))
            })
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        authenticate(parts, state).map(|(principal, mode)| Caller(principal, mode))
    }
}

impl FromRequestParts<AppState> for User {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let (principal, _) = authenticate(parts, state)?;
        if principal.kind == TokenKind::Agent {
            return Err(ApiError::forbidden(
                "agent_token_forbidden",
                "An agent's scoped token may not use this route.",
            ));
        }
        Ok(User(principal))
    }
}

impl FromRequestParts<AppState> for Visitor {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        Ok(Visitor(
            authenticate(parts, state)
                .ok()
                .map(|(principal, _)| principal),
        ))
    }
}

impl FromRequestParts<AppState> for Owner {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let (principal, _) = authenticate(parts, state)?;
        if !principal.is_owner || principal.kind != TokenKind::Cli {
            return Err(ApiError::forbidden(
                "owner_only",
                "Only the owner account's cli token may do this.",
            ));
        }
        Ok(Owner(principal))
    }
}

impl FromRequestParts<AppState> for MetricsReader {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let scoped = parts.extensions.get::<AuthMode>() == Some(&AuthMode::Bearer)
            && bearer_token(&parts.headers)
                .is_some_and(|token| state.scoped_tokens.verify(Scope::Metrics, token).is_some());
        if scoped {
            return Ok(MetricsReader);
        }
        Owner::from_request_parts(parts, state)
            .await
            .map(|_| MetricsReader)
    }
}

fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value)
}

/// An email-triggered session's own token is refused here: such a session
/// may read, but may not spawn or change settings, boards or dashboards
/// (Authentication rule 7: locked down at every level).
pub async fn refuse_email_session(state: &AppState, principal: &Principal) -> Result<(), ApiError> {
    let (TokenKind::Agent, Some(session_id)) = (&principal.kind, &principal.session_id) else {
        return Ok(());
    };
    let session = state
        .sessions
        .get(&principal.account_id, session_id)
        .await?;
    if session.trigger == Some(sessions::Trigger::Email) {
        return Err(ApiError::forbidden(
            "email_session_locked",
            "An email-triggered session may not spawn sessions or change settings, boards or dashboards.",
        ));
    }
    Ok(())
}

/// Middleware on the settings, boards and dashboards tables: every write by
/// an email-triggered session's token is refused before its handler runs.
pub async fn email_lockdown(
    axum::extract::State(state): axum::extract::State<AppState>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    if matches!(
        *request.method(),
        axum::http::Method::GET | axum::http::Method::HEAD
    ) {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    if let Ok((principal, _)) = authenticate(&parts, &state)
        && let Err(refused) = refuse_email_session(&state, &principal).await
    {
        return refused.into_response();
    }
    next.run(axum::extract::Request::from_parts(parts, body))
        .await
}

/// A feature's switch on the control server: while `enabled` says off, each
/// authenticated request to the feature's routes there is refused with
/// `code` before anything reads its body, whatever the token; the web app's
/// own use is unaffected. A request without a valid token goes on to its
/// 401. While the switch is on nothing is checked here: the handler's own
/// extractor authenticates, once.
#[derive(Clone, Copy)]
pub struct ControlSwitch {
    pub enabled: fn(&settings::SettingsStore) -> bool,
    pub code: &'static str,
    pub message: &'static str,
}

pub async fn control_switch(
    axum::extract::State((state, switch)): axum::extract::State<(AppState, ControlSwitch)>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    if (switch.enabled)(&state.settings) {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    if let Ok((_, AuthMode::Bearer)) = authenticate(&parts, &state) {
        return ApiError::forbidden(switch.code, switch.message).into_response();
    }
    next.run(axum::extract::Request::from_parts(parts, body))
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn may(method: &str, path: &str) -> bool {
        let (parts, ()) = axum::http::Request::builder()
            .method(method)
            .uri(path)
            .body(())
            .unwrap()
            .into_parts();
        let tutor = Principal {
            account_id: "a".into(),
            is_owner: true,
            kind: TokenKind::Agent,
            session_id: Some("s1".into()),
            read_only: true,
        };
        read_only_may(&parts, &tutor)
    }

    #[test]
    fn a_read_only_token_reads_and_asks_its_own_permission_checks_only() {
        assert!(may("GET", "/settings"));
        assert!(may("HEAD", "/sessions"));
        assert!(may("POST", "/sessions/s1/permission-check"));
        assert!(may("POST", "/sessions/s1/permission-check/ap1"));
        assert!(!may("POST", "/sessions/s2/permission-check"));
        assert!(!may("POST", "/sessions/s1x/permission-check"));
        assert!(!may("POST", "/sessions/s1/permission-check/ap1/more"));
        assert!(!may("POST", "/sessions/s1/messages"));
        assert!(!may("PATCH", "/settings/askAppEnabled"));
        assert!(!may("DELETE", "/sessions/s1/permission-check"));
        assert!(may("POST", "/mcp"));
        assert!(!may("POST", "/mcp/other"));
    }
}
