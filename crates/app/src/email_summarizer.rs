//! The email summarizer (`emailSummarizerEnabled`, docs/briefings.md): mail
//! that reaches the inbox `emailSummarizerInboxId` names (an account of
//! `DIR/email.toml`, `address` or `address/Mailbox`, as for inbound email)
//! is summarized by the utility model into an inbox row of category
//! `email_summary` that names the original (sender, subject, Message-ID).
//!
//! - One task follows the settings and keeps the `mail` crate's watcher on
//!   the inbox while the summarizer is on; each new mail is claimed once in
//!   the `briefings` book (by its place and its Message-ID, so nothing is
//!   summarized twice, restarts included) and handled before the watcher
//!   moves on, one at a time, so the daily cap is met in order.
//! - A forwarded mail is summarized as the original it carries
//!   (`briefings::content`); a mail with no text gets a row saying so and
//!   costs no model call. The prompt is `emailSummarizerDefaultPrompt`, or
//!   the built-in one when blank: the spec gives the summarizer no rules of
//!   its own, so every mail gets that prompt.
//! - `emailSummarizerArchiveEnabled` moves the mail to the account's
//!   Archive mailbox after a summary was written, never after a failure.
//! - `emailSummarizerDailyCostCapUsd` is the feature's budget per day in
//!   the inbox's zone: once reached, the mail is kept as `waiting`, one row
//!   a day says the summarizer paused, and a second task summarizes what
//!   waits when the next day begins on the application's clock.
//! - The inbox must differ from inbound email's while that is on: both
//!   watchers would share one cursor, and a mail meant to start a session
//!   would be summarized instead (or the reverse).
//!
//! `emailSummarizerGmailEnabled` (threads of the mail client's account
//! carrying a label) is not built yet: docs/briefings.md says so.

use std::sync::Arc;
use std::time::Duration;

use briefings::{NewMail, Outcome, SummaryBook};
use inbox::{Category, NewRow};
use mail::{Fetched, Mailbook, Trust, Watcher};
use tokio::sync::watch;
use utility::{Ask, Feature, UtilityError};

use crate::error::{AppError, blocking};
use crate::links::Summarizer as Watching;
use crate::services::App;
use crate::utility_model;

/// The wait before trying again after the inbox could not be set up.
const RETRY_AFTER: Duration = Duration::from_secs(60);

/// The `address/Mailbox` key the book files this inbox's mail under.
fn mailbox_key(watching: &Watching) -> String {
    format!(
        "{}/{}",
        watching.inbox.account.address, watching.inbox.mailbox
    )
}

#[derive(Debug, thiserror::Error)]
enum SetupError {
    #[error(transparent)]
    Mail(#[from] mail::MailError),
    #[error("email.toml names the saved key {key} for IMAP, which cannot be read: {detail}")]
    Password { key: String, detail: String },
    #[error("email.toml's imap server for {0} names no password_key")]
    NoImapPassword(String),
    #[error(
        "emailSummarizerInboxId names the inbox inbound email watches: give the summarizer \
         a mailbox of its own (address/Mailbox)"
    )]
    SameInbox,
    #[error(transparent)]
    App(#[from] AppError),
}

/// What the watcher is doing: `off`, `connecting`, `idling`, `polling` or
/// `retrying: <why>`.
pub fn status(state: &App) -> String {
    match state.summarizer.get() {
        None => "off".to_owned(),
        Some(watching) => watching.status.borrow().label(),
    }
}

/// Starts the watching task and the next-day task; both end with the server.
pub fn start(state: &App) {
    let app = state.clone();
    tokio::spawn(async move { follow_the_setting(&app).await });
    let app = state.clone();
    tokio::spawn(async move { summarize_waiting_each_day(&app).await });
}

fn book(state: &App) -> Arc<SummaryBook> {
    Arc::new(SummaryBook::new(state.db.clone(), state.clock.clone()))
}

