//! The one error type of the API and its single mapping to status codes.
//!
//! Every refusal leaves the server as `{"error": {"code", "message"}}`; the
//! domain crates' errors are mapped here and nowhere else (route files only
//! use `?`), and 5xx details (paths, parse errors, SQLite messages) go to the
//! log, never to the client: a 5xx body carries a fixed, generic sentence.

mod features;

use std::borrow::Cow;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    /// Ours, or (a team chat refusal) the outside service's own.
    pub code: Cow<'static, str>,
    pub message: String,
    /// The request field a 400 is about, when it is about one.
    pub field: Option<&'static str>,
    /// Every bad field, when a check found several (`error.fields`).
    pub fields: Vec<(&'static str, String)>,
}

impl ApiError {
    pub fn new(
        status: StatusCode,
        code: impl Into<Cow<'static, str>>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            status,
            code: code.into(),
            message: message.into(),
            field: None,
            fields: Vec::new(),
        }
    }

    /// Names the request field the error is about (`error.field`).
    pub fn on_field(mut self, field: Option<&'static str>) -> Self {
        self.field = field;
        self
    }

    /// A 400 naming every bad field: the first is its `field` and
    /// `message`, all of them its `fields`.
    pub fn bad_fields(list: Vec<(&'static str, String)>) -> Self {
        let (field, message) = list
            .first()
            .map(|(field, message)| (Some(*field), message.clone()))
            .unwrap_or((None, "A field of the request is wrong.".to_owned()));
        let mut error = Self::bad_request("invalid_request", message).on_field(field);
        error.fields = list;
        error
    }

    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    pub fn forbidden(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, code, message)
    }

    pub fn not_found(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, code, message)
    }

    pub fn unauthenticated() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "unauthenticated",
            "A valid credential is required.",
        )
    }

    /// An unexpected failure: logged in full, reported without detail. A
    /// full disk is the one such failure the user can act on, so it is
    /// named: 503 `storage_full` (docs/backup.md).
    pub fn internal(error: impl std::error::Error) -> Self {
        if is_storage_full(&error) {
            return Self::logged(
                StatusCode::SERVICE_UNAVAILABLE,
                "storage_full",
                "The disk that holds Switchboard's data is full: nothing was changed. Free some space and try again.",
                &error,
            );
        }
        Self::logged(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal_error",
            "Something went wrong inside Switchboard; the log has the details.",
            &error,
        )
    }

    /// A 5xx whose cause (with its whole source chain) goes to the log and
    /// whose reply says only `message`.
    fn logged(
        status: StatusCode,
        code: &'static str,
        message: &str,
        error: &dyn std::error::Error,
    ) -> Self {
        let mut detail = error.to_string();
        let mut source = error.source();
        while let Some(cause) = source {
            detail.push_str(": ");
            detail.push_str(&cause.to_string());
            source = cause.source();
        }
        tracing::error!(%detail, code, "request failed inside the server");
        Self::new(status, code, message)
    }

    /// The generic error for a status produced outside our handlers (the
    /// framework's own 404, 405, 408 and so on).
    pub fn for_status(status: StatusCode) -> Self {
        let (code, message) = match status {
            StatusCode::NOT_FOUND => ("not_found", "There is nothing at this path."),
            StatusCode::METHOD_NOT_ALLOWED => (
                "method_not_allowed",
                "This path does not accept that method.",
            ),
            StatusCode::PAYLOAD_TOO_LARGE => (
                "payload_too_large",
                "The request body is larger than 1 MiB.",
            ),
            StatusCode::UNSUPPORTED_MEDIA_TYPE => (
                "unsupported_media_type",
                "A request body must be sent as Content-Type: application/json.",
            ),
            StatusCode::REQUEST_TIMEOUT => ("request_timeout", "The request took too long."),
            StatusCode::UNAUTHORIZED => ("unauthenticated", "A valid credential is required."),
            StatusCode::FORBIDDEN => ("forbidden", "This request is not allowed."),
            s if s.is_server_error() => (
                "internal_error",
                "Something went wrong inside Switchboard; the log has the details.",
            ),
            _ => ("invalid_request", "The request could not be understood."),
        };
        Self::new(status, code, message)
    }

    pub fn body(&self) -> String {
        let body = crate::wire::ErrorBody {
            error: crate::wire::ErrorDetail {
                code: self.code.to_string(),
                message: self.message.clone(),
                field: self.field.map(str::to_owned),
                fields: (!self.fields.is_empty()).then(|| {
                    self.fields
                        .iter()
                        .map(|(field, message)| crate::wire::FieldMessage {
                            field: (*field).to_owned(),
                            message: message.clone(),
                        })
                        .collect()
                }),
            },
        };
        serde_json::to_string(&body).unwrap_or_default()
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, self.body()).into_response();
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        response
    }
}

