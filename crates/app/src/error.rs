//! What the application's own operations fail with: the domain error that
//! stopped them, kept whole so the HTTP layer maps it to the same status a
//! direct domain call would get, and the two helpers every operation uses to
//! stay off the async workers and to wait for a person.

use clock::Clock;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Sessions(#[from] sessions::SessionError),
    #[error(transparent)]
    Permissions(#[from] permissions::PermissionError),
    #[error(transparent)]
    Governor(#[from] governor::GovernorError),
    #[error(transparent)]
    Inbox(#[from] inbox::InboxError),
    #[error(transparent)]
    Coaching(#[from] coaching::CoachingError),
    #[error(transparent)]
    Digests(#[from] digests::DigestError),
    #[error(transparent)]
    Tasks(#[from] tasks::TaskError),
    #[error(transparent)]
    Friction(#[from] friction::FrictionError),
    #[error(transparent)]
    Accounts(#[from] accounts::AccountsError),
    #[error(transparent)]
    Settings(#[from] settings::SettingsError),
    #[error(transparent)]
    Secrets(#[from] secrets::SecretsError),
    #[error(transparent)]
    Messenger(#[from] messenger::MessengerError),
    #[error(transparent)]
    Mail(#[from] mail::MailError),
    #[error(transparent)]
    Work(#[from] work::WorkError),
    #[error(transparent)]
    Automations(#[from] automations::AutomationError),
    #[error(transparent)]
    Boards(#[from] boards::BoardsError),
    #[error(transparent)]
    Webhooks(#[from] webhooks::WebhookError),
    #[error(transparent)]
    Drips(#[from] drips::DripError),
    #[error(transparent)]
    Focus(#[from] focus::FocusError),
    #[error(transparent)]
    Calendar(#[from] calendar::CalendarError),
    #[error(transparent)]
    Briefings(#[from] briefings::BriefingError),
    /// A recipe's run could not start (its folder is gone); the run is
    /// recorded failed with this reason.
    #[error("{reason}")]
    RecipeRunFailed { run_id: String, reason: String },
    /// What the caller may not do, whatever its token's kind allows.
    #[error("{0}")]
    Forbidden(String),
    /// Input from outside (a mail, a delivery) that cannot be used.
    #[error("{0}")]
    Invalid(String),
    /// A file the application writes for a session (an attachment).
    #[error("cannot write a session's file: {0}")]
    Io(String),
    #[error(transparent)]
    BugIntake(#[from] bugintake::IntakeError),
    #[error(transparent)]
    BugIntakeConfig(#[from] bugintake::ConfigError),
    /// A blocking task panicked or was cancelled: a bug, not the caller's fault.
    #[error("a background task did not finish")]
    Task(#[from] tokio::task::JoinError),
}

pub type AppResult<T> = Result<T, AppError>;

/// Runs a synchronous domain call (SQLite) off the async workers.
pub async fn blocking<T, E>(work: impl FnOnce() -> Result<T, E> + Send + 'static) -> AppResult<T>
where
    T: Send + 'static,
    E: Send + 'static,
    AppError: From<E>,
{
    Ok(tokio::task::spawn_blocking(work).await??)
}

/// How long one request waits for a user's answer (an approval, an input
/// request) before it answers "still pending" and its caller asks again:
/// under the 30-second request timeout. The answers' own time limits run on
/// the application's clock.
pub const POLL_WAIT: time::Duration = time::Duration::seconds(20);

/// Resolves once [`POLL_WAIT`] has passed on the application's clock, so a
/// test's manual clock ends a wait as it ends the answer's time limit; and
/// as long in real time at the latest, because the request timeout this must
/// beat is real time, which a wall clock stepped back would otherwise outlast.
pub async fn poll_wait(clock: &dyn Clock) {
    tokio::select! {
        () = clock.sleep(POLL_WAIT) => {}
        () = tokio::time::sleep(POLL_WAIT.unsigned_abs()) => {}
    }
}
