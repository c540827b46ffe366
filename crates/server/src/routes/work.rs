//! Where's my work (docs/work.md): `GET /work` lists every piece of the
//! account's agent work with its state, and `POST /work/{id}/…` acts on
//! one. An action that does not fit the work as it is now (decided again
//! from git at that moment) is 409 `action_refused` with the reason; the
//! ones that remove or throw work away are the user's alone, never an
//! agent token's.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use sessions::SpawnRequest;
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::json::{ApiJson, OptionalJson};
use crate::routes::sessions::{Spawned, spawn_as};
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/work", get(list))
        .route("/work/{id}", get(read))
        .route("/work/{id}/prune", post(prune))
        .route("/work/{id}/discard", post(discard))
        .route("/work/{id}/push", post(push))
        .route("/work/{id}/pull-request", post(pull_request))
        .route("/work/{id}/continue", post(continue_work))
        .route("/work/merge", post(merge))
}

#[derive(Serialize, ToSchema)]
struct WorkList {
    work: Vec<work::Entry>,
}

/// What `discard` needs: the branch's name, typed.
#[derive(Deserialize, Default, ToSchema)]
#[serde(deny_unknown_fields)]
struct Confirm {
    confirm: Option<String>,
}

/// What a follow-up session is asked; a default names the branch.
#[derive(Deserialize, Default, ToSchema)]
#[serde(deny_unknown_fields)]
struct FollowUp {
    prompt: Option<String>,
}

fn users_only(caller: &Caller, what: &str) -> ApiResult<()> {
    if caller.is_agent() {
        return Err(ApiError::forbidden(
            "agent_not_allowed",
            format!("Only the user may {what} work; an agent token may not."),
        ));
    }
    Ok(())
}

/// The account's agent work, newest first.
///
/// One entry per branch that its local sessions worked on, with its state
/// (`in_progress`, `stranded`, `waiting_on_review`, `landed`,
/// `turned_down`, or `unknown` with the reason) and the actions that fit it.
#[utoipa::path(get, path = "/work", responses((status = 200, body = WorkList)))]
async fn list(caller: Caller, State(state): State<AppState>) -> ApiResult<Json<WorkList>> {
    let work = state.work_entries(caller.account_id()).await?;
    Ok(Json(WorkList { work }))
}

/// One piece of work.
#[utoipa::path(get, path = "/work/{id}", params(("id" = String, Path, description = "The work's id.")),
    responses((status = 200, body = work::Entry), (status = 404, description = "No such work.")))]
async fn read(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<work::Entry>> {
    Ok(Json(state.work_entry(caller.account_id(), &id).await?))
}

/// Removes the worktree and local branch of landed work.
///
/// Refused (409) for any other state and for uncommitted changes, whatever
/// is asked, and for work done in the user's own working tree.
#[utoipa::path(post, path = "/work/{id}/prune", params(("id" = String, Path, description = "The work's id.")),
    responses((status = 204, description = "Pruned."), (status = 409, description = "Refused, with the reason.")))]
async fn prune(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    users_only(&caller, "prune")?;
    state
        .work_act(caller.account_id(), &id, work::Action::Prune, None)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Throws stranded work away.
///
/// Its worktree, changes and all, and its branch go, only with
/// `{"confirm": "<the branch's name>"}`.
#[utoipa::path(post, path = "/work/{id}/discard", params(("id" = String, Path, description = "The work's id.")), request_body = Confirm,
    responses((status = 204, description = "Discarded."), (status = 409, description = "Refused, with the reason.")))]
async fn discard(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
    OptionalJson(body): OptionalJson<Confirm>,
) -> ApiResult<StatusCode> {
    users_only(&caller, "discard")?;
    let confirm = body.confirm;
    state
        .work_act(caller.account_id(), &id, work::Action::Discard, confirm)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Pushes the work's branch and sets its upstream.
///
/// Answers the entry as it is then.
#[utoipa::path(post, path = "/work/{id}/push", params(("id" = String, Path, description = "The work's id.")),
    responses((status = 200, body = work::Entry), (status = 409, description = "Refused, with the reason.")))]
