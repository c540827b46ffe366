//! `/sessions` and `/engines`: spawning, steering and reading agent sessions.
//! The spawn rules live in the sessions crate; this glue says who is asking
//! (which listener, which token, which source-session header) and hands over
//! the settings that govern it.

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sessions::{MAX_PAGE, PageFrom, SpawnRequest, Trigger, Via};
use utoipa::ToSchema;

use crate::auth::User;
use crate::auth::{AuthMode, Caller};
use crate::error::{ApiError, ApiResult};
use crate::json::{ApiJson, OptionalJson};
use crate::state::AppState;
use crate::wire::{
    LifecycleDeferred, RenameSession, SessionMessage, SpawnWithAttachments, StartDecision,
    StopSession, UsageRange,
};
use app::SOURCE_SESSION_HEADER;
use app::lifecycle_approvals::{Lifecycle, LifecycleOutcome, agent_lifecycle};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/sessions", get(list).post(spawn))
        .route("/sessions/{id}", get(read).patch(rename))
        .route("/sessions/{id}/transcript", get(transcript))
        .route("/sessions/{id}/changes", get(changes))
        .route("/sessions/{id}/changes/file", get(changed_file))
        .route("/sessions/{id}/messages", post(send))
        .route("/sessions/{id}/stop", post(stop))
        .route("/sessions/{id}/start-decision", post(decide_start))
        .route("/sessions/{id}/pause", post(pause))
        .route("/sessions/{id}/resume", post(resume))
        .route("/sessions/{id}/archive", post(archive))
        .route("/engines", get(engines))
        .route("/usage", get(usage))
}

/// The session `X-App-Source-Session-Id` names, when the request has one.
pub(crate) fn source_session(headers: &HeaderMap) -> Option<String> {
    headers
        .get(SOURCE_SESSION_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
}

pub(crate) fn session_caller(caller: &Caller, headers: &HeaderMap) -> sessions::Caller {
    let via = match (caller.1, &caller.0.session_id) {
        (AuthMode::Cookie, _) => Via::Ui,
        (AuthMode::Bearer, Some(session_id)) if caller.is_agent() => Via::ControlAgent {
            session_id: session_id.clone(),
        },
        (AuthMode::Bearer, _) => Via::ControlCli,
    };
    sessions::Caller {
        account_id: caller.0.account_id.clone(),
        via,
        source_session_header: source_session(headers),
    }
}

/// Starts a session.
///
/// `engine` defaults to `primary`; `isolation` is absent or `"worktree"`;
/// `trigger` is absent or `"email"`, from the user or a cli token only (an
/// agent token that sends it → 403 `trigger_forbidden`; another trigger →
/// 400 `invalid_request`). A session started
/// over the control server is agent-driven, and its spawn is checked in this
/// order: `agentDrivenSessionsEnabled` off → 403
/// `agent_driven_sessions_disabled`; an agent token while
/// `allowAgentTokenSpawn` is off → 403 `agent_token_spawn_disabled`;
/// `requireSpawnSourceSession` on and no `X-App-Source-Session-Id` naming a
/// live session of the caller's account → 403 `source_session_required`; as
/// many active agent-driven sessions as `agentDrivenMaxConcurrent` → 429
/// `concurrency_limit`; `cliSpawnSpacingSeconds` above 0 queues one asked for
/// inside the gap (202). An engine `engines.toml` does not have → 400
/// `unknown_engine`; a `cwd` outside a git repository with `isolation:
/// worktree` → 400 `not_a_git_repository`; an `engines.toml` that cannot be
/// read → 500 `engines_config_invalid`. An email-triggered session's token
/// → 403 `email_session_locked`. A server whose open files come within its
/// reserve for clients (an eighth of its limit, 64 to 1,024) → 503
/// `resource_exhausted`, naming the count and the limit.
///
/// `forkFrom` names a session of the caller's account whose engine
/// conversation the new one starts from, as a copy (Claude Code's `--resume
/// <id> --fork-session`, Codex's `exec fork <id>`; the source is left as it
/// was); `engine` and `cwd` default to the source's, and a fork of a
/// worktree session runs in the same folder of its repository, in a new
/// worktree. No such session of the caller's → 404 `not_found`; a `command`
/// engine → 409 `fork_unsupported`; a source whose engine has not started a
/// conversation yet → 409 `fork_not_ready`; an `engine` of another kind than
/// the source's → 400 `invalid_request`. `GET /engines` says which engines
/// can fork (`canFork`).
///
/// `attachments` names images of `POST /attachments` for the first turn;
/// an unknown id → 400 `attachment_not_found`; a model that cannot see
/// images while `imageBridgeMode` is off → 400 `image_not_supported`, and
/// nothing is started (docs/attachments.md).
#[utoipa::path(post, path = "/sessions", params(("X-App-Source-Session-Id" = Option<String>, Header, description = "The live session of the caller's account that asks.")), request_body = SpawnWithAttachments, responses(
    (status = 201, description = "The session, started.", body = sessions::Session),
    (status = 202, description = "The session, `queued` with `startsAt` while spawn spacing holds it back.", body = sessions::Session),
))]
async fn spawn(
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<SpawnWithAttachments>,
) -> ApiResult<(StatusCode, Json<sessions::Session>)> {
    let mut request = body.request;
    if caller.is_agent() && request.trigger.is_some() {
        return Err(ApiError::forbidden(
            "trigger_forbidden",
            "Only the user or a cli token may say what triggered a session.",
        ));
    }
    if request.trigger.is_some_and(|t| t != Trigger::Email) {
        return Err(ApiError::bad_request(
            "invalid_request",
            "`trigger` may only be \"email\": the messenger and bug intake start their own sessions.",
        ));
    }
    if let Some(ids) = body.attachments.filter(|ids| !ids.is_empty()) {
        let engine = request
            .engine
            .clone()
            .unwrap_or_else(|| "primary".to_owned());
        request.prompt = app::image_turns::prompt_with_images(
            &state,
            caller.account_id(),
            &engine,
            &request.prompt,
            &ids,
        )
        .await?;
    }
    let (status, session) = spawn_as(&state, &caller, &headers, request).await?;
    Ok((status, Json(session)))
}