impl From<settings::SettingsError> for ApiError {
    fn from(error: settings::SettingsError) -> Self {
        use settings::SettingsError as E;
        match error {
            E::UnknownSetting { .. } => ApiError::not_found("unknown_setting", error.to_string()),
            E::InvalidValue { message, .. } => ApiError::bad_request("invalid_value", message),
            E::Store(e) => ApiError::internal(e),
        }
    }
}

impl From<accounts::AccountsError> for ApiError {
    fn from(error: accounts::AccountsError) -> Self {
        match error {
            accounts::AccountsError::InvalidName => {
                ApiError::bad_request("invalid_request", error.to_string())
            }
            other => ApiError::internal(other),
        }
    }
}

impl From<permissions::PermissionError> for ApiError {
    fn from(error: permissions::PermissionError) -> Self {
        use permissions::PermissionError as E;
        let message = error.to_string();
        match error {
            E::NotFound => ApiError::not_found("not_found", message),
            E::AlreadyDecided => ApiError::new(StatusCode::CONFLICT, "approval_decided", message),
            E::Store(e) => ApiError::internal(e),
            E::Sqlite(e) => ApiError::internal(e),
        }
    }
}

impl From<secrets::SecretsError> for ApiError {
    fn from(error: secrets::SecretsError) -> Self {
        use secrets::SecretsError as E;
        let message = error.to_string();
        match error {
            E::InvalidName | E::InvalidPrompt | E::InvalidValue => {
                ApiError::bad_request("invalid_request", message)
            }
            E::FileOutsideFolder { .. } => ApiError::bad_request("file_outside_folder", message),
            E::RequestNotFound | E::ProposalNotFound => ApiError::not_found("not_found", message),
            E::KeyNotFound(_) => ApiError::not_found("key_not_found", message),
            E::AlreadyAnswered(_) => {
                ApiError::new(StatusCode::CONFLICT, "already_answered", message)
            }
            // The session's folder refused the file (gone, read-only, a
            // folder in its place): the user can fix it and answer again.
            E::FileWrite { .. } => ApiError::new(StatusCode::CONFLICT, "file_not_written", message),
            E::KeyFile { .. } | E::Crypto | E::Store(_) => ApiError::internal(error),
        }
    }
}

impl From<governor::GovernorError> for ApiError {
    fn from(error: governor::GovernorError) -> Self {
        match error {
            governor::GovernorError::Sessions(e) => e.into(),
            governor::GovernorError::Store(e) => ApiError::internal(e),
            task @ governor::GovernorError::Task => ApiError::internal(task),
        }
    }
}

impl From<coaching::CoachingError> for ApiError {
    fn from(error: coaching::CoachingError) -> Self {
        use coaching::CoachingError as E;
        let message = error.to_string();
        match error {
            E::NotFound => ApiError::not_found("not_found", message),
            E::InvalidTopic => ApiError::bad_request("invalid_request", message),
            E::Store(e) => ApiError::internal(e),
        }
    }
}

