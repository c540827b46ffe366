//! Email in (`emailInboundEnabled`): mail to the inbox `emailInboundInboxId`
//! names (an account of `DIR/email.toml`) can start an email-triggered
//! session, and the session's final message goes back as a reply in the
//! same thread.
//!
//! One task follows the setting. While it is on it keeps the `mail` crate's
//! watcher on the inbox (IDLE when the server has it, else polling), with
//! the passwords read from the owner's saved keys. Each new mail is claimed
//! once in the mail book (so nothing is processed twice, restarts
//! included) and then, on a task of its own so the watcher never waits:
//!
//! - mail a machine sent (auto-replies, lists, bounces) is ignored, and so
//!   is mail whose sender the receiving server found failing DMARC, SPF or
//!   DKIM (`Authentication-Results`): its `From` may be forged;
//! - mail to an address `bugintake.toml` routes is a bug report;
//! - a reply in a thread a session owns, from an approved sender, is a
//!   follow-up of that session;
//! - mail from anyone not in `emailInboundApprovedSenders` starts nothing:
//!   with `spamFilterAgentEmailEnabled` it gets no reply at all, else one
//!   polite refusal per sender and local day;
//! - an approved sender's new mail is classified by the utility model with
//!   `emailInboundPrescreenPrompt` (or the default), which must answer
//!   `{"action": "start" | "ignore", "reason", "title"}`; `start` saves the
//!   attachments in a folder of the mail's own (under `email.toml`'s
//!   `folder`) and starts a session there with the mail's text as its
//!   prompt, `"trigger": "email"` (read-only, no spawning, no network but
//!   the control port, at every permission level).
//!
//! Every mail's decision and reason are on record (`GET /email/inbound`).
//! A listener on the sessions' broadcasts sends each email session's final
//! message of a turn as the reply (`In-Reply-To`, `References`) to the
//! thread's latest mail, and joins the reply to the thread.

use std::sync::Arc;
use std::time::Duration;

use mail::{Decision, Fetched, Mail, Mailbook, Mailer, Trust, Watcher};

use crate::links::Inbox;
use serde::Deserialize;
use serde_json::json;
use sessions::{Caller, SessionUpdate, SpawnRequest, Status, Trigger, Via};
use tokio::sync::watch;
use utility::{Ask, Feature};

use crate::error::{AppError, AppResult, blocking};
use crate::publish;
use crate::services::App;
use crate::utility_model;

/// The phrase that opens the default prescreen prompt (the stand-in API in
/// tests answers by it).
pub const PRESCREEN_PHRASE: &str = "Classify this email sent to a coding agent";

/// The wait before trying again after the inbox could not be set up.
const RETRY_AFTER: Duration = Duration::from_secs(60);

/// The most of a mail's text a prescreen reads.
const PRESCREEN_CHARS: usize = 8_000;