/// A spawn on the caller's behalf under the spawn rules, as `POST /sessions`
/// makes one (bookmark launches and coaching interviews too): 201, or 202
/// while spawn spacing holds the session back.
pub(crate) async fn spawn_as(
    state: &AppState,
    caller: &Caller,
    headers: &HeaderMap,
    request: SpawnRequest,
) -> ApiResult<(StatusCode, sessions::Session)> {
    crate::auth::refuse_email_session(state, &caller.0).await?;
    let who = session_caller(caller, headers);
    let spawned = state
        .sessions
        .spawn(
            &who,
            &state.spawn_policy(),
            &state.prompt_settings(),
            request,
        )
        .await?;
    if spawned.session.awaiting_approval {
        state.ask_to_start(&spawned.session).await;
    }
    let status = if spawned.queued.is_some() || spawned.session.awaiting_approval {
        StatusCode::ACCEPTED
    } else {
        StatusCode::CREATED
    };
    Ok((status, spawned.session))
}

/// `GET /sessions` query.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct ListQuery {
    /// `ask`: the Ask tutor's conversations alone. Absent: every session
    /// but those, which stay off the agent board.
    project: Option<String>,
}

/// The account's sessions, newest first. Agent tokens are admitted.
///
/// The Ask tutor's sessions (project `ask`) are left out unless
/// `project=ask` asks for them alone; any other project → 400
/// `invalid_request`.
#[utoipa::path(get, path = "/sessions", params(ListQuery), responses((status = 200, body = Vec<sessions::Session>)))]
async fn list(
    caller: Caller,
    State(state): State<AppState>,
    Query(query): Query<ListQuery>,
) -> ApiResult<impl axum::response::IntoResponse> {
    let project = match query.project.as_deref() {
        None => None,
        Some(sessions::ASK_PROJECT) => Some(sessions::ASK_PROJECT),
        Some(other) => {
            return Err(ApiError::bad_request(
                "invalid_request",
                format!("`project` may only be \"ask\"; {other:?} is not a project."),
            ));
        }
    };
    let mut listed = state.sessions.list(caller.account_id()).await?;
    listed.retain(|s| s.project.as_deref() == project);
    // Written straight from the structs (a value tree of 1,024 sessions
    // first cost as much again) into a buffer of about the list's size, so
    // a list of 1 MB is not copied at each doubling.
    let mut body = Vec::with_capacity(listed.len() * SESSION_JSON_BYTES + 2);
    serde_json::to_writer(&mut body, &listed).map_err(ApiError::internal)?;
    Ok((
        [(
            axum::http::header::CONTENT_TYPE,
            axum::http::HeaderValue::from_static("application/json"),
        )],
        body,
    ))
}