impl From<tasks::TaskError> for ApiError {
    fn from(error: tasks::TaskError) -> Self {
        use tasks::TaskError as E;
        let message = error.to_string();
        match error {
            E::NotFound => ApiError::not_found("not_found", message),
            E::Invalid(_) => ApiError::bad_request("invalid_request", message),
            E::Io { .. } => ApiError::bad_request("invalid_request", message),
            E::Store(e) => ApiError::internal(e),
        }
    }
}

impl From<bookmarks::BookmarkError> for ApiError {
    fn from(error: bookmarks::BookmarkError) -> Self {
        use bookmarks::BookmarkError as E;
        let message = error.to_string();
        match error {
            E::NotFound => ApiError::not_found("not_found", message),
            E::Invalid(_) => ApiError::bad_request("invalid_request", message),
            E::Store(e) => ApiError::internal(e),
        }
    }
}

impl From<team::TeamError> for ApiError {
    fn from(error: team::TeamError) -> Self {
        use team::TeamError as E;
        let message = error.to_string();
        match error {
            E::NotFound => ApiError::not_found("not_found", message),
            E::Invalid(_) => ApiError::bad_request("invalid_request", message),
            E::Member => ApiError::bad_request("workspace_member", message),
            E::Store(e) => ApiError::internal(e),
        }
    }
}

impl From<inbox::InboxError> for ApiError {
    fn from(error: inbox::InboxError) -> Self {
        use inbox::InboxError as E;
        match error {
            E::Store(e) => ApiError::internal(e),
            E::NotFound => ApiError::not_found("not_found", error.to_string()),
            E::InvalidTitle | E::InvalidBody | E::InvalidLimit | E::UnknownCursor => {
                ApiError::bad_request("invalid_request", error.to_string())
            }
        }
    }
}

impl From<webhooks::WebhookError> for ApiError {
    fn from(error: webhooks::WebhookError) -> Self {
        use webhooks::WebhookError as E;
        let message = error.to_string();
        match error {
            E::InvalidName | E::InvalidSigningSecret => {
                ApiError::bad_request("invalid_request", message)
            }
            E::NotFound => ApiError::not_found("not_found", message),
            // Exactly the reply of an unknown path (and of the feature
            // turned off), so a guessed address learns nothing.
            E::UnknownHook => ApiError::for_status(StatusCode::NOT_FOUND),
            E::RateLimited { .. } => {
                ApiError::new(StatusCode::TOO_MANY_REQUESTS, "rate_limited", message)
            }
            E::InvalidSignature => {
                ApiError::new(StatusCode::UNAUTHORIZED, "invalid_signature", message)
            }
            E::Random(_) | E::Store(_) => ApiError::internal(error),
        }
    }
}

impl From<alarms::AlarmError> for ApiError {
    fn from(error: alarms::AlarmError) -> Self {
        use alarms::AlarmError as E;
        let message = error.to_string();
        match error {
            E::InvalidLabel => ApiError::bad_request("invalid_request", message),
            E::InvalidTime => ApiError::bad_request("invalid_alarm_time", message),
            E::InPast => ApiError::bad_request("alarm_in_past", message),
            E::NotFound => ApiError::not_found("not_found", message),
            E::NotRinging => ApiError::new(StatusCode::CONFLICT, "alarm_not_ringing", message),
            E::SnoozeLimit(_) => ApiError::new(StatusCode::CONFLICT, "snooze_limit", message),
            E::Corrupt | E::Store(_) => ApiError::internal(error),
        }
    }
}

impl From<boards::BoardsError> for ApiError {
    fn from(error: boards::BoardsError) -> Self {
        use boards::BoardsError as E;
        match error {
            E::NotFound { .. } => ApiError::not_found("not_found", error.to_string()),
            E::Invalid { message } => ApiError::bad_request("invalid_request", message),
            E::Conflict { message } => ApiError::new(StatusCode::CONFLICT, "conflict", message),
            E::Database(e) => ApiError::internal(e),
            E::Compression(e) => ApiError::internal(e),
            e @ E::KeptBody(_) => ApiError::internal(e),
        }
    }
}

