//! Automation rules (docs/automations.md): when a webhook delivery, a
//! board item's move, a session's end or a schedule's tick happens, start
//! a recipe, change the item or post to the inbox. Thin glue around
//! `app::rules`: an agent token may list rules and make or change them,
//! which then wait `pending` for the user's approval; approving, pausing,
//! resuming and deleting are the user's alone.

use automations::{AutomationRule, NewRule, RuleDryRun};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};

use crate::auth::{Caller, User};
use crate::blocking::blocking;
use crate::error::ApiResult;
use crate::json::ApiJson;
use crate::routes::recipes::change_state;
use crate::state::AppState;
use crate::wire::{RuleFiringList, RuleList};

/// How many of a rule's firings `GET /rules/{id}/firings` gives.
const FIRINGS_LISTED: u32 = 100;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/rules", get(list).post(create))
        .route("/rules/{id}", get(read).put(replace).delete(remove))
        .route("/rules/{id}/firings", get(firings))
        .route("/rules/{id}/approve", post(approve))
        .route("/rules/{id}/pause", post(pause))
        .route("/rules/{id}/resume", post(resume))
        .route("/rules/{id}/test", post(test))
}

/// The account's rules, oldest first.
#[utoipa::path(get, path = "/rules", responses((status = 200, body = RuleList)))]
async fn list(caller: Caller, State(state): State<AppState>) -> ApiResult<Json<RuleList>> {
    let automations = state.automations.clone();
    let account = caller.account_id().to_owned();
    let rules = blocking(move || automations.list_rules(&account)).await?;
    Ok(Json(RuleList { rules }))
}

/// Makes a rule: when `when` happens, do `then`.
///
/// `when` is one of `webhook` (`webhookId`, optional `match` of dotted
/// paths to texts), `item_status` (`boardId`, `status`, optional
/// `column`), `item_group` (`boardId`, `groupId`), `session_end`
/// (`outcome`: `finished`, `failed` or `needs_user`; optional `recipeId`)
/// and `schedule` (`scheduleId`). `then` holds 1 to 10 actions:
/// `start_recipe` (`recipeId`, `values` whose texts may name the event's
/// fields, and for an item trigger `item`: `sessionColumn`,
/// `summaryColumn`, `statusColumn`, `runningStatus`, `finishedStatus`,
/// `failedStatus`), `update_item` (`values`), `move_item` (`groupId`) and
/// `inbox` (`title`, `body`). A bad field, a board, hook, schedule or
/// recipe the account does not have, or a rule that would start itself in
/// a loop → 400 naming the field. One made with an agent token is
/// `pending` and puts an `automations` row in the inbox until the user
/// approves it; a session that a rule started → 403.
#[utoipa::path(post, path = "/rules", request_body = NewRule, responses(
    (status = 201, description = "The rule: active, or pending when an agent made it.", body = AutomationRule),
))]
async fn create(
    caller: Caller,
    State(state): State<AppState>,
    ApiJson(fields): ApiJson<NewRule>,
) -> ApiResult<(StatusCode, Json<AutomationRule>)> {
    let source = caller
        .is_agent()
        .then(|| caller.0.session_id.clone())
        .flatten();
    let rule = state
        .create_rule(
            caller.account_id(),
            source.as_deref(),
            fields,
            caller.is_agent(),
        )
        .await?;
    Ok((StatusCode::CREATED, Json(rule)))
}

/// One rule.
#[utoipa::path(get, path = "/rules/{id}", params(("id" = String, Path, description = "The rule's id.")),
    responses((status = 200, body = AutomationRule), (status = 404, description = "No such rule.")))]