/// About what one session of the list writes (a running `command` session
/// with its activity and use).
const SESSION_JSON_BYTES: usize = 1_100;

/// One session: status, parent and children, worktree, cost and tokens, activity.
#[utoipa::path(get, path = "/sessions/{id}", params(("id" = String, Path, description = "The session's id.")), responses((status = 200, body = sessions::Session)))]
async fn read(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    Ok(Json(json!(
        state.sessions.get(caller.account_id(), &id).await?
    )))
}

/// Sets the session's title as the user's own.
///
/// The utility model never replaces a title given here; `null` or blank
/// text clears it, and the session may be titled by the model again. A title has at most 200 characters (400
/// `invalid_request`). Agent tokens are refused: a title is the user's.
#[utoipa::path(patch, path = "/sessions/{id}", params(("id" = String, Path, description = "The session's id.")),
    request_body = RenameSession, responses((status = 200, body = sessions::Session)))]
async fn rename(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<RenameSession>,
) -> ApiResult<Json<Value>> {
    let session = state
        .sessions
        .rename(user.account_id(), &id, body.title.as_deref())
        .await?;
    Ok(Json(json!(session)))
}

/// `GET /sessions/<id>/transcript` query. Every field is read as text and
/// checked here, so a bad value gets a sentence naming it rather than the
/// framework's generic rejection.
#[derive(Debug, Default, Deserialize)]
struct TranscriptQuery {
    format: Option<String>,
    after: Option<String>,
    before: Option<String>,
    tail: Option<String>,
    limit: Option<String>,
}

const DEFAULT_PAGE: u32 = 200;

impl TranscriptQuery {
    /// `None` for the plain transcript; the page asked for with `format=json`.
    fn page(&self) -> Result<Option<(PageFrom, u32)>, ApiError> {
        match self.format.as_deref() {
            None | Some("text") => return Ok(None),
            Some("json") => {}
            Some(other) => {
                return Err(invalid(format!(
                    "format must be `json` or `text`, not `{other}`."
                )));
            }
        }
        let seq = |name: &str, value: &Option<String>| -> Result<Option<i64>, ApiError> {
            value
                .as_deref()
                .map(|v| {
                    v.parse::<i64>().ok().filter(|n| *n >= 0).ok_or_else(|| {
                        invalid(format!("{name} must be a seq: a whole number from 0."))
                    })
                })
                .transpose()
        };
        let after = seq("after", &self.after)?;
        let before = seq("before", &self.before)?;
        let tail = match self.tail.as_deref() {
            None | Some("false") => false,
            Some("true") => true,
            Some(_) => return Err(invalid("tail must be `true` or `false`.".to_owned())),
        };
        let from = match (after, before, tail) {
            (Some(after), None, false) => PageFrom::After(after),
            (None, None, false) => PageFrom::After(0),
            (None, Some(before), false) => PageFrom::Before(before),
            (None, None, true) => PageFrom::Tail,
            _ => {
                return Err(invalid(
                    "Give at most one of after, before and tail=true.".to_owned(),
                ));
            }
        };
        let limit = match self.limit.as_deref() {
            None => DEFAULT_PAGE,
            Some(v) => v
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=MAX_PAGE).contains(n))
                .ok_or_else(|| {
                    invalid(format!(
                        "limit must be a whole number from 1 to {MAX_PAGE}."
                    ))
                })?,
        };
        Ok(Some((from, limit)))
    }
}

fn invalid(message: String) -> ApiError {
    ApiError::bad_request("invalid_request", message)
}

/// The plain transcript, or with `format=json` one page of typed entries.
///
/// The plain transcript has every turn at once with its output as text,
/// and the status moves. A page (`format=json`) takes at most one of
/// `after=<seq>` (the default, `after=0`: the entries just after it),
/// `before=<seq>` (those just before it, still oldest first) and
/// `tail=true` (the last ones); `limit` is 1 to 1000, 200 by default, and a
/// page also stops at about 1 MiB of entry text. `more` says whether entries
/// exist beyond the page in the direction read. Anything else → 400
/// `invalid_request`. Agent tokens read their own account's sessions.
#[utoipa::path(get, path = "/sessions/{id}/transcript", params(("id" = String, Path, description = "The session's id."),
        ("format" = Option<String>, Query, description = "`text` (the default) or `json`."),
        ("after" = Option<String>, Query, description = "A seq: the entries after it."),
        ("before" = Option<String>, Query, description = "A seq: the entries before it."),
        ("tail" = Option<String>, Query, description = "`true`: the last entries."),
        ("limit" = Option<String>, Query, description = "1 to 1000 entries (default 200).")),
    responses((status = 200, body = TranscriptReply)))]