#[derive(Debug, thiserror::Error)]
enum SetupError {
    #[error(transparent)]
    Mail(#[from] mail::MailError),
    #[error("email.toml names the saved key {key} for {what}, which cannot be read: {detail}")]
    Password {
        key: String,
        what: &'static str,
        detail: String,
    },
    #[error("email.toml's imap server for {0} names no password_key")]
    NoImapPassword(String),
    #[error("there is no folder for email sessions: set `folder` in email.toml")]
    NoFolder,
    #[error(transparent)]
    App(#[from] AppError),
}

/// What the watcher is doing: `off` (not watching), `connecting`,
/// `idling`, `polling`, or `retrying: <why>`.
pub fn status(state: &App) -> String {
    match state.email.get() {
        None => "off".to_owned(),
        Some(watched) => watched.status.borrow().label(),
    }
}

/// Starts the inbox task and the reply listener; both end with the server.
pub fn start(state: &App) {
    let app = state.clone();
    tokio::spawn(async move { follow_the_setting(&app).await });
    publish::on_session_updates(
        state,
        "email replies",
        ends_a_turn,
        |state, update| async move {
            let app = state.clone();
            tokio::spawn(async move { reply(&app, &update).await });
        },
    );
}

fn ends_a_turn(update: &SessionUpdate) -> bool {
    update.moved && matches!(update.status, Status::WaitingForInput | Status::Failed)
}

async fn follow_the_setting(state: &App) {
    let mut changes = state.settings_changed.subscribe();
    loop {
        if state.stop_requested() {
            return;
        }
        if !state.settings.email_inbound_enabled() {
            state.email.set(None);
            if !crate::connections::wait_for_change(state, &mut changes, None).await {
                return;
            }
            continue;
        }
        match setup(state).await {
            Ok((watcher, watched)) => {
                state.email.forget_said();
                let watched = Arc::new(watched);
                state.email.set(Some(watched.clone()));
                let inbox_id = state.settings.email_inbound_inbox_id();
                let (stop_tx, stop_rx) = watch::channel(false);
                let app = state.clone();
                let on_mail = move |fetched: Fetched| {
                    let app = app.clone();
                    let watched = watched.clone();
                    async move { arrived(&app, &watched, fetched).await }
                };
                let watch = watcher.run(on_mail, stop_rx);
                // Runs until the setting goes off, the inbox it names
                // changes, or the server stops.
                crate::connections::watch_while_wanted(state, &mut changes, watch, stop_tx, || {
                    state.settings.email_inbound_enabled()
                        && state.settings.email_inbound_inbox_id() == inbox_id
                })
                .await;
                state.email.set(None);
            }
            Err(error) => {
                tracing::warn!(%error, "inbound email is not watched");
                say_once(state, &error.to_string()).await;
                if !crate::connections::wait_for_change(state, &mut changes, Some(RETRY_AFTER))
                    .await
                {
                    return;
                }
            }
        }
    }
}

async fn setup(state: &App) -> Result<(Watcher, Inbox), SetupError> {
    let dir = state.data_dir.clone();
    let config = blocking(move || mail::Config::load(&dir)).await?;
    let inbox = mail::resolve_inbox(&config, &state.settings.email_inbound_inbox_id())?;
    let owner = crate::connections::owner(state).await?;
    let key = |what: &'static str, key: Option<&str>| {
        let (secrets, owner, key) = (state.secrets.clone(), owner.clone(), key.map(str::to_owned));
        async move {
            let Some(key) = key else { return Ok(None) };
            let name = key.clone();
            blocking(move || secrets.reveal(&owner, &key).map_err(AppError::from))
                .await
                .map(Some)
                .map_err(|error| SetupError::Password {
                    key: name,
                    what,
                    detail: error.to_string(),
                })
        }
    };
    let imap_password = key("IMAP", inbox.account.imap.password_key.as_deref())
        .await?
        .ok_or_else(|| SetupError::NoImapPassword(inbox.account.address.clone()))?;
    let smtp_password = key("SMTP", inbox.account.smtp.password_key.as_deref()).await?;
    let trust = Trust::load(&config)?;
    let mailer = Mailer::new(&inbox.account, smtp_password.as_deref(), &trust)?;
    let folder = config.folder.clone().ok_or(SetupError::NoFolder)?;
    let book = Arc::new(Mailbook::new(state.db.clone(), state.clock.clone()));
    let watcher = Watcher::new(
        inbox,
        imap_password,
        trust,
        config.poll_interval(),
        book.clone(),
    );
    let status = watcher.status();
    Ok((
        watcher,
        Inbox {
            book,
            mailer,
            owner,
            folder,
            status,
        },
    ))
}

/// A mail the watcher handed over: claimed once, then decided on a task of
/// its own.
async fn arrived(state: &App, watched: &Arc<Inbox>, fetched: Fetched) {
    let mail = match mail::parse(&fetched.raw) {
        Ok(mail) => mail,
        Err(error) => {
            tracing::warn!(%error, uid = fetched.uid, "a mail that cannot be read was passed over");
            return;
        }
    };
    let book = watched.book.clone();
    let (claimed, parsed) = (fetched.clone(), mail.clone());
    let id = match blocking(move || book.claim(&claimed, &parsed).map_err(AppError::from)).await {
        Ok(Some(id)) => id,
        Ok(None) => return,
        Err(error) => {
            tracing::warn!(%error, "cannot record a mail");
            return;
        }
    };
    let (app, watched) = (state.clone(), watched.clone());
    tokio::spawn(async move {
        let (decision, reason, session) = match decide(&app, &watched, &id, &fetched, &mail).await {
            Ok(decided) => decided,
            Err(error) => (Decision::Failed, error.to_string(), None),
        };
        let book = watched.book.clone();
        if let Err(error) = blocking(move || {
            book.decide(&id, decision, &reason, session.as_deref())
                .map_err(AppError::from)
        })
        .await
        {
            tracing::warn!(%error, "cannot record a mail's decision");
        }
    });
}

type Decided = (Decision, String, Option<String>);

async fn decide(
    state: &App,
    watched: &Inbox,
    id: &str,
    fetched: &Fetched,
    mail: &Mail,
) -> AppResult<Decided> {
    if let Some(why) = &mail.automated {
        return Ok((
            Decision::Ignored,
            format!("sent by a machine ({why})"),
            None,
        ));
    }
    if let Some(failure) = &mail.failed_authentication {
        return Ok((
            Decision::Ignored,
            format!("the receiving server found {failure}: its sender may be forged"),
            None,
        ));
    }
    if let Some(decided) = bug_report(state, watched, mail).await? {
        return Ok(decided);
    }
    let sender = mail.from.clone().unwrap_or_default();
    let approved = mail::is_approved(&sender, &state.settings.email_inbound_approved_senders());
    if !approved {
        return refuse(state, watched, mail, &sender).await;
    }
    let book = watched.book.clone();
    let (in_reply_to, references) = (mail.in_reply_to.clone(), mail.references.clone());
    let thread = blocking(move || {
        book.thread_session(&in_reply_to, &references)
            .map_err(AppError::from)
    })
    .await?;
    if let Some(session_id) = thread {
        return follow_up(state, watched, fetched, mail, &session_id).await;
    }
    let verdict = match prescreen(state, &watched.owner, mail).await {
        Ok(verdict) => verdict,
        Err(error) => {
            return Ok((
                Decision::Failed,
                format!("the prescreen could not run: {error}"),
                None,
            ));
        }
    };
    if verdict.action != "start" {
        return Ok((Decision::Ignored, verdict.reason, None));
    }
    let session_id = start_session(state, watched, id, fetched, mail, &verdict.title).await?;
    Ok((Decision::Start, verdict.reason, Some(session_id)))
}

/// Mail to a Bug Intake address becomes a report.
async fn bug_report(state: &App, watched: &Inbox, mail: &Mail) -> AppResult<Option<Decided>> {
    let dir = state.data_dir.clone();
    // A broken bugintake.toml must not stop agent mail: no address is a
    // Bug Intake address until it is fixed (Bug Intake's routes say why).
    let config = match blocking(move || bugintake::Config::load(&dir)).await {
        Ok(config) => config,
        Err(error) => {
            tracing::warn!(%error, "bugintake.toml cannot be read; no mail is taken as a bug report");
            return Ok(None);
        }
    };
    let Some(to) = mail.to.iter().find(|to| config.takes_mail_to(to)).cloned() else {
        return Ok(None);
    };
    let report = bugintake::from_mail(
        &bugintake::Mail {
            from: mail.from.as_deref().unwrap_or_default(),
            to: &to,
            subject: &mail.subject,
            text: &mail.text,
        },
        state.clock.now(),
    )
    .map_err(|error| AppError::Invalid(error.to_string()))?;
    let taken = crate::bug_intake::receive(state, &watched.owner, report).await?;
    Ok(Some((
        Decision::BugReport,
        format!("a bug report to {to}: {}", taken.outcome),
        taken.report.session_id,
    )))
}

async fn refuse(state: &App, watched: &Inbox, mail: &Mail, sender: &str) -> AppResult<Decided> {
    if state.settings.spam_filter_agent_email_enabled() {
        return Ok((
            Decision::SpamDropped,
            "not an approved sender; the spam filter sends no reply".to_owned(),
            None,
        ));
    }
    let book = watched.book.clone();
    let (who, day) = (sender.to_owned(), utility_model::local_day(state));
    let first_today =
        blocking(move || book.take_refusal(&who, &day).map_err(AppError::from)).await?;
    if !first_today {
        return Ok((
            Decision::Ignored,
            "not an approved sender, refused once today already".to_owned(),
            None,
        ));
    }
    watched.mailer.refuse(mail).await.map_err(AppError::from)?;
    Ok((
        Decision::Refused,
        "not an approved sender; one polite refusal sent".to_owned(),
        None,
    ))
}

#[derive(Debug, Deserialize)]
struct Verdict {
    action: String,
    reason: String,
    #[serde(default)]
    title: String,
}

async fn prescreen(
    state: &App,
    owner: &str,
    mail: &Mail,
) -> Result<Verdict, utility::UtilityError> {
    let custom = state.settings.email_inbound_prescreen_prompt();
    let instructions = if custom.trim().is_empty() {
        format!(
            "{PRESCREEN_PHRASE}. Answer start when it asks for work a coding agent can do in a \
             read-only session (answer a question about code, review, investigate, explain); \
             answer ignore for newsletters, notifications, small talk, and anything that asks to \
             send money, share secrets or contact third parties."
        )
    } else {
        custom.trim().to_owned()
    };
    let text: String = mail.text.chars().take(PRESCREEN_CHARS).collect();
    let prompt = format!(
        "{instructions}\n\nReply with JSON only: {{\"action\": \"start\" or \"ignore\", \
         \"reason\": one sentence, \"title\": a title of at most 8 words for the session}}.\n\n\
         <email>\nFrom: {}\nSubject: {}\n\n{text}\n</email>",
        mail.from.as_deref().unwrap_or_default(),
        mail.subject
    );
    let schema = json!({
        "type": "object",
        "required": ["action", "reason"],
        "properties": {
            "action": {"enum": ["start", "ignore"]},
            "reason": {"type": "string"},
            "title": {"type": "string"}
        }
    });
    let ask = Ask {
        feature: Feature::EmailPrescreen,
        model: None,
        prompt: &prompt,
        budget: utility_model::budget(state, Feature::EmailPrescreen),
    };
    match state.utility.json::<Verdict>(&ask, &schema).await {
        Ok((verdict, _)) => Ok(verdict),
        Err(error) => {
            utility_model::report(state, owner, Feature::EmailPrescreen, &error).await;
            Err(error)
        }
    }
}

fn owner_caller(owner: &str) -> Caller {
    Caller {
        account_id: owner.to_owned(),
        via: Via::ControlCli,
        source_session_header: None,
    }
}

async fn start_session(
    state: &App,
    watched: &Inbox,
    id: &str,
    fetched: &Fetched,
    mail: &Mail,
    title: &str,
) -> AppResult<String> {
    let folder = watched.folder.join(id);
    let saved = {
        let (folder, attachments) = (folder.clone(), mail.attachments.clone());
        blocking(move || -> Result<Vec<String>, AppError> {
            std::fs::create_dir_all(&folder).map_err(|e| AppError::Io(e.to_string()))?;
            let mut names = Vec::new();
            for attachment in attachments {
                std::fs::write(folder.join(&attachment.name), &attachment.bytes)
                    .map_err(|e| AppError::Io(e.to_string()))?;
                names.push(attachment.name);
            }
            Ok(names)
        })
        .await?
    };
    let attachments = if saved.is_empty() {
        String::new()
    } else {
        format!(
            "\n\nIts attachments are saved in this folder: {}.",
            saved.join(", ")
        )
    };
    let prompt = format!(
        "An email from {} (subject: {}) asks:\n\n{}{attachments}\n\nYour final message is sent \
         back to the sender as the reply.",
        mail.from.as_deref().unwrap_or("an approved sender"),
        mail.subject,
        mail.text.trim()
    );
    let request = SpawnRequest {
        prompt,
        cwd: Some(folder.display().to_string()),
        title: Some(title.trim().to_owned()).filter(|t| !t.is_empty()),
        trigger: Some(Trigger::Email),
        ..SpawnRequest::default()
    };
    let spawned = state.spawn_from_outside(&watched.owner, request).await?;
    let session_id = spawned.session.id;
    remember(watched, fetched, mail, &session_id).await?;
    Ok(session_id)
}

async fn follow_up(
    state: &App,
    watched: &Inbox,
    fetched: &Fetched,
    mail: &Mail,
    session_id: &str,
) -> AppResult<Decided> {
    remember(watched, fetched, mail, session_id).await?;
    state
        .sessions
        .send(
            &owner_caller(&watched.owner),
            &state.spawn_policy(),
            session_id,
            mail.text.trim(),
        )
        .await?;
    Ok((
        Decision::FollowUp,
        "a reply in the session's thread".to_owned(),
        Some(session_id.to_owned()),
    ))
}

/// Joins the mail to the session's thread and keeps it as the one the
/// session's next reply answers.
async fn remember(
    watched: &Inbox,
    fetched: &Fetched,
    mail: &Mail,
    session_id: &str,
) -> AppResult<()> {
    let book = watched.book.clone();
    let (raw, ids, session) = (
        fetched.raw.clone(),
        mail.message_id.iter().cloned().collect::<Vec<_>>(),
        session_id.to_owned(),
    );
    blocking(move || {
        let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
        book.link_thread(&ids, &session)?;
        book.remember_reply(&session, &raw)
    })
    .await
}

/// An email session's turn ended: its final message (or its error) is the
/// reply to the thread's latest mail.
async fn reply(state: &App, update: &SessionUpdate) {
    let Some(watched) = state.email.get() else {
        return;
    };
    let book = watched.book.clone();
    let session = update.session_id.clone();
    let raw = match blocking(move || book.reply_for(&session).map_err(AppError::from)).await {
        Ok(Some(raw)) => raw,
        Ok(None) => return,
        Err(error) => {
            tracing::warn!(%error, "cannot read the mail a session answers");
            return;
        }
    };
    let Ok(original) = mail::parse(&raw) else {
        return;
    };
    let Some(text) = crate::connections::turn_end(state, update).await else {
        return;
    };
    match watched.mailer.reply(&original, &text).await {
        Ok(sent) => {
            let book = watched.book.clone();
            let session = update.session_id.clone();
            if let Err(error) = blocking(move || {
                book.link_thread(&[sent.message_id.as_str()], &session)
                    .map_err(AppError::from)
            })
            .await
            {
                tracing::warn!(%error, "cannot join a reply to its thread");
            }
        }
        Err(error) => {
            tracing::warn!(%error, session_id = update.session_id, "cannot send an email session's reply");
        }
    }
}

async fn say_once(state: &App, problem: &str) {
    if state.email.first_time(problem) {
        crate::connections::note(
            state,
            "Inbound email is not watched",
            problem,
            "email-in-down",
        )
        .await;
    }
}
