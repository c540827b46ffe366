//! Recipes and their schedules (docs/automations.md): `/recipes` saves a
//! start of a session and runs it by hand, `/schedules` runs one on a cron
//! pattern or an RRULE. An agent token may list, run (an agent-driven spawn
//! under the spawn rules) and make schedules, which wait `pending` for the
//! user's approval; making, changing and deleting recipes, and approving,
//! pausing, resuming and deleting schedules, are the user's alone.

use automations::{NewRecipe, NewSchedule, Recipe, Schedule};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};

use crate::auth::{Caller, User};
use crate::blocking::blocking;
use crate::error::ApiResult;
use crate::json::{ApiJson, OptionalJson};
use crate::routes::sessions::session_caller;
use crate::state::AppState;
use crate::wire::{
    RecipeList, RecipeRunList, RecipeRunRequest, RecipeRunStarted, RecipeScheduleList,
};

/// How many of a recipe's runs `GET /recipes/{id}/runs` gives.
const RUNS_LISTED: u32 = 100;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/recipes", get(list).post(create))
        .route("/recipes/{id}", get(read).put(replace).delete(remove))
        .route("/recipes/{id}/runs", get(runs).post(run))
        .route("/schedules", get(list_schedules).post(create_schedule))
        .route("/schedules/{id}", axum::routing::delete(delete_schedule))
        .route("/schedules/{id}/approve", post(approve))
        .route("/schedules/{id}/pause", post(pause))
        .route("/schedules/{id}/resume", post(resume))
        .route("/schedules/{id}/run", post(run_schedule))
}

/// The account's recipes, by name.
#[utoipa::path(get, path = "/recipes", responses((status = 200, body = RecipeList)))]
async fn list(caller: Caller, State(state): State<AppState>) -> ApiResult<Json<RecipeList>> {
    let automations = state.automations.clone();
    let account = caller.account_id().to_owned();
    let recipes = blocking(move || automations.list_recipes(&account)).await?;
    Ok(Json(RecipeList { recipes }))
}

/// Saves a recipe.
///
/// `name` (unique in the account, letter case aside; a taken one → 409
/// `name_taken`), `engine`, `prompt` (may hold `{{name}}` placeholders) and
/// an absolute `cwd` are required. A bad field → 400 naming it in
/// `error.field`. The user's alone: an agent token → 403.
#[utoipa::path(post, path = "/recipes", request_body = NewRecipe, responses(
    (status = 201, description = "The recipe, saved.", body = Recipe),
))]
async fn create(
    user: User,
    State(state): State<AppState>,
    ApiJson(fields): ApiJson<NewRecipe>,
) -> ApiResult<(StatusCode, Json<Recipe>)> {
    let automations = state.automations.clone();
    let account = user.account_id().to_owned();
    let recipe = blocking(move || automations.create_recipe(&account, &fields)).await?;
    Ok((StatusCode::CREATED, Json(recipe)))
}

/// One recipe.
#[utoipa::path(get, path = "/recipes/{id}", params(("id" = String, Path, description = "The recipe's id.")),
    responses((status = 200, body = Recipe), (status = 404, description = "No such recipe.")))]
async fn read(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Recipe>> {
    let automations = state.automations.clone();
    let account = caller.account_id().to_owned();
    Ok(Json(
        blocking(move || automations.recipe(&account, &id)).await?,
    ))
}

/// Replaces every field of a recipe.
///
/// Its schedules keep running it. The user's alone: an agent token → 403.
#[utoipa::path(put, path = "/recipes/{id}", params(("id" = String, Path, description = "The recipe's id.")), request_body = NewRecipe,
    responses((status = 200, body = Recipe), (status = 404, description = "No such recipe.")))]
async fn replace(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(fields): ApiJson<NewRecipe>,
) -> ApiResult<Json<Recipe>> {
    let automations = state.automations.clone();
    let account = user.account_id().to_owned();
    Ok(Json(
        blocking(move || automations.update_recipe(&account, &id, &fields)).await?,
    ))
}

/// Deletes a recipe, its schedules and its runs' records.
///
/// The user's alone: an agent token → 403.
#[utoipa::path(delete, path = "/recipes/{id}", params(("id" = String, Path, description = "The recipe's id.")),
    responses((status = 204, description = "Deleted."), (status = 404, description = "No such recipe.")))]
async fn remove(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let automations = state.automations.clone();
    let account = user.account_id().to_owned();
    blocking(move || automations.delete_recipe(&account, &id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Runs a recipe now.
///
/// `values` fills the prompt's placeholders (one left without a value →
/// 400 with `error.field` `values`). The session starts as `POST /sessions`
/// would start it for the caller, under the same spawn rules and refusals;
/// a run that cannot start (its folder is gone) is recorded failed, told in
/// the inbox (category `recipes`) and answered 409 `recipe_run_failed` with
/// the reason.
#[utoipa::path(post, path = "/recipes/{id}/runs", params(("id" = String, Path, description = "The recipe's id.")), request_body = RecipeRunRequest,
    responses((status = 201, description = "The run and its session.", body = RecipeRunStarted), (status = 404, description = "No such recipe.")))]
async fn run(
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    OptionalJson(body): OptionalJson<RecipeRunRequest>,
) -> ApiResult<(StatusCode, Json<RecipeRunStarted>)> {
    crate::auth::refuse_email_session(&state, &caller.0).await?;
    let who = session_caller(&caller, &headers);
    let started = state
        .run_recipe(caller.account_id(), &who, &id, body.values)
        .await?;
    Ok(created_run(started))
}

/// A recipe's runs, newest first (the last 100).
#[utoipa::path(get, path = "/recipes/{id}/runs", params(("id" = String, Path, description = "The recipe's id.")),
    responses((status = 200, body = RecipeRunList), (status = 404, description = "No such recipe.")))]