async fn push(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<work::Entry>> {
    users_only(&caller, "push")?;
    let account = caller.account_id();
    state
        .work_act(account, &id, work::Action::Push, None)
        .await?;
    Ok(Json(state.work_entry(account, &id).await?))
}

/// Where to open a pull request for the work's branch.
///
/// For pushed work whose remote is on a code host with a saved token
/// (`codehosts.toml`), the pull request is opened there through its API
/// (`opened` true). Otherwise, for a GitHub or GitLab remote, the host's own
/// page that opens one (`opened` false: the user opens it there). Refused
/// (409) for unpushed work, for other remotes, and when the host refuses.
#[utoipa::path(post, path = "/work/{id}/pull-request", params(("id" = String, Path, description = "The work's id.")),
    responses((status = 200, body = PullRequestLink), (status = 409, description = "Refused, with the reason.")))]
async fn pull_request(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<PullRequestLink>> {
    users_only(&caller, "open a pull request for")?;
    let (url, opened) = state.work_pull_request(caller.account_id(), &id).await?;
    Ok(Json(PullRequestLink { url, opened }))
}

#[derive(Serialize, ToSchema)]
struct PullRequestLink {
    url: String,
    /// Whether Switchboard opened it itself (on a configured code host).
    opened: bool,
}

/// Starts a follow-up session in the work's checkout.
///
/// On its latest session's engine, under the spawn rules of `POST
/// /sessions`. Refused while a session still works on it or when its
/// checkout is gone.
#[utoipa::path(post, path = "/work/{id}/continue", params(("id" = String, Path, description = "The work's id."), ("X-App-Source-Session-Id" = Option<String>, Header, description = "The live session of the caller's account that asks.")), request_body = FollowUp,
    responses((status = 201, body = Spawned), (status = 202, description = "Held by spawn spacing.", body = Spawned), (status = 409, description = "Refused, with the reason.")))]
async fn continue_work(
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    OptionalJson(body): OptionalJson<FollowUp>,
) -> ApiResult<(StatusCode, Json<Spawned>)> {
    let continuation = state.work_continuation(caller.account_id(), &id).await?;
    let prompt = body
        .prompt
        .filter(|p| !p.trim().is_empty())
        .unwrap_or_else(|| {
            format!(
                "Continue the work on branch {}: look at what is committed and what is not, and finish it.",
                continuation.branch
            )
        });
    let request = SpawnRequest {
        engine: Some(continuation.engine),
        prompt,
        cwd: Some(continuation.checkout.display().to_string()),
        ..SpawnRequest::default()
    };
    let (status, session) = spawn_as(&state, &caller, &headers, request).await?;
    Ok((status, Json(Spawned { session })))
}

/// What to merge: a repository with work waiting on review.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct MergeRequest {
    /// The repository's main working tree, as the work entries name it.
    repository: String,
    /// Defaults to `primary`.
    engine: Option<String>,
}

/// Starts a session that merges a repository's ready branches.
///
/// The ready branches are the account's work there waiting on review
/// (pushed, not landed), merged oldest first into the default branch in
/// the repository's own working tree, under the spawn rules of `POST
/// /sessions`. While it runs, `mergePriorityBoostEnabled` puts it first for
/// the CPU (docs/resources.md). Refused (409) when no branch is ready.
#[utoipa::path(post, path = "/work/merge", params(("X-App-Source-Session-Id" = Option<String>, Header, description = "The live session of the caller's account that asks.")), request_body = MergeRequest,
    responses((status = 201, body = Spawned), (status = 202, description = "Held by spawn spacing.", body = Spawned), (status = 409, description = "Refused, with the reason.")))]
async fn merge(
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<MergeRequest>,
) -> ApiResult<(StatusCode, Json<Spawned>)> {
    let account = caller.account_id().to_owned();
    let plan = state.work_merge_plan(&account, &request.repository).await?;
    let spawn = SpawnRequest {
        engine: request.engine,
        prompt: plan.prompt.clone(),
        cwd: Some(plan.repository.clone()),
        title: Some(format!("Merge {} ready branches", plan.branches.len())),
        ..SpawnRequest::default()
    };
    let (status, session) = spawn_as(&state, &caller, &headers, spawn).await?;
    state
        .work_merge_started(&account, &session.id, &plan)
        .await?;
    Ok((status, Json(Spawned { session })))
}
