//! The request and reply bodies this crate defines itself (the domain crates
//! define theirs). Every wire type, here and there, is also exported to
//! TypeScript: `tests/typescript.rs` writes `web/src/shared/api/types.generated.ts`
//! and fails when the checked-in file is stale.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

pub use crate::apps_wire::{
    AppOutput, AppsProxy, DeclaredApp, RunningApp, RunningAppOrigin, RunningAppState, StartApp,
};
pub use crate::briefings_wire::{
    DigestKind, DigestRun, DigestRunQuery, EmailSummaries, EmailSummariesQuery,
};
pub use crate::imports_wire::{ImportUrl, ImportedDocument};
pub use crate::mail_wire::{
    MailActionBody, MailAttachmentBody, MailCleanupBody, MailCleanupQuery, MailFoldersQuery,
    MailFrameQuery, MailRecipients, MailSendBody, MailThreadsQuery, NewMailAccountBody,
};
pub use app::stream_events::{
    AlarmChanged, BoardChanged, ForegroundEvent, InboxEvent, OutputEvent, SettingChanged,
    TasksChanged, TasksView,
};
pub use skills::{Scope as SkillScope, Skill};

/// Every error reply: `{"error": {"code", "message"}}`.
#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
pub struct ErrorDetail {
    pub code: String,
    pub message: String,
    /// The request field a 400 is about (`cron`, `timeZone`, `values`…),
    /// when it is about one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub field: Option<String>,
    /// Every bad field of the request, when a form's check found several
    /// (the first is `field` and `message`); a field may appear more than
    /// once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub fields: Option<Vec<FieldMessage>>,
}

/// One bad field of a request and what is wrong with it, as a sentence.
#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
pub struct FieldMessage {
    pub field: String,
    pub message: String,
}

/// `GET /me`: who the credential speaks for.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Me {
    pub account_id: String,
    pub is_owner: bool,
    /// `cli`, `agent` or `ui`.
    pub token_kind: String,
    pub session_id: Option<String>,
    /// The account's own member (`"self": true` in `GET /members`).
    pub member_id: Option<String>,
}

/// `GET /api/session` (UI server only): whether the browser is signed in,
/// answered with 200 either way so a signed-out visit logs no failed request.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BrowserSession {
    pub signed_in: bool,
    pub me: Option<Me>,
}

/// `GET /settings/<key>` and `DELETE /settings/<key>`.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
pub struct SettingView {
    pub key: String,
    pub value: Value,
    pub default: Value,
    /// The catalog's type label: text, toggle, number, select, list, map,
    /// object or unknown.
    #[serde(rename = "type")]
    pub type_label: String,
}

/// `GET /boards` query: the boards of one workspace, else of every workspace
/// of the account.
#[derive(Debug, Clone, Default, Deserialize, IntoParams, ToSchema)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct BoardQuery {
    /// Only this workspace's boards.
    pub workspace_id: Option<String>,
}

/// `GET /boards/full` query: the boards to read, in the order their lines
/// come.
#[derive(Debug, Clone, Default, Deserialize, IntoParams, ToSchema)]
#[into_params(parameter_in = Query)]
pub struct FullReadsQuery {
    /// Board ids separated by commas: 1 to 100, each once.
    pub ids: Option<String>,
    /// The item fields each body carries, separated by commas (`id`,
    /// `groupId`, `name`, `createdAt`, `updatedAt`, `values`); all of them
    /// when left out.
    pub fields: Option<String>,
    /// How each body writes its codes: `numbers` (JSON arrays, the default)
    /// or `base64` (one packed string per column).
    #[param(pattern = "^(numbers|base64)$")]
    pub codes: Option<String>,
    /// `own` (the default): each body carries its own dictionaries. `shared`:
    /// a first line `{"dicts": {"<key>": [..]}}` carries one dictionary per
    /// values key for all the boards, and each body's values columns carry
    /// only `codes`, into those.
    #[param(pattern = "^(own|shared)$")]
    pub dicts: Option<String>,
}

/// `GET /boards/{id}/full`'s query.
#[derive(Debug, Clone, Default, Deserialize, IntoParams, ToSchema)]
#[into_params(parameter_in = Query)]
pub struct FullReadQuery {
    /// For the columns form: the item fields it carries, separated by commas
    /// (`id`, `groupId`, `name`, `createdAt`, `updatedAt`, `values`); all of
    /// them when left out. The JSON form always carries every field.
    pub fields: Option<String>,
    /// For the columns form: how it writes its codes, `numbers` (JSON
    /// arrays, the default) or `base64` (one packed string per column). The
    /// JSON form has no codes.
    #[param(pattern = "^(numbers|base64)$")]
    pub codes: Option<String>,
}

#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewAccount {
    pub name: String,
}

