//! The wire types of the briefings' routes (`routes/briefings.rs`):
//! running a digest now and the email summarizer's list.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

/// Which digest `POST /digests/run` makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DigestKind {
    /// The RSS morning digest of today.
    Rss,
    /// The daily briefing over the day that ended.
    Daily,
}

/// `POST /digests/run`: which digest.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct DigestRunQuery {
    pub kind: DigestKind,
}

/// The inbox row (category `digest`) a run posted.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DigestRun {
    pub id: String,
}

/// `GET /summaries/email`: which page.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
pub struct EmailSummariesQuery {
    /// Summaries per page, 1 to 200 (50 when absent).
    pub limit: Option<usize>,
    /// The `next` of the page before.
    pub cursor: Option<String>,
}

/// A page of the email summarizer's mail, newest first.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmailSummaries {
    pub summaries: Vec<briefings::EmailSummary>,
    /// The cursor of the next page, absent on the last.
    pub next: Option<String>,
    /// The summarizer's watcher: `off`, `connecting`, `idling`, `polling`
    /// or `retrying: <why>`.
    pub watcher: String,
}