impl From<dashboards::DashboardsError> for ApiError {
    fn from(error: dashboards::DashboardsError) -> Self {
        use dashboards::DashboardsError as E;
        let message = error.to_string();
        match error {
            E::NotFound { .. } => ApiError::not_found("not_found", message),
            E::Invalid { .. } => ApiError::bad_request("invalid_request", message),
            E::Stale => ApiError::new(
                StatusCode::PRECONDITION_FAILED,
                "stale_dashboard",
                "The dashboard changed since this copy was loaded (another tab or script saved it); reload to see it.",
            ),
            E::Boards(e) => ApiError::from(e),
            other => ApiError::internal(other),
        }
    }
}

impl From<sessions::SessionError> for ApiError {
    fn from(error: sessions::SessionError) -> Self {
        use sessions::SessionError as E;
        let message = error.to_string();
        match error {
            E::NotFound => ApiError::not_found("not_found", message),
            E::AgentDrivenSessionsDisabled => {
                ApiError::forbidden("agent_driven_sessions_disabled", message)
            }
            E::AgentTokenSpawnDisabled => {
                ApiError::forbidden("agent_token_spawn_disabled", message)
            }
            E::SourceSessionRequired => ApiError::forbidden("source_session_required", message),
            E::ConcurrencyLimit { .. } => {
                ApiError::new(StatusCode::TOO_MANY_REQUESTS, "concurrency_limit", message)
            }
            E::UnknownEngine { .. } => ApiError::bad_request("unknown_engine", message),
            E::UnknownRunner { .. } => ApiError::bad_request("unknown_runner", message),
            E::RunnersOff => ApiError::forbidden("runners_disabled", message),
            E::RemoteStartsOff => ApiError::forbidden("remote_started_sessions_disabled", message),
            E::NotAwaitingApproval => ApiError::new(StatusCode::CONFLICT, "wrong_state", message),
            E::InvalidInput(_) => ApiError::bad_request("invalid_request", message),
            E::SessionEnded { .. } => ApiError::new(StatusCode::CONFLICT, "session_ended", message),
            E::ForkSourceNotFound { .. } => ApiError::not_found("not_found", message),
            E::ForkUnsupported { .. } => {
                ApiError::new(StatusCode::CONFLICT, "fork_unsupported", message)
            }
            E::ForkNotReady { .. } => {
                ApiError::new(StatusCode::CONFLICT, "fork_not_ready", message)
            }
            E::NotIsolated => ApiError::new(StatusCode::CONFLICT, "not_isolated", message),
            E::WorktreeRemoved { .. } => {
                ApiError::new(StatusCode::CONFLICT, "worktree_removed", message)
            }
            // The file is the server's configuration, not the caller's input, so
            // this is a 5xx; its path and parse error are for the log only.
            E::EnginesConfig { .. } => ApiError::logged(
                StatusCode::INTERNAL_SERVER_ERROR,
                "engines_config_invalid",
                "The engines file is invalid; the server log says what is wrong.",
                &error,
            ),
            E::ShuttingDown => {
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "shutting_down", message)
            }
            E::OpenFileLimit { .. } => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "resource_exhausted",
                message,
            ),
            E::Store(e) => ApiError::internal(e),
            E::Worktree(e) => ApiError::from(e),
        }
    }
}

impl From<worktrees::WorktreeError> for ApiError {
    fn from(error: worktrees::WorktreeError) -> Self {
        use worktrees::WorktreeError as E;
        let message = error.to_string();
        match error {
            E::NotARepository { .. } => ApiError::bad_request("not_a_git_repository", message),
            // The caller's folder or the caller's repository: theirs to fix.
            E::NoSuchFolder { .. }
            | E::NoCommit { .. }
            | E::InvalidInclude { .. }
            | E::NotAChangedFile { .. } => ApiError::bad_request("invalid_request", message),
            // The command names the worktree's files: for the log only.
            E::Timeout { .. } => ApiError::logged(
                StatusCode::SERVICE_UNAVAILABLE,
                "git_timeout",
                "Git took too long to read the worktree; try again.",
                &error,
            ),
            E::Spawn(_) | E::Git { .. } | E::Copy { .. } => ApiError::internal(error),
        }
    }
}

