//! AI coaching over the control server (and the web app): the artifacts
//! (the weekly report, computed now from the account's sessions of the
//! last seven days, and the interviews' write-ups) and starting an
//! interview. With `aiCoachingCliEnabled` off every coaching route of the
//! control server answers 403 `coaching_cli_disabled`, whatever the token;
//! the web app's own use is unaffected.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use coaching::{Artifact, ArtifactKind, Coaching, WEEKLY_REPORT_ID};
use serde::{Deserialize, Serialize};
use sessions::SpawnRequest;
use utoipa::ToSchema;

use crate::auth::{Caller, ControlSwitch};
use crate::blocking::blocking;
use crate::error::ApiResult;
use crate::json::OptionalJson;
use crate::routes::sessions::{Spawned, spawn_as};
use crate::state::AppState;
use app::coaching_watch;
use settings::SettingsStore;

const WEEKLY_TITLE: &str = "Your week with agents";

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/coaching/artifacts", get(list))
        .route("/coaching/artifacts/{id}", get(read))
        .route("/coaching/interviews", post(interview))
}

/// Closes these routes on the control server while the setting is off.
pub const SWITCH: ControlSwitch = ControlSwitch {
    enabled: SettingsStore::ai_coaching_cli_enabled,
    code: "coaching_cli_disabled",
    message: "Coaching over the control server is turned off (setting aiCoachingCliEnabled).",
};

async fn weekly(state: &AppState, account_id: &str) -> ApiResult<coaching::Weekly> {
    let to = state.clock.now();
    let from = clock::timestamp(to - time::Duration::days(7));
    let history = state.sessions.history_since(account_id, &from).await?;
    Ok(coaching::weekly(from, clock::timestamp(to), &history))
}

/// The weekly report as an artifact, made at `at` (it is computed at each read).
fn weekly_artifact(at: String, body: Option<String>) -> Artifact {
    Artifact {
        id: WEEKLY_REPORT_ID.to_owned(),
        kind: ArtifactKind::WeeklyReport,
        title: WEEKLY_TITLE.to_owned(),
        session_id: None,
        created_at: at.clone(),
        updated_at: at,
        body,
    }
}

/// The account's coaching artifacts: the weekly report first, then interviews.
#[utoipa::path(get, path = "/coaching/artifacts", responses((status = 200, body = Artifacts)))]
async fn list(caller: Caller, State(state): State<AppState>) -> ApiResult<Json<Artifacts>> {
    let mut artifacts = vec![weekly_artifact(state.clock.timestamp(), None)];
    let store = state.coaching.clone();
    let account = caller.account_id().to_owned();
    artifacts.extend(blocking(move || store.interviews(&account)).await?);
    Ok(Json(Artifacts { artifacts }))
}

#[derive(Serialize, ToSchema)]
struct Artifacts {
    artifacts: Vec<Artifact>,
}

/// An artifact; the weekly report also carries its figures.
#[derive(Serialize, ToSchema)]
struct ArtifactRead {
    #[serde(flatten)]
    artifact: Artifact,
    #[serde(skip_serializing_if = "Option::is_none")]
    report: Option<coaching::Weekly>,
}

/// One artifact: `weekly-report` (made now, with its `report`) or an interview.
#[utoipa::path(get, path = "/coaching/artifacts/{id}", params(("id" = String, Path, description = "The artifact's id.")),
    responses((status = 200, body = ArtifactRead)))]
async fn read(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<ArtifactRead>> {
    if id == WEEKLY_REPORT_ID {
        let report = weekly(&state, caller.account_id()).await?;
        return Ok(Json(ArtifactRead {
            artifact: weekly_artifact(report.to.clone(), Some(report.markdown.clone())),
            report: Some(report),
        }));
    }
    let store = state.coaching.clone();
    let account = caller.account_id().to_owned();
    let artifact = blocking(move || store.interview(&account, &id)).await?;
    Ok(Json(ArtifactRead {
        artifact,
        report: None,
    }))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct InterviewBody {
    topic: Option<String>,
}

/// Starts a coaching interview: a session on the primary engine.
///
/// Under the same spawn rules as `POST /sessions` (201, or 202 while spawn
/// spacing holds it); its answers become an artifact. No body, or
/// `{"topic"}`.
#[utoipa::path(post, path = "/coaching/interviews", params(("X-App-Source-Session-Id" = Option<String>, Header, description = "The live session of the caller's account that asks.")), request_body = Option<InterviewBody>,
    responses(
        (status = 201, body = Spawned),
        (status = 202, description = "Queued by spawn spacing.", body = Spawned),
    ))]
async fn interview(
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
    OptionalJson(body): OptionalJson<InterviewBody>,
) -> ApiResult<(StatusCode, Json<Spawned>)> {
    Coaching::check_topic(body.topic.as_deref())?;
    let request = SpawnRequest {
        engine: None,
        prompt: coaching::interviewer_prompt(body.topic.as_deref()),
        title: Some("Coaching interview".to_owned()),
        ..SpawnRequest::default()
    };
    let (status, session) = spawn_as(&state, &caller, &headers, request).await?;
    let store = state.coaching.clone();
    let (account, session_id, topic) = (
        caller.account_id().to_owned(),
        session.id.clone(),
        body.topic.clone(),
    );
    blocking(move || store.interview_started(&account, &session_id, topic.as_deref())).await?;
    // A first turn quicker than this request ended before the session was
    // known as an interview: its answer is kept now.
    let now = state.sessions.get(&session.account_id, &session.id).await?;
    if coaching_watch::turn_over(now.status) {
        coaching_watch::save(&state, &now.account_id, &now.id).await;
    }
    Ok((status, Json(Spawned { session })))
}
