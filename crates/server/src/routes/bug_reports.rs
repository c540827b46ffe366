//! `/bug-reports`: Bug Intake's reports, the app's form, and the user's
//! hold, release and dismiss. Reports from webhooks arrive through
//! `POST /hooks/<secret>` (a hook made with `"purpose": "bug_intake"`).

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use bugintake::{BugIntake, BugReport, ReportState};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::User;
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/bug-reports", get(list).post(report))
        .route("/bug-reports/{id}", get(read))
        .route("/bug-reports/{id}/hold", post(hold))
        .route("/bug-reports/{id}/release", post(release))
        .route("/bug-reports/{id}/dismiss", post(dismiss))
}

/// The most reports one read returns.
const MOST: usize = 500;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct ListQuery {
    /// `new`, `held`, `triaging`, `triaged`, `dismissed` or `unrouted`.
    state: Option<ReportState>,
}

#[derive(Serialize, ToSchema)]
struct Reports {
    reports: Vec<BugReport>,
}

/// A report and what became of it.
#[derive(Serialize, ToSchema)]
pub(crate) struct TakenReport {
    pub report: BugReport,
    /// `started` (its triage session started), `listed` or `duplicate`.
    pub outcome: &'static str,
}

impl From<app::bug_intake::Taken> for TakenReport {
    fn from(taken: app::bug_intake::Taken) -> Self {
        Self {
            report: taken.report,
            outcome: taken.outcome,
        }
    }
}

/// The form's fields.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct FormReport {
    title: String,
    #[serde(default)]
    body: String,
    /// A project folder (absolute), or a name `bugintake.toml`'s routes match.
    project: Option<String>,
}

/// The account's bug reports, newest first (at most 500).
///
/// Every report is listed, whatever `bugIntakeEnabled` says. An unknown
/// `state` → 400 `invalid_request`. Agent tokens are refused.
#[utoipa::path(get, path = "/bug-reports", params(ListQuery), responses((status = 200, body = Reports)))]
async fn list(
    user: User,
    State(state): State<AppState>,
    Query(query): Query<ListQuery>,
) -> ApiResult<Json<Reports>> {
    let bugs = BugIntake::new(state.db.clone());
    let reports = blocking(move || bugs.list(user.account_id(), query.state, MOST)).await?;
    Ok(Json(Reports { reports }))
}

/// One bug report.
///
/// Another account's or an unknown id → 404 `not_found`. Agent tokens are refused.
#[utoipa::path(get, path = "/bug-reports/{id}", params(("id" = String, Path, description = "The report's id.")),
    responses((status = 200, body = BugReport)))]
async fn read(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<BugReport>> {
    let bugs = BugIntake::new(state.db.clone());
    Ok(Json(
        blocking(move || bugs.get(user.account_id(), &id)).await?,
    ))
}

/// Reports a bug from the app's form.
///
/// Title 1 to 300 characters, body up to 64 KiB (else 400
/// `invalid_request`, and nothing is stored). The report is routed by
/// `bugintake.toml` (a `project` that is an absolute folder is used when no
/// route matches), deduplicated, and with `bugIntakeEnabled` on starts its
/// triage session. Agent tokens are refused.
#[utoipa::path(post, path = "/bug-reports", request_body = FormReport, responses((status = 201, body = TakenReport)))]
async fn report(
    user: User,
    State(state): State<AppState>,
    ApiJson(form): ApiJson<FormReport>,
) -> ApiResult<(StatusCode, Json<TakenReport>)> {
    let report = bugintake::from_form(
        &bugintake::Form {
            title: &form.title,
            body: &form.body,
            project: form.project.as_deref(),
        },
        state.clock.now(),
    )
    .map_err(|error| ApiError::bad_request("invalid_request", error.to_string()))?;
    let taken = app::bug_intake::receive(&state, user.account_id(), report).await?;
    Ok((StatusCode::CREATED, Json(taken.into())))
}

/// Holds a new report: it starts nothing until released.
///
/// Only a `new` report can be held (else 409 `wrong_state`). Agent tokens are refused.
#[utoipa::path(post, path = "/bug-reports/{id}/hold", params(("id" = String, Path, description = "The report's id.")),
    responses((status = 200, body = BugReport)))]
async fn hold(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<BugReport>> {
    let bugs = BugIntake::new(state.db.clone());
    Ok(Json(
        blocking(move || bugs.hold(user.account_id(), &id)).await?,
    ))
}

/// Releases a held, new or unrouted report.
///
/// It is routed again with `bugintake.toml` as it is now and, with
/// `bugIntakeEnabled` on, starts its triage session. Another state → 409
/// `wrong_state`. Agent tokens are refused.
#[utoipa::path(post, path = "/bug-reports/{id}/release", params(("id" = String, Path, description = "The report's id.")),
    responses((status = 200, body = TakenReport)))]
async fn release(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<TakenReport>> {
    let taken = app::bug_intake::release(&state, user.account_id(), &id).await?;
    Ok(Json(taken.into()))
}

/// Dismisses a report; its triage session, if any, is left as it is.
///
/// Agent tokens are refused.
#[utoipa::path(post, path = "/bug-reports/{id}/dismiss", params(("id" = String, Path, description = "The report's id.")),
    responses((status = 200, body = BugReport)))]
async fn dismiss(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<BugReport>> {
    let bugs = BugIntake::new(state.db.clone());
    Ok(Json(
        blocking(move || bugs.dismiss(user.account_id(), &id)).await?,
    ))
}
