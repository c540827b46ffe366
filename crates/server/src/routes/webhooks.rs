//! `/webhooks` (the user manages their hooks) and `POST /hooks/<secret>`
//! (an external service delivers): thin glue around the `webhooks` crate,
//! which holds the rules, and the inbox, which keeps the rows.
//!
//! Deliveries take no token: the secret in the address is the credential.
//! They are served on the control server only, where the guards let their
//! text bodies through up to 256 KiB. While `webhooksEnabled` is off, every
//! address answers exactly like an unknown one.

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use inbox::{Category, NewRow};
use serde_json::json;

use crate::auth::User;
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::guards::{self, MAX_HOOK_BODY_BYTES};
use crate::json::ApiJson;
use crate::state::AppState;
use crate::wire::{CreatedWebhook, NewWebhook};
use app::publish;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/webhooks", get(list).post(create))
        .route("/webhooks/{id}", delete(remove))
}

/// Mounted on the control server only.
pub fn delivery_routes() -> Router<AppState> {
    Router::new().route("/hooks/{secret}", post(deliver))
}

/// Makes a webhook: an address other services deliver to.
///
/// Name 1 to 100 characters, signing secret 1 to 200. `url` is
/// `http://127.0.0.1:<control port>/hooks/<secret>`, shown only here (only a
/// digest of the secret is kept); 409 `control_server_off` when the control
/// server is not running. Hooks can be made whatever `webhooksEnabled` says.
/// Not for agent tokens.
#[utoipa::path(post, path = "/webhooks", request_body = NewWebhook, responses((status = 201, body = CreatedWebhook)))]
async fn create(
    user: User,
    State(state): State<AppState>,
    ApiJson(request): ApiJson<NewWebhook>,
) -> ApiResult<(StatusCode, Json<CreatedWebhook>)> {
    // Deliveries arrive on the control server; without it there is no address to give.
    let Some(control_url) = state.control_url.clone() else {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "control_server_off",
            "Webhooks are delivered to the control server, which is off (setting cliServerEnabled).",
        ));
    };
    let hooks = state.webhooks.clone();
    let created = blocking(move || {
        hooks.create(
            user.account_id(),
            &request.name,
            request.signing_secret.as_deref(),
            request.purpose.unwrap_or_default(),
        )
    })
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(CreatedWebhook {
            id: created.webhook.id,
            name: created.webhook.name,
            url: format!("{control_url}/hooks/{}", created.secret),
        }),
    ))
}

/// The account's webhooks, oldest first, never their address. Not for agent tokens.
#[utoipa::path(get, path = "/webhooks", responses((status = 200, body = Vec<webhooks::Webhook>)))]
async fn list(
    user: User,
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<webhooks::Webhook>>> {
    let hooks = state.webhooks.clone();
    Ok(Json(blocking(move || hooks.list(user.account_id())).await?))
}

/// Deletes a webhook; its address stops working at once. Not for agent tokens.
#[utoipa::path(delete, path = "/webhooks/{id}", params(("id" = String, Path, description = "The webhook's id.")),
    responses((status = 204, description = "Deleted.")))]