async fn follow_the_setting(state: &App) {
    let mut changes = state.settings_changed.subscribe();
    loop {
        if state.stop_requested() {
            return;
        }
        if !state.settings.email_summarizer_enabled() {
            state.summarizer.set(None);
            if !crate::connections::wait_for_change(state, &mut changes, None).await {
                return;
            }
            continue;
        }
        match setup(state).await {
            Ok((watcher, watching)) => {
                state.summarizer.forget_said();
                let watching = Arc::new(watching);
                state.summarizer.set(Some(watching.clone()));
                let inbox_id = state.settings.email_summarizer_inbox_id();
                let (stop_tx, stop_rx) = watch::channel(false);
                let app = state.clone();
                let on_mail = move |fetched: Fetched| {
                    let (app, watching) = (app.clone(), watching.clone());
                    async move { arrived(&app, &watching, fetched).await }
                };
                let watch = watcher.run(on_mail, stop_rx);
                crate::connections::watch_while_wanted(state, &mut changes, watch, stop_tx, || {
                    state.settings.email_summarizer_enabled()
                        && state.settings.email_summarizer_inbox_id() == inbox_id
                })
                .await;
                state.summarizer.set(None);
            }
            Err(error) => {
                tracing::warn!(%error, "the email summarizer's inbox is not watched");
                if state.summarizer.first_time(&error.to_string()) {
                    let mut row = NewRow::new(
                        Category::EmailSummary,
                        "The email summarizer is not watching its inbox",
                    );
                    row.body = Some(error.to_string());
                    if let Ok(owner) = crate::connections::owner(state).await {
                        utility_model::note(state, &owner, row).await;
                    }
                }
                if !crate::connections::wait_for_change(state, &mut changes, Some(RETRY_AFTER))
                    .await
                {
                    return;
                }
            }
        }
    }
}

async fn setup(state: &App) -> Result<(Watcher, Watching), SetupError> {
    let dir = state.data_dir.clone();
    let config = blocking(move || mail::Config::load(&dir)).await?;
    let inbox = mail::resolve_inbox(&config, &state.settings.email_summarizer_inbox_id())?;
    if state.settings.email_inbound_enabled()
        && mail::resolve_inbox(&config, &state.settings.email_inbound_inbox_id())
            .is_ok_and(|inbound| inbound == inbox)
    {
        return Err(SetupError::SameInbox);
    }
    let owner = crate::connections::owner(state).await?;
    let key = inbox
        .account
        .imap
        .password_key
        .clone()
        .ok_or_else(|| SetupError::NoImapPassword(inbox.account.address.clone()))?;
    let (secrets, who, name) = (state.secrets.clone(), owner.clone(), key.clone());
    let password = blocking(move || secrets.reveal(&who, &name).map_err(AppError::from))
        .await
        .map_err(|error| SetupError::Password {
            key,
            detail: error.to_string(),
        })?;
    let trust = Trust::load(&config)?;
    let cursors = Arc::new(Mailbook::new(state.db.clone(), state.clock.clone()));
    let watcher = Watcher::new(
        inbox.clone(),
        password.clone(),
        trust.clone(),
        config.poll_interval(),
        cursors,
    );
    let status = watcher.status();
    Ok((
        watcher,
        Watching {
            inbox,
            password,
            trust,
            owner,
            status,
        },
    ))
}

/// A mail the watcher handed over: claimed once, then summarized.
async fn arrived(state: &App, watching: &Arc<Watching>, fetched: Fetched) {
    let mail = match mail::parse(&fetched.raw) {
        Ok(mail) => mail,
        Err(error) => {
            tracing::warn!(%error, uid = fetched.uid, "a mail that cannot be read was passed over");
            return;
        }
    };
    let (book, key, owner) = (book(state), mailbox_key(watching), watching.owner.clone());
    let parsed = mail.clone();
    let (uid_validity, uid) = (fetched.uid_validity, fetched.uid);
    let claimed = blocking(move || {
        book.claim(&NewMail {
            account_id: &owner,
            mailbox: &key,
            uid_validity,
            uid,
            message_id: parsed.message_id.as_deref(),
            from: parsed.from.as_deref().unwrap_or_default(),
            subject: &parsed.subject,
        })
    })
    .await;
    let id = match claimed {
        Ok(Some(id)) => id,
        Ok(None) => return,
        Err(error) => {
            tracing::warn!(%error, "cannot record a mail for the summarizer");
            return;
        }
    };
    let taken = Taken {
        id,
        account_id: watching.owner.clone(),
        mailbox: mailbox_key(watching),
        uid_validity,
        uid,
    };
    summarize(state, &taken, &mail, &fetched.raw).await;
}