async fn read(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<AutomationRule>> {
    let automations = state.automations.clone();
    let account = caller.account_id().to_owned();
    Ok(Json(
        blocking(move || automations.rule(&account, &id)).await?,
    ))
}

/// Replaces a rule's name, trigger and actions.
///
/// The fields and checks of `POST /rules`. An agent's change sends an
/// active rule back to `pending` until the user approves it again.
#[utoipa::path(put, path = "/rules/{id}", params(("id" = String, Path, description = "The rule's id.")),
    request_body = NewRule,
    responses((status = 200, body = AutomationRule), (status = 404, description = "No such rule.")))]
async fn replace(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(fields): ApiJson<NewRule>,
) -> ApiResult<Json<AutomationRule>> {
    let source = caller
        .is_agent()
        .then(|| caller.0.session_id.clone())
        .flatten();
    let rule = state
        .replace_rule(
            caller.account_id(),
            source.as_deref(),
            &id,
            fields,
            caller.is_agent(),
        )
        .await?;
    Ok(Json(rule))
}

/// Deletes a rule and its history; sessions it started run on.
///
/// The user's alone: an agent token → 403.
#[utoipa::path(delete, path = "/rules/{id}", params(("id" = String, Path, description = "The rule's id.")),
    responses((status = 204, description = "Deleted."), (status = 404, description = "No such rule.")))]
async fn remove(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let automations = state.automations.clone();
    let account = user.account_id().to_owned();
    blocking(move || automations.delete_rule(&account, &id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A rule's latest firings, newest first.
///
/// Each names its event, how it went, and the session and run it started.
#[utoipa::path(get, path = "/rules/{id}/firings", params(("id" = String, Path, description = "The rule's id.")),
    responses((status = 200, body = RuleFiringList), (status = 404, description = "No such rule.")))]
async fn firings(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<RuleFiringList>> {
    let automations = state.automations.clone();
    let account = caller.account_id().to_owned();
    let firings = blocking(move || automations.firings(&account, &id, FIRINGS_LISTED)).await?;
    Ok(Json(RuleFiringList { firings }))
}

/// Approves a rule an agent made or changed.
///
/// It becomes active. The user's alone: an agent token → 403; a rule that
/// is not pending → 409.
#[utoipa::path(post, path = "/rules/{id}/approve", params(("id" = String, Path, description = "The rule's id.")),
    responses((status = 200, body = AutomationRule), (status = 404, description = "No such rule.")))]
async fn approve(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<AutomationRule>> {
    change_state(&user, &state, id, automations::Automations::approve_rule).await
}

/// Pauses an active rule: events meanwhile fire nothing.
///
/// The user's alone: an agent token → 403.
#[utoipa::path(post, path = "/rules/{id}/pause", params(("id" = String, Path, description = "The rule's id.")),
    responses((status = 200, body = AutomationRule), (status = 404, description = "No such rule.")))]
async fn pause(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<AutomationRule>> {
    change_state(&user, &state, id, automations::Automations::pause_rule).await
}

/// Resumes a paused rule.
///
/// The user's alone: an agent token → 403.
#[utoipa::path(post, path = "/rules/{id}/resume", params(("id" = String, Path, description = "The rule's id.")),
    responses((status = 200, body = AutomationRule), (status = 404, description = "No such rule.")))]
async fn resume(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<AutomationRule>> {
    change_state(&user, &state, id, automations::Automations::resume_rule).await
}

/// Tests a rule: what it would do if its event came now.
///
/// A dry run, whatever the rule's state: nothing is started, changed or
/// posted. `when` says the event in words, `would` each action in order,
/// and `problems` what would make a firing fail today (the recipe or its
/// folder gone, a placeholder of its prompt that nothing fills).
#[utoipa::path(post, path = "/rules/{id}/test", params(("id" = String, Path, description = "The rule's id.")),
    responses(
        (status = 200, description = "What it would do.", body = RuleDryRun),
        (status = 404, description = "No such rule."),
    ))]
async fn test(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<RuleDryRun>> {
    let automations = state.automations.clone();
    let account = caller.account_id().to_owned();
    Ok(Json(
        blocking(move || automations.dry_run(&account, &id)).await?,
    ))
}
