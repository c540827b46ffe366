//! `/settings`: the typed settings store. Reads are open to every caller;
//! writes belong to the owner, and guarded keys never yield to agent tokens.

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};

use crate::auth::Caller;
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::state::AppState;
use crate::wire::{SettingChange, SettingChanged, SettingView};
use app::publish;

impl From<settings::SettingView> for SettingView {
    fn from(view: settings::SettingView) -> Self {
        SettingView {
            key: view.key.to_owned(),
            value: view.value,
            default: view.default,
            type_label: view.type_label.to_owned(),
        }
    }
}

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/settings", get(list))
        .route("/settings/{key}", get(read).patch(change).delete(reset))
}

/// Every user-settable key of the catalog with its current value.
///
/// Keys never set have their default. Secrets and server-managed keys are
/// never listed. The keys, their types and defaults are in docs/settings.md.
/// Every account may read the settings; agent tokens are admitted.
#[utoipa::path(get, path = "/settings", responses(
    (status = 200, description = "An object mapping every key to its value.",
     body = std::collections::BTreeMap<String, Value>),
))]
async fn list(_caller: Caller, State(state): State<AppState>) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/json")],
        state.settings.all_json(),
    )
}

/// One key with its value, default and catalog type.
///
/// A key outside the catalog → 404 `unknown_setting`.
#[utoipa::path(get, path = "/settings/{key}",
    params(("key" = String, Path, description = "A key of the settings catalog.")),
    responses((status = 200, body = SettingView)))]
async fn read(
    _caller: Caller,
    State(state): State<AppState>,
    Path(key): Path<String>,
) -> ApiResult<Json<SettingView>> {
    Ok(Json(state.settings.get(&key)?.into()))
}

/// Refuses a write the caller may not make, before the value is looked at.
fn check_may_write(caller: &Caller, key: &str) -> ApiResult<()> {
    let definition = settings::lookup(key).ok_or_else(|| {
        ApiError::from(settings::SettingsError::UnknownSetting {
            key: key.to_owned(),
        })
    })?;
    if caller.is_agent() && definition.is_guarded() {
        return Err(ApiError::forbidden(
            "guarded_setting",
            format!("{key} governs what agents may do and cannot be changed with an agent token."),
        ));
    }
    if !caller.0.is_owner {
        return Err(ApiError::forbidden(
            "owner_only",
            "Settings belong to the owner account; this account may read them but not change them.",
        ));
    }
    Ok(())
}

/// Changes a key, stored before the reply.
///
/// Refusals, in this order: a key outside the catalog (or a secret or
/// server-managed one) → 404 `unknown_setting`; a guarded key with an agent
/// token → 403 `guarded_setting`; another account than the owner → 403
/// `owner_only`; a body without `value` → 400 `invalid_request`; a value the
/// key does not accept → 400 `invalid_value` with a message naming what is
/// accepted (the stored value stays). Types are exact: a toggle takes
/// `true`/`false`, not `"true"` or `1`; `null` only where the catalog gives it
/// a meaning.
#[utoipa::path(patch, path = "/settings/{key}",
    params(("key" = String, Path, description = "A key of the settings catalog.")),
    request_body = SettingChange,
    responses((status = 200, description = "The key and the value now stored.", body = SettingChanged)))]
async fn change(
    caller: Caller,
    State(state): State<AppState>,
    Path(key): Path<String>,
    ApiJson(SettingChange { value }): ApiJson<SettingChange>,
) -> ApiResult<Json<SettingChanged>> {
    check_may_write(&caller, &key)?;
    let settings = state.settings.clone();
    let stored = blocking(move || settings.set(&key, &value).map(|v| (key, v))).await?;
    let changed = SettingChanged {
        key: stored.0,
        value: stored.1,
    };
    // Quiet hours, digests and board preferences apply from now on: the
    // notifier watches the same change.
    publish::setting_changed(&state, &changed).await;
    Ok(Json(changed))
}

/// Restores a key's default.
///
/// The same refusals as `PATCH` but for the body's.
#[utoipa::path(delete, path = "/settings/{key}",
    params(("key" = String, Path, description = "A key of the settings catalog.")),
    responses((status = 200, body = SettingView)))]
async fn reset(
    caller: Caller,
    State(state): State<AppState>,
    Path(key): Path<String>,
) -> ApiResult<Json<SettingView>> {
    check_may_write(&caller, &key)?;
    let settings = state.settings.clone();
    let view: SettingView = blocking(move || settings.reset(&key)).await?.into();
    publish::setting_changed(
        &state,
        &SettingChanged {
            key: view.key.clone(),
            value: view.value.clone(),
        },
    )
    .await;
    Ok(Json(view))
}