/// `POST /accounts`: the new account and its cli token (shown only here).
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
pub struct CreatedAccount {
    pub id: String,
    pub name: String,
    pub token: String,
}

/// A runner token as its owner sees it (never the token itself).
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunnerToken {
    pub id: String,
    pub name: String,
    pub created_at: String,
}

/// `POST /runners/tokens`: the new token (shown only here) and where a
/// runner connects with it.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedRunnerToken {
    pub id: String,
    pub name: String,
    pub created_at: String,
    pub token: String,
    pub listener: RunnerListener,
}

/// The runner listener: where pool runners connect, and the fingerprint
/// they pin (`--ca-fingerprint`).
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunnerListener {
    /// Whether `runners.toml` has a `[listener]`.
    pub configured: bool,
    /// Where it listens, while it does.
    pub address: Option<String>,
    /// Its certificate's SHA-256, lowercase hex.
    pub fingerprint: Option<String>,
    /// Why it does not listen although configured.
    pub error: Option<String>,
}

#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(optional_fields)]
pub struct NewAlert {
    pub title: String,
    #[serde(default)]
    pub body: Option<String>,
    /// Also push it to the user's devices (held by quiet hours and focus).
    #[serde(default)]
    pub push: bool,
}

/// `POST /alarms`: `at` is RFC 3339 with an offset, or `HH:MM` for the next
/// such local time (the server's time zone).
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(optional_fields)]
pub struct NewAlarm {
    pub label: String,
    pub at: String,
    #[serde(default)]
    pub repeat: Option<alarms::Repeat>,
}

#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Named {
    pub name: String,
}

#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Titled {
    pub title: String,
}

/// A new order of columns or groups, by id.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Order {
    pub ids: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(optional_fields)]
pub struct ColumnChange {
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub settings: Option<Value>,
}

#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields)]
pub struct ItemMove {
    pub group_id: String,
    #[serde(default)]
    pub index: Option<usize>,
}

#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ItemBatch {
    pub items: Vec<boards::NewItem>,
    /// `true` when the items are (part of) an import: no item events are
    /// recorded, as nobody is to be notified of what a file brought in.
    #[serde(default)]
    #[ts(optional)]
    pub import: Option<bool>,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
pub struct BatchCreated {
    pub ids: Vec<String>,
}

/// `PATCH /settings/<key>`: the new value, of the key's catalog type exactly.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct SettingChange {
    pub value: Value,
}

/// One feature's day: what it spent and its cap.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UtilityFeatureSpend {
    pub feature: utility::Feature,
    /// The cap its setting gives (`weeklySummaryDailyCostCapUsd`,
    /// `sessionForensicsDailyCostCapUsd`); null for a feature the catalog
    /// gives no cap, and 0 is no limit.
    pub cap_usd: Option<f64>,
    pub spent_today_usd: f64,
    pub calls_today: u64,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
pub struct UtilitySpend {
    pub features: Vec<UtilityFeatureSpend>,
}

/// `PATCH /sessions/<id>`: the user's title, or `null` to clear it.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RenameSession {
    #[serde(deserialize_with = "present")]
    pub title: Option<String>,
}

/// A field that must be given, though it may be `null`.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Option::<String>::deserialize(d)
}

/// A follow-up message to a session.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionMessage {
    pub text: String,
    /// Images of `POST /attachments`, by id: the engine reads them, or a
    /// vision model's brief of each (`imageBridgeMode`, docs/attachments.md).
    #[serde(default)]
    #[ts(optional)]
    pub attachments: Option<Vec<String>>,
}

/// What `POST /sessions` carries: the spawn, and the images of its first
/// turn.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SpawnWithAttachments {
    #[serde(flatten)]
    pub request: sessions::SpawnRequest,
    /// Images of `POST /attachments`, by id, for the first turn.
    #[serde(default)]
    #[ts(optional)]
    pub attachments: Option<Vec<String>>,
}

/// `POST /sessions/<id>/stop`: no body, or `{"tree": false}`, stops the
/// session alone; `{"tree": true}` its descendants too.
#[derive(Debug, Clone, Default, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(optional_fields)]
pub struct StopSession {
    #[serde(default)]
    pub tree: Option<bool>,
}

/// `POST /sessions/<id>/start-decision`: the user's answer to a session a
/// session on a runner started (`cloudStartedSessionsEnabled`).
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StartDecision {
    /// `true` starts it; `false` stops it without its ever running.
    pub approve: bool,
}

/// `GET /usage` query: days written `YYYY-MM-DD`, both included, both optional.
#[derive(Debug, Clone, Default, Deserialize, TS)]
#[ts(optional_fields)]
pub struct UsageRange {
    #[serde(default)]
    pub from: Option<String>,
    #[serde(default)]
    pub to: Option<String>,
}