impl From<messenger::MessengerError> for ApiError {
    fn from(error: messenger::MessengerError) -> Self {
        use messenger::MessengerError as E;
        let message = error.to_string();
        match error {
            E::UnknownPairing => ApiError::not_found("not_found", message),
            E::PairingExpired => ApiError::new(StatusCode::CONFLICT, "pairing_expired", message),
            E::InvalidInput(_) => ApiError::bad_request("invalid_request", message),
            _ => ApiError::internal(error),
        }
    }
}

impl From<bugintake::IntakeError> for ApiError {
    fn from(error: bugintake::IntakeError) -> Self {
        use bugintake::IntakeError as E;
        let message = error.to_string();
        match error {
            E::NotFound => ApiError::not_found("not_found", message),
            E::WrongState { .. } => ApiError::new(StatusCode::CONFLICT, "wrong_state", message),
            E::Store(_) => ApiError::internal(error),
        }
    }
}

/// The Ask tutor could not start: a bad question, or its engine in the
/// doctor's words.
impl From<app::TutorError> for ApiError {
    fn from(error: app::TutorError) -> Self {
        use app::TutorError as E;
        let message = error.to_string();
        match error {
            E::BadQuestion => {
                ApiError::bad_request("invalid_request", message).on_field(Some("question"))
            }
            E::EngineMissing(_) => {
                ApiError::new(StatusCode::CONFLICT, "ask_engine_missing", message)
            }
            E::EngineUnavailable(_) => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "ask_engine_unavailable",
                message,
            ),
            E::Docs(e) => ApiError::internal(e),
            E::Task(_) => ApiError::internal(error),
        }
    }
}

/// An operation of the application failed on a domain error: the status
/// that error gets from a route of its own.
impl From<app::AppError> for ApiError {
    fn from(error: app::AppError) -> Self {
        use app::AppError as E;
        match error {
            E::Sessions(e) => e.into(),
            E::Permissions(e) => e.into(),
            E::Governor(e) => e.into(),
            E::Inbox(e) => e.into(),
            E::Coaching(e) => e.into(),
            E::Digests(e) => ApiError::internal(e),
            E::Tasks(e) => e.into(),
            E::Friction(e) => ApiError::internal(e),
            E::Accounts(e) => e.into(),
            E::Settings(e) => e.into(),
            E::Secrets(e) => e.into(),
            E::Messenger(e) => e.into(),
            E::BugIntake(e) => e.into(),
            E::Invalid(message) => ApiError::bad_request("invalid_request", message),
            E::Forbidden(message) => ApiError::forbidden("forbidden", message),
            E::Mail(e) => ApiError::internal(e),
            E::Io(message) => ApiError::internal(std::io::Error::other(message)),
            E::BugIntakeConfig(e) => ApiError::new(
                StatusCode::CONFLICT,
                "bug_intake_config_invalid",
                e.to_string(),
            ),
            E::Task(e) => ApiError::internal(e),
            E::Work(e) => e.into(),
            E::Automations(e) => e.into(),
            E::Boards(e) => e.into(),
            E::Webhooks(e) => e.into(),
            E::Drips(e) => e.into(),
            E::Focus(e) => e.into(),
            E::Calendar(e) => e.into(),
            E::Briefings(e) => ApiError::internal(e),
            E::RecipeRunFailed { reason, .. } => {
                ApiError::new(StatusCode::CONFLICT, "recipe_run_failed", reason)
            }
        }
    }
}

