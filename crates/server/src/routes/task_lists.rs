//! `/tasks`: the task lists (the personal one and one per workspace), the
//! follow-ups the utility model caught, and the tasks.md mirrors. Each write
//! is followed by a sync of the list's mirrors, so tasks.md says what the
//! list says when the reply comes. Agents may read and add tasks with their
//! token (each marked as from their session); editing, ordering, caught
//! follow-ups and mirrors are the user's.

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::{get, patch, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use tasks::{Caught, Mirror, MirrorFolder, NewTask, Task, TaskMove, TaskPatch};
use utoipa::{IntoParams, ToSchema};

use crate::auth::{Caller, User};
use crate::blocking::blocking;
use crate::error::ApiResult;
use crate::json::ApiJson;
use crate::state::AppState;
use crate::wire::TasksView;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/tasks", get(list).post(create))
        .route("/tasks/reorder", post(reorder))
        .route("/tasks/caught", get(caught))
        .route("/tasks/caught/{id}/keep", post(keep))
        .route("/tasks/caught/{id}/dismiss", post(dismiss))
        .route("/tasks/mirror", get(mirrors).put(set_mirror))
        .route("/tasks/{id}", patch(update).delete(remove))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
struct ListQuery {
    /// The workspace's list; absent for the personal one.
    workspace_id: Option<String>,
}

#[derive(Serialize, ToSchema)]
struct Tasks {
    tasks: Vec<Task>,
}

#[derive(Serialize, ToSchema)]
struct CaughtList {
    caught: Vec<Caught>,
}

#[derive(Serialize, ToSchema)]
struct Mirrors {
    mirrors: Vec<Mirror>,
}

/// A task list, each task followed by its subtasks.
///
/// Agent tokens are admitted.
#[utoipa::path(get, path = "/tasks", params(ListQuery), responses((status = 200, body = Tasks)))]
async fn list(
    caller: Caller,
    State(state): State<AppState>,
    Query(query): Query<ListQuery>,
) -> ApiResult<Json<Tasks>> {
    let store = state.tasks.clone();
    let account = caller.account_id().to_owned();
    let tasks = blocking(move || store.list(&account, query.workspace_id.as_deref())).await?;
    Ok(Json(Tasks { tasks }))
}

/// Adds a task, last among its siblings unless `index` says where.
///
/// Agent tokens are admitted: the task is marked as from the agent's
/// session (`sourceSessionId`). Text of 1 to 2,000 characters, notes up to
/// 20,000, `due` as `YYYY-MM-DD`; a `parentId` of another list → 400.
#[utoipa::path(post, path = "/tasks", request_body = NewTask, responses((status = 201, body = Task)))]
async fn create(
    caller: Caller,
    State(state): State<AppState>,
    ApiJson(new): ApiJson<NewTask>,
) -> ApiResult<(StatusCode, Json<Task>)> {
    let store = state.tasks.clone();
    let account = caller.account_id().to_owned();
    let source = caller.0.session_id.clone().filter(|_| caller.is_agent());
    let task = blocking(move || store.create(&account, new, source.as_deref())).await?;
    synced(&state, caller.account_id(), &task).await;
    Ok((StatusCode::CREATED, Json(task)))
}

/// Changes a task's text, notes, state, due date or snooze.
///
/// `due` and `snoozedUntil` take `null` to clear them; `state` `done`
/// stamps `doneAt`.
#[utoipa::path(patch, path = "/tasks/{id}", params(("id" = String, Path, description = "The task's id.")),
    request_body = TaskPatch, responses((status = 200, body = Task)))]
async fn update(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(patch): ApiJson<TaskPatch>,
) -> ApiResult<Json<Task>> {
    let store = state.tasks.clone();
    let account = user.account_id().to_owned();
    let task = blocking(move || store.update(&account, &id, patch)).await?;
    synced(&state, user.account_id(), &task).await;
    Ok(Json(task))
}

/// Removes a task and its subtasks.
#[utoipa::path(delete, path = "/tasks/{id}", params(("id" = String, Path, description = "The task's id.")),
    responses((status = 204, description = "Removed.")))]
