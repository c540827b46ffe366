//! Wire types: what the module takes and returns, serialised as in the contract (camelCase).

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;

/// `{"id", "workspaceId", "name", "config", "createdAt", "updatedAt"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Dashboard {
    pub id: String,
    pub workspace_id: String,
    pub name: String,
    pub config: Value,
    pub created_at: String,
    pub updated_at: String,
    /// Not part of the JSON: it travels as the ETag.
    #[serde(skip)]
    pub version: i64,
}

impl Dashboard {
    /// The strong ETag (quotes included) that `If-Match` must repeat.
    pub fn etag(&self) -> String {
        etag(&self.id, self.version)
    }
}

pub(crate) fn etag(id: &str, version: i64) -> String {
    format!("\"{id}.{version}\"")
}

/// `POST /dashboards`. Without `config` the dashboard starts empty:
/// `{"boardIds": [], "widgets": [], "filters": {}}`.
#[derive(Debug, Clone, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewDashboard {
    pub workspace_id: String,
    pub name: String,
    #[serde(default = "empty_config")]
    pub config: Value,
}

pub fn empty_config() -> Value {
    json!({"boardIds": [], "widgets": [], "filters": {}})
}

/// `PATCH /dashboards/<id>`: absent fields stay; `config` replaces the whole
/// config. `"config": null` is refused rather than read as absent.
#[derive(Debug, Clone, Default, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct DashboardPatch {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "present")]
    pub config: Option<Value>,
}

/// Keeps a JSON `null` as `Some(Value::Null)` so that the checks refuse it.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// What `publish` returns, once: the token is not kept in readable form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct Publication {
    pub token: String,
    /// `/p/<token>`, the read-only page on the UI server.
    pub url_path: String,
}

impl Publication {
    /// The full link given the UI server's base URL (`http://127.0.0.1:19520`).
    pub fn url(&self, ui_base: &str) -> String {
        format!("{}{}", ui_base.trim_end_matches('/'), self.url_path)
    }
}

/// Whether a dashboard has a live link, and since when.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct PublicationStatus {
    pub published_at: String,
}

/// What the public read (`publish::public_view`) serialises, and what the TypeScript client is
/// generated from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PublicDashboardBody {
    pub dashboard: PublicDashboard,
    pub boards: Vec<PublicBoard>,
    pub members: Vec<PublicMember>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PublicDashboard {
    pub id: String,
    pub name: String,
    pub config: Value,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PublicBoard {
    pub board: PublicBoardHeader,
    pub items: Vec<boards::FullItem>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PublicBoardHeader {
    pub id: String,
    pub name: String,
    pub columns: Vec<boards::Column>,
    pub groups: Vec<boards::Group>,
}

/// A member as a public link shows it: a name, never an email.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PublicMember {
    pub id: String,
    pub name: String,
}