/// `POST /dashboards/<id>/publish`: the link, shown once (only its digest is kept).
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
pub struct PublishedLink {
    pub token: String,
    pub url: String,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicationState {
    pub published: bool,
    pub published_at: Option<String>,
}

/// `GET /inbox` query: `category`, `state` (default `open`: unread and read,
/// not archived), `before` (a row id: the page after it), `limit` (1 to 500,
/// default 50), `hidden=true` to include categories hidden by settings.
#[derive(Debug, Clone, Default, Deserialize, IntoParams, ToSchema)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct InboxQuery {
    pub category: Option<inbox::Category>,
    #[serde(default)]
    pub state: inbox::StateFilter,
    pub before: Option<String>,
    pub limit: Option<usize>,
    #[serde(default)]
    pub hidden: bool,
}

/// `GET /inbox/counts` query: `hidden=true` counts hidden categories too.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct CountsQuery {
    #[serde(default)]
    pub hidden: bool,
}

/// `POST /inbox/read-all`: one category, or every shown one.
#[derive(Debug, Clone, Default, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadAll {
    #[ts(optional)]
    pub category: Option<inbox::Category>,
    /// Hidden categories too.
    #[serde(default)]
    #[ts(optional)]
    pub hidden: Option<bool>,
}

/// `POST /inbox/read-all` and `POST /sessions/{id}/seen` reply with how many
/// rows they marked read.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
pub struct ReadAllDone {
    pub count: usize,
}

/// `POST /webhooks`.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewWebhook {
    pub name: String,
    #[ts(optional)]
    pub signing_secret: Option<String>,
    /// `inbox` (the default: each delivery is a `webhook` row) or
    /// `bug_intake` (each delivery is a Bug Intake report).
    #[ts(optional)]
    pub purpose: Option<webhooks::Purpose>,
}

/// `POST /webhooks` → 201: `url` holds the hook's secret and is shown this once.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
pub struct CreatedWebhook {
    pub id: String,
    pub name: String,
    pub url: String,
}

/// `POST /feedback`: what the user writes about Switchboard.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewFeedback {
    /// 1 to 10,000 characters.
    pub text: String,
}

/// `POST /test/clock` (only with `serve --manual-clock`): moves the server's
/// clock forward.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClockAdvance {
    #[serde(default)]
    pub advance_ms: u64,
    /// Sets the clock to this RFC 3339 moment first (a test that needs a
    /// given local time of day or a daylight-saving night).
    #[serde(default)]
    pub at: Option<String>,
}

/// `POST /input-requests`: what a session asks the user for. `sessionId` is
/// needed with a cli token; an agent token asks for its own session.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct NewInputRequest {
    pub name: String,
    pub prompt: String,
    /// The dotenv file, relative to the session's folder (`.env` when absent).
    pub file: Option<String>,
    pub session_id: Option<String>,
}

/// `POST /input-requests/<id>`: exactly one of a typed `value` (with
/// `remember` to keep it as a saved key), a saved key's name, or a decline.
#[derive(Debug, Clone, Default, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(optional_fields)]
pub struct InputAnswer {
    pub value: Option<String>,
    pub key: Option<String>,
    #[serde(default)]
    pub remember: Option<bool>,
    #[serde(default)]
    pub decline: Option<bool>,
}

/// `POST /key-proposals`: a key a session offers.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct NewKeyProposal {
    pub name: String,
    pub value: String,
    pub session_id: Option<String>,
}

/// `POST /key-proposals/<id>`: `save` (with the user's edits to the name or
/// the value, else as proposed) or `discard`.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(optional_fields)]
pub struct KeyDecision {
    pub decision: KeyDecisionKind,
    pub name: Option<String>,
    pub value: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum KeyDecisionKind {
    Save,
    Discard,
}

/// `PUT /keys/<name>`: a key's value, typed by the user.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct KeyValue {
    pub value: String,
}

/// The `navigate` event's payload.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct NavigateEvent {
    /// The web app's address for the view.
    pub path: String,
    /// Switch at once (`allowAgentDirectNavigation`), or offer a click-to-go toast.
    pub direct: bool,
    /// Who asks: the session's title (or id), or "a script".
    pub from: String,
    pub session_id: Option<String>,
}

/// A metrics token as `GET /metrics/tokens` lists it: never the token itself.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MetricsToken {
    pub id: String,
    pub name: String,
    pub created_at: String,
}

/// `POST /metrics/tokens`' answer: the token, shown this once (only its
/// digest is kept).
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedMetricsToken {
    pub id: String,
    pub token: String,
    pub name: String,
    pub created_at: String,
}

/// `GET /recipes`.
#[derive(Serialize, TS, ToSchema)]
pub struct RecipeList {
    pub recipes: Vec<automations::Recipe>,
}