async fn remove(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let hooks = state.webhooks.clone();
    blocking(move || hooks.delete(user.account_id(), &id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A webhook delivery from another service (control server only, no token).
///
/// The secret in the address is the credential. Any body up to 256 KiB:
/// JSON, text or a form. It becomes a `webhook` inbox row of the hook's
/// account (titled from the payload: GitHub's event, a JSON `title`,
/// Alertmanager's alert name, a `text` or `message` field, else the first
/// line). Refused, in this order: 404 `not_found` while `webhooksEnabled` is
/// off or for an unknown secret (the reply of any unknown path); 413 over
/// 256 KiB, 415 for another type; 429 `rate_limited` past 60 deliveries to
/// the hook within a minute; 401 `invalid_signature` when the hook has a
/// signing secret and `X-Hub-Signature-256` is not `sha256=` and the hex
/// HMAC-SHA256 of the body.
///
/// A hook made with `"purpose": "bug_intake"` takes Bug Intake reports
/// instead (docs/bug-intake.md): GitHub `issues`, Sentry, or the generic
/// shape. It answers 202 with `{"outcome": "started" | "listed" |
/// "duplicate", "reportId"}`, or `{"outcome": "ignored", "reason"}` for a
/// delivery that is no report (GitHub's `ping`, an issue closed); a
/// payload of the wrong shape → 400 `invalid_request`, and no row.
#[utoipa::path(post, path = "/hooks/{secret}", security(()),
    extensions(("x-listener" = json!("control"))),
    params(("secret" = String, Path, description = "The secret of the hook's address."),
        ("X-Hub-Signature-256" = Option<String>, Header, description = "`sha256=<hex HMAC-SHA256 of the body>` for a signed hook."),
        ("X-GitHub-Event" = Option<String>, Header, description = "GitHub's event name, which titles the row.")),
    request_body(content(
        (Object = "application/json"),
        (String = "text/plain"),
        (Object = "application/x-www-form-urlencoded"),
    )),
    responses((status = 202, description = "Delivered.")))]
async fn deliver(
    State(state): State<AppState>,
    Path(secret): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> ApiResult<Response> {
    if !state.settings.webhooks_enabled() {
        return Err(webhooks::WebhookError::UnknownHook.into());
    }
    // The guards refused a declared length over the ceiling; this catches a
    // chunked body that outgrows it.
    let body = axum::body::to_bytes(body, MAX_HOOK_BODY_BYTES)
        .await
        .map_err(|_| guards::hook_too_large())?;
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let is_json = guards::is_json(&headers);
    let github_event = header("x-github-event");
    let signature = header("x-hub-signature-256");
    let hooks = state.webhooks.clone();
    let received = {
        let body = body.clone();
        let (github_event, signature) = (github_event.clone(), signature.clone());
        blocking(move || {
            hooks.receive(
                &secret,
                &webhooks::Delivery {
                    body: &body,
                    is_json,
                    github_event: github_event.as_deref(),
                    signature: signature.as_deref(),
                },
            )
        })
        .await?
    };
    if received.purpose == webhooks::Purpose::BugIntake {
        let (content_type, sentry_resource) =
            (header("content-type"), header("sentry-hook-resource"));
        let delivery = bugintake::Delivery {
            body: &body,
            content_type: content_type.as_deref(),
            github_event: github_event.as_deref(),
            sentry_resource: sentry_resource.as_deref(),
        };
        let parsed = bugintake::parse_delivery(&delivery, state.clock.now())
            .map_err(|error| ApiError::bad_request("invalid_request", error.to_string()))?;
        let reply = match parsed {
            bugintake::Parsed::Ignored { reason } => {
                json!({"outcome": "ignored", "reason": reason})
            }
            bugintake::Parsed::Report(report) => {
                let taken = app::bug_intake::receive(&state, &received.account_id, report).await?;
                json!({"outcome": taken.outcome, "reportId": taken.report.id})
            }
        };
        return Ok((StatusCode::ACCEPTED, Json(reply)).into_response());
    }
    state.webhook_delivered(
        &received.account_id,
        &received.webhook_id,
        &received.message.title,
        &body,
    );
    let inbox = state.inbox.clone();
    let account_id = received.account_id.clone();
    let added = blocking(move || {
        let mut row = NewRow::new(Category::Webhook, received.message.title.clone());
        row.body = received.message.body;
        row.source.webhook_id = Some(received.webhook_id);
        // A service repeating itself (the same failing check) bumps one row.
        let row = row.dedup(&received.message.title);
        inbox.add(&received.account_id, row)
    })
    .await?;
    publish::inbox_added(&state, &account_id, added);
    Ok(StatusCode::ACCEPTED.into_response())
}