async fn runs(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<RecipeRunList>> {
    let automations = state.automations.clone();
    let account = caller.account_id().to_owned();
    let runs = blocking(move || automations.list_runs(&account, &id, RUNS_LISTED)).await?;
    Ok(Json(RecipeRunList { runs }))
}

/// The account's schedules.
#[utoipa::path(get, path = "/schedules", responses((status = 200, body = RecipeScheduleList)))]
async fn list_schedules(
    caller: Caller,
    State(state): State<AppState>,
) -> ApiResult<Json<RecipeScheduleList>> {
    let automations = state.automations.clone();
    let account = caller.account_id().to_owned();
    let schedules = blocking(move || automations.list_schedules(&account)).await?;
    Ok(Json(RecipeScheduleList { schedules }))
}

/// Puts a recipe on a schedule.
///
/// `recipeId`, exactly one of `cron` (five fields) or `rrule`, and an IANA
/// `timeZone`; `values` for every placeholder of the recipe's prompt. A bad
/// field → 400 naming it in `error.field`. One made with an agent token is
/// `pending` (it runs nothing) and puts a `cron` row in the inbox until the
/// user approves it.
#[utoipa::path(post, path = "/schedules", request_body = NewSchedule, responses(
    (status = 201, description = "The schedule: active, or pending when an agent made it.", body = Schedule),
))]
async fn create_schedule(
    caller: Caller,
    State(state): State<AppState>,
    ApiJson(fields): ApiJson<NewSchedule>,
) -> ApiResult<(StatusCode, Json<Schedule>)> {
    let schedule = state
        .create_schedule(caller.account_id(), fields, caller.is_agent())
        .await?;
    Ok((StatusCode::CREATED, Json(schedule)))
}

/// Approves a schedule an agent made.
///
/// It becomes active and waits for its next tick. The user's alone: an
/// agent token → 403; a schedule that is not pending → 409.
#[utoipa::path(post, path = "/schedules/{id}/approve", params(("id" = String, Path, description = "The schedule's id.")),
    responses((status = 200, body = Schedule), (status = 404, description = "No such schedule.")))]
async fn approve(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Schedule>> {
    change_state(&user, &state, id, automations::Automations::approve).await
}

/// Pauses an active schedule.
///
/// Nothing it would have run meanwhile is caught up on resuming. The
/// user's alone: an agent token → 403.
#[utoipa::path(post, path = "/schedules/{id}/pause", params(("id" = String, Path, description = "The schedule's id.")),
    responses((status = 200, body = Schedule), (status = 404, description = "No such schedule.")))]
async fn pause(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Schedule>> {
    change_state(&user, &state, id, automations::Automations::pause).await
}

/// Resumes a paused schedule at its next tick.
///
/// The user's alone: an agent token → 403.
#[utoipa::path(post, path = "/schedules/{id}/resume", params(("id" = String, Path, description = "The schedule's id.")),
    responses((status = 200, body = Schedule), (status = 404, description = "No such schedule.")))]
async fn resume(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Schedule>> {
    change_state(&user, &state, id, automations::Automations::resume).await
}

/// Runs a schedule's recipe now, with the schedule's values.
///
/// For the first feedback without waiting for a tick: the run is the
/// caller's own, as `POST /recipes/{id}/runs` with the schedule's `values`
/// would start it (the same spawn rules and refusals; a run that cannot
/// start → 409 `recipe_run_failed`), whatever the schedule's state. Its
/// ticks go on as they were. The user's alone: an agent token → 403.
#[utoipa::path(post, path = "/schedules/{id}/run", params(("id" = String, Path, description = "The schedule's id.")),
    responses(
        (status = 201, description = "The run and its session.", body = RecipeRunStarted),
        (status = 404, description = "No such schedule."),
        (status = 409, description = "The run could not start: `recipe_run_failed` with the reason."),
    ))]
async fn run_schedule(
    _user: User,
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<(StatusCode, Json<RecipeRunStarted>)> {
    crate::auth::refuse_email_session(&state, &caller.0).await?;
    let automations = state.automations.clone();
    let account = caller.account_id().to_owned();
    let schedule = blocking(move || automations.schedule(&account, &id)).await?;
    let who = session_caller(&caller, &headers);
    let started = state
        .run_recipe(
            caller.account_id(),
            &who,
            &schedule.recipe_id,
            schedule.values,
        )
        .await?;
    Ok(created_run(started))
}

/// Deletes a schedule; its runs' records stay.
///
/// The user's alone: an agent token → 403.
#[utoipa::path(delete, path = "/schedules/{id}", params(("id" = String, Path, description = "The schedule's id.")),
    responses((status = 204, description = "Deleted."), (status = 404, description = "No such schedule.")))]
async fn delete_schedule(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let automations = state.automations.clone();
    let account = user.account_id().to_owned();
    blocking(move || automations.delete_schedule(&account, &id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// One of the user's state changes of a schedule or a rule (approve,
/// pause, resume), off the async workers.
pub(super) async fn change_state<T: Send + 'static>(
    user: &User,
    state: &AppState,
    id: String,
    change: fn(&automations::Automations, &str, &str) -> Result<T, automations::AutomationError>,
) -> ApiResult<Json<T>> {
    let automations = state.automations.clone();
    let account = user.account_id().to_owned();
    Ok(Json(
        blocking(move || change(&automations, &account, &id)).await?,
    ))
}

/// A run just started, as its 201 says it.
fn created_run(started: app::RecipeStarted) -> (StatusCode, Json<RecipeRunStarted>) {
    (
        StatusCode::CREATED,
        Json(RecipeRunStarted {
            run_id: started.run_id,
            session_id: started.session_id,
        }),
    )
}