/// A claimed mail and where it lives.
struct Taken {
    id: String,
    account_id: String,
    mailbox: String,
    uid_validity: u32,
    uid: u32,
}

/// Summarizes one claimed mail, or keeps it waiting when the day's cap is
/// reached; true unless it waits.
async fn summarize(state: &App, taken: &Taken, mail: &mail::Mail, raw: &[u8]) -> bool {
    let Some(content) = briefings::content(mail) else {
        let mut row = NewRow::new(Category::EmailSummary, title("No text to summarize", mail));
        row.body = Some(format!(
            "The mail has no text, so the model was not asked.\n\n{}",
            original(mail)
        ));
        let row_id = add_row(state, &taken.account_id, row).await;
        finish(state, &taken.id, Outcome::NoText { row_id }).await;
        return true;
    };
    let prompt =
        briefings::summary_prompt(&state.settings.email_summarizer_default_prompt(), &content);
    let ask = Ask {
        feature: Feature::EmailSummary,
        model: None,
        prompt: &prompt,
        budget: utility_model::budget(state, Feature::EmailSummary),
    };
    match state.utility.text(&ask).await {
        Ok(answer) => {
            let summary = answer.text.trim().to_owned();
            let mut row = NewRow::new(Category::EmailSummary, title("Summary", mail));
            row.body = Some(inbox::clip(
                &format!("{summary}\n\n{}", original(mail)),
                inbox::MAX_BODY_CHARS,
            ));
            let row_id = add_row(state, &taken.account_id, row).await;
            finish(state, &taken.id, Outcome::Done { summary, row_id }).await;
            if state.settings.email_summarizer_archive_enabled() {
                archive(state, taken).await;
            }
            true
        }
        Err(UtilityError::Capped { cap, .. }) => {
            let (book, id, raw) = (book(state), taken.id.clone(), raw.to_vec());
            if let Err(error) = blocking(move || book.wait(&id, &raw)).await {
                tracing::warn!(%error, "cannot keep a mail waiting for tomorrow");
            }
            paused_today(state, &taken.account_id, cap).await;
            false
        }
        Err(error) => {
            utility_model::report(state, &taken.account_id, Feature::EmailSummary, &error).await;
            let mut row = NewRow::new(Category::EmailSummary, title("Could not summarize", mail));
            row.body = Some(format!("{error}\n\n{}", original(mail)));
            let row_id = add_row(state, &taken.account_id, row).await;
            let failure = error.to_string();
            finish(state, &taken.id, Outcome::Failed { failure, row_id }).await;
            true
        }
    }
}

fn title(what: &str, mail: &mail::Mail) -> String {
    let subject = match mail.subject.as_str() {
        "" => "(no subject)",
        subject => subject,
    };
    format!("{what}: {subject}")
}

/// The lines that name the original mail.
fn original(mail: &mail::Mail) -> String {
    let mut lines = format!("From: {}", mail.from.as_deref().unwrap_or("(unknown)"));
    if let Some(id) = &mail.message_id {
        lines.push_str(&format!("\nMessage-ID: <{id}>"));
    }
    lines
}

/// Adds the row and announces it; its id (empty when it could not be added).
async fn add_row(state: &App, account_id: &str, row: NewRow) -> String {
    let (inbox, account) = (state.inbox.clone(), account_id.to_owned());
    match blocking(move || inbox.add(&account, row)).await {
        Ok(added) => {
            let id = added.row.id.clone();
            crate::publish::inbox_added(state, account_id, added);
            id
        }
        Err(error) => {
            tracing::warn!(%error, "cannot add an email summary row");
            String::new()
        }
    }
}