async fn transcript(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<TranscriptQuery>,
) -> ApiResult<Json<TranscriptReply>> {
    match query.page()? {
        None => Ok(Json(TranscriptReply::Plain(
            state.sessions.transcript(caller.account_id(), &id).await?,
        ))),
        Some((from, limit)) => Ok(Json(TranscriptReply::Page(
            state
                .sessions
                .entries(caller.account_id(), &id, from, limit)
                .await?,
        ))),
    }
}

/// What an isolated session changed in its worktree.
///
/// The worktree against the commit it started from (`base`, the session's
/// `worktree.base`): committed, staged, unstaged and untracked files alike,
/// ignored ones left out, read without touching git's index. A file's
/// `status` is `added`, `modified`, `deleted` or `renamed` (`oldPath` then
/// says where it was); `additions` and `deletions` count lines, both 0 for a
/// `binary` file. A session not spawned with `isolation: worktree` → 409
/// `not_isolated`; one whose worktree folder is gone (archiving removes it
/// once it is clean) → 409 `worktree_removed`; git taking over 20 s → 503
/// `git_timeout`. Agent tokens read their own account's sessions.
#[utoipa::path(get, path = "/sessions/{id}/changes", params(("id" = String, Path, description = "The session's id.")),
    responses((status = 200, body = sessions::SessionChanges)))]
async fn changes(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<sessions::SessionChanges>> {
    Ok(Json(
        state.sessions.changes(caller.account_id(), &id).await?,
    ))
}

/// `GET /sessions/<id>/changes/file` query.
#[derive(Debug, Deserialize)]
struct ChangedFileQuery {
    path: Option<String>,
}

/// One changed file's unified diff.
///
/// `path` is one of the paths `GET /sessions/{id}/changes` lists; an
/// untracked file's diff is against nothing (`/dev/null`). A diff longer
/// than 1 MiB stops at the last whole line before it, with `truncated:
/// true`. No `path`, an absolute one, one with `..`, or one that is not
/// among the changed files → 400 `invalid_request`; the list's 409s and 503
/// apply too.
#[utoipa::path(get, path = "/sessions/{id}/changes/file", params(("id" = String, Path, description = "The session's id."),
        ("path" = String, Query, description = "A changed file's path, relative to the worktree's root.")),
    responses((status = 200, body = sessions::ChangedFileDiff)))]
async fn changed_file(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<ChangedFileQuery>,
) -> ApiResult<Json<sessions::ChangedFileDiff>> {
    let path = query
        .path
        .ok_or_else(|| invalid("Give `path`: the changed file to diff.".to_owned()))?;
    Ok(Json(
        state
            .sessions
            .changed_file(caller.account_id(), &id, &path)
            .await?,
    ))
}

/// A session a launch or an interview started, under the spawn rules.
#[derive(Serialize, ToSchema)]
pub(crate) struct Spawned {
    pub(crate) session: sessions::Session,
}

/// The transcript route's two answers, told apart by `format`.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
enum TranscriptReply {
    Plain(sessions::Transcript),
    Page(sessions::EntryPage),
}

/// Sends a follow-up message; it waits while a turn runs.
///
/// 409 `session_ended` once the session has ended; the spawn rules'
/// `agentDrivenSessionsEnabled` applies to follow-ups too. `attachments`
/// as for `POST /sessions`: 400 `attachment_not_found` or
/// `image_not_supported`, and nothing is sent.
#[utoipa::path(post, path = "/sessions/{id}/messages", params(("id" = String, Path, description = "The session's id."), ("X-App-Source-Session-Id" = Option<String>, Header, description = "The live session of the caller's account that asks.")), request_body = SessionMessage,
    responses((status = 202, body = sessions::Session)))]
async fn send(
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    ApiJson(message): ApiJson<SessionMessage>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let who = session_caller(&caller, &headers);
    // An Ask conversation's follow-up carries a fresh fact sheet.
    let asked = state.sessions.get(caller.account_id(), &id).await?;
    let ids = message.attachments.unwrap_or_default();
    let message_text = app::image_turns::prompt_with_images(
        &state,
        caller.account_id(),
        &asked.engine,
        &message.text,
        &ids,
    )
    .await?;
    let text = if asked.trigger == Some(Trigger::Ask) {
        state
            .ask_follow_up(caller.account_id(), &message_text)
            .await
    } else {
        message_text
    };
    let session = state
        .sessions
        .send(&who, &state.spawn_policy(), &id, &text)
        .await?;
    Ok((StatusCode::ACCEPTED, Json(json!(session))))
}

