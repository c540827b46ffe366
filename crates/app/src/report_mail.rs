//! Switchboard's own reports by email (docs/diagnostics.md): the user's
//! feedback about the app (`bugReportEmailEnabled`), each crash
//! (`crashAlertEmailEnabled` under `telemetryEmailEnabled`) and the weekly
//! usage digest (`telemetryEmailEnabled`), kept by the `diagnostics` crate
//! and sent, once each, from an account of `email.toml` to the address its
//! `[reports]` names. Without that address nothing leaves the machine. A
//! round runs every minute on the app clock and when a crash is caught;
//! feedback kept while its switch was off goes out in the first round after
//! it is turned on.

use diagnostics::{Diagnostics, DiagnosticsError, EngineUse, Kind, Usage};

use crate::error::{AppError, AppResult, blocking};
use crate::services::App;

const LOOK_EVERY: time::Duration = time::Duration::minutes(1);

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn app_error(error: DiagnosticsError) -> AppError {
    match error {
        DiagnosticsError::Invalid(message) => AppError::Invalid(message),
        DiagnosticsError::Store(e) => AppError::Io(e.to_string()),
    }
}

pub(crate) fn start(app: &App) {
    diagnostics::install_panic_hook(std::env::var_os("HOME").map(Into::into));
    let app = app.clone();
    let mut stop = app.stop.subscribe();
    tokio::spawn(async move {
        let mut due = app.clock.now();
        loop {
            tokio::select! {
                () = async { drop(stop.wait_for(Option::is_some).await) } => return,
                () = app.clock.sleep_until(due) => {}
                () = diagnostics::wait_for_crash() => {}
            }
            round(&app).await;
            let now = app.clock.now();
            due = if due + LOOK_EVERY < now {
                now + LOOK_EVERY
            } else {
                due + LOOK_EVERY
            };
        }
    });
}

impl App {
    fn diagnostics(&self) -> Diagnostics {
        Diagnostics::new(self.db.clone(), self.clock.clone())
    }

    /// Keeps the user's feedback about Switchboard; it is sent in the next
    /// round while `bugReportEmailEnabled` is on and `[reports]` names an
    /// address, and kept here until then.
    pub async fn feedback(&self, owner: &str, text: &str) -> AppResult<diagnostics::Report> {
        let (kept, owner, text) = (self.diagnostics(), owner.to_owned(), text.to_owned());
        let report =
            blocking(move || kept.feedback(&owner, &text, VERSION).map_err(app_error)).await?;
        let app = self.clone();
        tokio::spawn(async move { round(&app).await });
        Ok(report)
    }

    /// Starts a task that panics, naming a file under the home folder: for
    /// `POST /test/panic`, which exists only on a manual clock, so the
    /// tests of crash reports have a real crash to report.
    pub fn panic_in_a_task(&self) {
        let home = std::env::var("HOME").unwrap_or_default();
        tokio::spawn(async move {
            let place = format!("{home}/private/plans.md");
            panic!("a test panic reading {place}");
        });
    }

    /// The account's feedback, newest first, each with whether it was sent.
    pub async fn feedback_list(&self, owner: &str) -> AppResult<Vec<diagnostics::Report>> {
        let (kept, owner) = (self.diagnostics(), owner.to_owned());
        blocking(move || kept.feedback_of(&owner).map_err(app_error)).await
    }
}

/// Records the crashes caught, then sends what the switches allow.
async fn round(app: &App) {
    let kept = app.diagnostics();
    let telemetry = app.settings.telemetry_email_enabled();
    let crash_mail = telemetry && app.settings.crash_alert_email_enabled();
    for crash in diagnostics::take_crashes() {
        let kept = kept.clone();
        if let Err(error) =
            blocking(move || kept.crash(&crash, VERSION, crash_mail).map_err(app_error)).await
        {
            tracing::warn!(%error, "a crash was not recorded");
        }
    }
    if telemetry && let Err(error) = keep_digest(app, &kept).await {
        tracing::warn!(%error, "the weekly digest was not made");
    }
    let mut kinds = Vec::new();
    if app.settings.bug_report_email_enabled() {
        kinds.push(Kind::Feedback);
    }
    if crash_mail {
        kinds.push(Kind::Crash);
    }
    if telemetry {
        kinds.push(Kind::Digest);
    }
    if kinds.is_empty() {
        return;
    }
    if let Err(error) = send_due(app, &kept, &kinds).await {
        tracing::warn!(%error, "reports were not sent");
    }
}

