//! Web Push (docs/phone.md): `/push/vapid-public-key`, the key a browser
//! subscribes with, and `/push/subscriptions`, the user's devices, each with
//! a name, a test push and the choice of the daily briefing. What is pushed
//! and when is `app::push_delivery`.
//! `/device-loads` is the page's report of a load started and finished
//! (`mobileReliabilityAlertsEnabled`, `app::device_loads`).

use app::device_loads::DeviceLoad;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use push::{Choice, NewSubscription, Outcome, Subscription, VapidPublicKey};

use crate::auth::User;
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/push/vapid-public-key", get(public_key))
        .route("/push/subscriptions", get(list).post(subscribe))
        .route(
            "/push/subscriptions/{id}",
            delete(unsubscribe).patch(choose),
        )
        .route("/push/subscriptions/{id}/test", post(test))
        .route("/device-loads", post(device_load))
}

/// The VAPID public key a browser subscribes with.
///
/// `key` is the uncompressed P-256 point, base64url: the
/// `applicationServerKey` of `pushManager.subscribe`. It is made the first
/// time it is asked and kept sealed with the saved keys; one replaced there
/// by something else is a 409 until it is deleted (a new one is then made).
#[utoipa::path(get, path = "/push/vapid-public-key", responses((status = 200, body = VapidPublicKey), (status = 409, description = "`vapid_key_damaged`: the saved `PUSH_VAPID_KEY` was replaced by something that is not a VAPID key")))]
async fn public_key(user: User, State(state): State<AppState>) -> ApiResult<Json<VapidPublicKey>> {
    let (push, owner) = (state.push.clone(), user.account_id().to_owned());
    let key = blocking(move || push.public_key(&owner)).await?;
    Ok(Json(VapidPublicKey { key }))
}

/// The user's devices that get pushes, oldest first.
///
/// Never an endpoint or its keys: `service` names the push service.
#[utoipa::path(get, path = "/push/subscriptions", responses((status = 200, body = Vec<Subscription>)))]
async fn list(user: User, State(state): State<AppState>) -> ApiResult<Json<Vec<Subscription>>> {
    let (push, owner) = (state.push.clone(), user.account_id().to_owned());
    Ok(Json(blocking(move || push.subscriptions(&owner)).await?))
}

/// Keeps a device's push subscription.
///
/// The body is `PushSubscription.toJSON()` with the device's `name`. The
/// endpoint must be `https` (`http` only on loopback); `keys.p256dh` a P-256
/// point and `keys.auth` 16 bytes, base64url. The same endpoint again
/// updates that device (same `id`).
#[utoipa::path(post, path = "/push/subscriptions", request_body = NewSubscription, responses((status = 201, body = Subscription), (status = 400, description = "a bad endpoint, key or name (`field` says which)")))]
async fn subscribe(
    user: User,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<NewSubscription>,
) -> ApiResult<(StatusCode, Json<Subscription>)> {
    let (push, owner) = (state.push.clone(), user.account_id().to_owned());
    let device = blocking(move || push.subscribe(&owner, body)).await?;
    Ok((StatusCode::CREATED, Json(device)))
}

/// Chooses what else a device gets: `dailyBriefing`, each daily briefing.
#[utoipa::path(patch, path = "/push/subscriptions/{id}", params(("id" = String, Path, description = "The subscription's id.")), request_body = Choice, responses((status = 200, body = Subscription), (status = 400, description = "a body that is not `{dailyBriefing: boolean}`"), (status = 404)))]
async fn choose(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Choice>,
) -> ApiResult<Json<Subscription>> {
    let (push, owner) = (state.push.clone(), user.account_id().to_owned());
    Ok(Json(
        blocking(move || push.choose(&owner, &id, &body)).await?,
    ))
}

/// Forgets a device: it gets no more pushes.
#[utoipa::path(delete, path = "/push/subscriptions/{id}", params(("id" = String, Path, description = "The subscription's id.")), responses((status = 204), (status = 404)))]
async fn unsubscribe(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let (push, owner) = (state.push.clone(), user.account_id().to_owned());
    blocking(move || push.unsubscribe(&owner, &id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Sends a test push to one device and says what became of it.
///
/// `state` is `delivered`, `retrying` (the push service is busy or down;
/// it is sent again at `at`), `gone` (the device unsubscribed; it is
/// removed) or `failed` (with `reason`). Content-free when
/// `contentFreeMobilePush` is on.
#[utoipa::path(post, path = "/push/subscriptions/{id}/test", params(("id" = String, Path, description = "The subscription's id.")), responses((status = 200, body = Outcome), (status = 404)))]
async fn test(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Outcome>> {
    let (push, owner) = (state.push.clone(), user.account_id().to_owned());
    let content_free = state.settings.content_free_mobile_push();
    let outcome = blocking(move || push.send_test(&owner, &id, content_free)).await?;
    if matches!(outcome, Outcome::Retrying { .. }) {
        state.wake_push();
    }
    Ok(Json(outcome))
}

/// Reports that this device started or finished loading the app.
///
/// `device` is the device's random id (1 to 64 letters, digits or `-`).
/// A start with no finish within two minutes makes one inbox alert
/// (`mobileReliabilityAlertsEnabled`); that device's next finish clears it.
#[utoipa::path(post, path = "/device-loads", request_body = DeviceLoad, responses((status = 204), (status = 400, description = "a bad device id")))]
async fn device_load(
    user: User,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<DeviceLoad>,
) -> ApiResult<StatusCode> {
    if !app::device_loads::valid_device(&body.device) {
        return Err(ApiError::bad_request(
            "invalid_device",
            "device must be 1 to 64 letters, digits or '-'",
        )
        .on_field(Some("device")));
    }
    state.app.device_load(user.account_id(), body).await;
    Ok(StatusCode::NO_CONTENT)
}