async fn finish(state: &App, id: &str, outcome: Outcome) {
    let (book, id) = (book(state), id.to_owned());
    if let Err(error) = blocking(move || book.finish(&id, &outcome)).await {
        tracing::warn!(%error, "cannot record a mail's summary");
    }
}

/// Moves the summarized mail to the Archive mailbox when its inbox is the
/// one watched now; a failure is logged and leaves the mail where it is.
async fn archive(state: &App, taken: &Taken) {
    let Some(watching) = state
        .summarizer
        .get()
        .filter(|w| mailbox_key(w) == taken.mailbox)
    else {
        return;
    };
    let moved = mail::archive(
        &watching.inbox,
        &watching.password,
        &watching.trust,
        taken.uid_validity,
        taken.uid,
    )
    .await;
    match moved {
        Ok(true) => {
            let (book, id) = (book(state), taken.id.clone());
            if let Err(error) = blocking(move || book.archived(&id)).await {
                tracing::warn!(%error, "cannot record an archived mail");
            }
        }
        Ok(false) => tracing::info!("the summarizer's mailbox was renumbered: nothing archived"),
        Err(error) => tracing::warn!(%error, "cannot archive a summarized mail"),
    }
}

/// One row a day says the summarizer paused at its cap.
async fn paused_today(state: &App, account_id: &str, cap: f64) {
    let (book, key) = (
        book(state),
        format!("summarizer-paused:{}", utility_model::local_day(state)),
    );
    match blocking(move || book.mark_once(&key, "")).await {
        Ok(true) => {
            let mut row = NewRow::new(
                Category::EmailSummary,
                "Email summaries paused until tomorrow",
            );
            row.body = Some(format!(
                "The summarizer's daily cap of ${cap:.2} (emailSummarizerDailyCostCapUsd) is \
                 reached. New mail waits and is summarized when the next day begins."
            ));
            add_row(state, account_id, row).await;
        }
        Ok(false) => {}
        Err(error) => tracing::warn!(%error, "cannot mark the summarizer paused"),
    }
}

/// At the start and at each new day in the inbox's zone, summarizes the
/// mail that waited for the budget, oldest first, until the cap stops it
/// again.
async fn summarize_waiting_each_day(state: &App) {
    let mut stop = state.watch_stop();
    let mut changes = state.settings_changed.subscribe();
    loop {
        if state.settings.email_summarizer_enabled() {
            summarize_waiting(state).await;
        }
        let zone = pm_inbox::window::zone(&state.settings.pm_inbox_quiet_hours_time_zone());
        let now = pm_inbox::window::instant(state.clock.now());
        let next = pm_inbox::window::next_day_start(&zone, now);
        let wake = time::OffsetDateTime::from_unix_timestamp_nanos(next.as_nanosecond())
            .unwrap_or_else(|_| state.clock.now() + time::Duration::hours(1));
        tokio::select! {
            _ = stop.wait_for(Option::is_some) => return,
            () = state.clock.sleep_until(wake) => {}
            _ = changes.changed() => {}
        }
    }
}

async fn summarize_waiting(state: &App) {
    let book = book(state);
    let waiting = match blocking(move || book.waiting()).await {
        Ok(waiting) => waiting,
        Err(error) => {
            tracing::warn!(%error, "cannot read the mail waiting for a summary");
            return;
        }
    };
    for waiting in waiting {
        let Ok(mail) = mail::parse(&waiting.raw) else {
            continue;
        };
        let taken = Taken {
            id: waiting.id,
            account_id: waiting.account_id,
            mailbox: waiting.mailbox,
            uid_validity: waiting.uid_validity,
            uid: waiting.uid,
        };
        if !summarize(state, &taken, &mail, &waiting.raw).await {
            return;
        }
    }
}