/// Stops a session: its whole process group ends, children that left it included.
///
/// With `"tree": true` every descendant is stopped too, and the reply comes
/// once none is running. No body, or `"tree": false`, stops this session
/// alone. A body that is there must be JSON.
#[utoipa::path(post, path = "/sessions/{id}/stop", params(("id" = String, Path, description = "The session's id."), ("X-App-Source-Session-Id" = Option<String>, Header, description = "The live session of the caller's account that asks.")), request_body = Option<StopSession>,
    responses((status = 202, body = sessions::Session)))]
async fn stop(
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    OptionalJson(body): OptionalJson<StopSession>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let who = session_caller(&caller, &headers);
    let session = if body.tree == Some(true) {
        state.sessions.stop_tree(&who, &id).await?
    } else {
        state.sessions.stop(&who, &id).await?
    };
    Ok((StatusCode::ACCEPTED, Json(json!(session))))
}

/// Approves or refuses the start of a session that a runner's session started.
///
/// `cloudStartedSessionsEnabled`, docs/runners.md. Approved, it starts as any spawned session does; refused, it is
/// `stopped` without ever running. A session not waiting for approval is
/// 409 `wrong_state`. The user's alone: not for agent tokens.
#[utoipa::path(post, path = "/sessions/{id}/start-decision", params(("id" = String, Path, description = "The session's id.")), request_body = StartDecision,
    responses((status = 200, body = sessions::Session)))]
async fn decide_start(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<StartDecision>,
) -> ApiResult<Json<sessions::Session>> {
    let session = state
        .sessions
        .decide_start(user.account_id(), &id, body.approve)
        .await?;
    Ok(Json(session))
}

/// Ends the session's process tree and keeps it `paused` until resumed.
///
/// The rules are in docs/governor.md. With an agent token while
/// `agentPermissionLevel` is `read_only`: 202 with the approval it waits
/// for, carried out once the user allows it (docs/sessions.md).
#[utoipa::path(post, path = "/sessions/{id}/pause", params(("id" = String, Path, description = "The session's id."), ("X-App-Source-Session-Id" = Option<String>, Header, description = "The live session of the caller's account that asks.")),
    responses((status = 200, body = sessions::Session), (status = 202, body = LifecycleDeferred)))]
async fn pause(
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let who = session_caller(&caller, &headers);
    if let Some(asker) = agent_session(&caller) {
        return lifecycle(&state, &who, asker, Lifecycle::Pause, &id).await;
    }
    let session = state.sessions.pause(&who, &id).await?;
    Ok((StatusCode::OK, Json(json!(session))))
}

/// Continues a paused or interrupted session at once, with a continue nudge.
#[utoipa::path(post, path = "/sessions/{id}/resume", params(("id" = String, Path, description = "The session's id."), ("X-App-Source-Session-Id" = Option<String>, Header, description = "The live session of the caller's account that asks.")),
    responses((status = 200, body = sessions::Session)))]
async fn resume(
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let who = session_caller(&caller, &headers);
    let session = state.sessions.resume(&who, &id).await?;
    Ok(Json(json!(session)))
}

/// Archives a session, stopping it if it runs.
///
/// Its worktree is removed when `git status --porcelain` in it is empty;
/// otherwise it stays and `worktree.keptReason` says why. The branch always
/// stays. With an agent token while `agentPermissionLevel` is `read_only`:
/// 202 with the approval it waits for; a session archiving itself with
/// `sessionSelfArchiveWithoutApproval` on asks nobody, and from inside its
/// running turn gets 202 `{"archiveAtTurnEnd": true}` (docs/sessions.md).
#[utoipa::path(post, path = "/sessions/{id}/archive", params(("id" = String, Path, description = "The session's id."), ("X-App-Source-Session-Id" = Option<String>, Header, description = "The live session of the caller's account that asks.")),
    responses((status = 200, body = sessions::Session), (status = 202, body = LifecycleDeferred)))]
async fn archive(
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let who = session_caller(&caller, &headers);
    if let Some(asker) = agent_session(&caller) {
        return lifecycle(&state, &who, asker, Lifecycle::Archive, &id).await;
    }
    let session = state.sessions.archive(&who, &id).await?;
    Ok((StatusCode::OK, Json(json!(session))))
}