/// Makes the week's digest when one is due.
async fn keep_digest(app: &App, kept: &Diagnostics) -> AppResult<()> {
    let due = {
        let kept = kept.clone();
        blocking(move || kept.digest_due().map_err(app_error)).await?
    };
    let Some(from) = due else { return Ok(()) };
    let now = app.clock.now();
    let usage = usage(app, kept, from, now).await?;
    let kept = kept.clone();
    blocking(move || kept.digest(&usage).map_err(app_error)).await?;
    Ok(())
}

/// Counts of the week: sessions started and turns, by engine kind.
async fn usage(
    app: &App,
    kept: &Diagnostics,
    from: time::OffsetDateTime,
    to: time::OffsetDateTime,
) -> AppResult<Usage> {
    let (since, until) = (clock::timestamp(from), clock::timestamp(to));
    let store = app.accounts.clone();
    let accounts = blocking(move || store.list().map_err(AppError::from)).await?;
    let mut by_kind: std::collections::BTreeMap<String, EngineUse> = Default::default();
    let day = |at: time::OffsetDateTime| at.date().to_string();
    for account in accounts {
        let sessions = app.sessions.list_records(&account.id).await?;
        let mut kinds = std::collections::HashMap::new();
        for session in &sessions {
            kinds.insert(session.engine.clone(), session.engine_kind.clone());
            if session.created_at >= since && session.created_at < until {
                let entry = by_kind.entry(session.engine_kind.clone()).or_default();
                entry.sessions_started += 1;
            }
        }
        let turns = app
            .sessions
            .usage(&account.id, Some(&day(from)), Some(&day(to)))
            .await?;
        for used in turns.days {
            let kind = kinds
                .get(&used.engine)
                .cloned()
                .unwrap_or_else(|| "other".to_owned());
            by_kind.entry(kind).or_default().turns += used.turns.unsigned_abs();
        }
    }
    let engines = by_kind
        .into_iter()
        .map(|(kind, mut used)| {
            used.kind = kind;
            used
        })
        .collect();
    let crashes = {
        let (kept, since) = (kept.clone(), since.clone());
        blocking(move || kept.crashes_since(&since).map_err(app_error)).await?
    };
    Ok(Usage {
        from: since,
        to: until,
        version: VERSION.to_owned(),
        engines,
        crashes,
    })
}

/// Sends the due reports of `kinds` from the `[reports]` account, each once.
async fn send_due(app: &App, kept: &Diagnostics, kinds: &[Kind]) -> AppResult<()> {
    let mut due = Vec::new();
    for kind in kinds {
        let (kept, kind) = (kept.clone(), *kind);
        due.extend(blocking(move || kept.due(kind).map_err(app_error)).await?);
    }
    // Read only when something waits: a round runs every minute.
    if due.is_empty() {
        return Ok(());
    }
    let dir = app.data_dir.clone();
    let config = match blocking(move || mail::Config::load(&dir).map_err(AppError::from)).await {
        Ok(config) => config,
        // No email.toml: nothing can be sent, and everything stays kept.
        Err(AppError::Mail(mail::MailError::NotConfigured(_))) => return Ok(()),
        Err(error) => return Err(error),
    };
    let Some((account, to)) = config.reports_route() else {
        return Ok(());
    };
    let password = match account.smtp.password_key.as_deref() {
        Some(key) => {
            let owner = crate::connections::owner(app).await?;
            let (secrets, key) = (app.secrets.clone(), key.to_owned());
            Some(blocking(move || secrets.reveal(&owner, &key).map_err(AppError::from)).await?)
        }
        None => None,
    };
    let trust = mail::Trust::load(&config)?;
    let mailer = mail::Mailer::new(account, password.as_deref(), &trust)?;
    for report in due {
        let claimed = {
            let (kept, id) = (kept.clone(), report.id.clone());
            blocking(move || kept.claim(&id).map_err(app_error)).await?
        };
        if !claimed {
            continue;
        }
        let sent = mailer.send_new(to, &report.subject, &report.body).await;
        let (kept, id) = (kept.clone(), report.id.clone());
        blocking(move || match sent {
            Ok(_) => kept.sent(&id).map_err(app_error),
            Err(error) => kept.failed(&id, &error.to_string()).map_err(app_error),
        })
        .await?;
    }
    Ok(())
}
