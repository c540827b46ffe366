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
    principal
        .map(|p| (p, mode))
        .ok_or_else(ApiError::unauthenticated)
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