/// The session an agent token speaks for; `None` for the user and cli tokens,
/// whose pauses and archives never wait for an approval.
fn agent_session(caller: &Caller) -> Option<&str> {
    caller.0.session_id.as_deref().filter(|_| caller.is_agent())
}

async fn lifecycle(
    state: &AppState,
    who: &sessions::Caller,
    asker: &str,
    action: Lifecycle,
    id: &str,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let reply = match agent_lifecycle(state, who, asker, action, id).await? {
        LifecycleOutcome::Done(session) => (StatusCode::OK, json!(session)),
        LifecycleOutcome::Asked(approval) => (
            StatusCode::ACCEPTED,
            json!(LifecycleDeferred {
                approval: Some(*approval),
                archive_at_turn_end: None,
            }),
        ),
        LifecycleOutcome::ArchiveAtTurnEnd => (
            StatusCode::ACCEPTED,
            json!(LifecycleDeferred {
                approval: None,
                archive_at_turn_end: Some(true),
            }),
        ),
    };
    Ok((reply.0, Json(reply.1)))
}

/// The engines of `engines.toml` (or, without it, those found on PATH).
#[utoipa::path(get, path = "/engines", responses((status = 200, body = Vec<sessions::EngineInfo>)))]
async fn engines(_caller: Caller, State(state): State<AppState>) -> ApiResult<Json<Value>> {
    Ok(Json(json!(state.sessions.engines()?)))
}

/// Daily totals per engine of the caller's account.
///
/// Oldest day first, then by engine name. A day is a UTC date, and a turn
/// counts on the day it ended. `costUsd` is `null` when no turn of that day
/// and engine reported a price. A date not written `YYYY-MM-DD`, or `from`
/// after `to` → 400 `invalid_request`. Agent tokens read their own account's.
#[utoipa::path(get, path = "/usage", params(
        ("from" = Option<String>, Query, description = "The first day, `YYYY-MM-DD`."),
        ("to" = Option<String>, Query, description = "The last day, `YYYY-MM-DD`.")),
    responses((status = 200, body = sessions::Usage)))]
async fn usage(
    caller: Caller,
    State(state): State<AppState>,
    Query(range): Query<UsageRange>,
) -> ApiResult<Json<Value>> {
    let usage = state
        .sessions
        .usage(
            caller.account_id(),
            range.from.as_deref(),
            range.to.as_deref(),
        )
        .await?;
    Ok(Json(json!(usage)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The query as axum parses it off a request's URI.
    fn query(pairs: &[(&str, &str)]) -> TranscriptQuery {
        let text: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let uri: axum::http::Uri = format!("/t?{}", text.join("&")).parse().unwrap();
        Query::<TranscriptQuery>::try_from_uri(&uri).unwrap().0
    }

    #[test]
    fn the_page_query_has_defaults_and_refuses_bad_values() {
        assert_eq!(query(&[]).page().unwrap(), None);
        assert_eq!(
            query(&[("format", "text"), ("after", "x")]).page().unwrap(),
            None
        );
        let page = |pairs: &[(&str, &str)]| query(pairs).page();
        assert_eq!(
            page(&[("format", "json")]).unwrap(),
            Some((PageFrom::After(0), DEFAULT_PAGE))
        );
        assert_eq!(
            page(&[("format", "json"), ("after", "7"), ("limit", "1000")]).unwrap(),
            Some((PageFrom::After(7), 1000))
        );
        assert_eq!(
            page(&[("format", "json"), ("before", "9"), ("limit", "1")]).unwrap(),
            Some((PageFrom::Before(9), 1))
        );
        assert_eq!(
            page(&[("format", "json"), ("tail", "true")]).unwrap(),
            Some((PageFrom::Tail, DEFAULT_PAGE))
        );
        for bad in [
            &[("format", "xml")][..],
            &[("format", "json"), ("after", "-1")],
            &[("format", "json"), ("after", "x")],
            &[("format", "json"), ("limit", "0")],
            &[("format", "json"), ("limit", "1001")],
            &[("format", "json"), ("after", "1"), ("before", "5")],
            &[("format", "json"), ("before", "1"), ("tail", "true")],
            &[("format", "json"), ("tail", "yes")],
        ] {
            let error = page(bad).unwrap_err();
            assert_eq!(
                (error.status.as_u16(), error.code.as_ref()),
                (400, "invalid_request"),
                "{bad:?}"
            );
        }
    }
}