/// `GET /recipes/{id}/runs`.
#[derive(Serialize, TS, ToSchema)]
pub struct RecipeRunList {
    pub runs: Vec<automations::RecipeRun>,
}

/// `GET /schedules`.
#[derive(Serialize, TS, ToSchema)]
pub struct RecipeScheduleList {
    pub schedules: Vec<automations::Schedule>,
}

/// `GET /rules`.
#[derive(Serialize, TS, ToSchema)]
pub struct RuleList {
    pub rules: Vec<automations::AutomationRule>,
}

/// `GET /rules/{id}/firings`, newest first.
#[derive(Serialize, TS, ToSchema)]
pub struct RuleFiringList {
    pub firings: Vec<automations::RuleFiring>,
}

/// `POST /recipes/{id}/runs`: values for the prompt's placeholders.
#[derive(Deserialize, Default, TS, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RecipeRunRequest {
    #[serde(default)]
    #[ts(as = "Option<std::collections::BTreeMap<String, String>>", optional)]
    pub values: std::collections::BTreeMap<String, String>,
}

/// A run started by hand: its record and its session.
#[derive(Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecipeRunStarted {
    pub run_id: String,
    pub session_id: String,
}

/// `GET /scheduled-messages`.
#[derive(Serialize, TS, ToSchema)]
pub struct ScheduledMessageList {
    pub messages: Vec<drips::ScheduledMessage>,
}

/// `GET /drips`.
#[derive(Serialize, TS, ToSchema)]
pub struct DripList {
    pub drips: Vec<drips::Drip>,
}

/// `GET /drips/{id}/items`.
#[derive(Serialize, TS, ToSchema)]
pub struct DripItemList {
    pub items: Vec<drips::Item>,
}

/// `PUT /focus`.
#[derive(Debug, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct FocusChangeBody {
    pub on: bool,
}

/// What `PUT /pomodoro` does to the run.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum PomodoroAction {
    /// Starts a run now (409 while one runs).
    Start,
    /// Ends the run now.
    Stop,
    /// Ends the current phase now and starts the next.
    Skip,
}

/// `PUT /pomodoro`: an action on the run, new weekday rules, or both.
#[derive(Debug, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PomodoroChange {
    #[ts(optional)]
    pub action: Option<PomodoroAction>,
    /// For `start`: the phases' lengths (each field defaults to the classic
    /// 25/5/15 minutes, 4 blocks, a long break after the fourth).
    #[ts(optional)]
    pub plan: Option<focus::Plan>,
    /// For `start`: whether the run turns focus mode on for blocks and off
    /// for breaks; by default `pomodoroAutoEnableFocusModeDefault`.
    #[ts(optional)]
    pub manages_focus: Option<bool>,
    /// Replaces the weekday rules that start runs (while
    /// `pomodoroScheduleEnabled` is on).
    #[ts(optional)]
    pub rules: Option<Vec<focus::PomodoroRule>>,
}

/// `POST /calendars`: a CalDAV account or an ICS subscription.
#[derive(Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct NewCalendar {
    pub kind: calendar::Kind,
    /// The server's address (its root is enough for CalDAV), or the `.ics`
    /// file's (`webcal://` is read as `https://`).
    pub url: String,
    #[ts(optional)]
    pub username: Option<String>,
    /// A password or an app token; written to the secrets store, never
    /// returned.
    #[ts(optional)]
    pub password: Option<String>,
    /// Shown in lists; the URL's host when absent.
    #[ts(optional)]
    pub name: Option<String>,
}

/// `GET /calendar/events`: a range of days, both included, `YYYY-MM-DD`.
#[derive(Debug, Clone, Deserialize, IntoParams, ToSchema)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct CalendarEventsQuery {
    pub from: String,
    pub to: String,
}

/// `POST /calendar/spam`: the invitation whose organizer is spam, by its
/// account and UID (an occurrence's `source.accountId` and `uid`).
#[derive(Debug, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CalendarSpamRequest {
    pub account_id: String,
    pub uid: String,
}

/// `PUT /calendar/organization`: the domains (`example.com`) and addresses
/// the user adds to their organization, replacing those added before.
#[derive(Debug, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct CalendarOrganizationEntries {
    pub added: Vec<String>,
}

/// `POST /ask`: a question for the Ask tutor (docs/ask.md).
#[derive(Debug, Clone, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct AskQuestion {
    pub question: String,
}

/// `POST /ask`'s answer: the tutor's session, in the `ask` project.
#[derive(Debug, Clone, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct AskStarted {
    pub session_id: String,
}

/// A pause or archive an agent token asked for that is not done yet (202).
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LifecycleDeferred {
    /// The approval it waits for: an agent at `read_only` asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub approval: Option<permissions::Approval>,
    /// `true`: the session archives itself once the turn it asked from ends.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub archive_at_turn_end: Option<bool>,
}