async fn remove(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let store = state.tasks.clone();
    let account = user.account_id().to_owned();
    let task = {
        let (store, account, id) = (store.clone(), account.clone(), id.clone());
        blocking(move || store.get(&account, &id)).await?
    };
    blocking(move || store.delete(&account, &id)).await?;
    synced(&state, user.account_id(), &task).await;
    Ok(StatusCode::NO_CONTENT)
}

/// Moves a task under a parent (or to the top level) at an index.
///
/// Answers the whole list after the move. A move under the task itself or
/// one of its subtasks, into another list, or past the end → 400.
#[utoipa::path(post, path = "/tasks/reorder", request_body = TaskMove, responses((status = 200, body = Tasks)))]
async fn reorder(
    user: User,
    State(state): State<AppState>,
    ApiJson(mv): ApiJson<TaskMove>,
) -> ApiResult<Json<Tasks>> {
    let store = state.tasks.clone();
    let account = user.account_id().to_owned();
    let tasks = blocking(move || store.reorder(&account, &mv)).await?;
    if let Some(task) = tasks.first() {
        synced(&state, user.account_id(), task).await;
    }
    Ok(Json(Tasks { tasks }))
}

/// The follow-ups caught in finished sessions and not yet kept or dismissed, newest first.
#[utoipa::path(get, path = "/tasks/caught", responses((status = 200, body = CaughtList)))]
async fn caught(user: User, State(state): State<AppState>) -> ApiResult<Json<CaughtList>> {
    let store = state.tasks.clone();
    let account = user.account_id().to_owned();
    let caught = blocking(move || store.list_caught(&account)).await?;
    Ok(Json(CaughtList { caught }))
}

/// Keeps a caught follow-up: it becomes a task of the personal list.
#[utoipa::path(post, path = "/tasks/caught/{id}/keep", params(("id" = String, Path, description = "The caught follow-up's id.")),
    responses((status = 201, body = Task)))]
async fn keep(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<(StatusCode, Json<Task>)> {
    let store = state.tasks.clone();
    let account = user.account_id().to_owned();
    let task = blocking(move || store.keep(&account, &id)).await?;
    synced(&state, user.account_id(), &task).await;
    app::tasks_mirror::changed(&state, user.account_id(), None, TasksView::Caught);
    Ok((StatusCode::CREATED, Json(task)))
}

/// Dismisses a caught follow-up.
#[utoipa::path(post, path = "/tasks/caught/{id}/dismiss", params(("id" = String, Path, description = "The caught follow-up's id.")),
    responses((status = 204, description = "Dismissed.")))]
async fn dismiss(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let store = state.tasks.clone();
    let account = user.account_id().to_owned();
    blocking(move || store.dismiss(&account, &id)).await?;
    app::tasks_mirror::changed(&state, user.account_id(), None, TasksView::Caught);
    Ok(StatusCode::NO_CONTENT)
}

/// Where each of the account's lists is mirrored as tasks.md.
#[utoipa::path(get, path = "/tasks/mirror", responses((status = 200, body = Mirrors)))]
async fn mirrors(user: User, State(state): State<AppState>) -> ApiResult<Json<Mirrors>> {
    let store = state.tasks.clone();
    let account = user.account_id().to_owned();
    let data_dir = state.data_dir.clone();
    let mirrors = blocking(move || store.mirrors(&account, &data_dir)).await?;
    Ok(Json(Mirrors { mirrors }))
}

/// Sets (or with `null` stops) a project folder mirroring a list.
///
/// The folder must be an absolute path to an existing directory; its
/// `tasks.md` is written at once.
#[utoipa::path(put, path = "/tasks/mirror", request_body = MirrorFolder, responses((status = 200, body = Mirror)))]
async fn set_mirror(
    user: User,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<MirrorFolder>,
) -> ApiResult<Json<Mirror>> {
    let store = state.tasks.clone();
    let account = user.account_id().to_owned();
    let data_dir = state.data_dir.clone();
    let workspace = body.workspace_id.clone();
    let mirror = blocking(move || {
        store.set_mirror_folder(
            &account,
            body.workspace_id.as_deref(),
            body.folder.as_deref(),
            &data_dir,
        )
    })
    .await?;
    app::tasks_mirror::after_write(&state, user.account_id(), workspace.as_deref()).await;
    Ok(Json(mirror))
}

async fn synced(state: &AppState, account_id: &str, task: &Task) {
    app::tasks_mirror::after_write(state, account_id, task.workspace_id.as_deref()).await;
}