impl From<work::WorkError> for ApiError {
    fn from(error: work::WorkError) -> Self {
        use work::WorkError as E;
        match error {
            E::NotFound => ApiError::not_found("not_found", "No such work."),
            E::Refused(reason) => ApiError::new(StatusCode::CONFLICT, "action_refused", reason),
            E::Git(e) => ApiError::new(StatusCode::CONFLICT, "git_failed", e.to_string()),
            E::Store(e) => ApiError::internal(e),
        }
    }
}

impl From<automations::AutomationError> for ApiError {
    fn from(error: automations::AutomationError) -> Self {
        use automations::AutomationError as E;
        let message = error.to_string();
        let field = error.field();
        match error {
            E::Fields(list) => {
                ApiError::bad_fields(list.into_iter().map(|p| (p.field, p.message)).collect())
            }
            E::Invalid { .. } | E::MissingValues(_) => {
                ApiError::bad_request("invalid_request", message).on_field(field)
            }
            E::NameTaken(_) => {
                ApiError::new(StatusCode::CONFLICT, "name_taken", message).on_field(field)
            }
            E::RecipeNotFound | E::ScheduleNotFound | E::RunNotFound | E::RuleNotFound => {
                ApiError::not_found("not_found", message)
            }
            E::AlreadyRun | E::WrongState { .. } | E::RuleWrongState { .. } => {
                ApiError::new(StatusCode::CONFLICT, "conflict", message)
            }
            E::Corrupt(_) | E::Store(_) => ApiError::internal(error),
        }
    }
}

impl From<drips::DripError> for ApiError {
    fn from(error: drips::DripError) -> Self {
        use drips::DripError as E;
        let message = error.to_string();
        match error {
            E::Invalid { field, .. } => {
                ApiError::bad_request("invalid_request", message).on_field(Some(field))
            }
            E::Fields(list) => {
                ApiError::bad_fields(list.into_iter().map(|p| (p.field, p.message)).collect())
            }
            E::Rule(e) => e.into(),
            E::MessageNotFound | E::DripNotFound | E::ItemNotFound => {
                ApiError::not_found("not_found", message)
            }
            E::FolderDrip(_) => ApiError::new(StatusCode::CONFLICT, "folder_drip", message),
            E::NothingWaiting(_) => ApiError::new(StatusCode::CONFLICT, "nothing_waiting", message),
            E::WrongState { .. } => ApiError::new(StatusCode::CONFLICT, "conflict", message),
            E::Unreadable(_) => ApiError::new(StatusCode::CONFLICT, "item_unreadable", message),
            E::Corrupt(_) | E::Store(_) => ApiError::internal(error),
        }
    }
}

impl From<focus::FocusError> for ApiError {
    fn from(error: focus::FocusError) -> Self {
        use focus::FocusError as E;
        let message = error.to_string();
        match error {
            E::Invalid { field, .. } => {
                ApiError::bad_request("invalid_request", message).on_field(Some(field))
            }
            E::WrongState(_) => ApiError::new(StatusCode::CONFLICT, "conflict", message),
            E::Corrupt(_) | E::Db(_) => ApiError::internal(error),
        }
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

/// SQLite's `SQLITE_FULL` or the OS's `ENOSPC` anywhere in the chain. Some
/// feature errors keep only their cause's text, hence the message check.
fn is_storage_full(error: &dyn std::error::Error) -> bool {
    let says_full = |text: String| {
        text.contains("database or disk is full") || text.contains("No space left on device")
    };
    if says_full(error.to_string()) {
        return true;
    }
    let mut cause = error.source();
    while let Some(current) = cause {
        if let Some(store::rusqlite::Error::SqliteFailure(failure, _)) =
            current.downcast_ref::<store::rusqlite::Error>()
            && failure.code == store::rusqlite::ErrorCode::DiskFull
        {
            return true;
        }
        if current
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::StorageFull)
            || says_full(current.to_string())
        {
            return true;
        }
        cause = current.source();
    }
    false
}
