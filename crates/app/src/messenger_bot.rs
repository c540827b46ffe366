//! The messenger bot (`messengerBotEnabled`): each direct chat, and each
//! forum topic of an allowed group, is an agent session of the owner's.
//!
//! One task follows the setting: while it is on and `DIR/messenger.toml`
//! names a saved key holding the bot token, it long-polls `getUpdates`
//! (the offset kept in SQLite and moved past an update only once it is
//! handled, so a restart handles nothing twice), or in webhook mode sets
//! the webhook to the UI listener's secret path (`POST
//! /api/messenger/webhook/<secret>`, checked with the `secret_token`
//! header, both derived from the token) and takes what the route hands it,
//! deleting the webhook when turned off. It routes each update by the
//! `messenger` crate's rules with the settings as they are at that update,
//! and starts a session for a chat's first message, sends its later ones as
//! follow-ups, and answers the chat's commands. A settings change that
//! turns the bot off, or finds `messenger.toml` changed, ends the poll at
//! once and the bot connects again (turned off, it stays off).
//!
//! Sessions started here are agent-driven (the spawn rules hold, but for
//! `requireSpawnSourceSession`: a chat has no session to name, and the bot
//! answers only the people the owner allowed), carry
//! `"trigger": "messenger"` and run at `agentPermissionLevel` like any
//! other. A second task sends each messenger session's final message of a
//! turn back to its chat; an approval one of them waits on is sent with
//! Allow / Deny buttons, and a press from an allowed user answers it as the
//! inbox would. A pairing request becomes a `cli_pending` row; approving it
//! (`POST /messenger/pairings/<code>/approve`) adds the sender to
//! `messengerBotAllowedUserIds`.

use std::sync::Arc;
use std::time::Duration;

use inbox::{Action, Category, NewRow, Source};
use messenger::{
    BotState, ChatKey, Client, Command, Config, DmPolicy, Incoming, Input, Me, MessengerError,
    Mode, Pairing, Policy, Routed, Update, WebhookSecrets,
};
use sessions::{Caller, Session, SessionUpdate, SpawnRequest, Status, Trigger, Via};
use settings::MessengerBotDmPolicy;
use tokio::sync::mpsc;

use crate::connections;
use crate::error::{AppError, AppResult, blocking};
use crate::links::{Bot, Webhook};
use crate::messenger_approvals;
use crate::messenger_chat::{name, say};
use crate::publish;
use crate::services::App;

/// How long one `getUpdates` waits for news. Telegram holds the request
/// that long at most; well under the client's own time limit.
const POLL_SECONDS: u64 = 25;

/// Where the UI listener takes webhook deliveries; the secret follows.
pub const WEBHOOK_PATH: &str = "/api/messenger/webhook/";

/// Updates a webhook delivery may queue before the next is refused (and
/// delivered again by Telegram).
const WEBHOOK_QUEUE: usize = 256;

/// The wait before trying again after the service could not be reached or
/// the bot could not be set up.
const RETRY_AFTER: Duration = Duration::from_secs(30);

/// Starts the bot's two tasks; both end when the server is asked to stop.
pub fn start(state: &App) {
    let app = state.clone();
    tokio::spawn(async move { follow_the_setting(&app).await });
    publish::on_session_updates(
        state,
        "the messenger bot",
        ends_a_turn,
        |state, update| async move {
            let app = state.clone();
            tokio::spawn(async move { send_turn_end(&app, &update).await });
        },
    );
}

fn ends_a_turn(update: &SessionUpdate) -> bool {
    update.moved
        && matches!(
            update.status,
            Status::WaitingForInput | Status::Failed | Status::Finished
        )
}

async fn follow_the_setting(state: &App) {
    let mut changes = state.settings_changed.subscribe();
    loop {
        if state.stop_requested() {
            return;
        }
        if !state.settings.messenger_bot_enabled() {
            state.messenger.set(None);
            if !connections::wait_for_change(state, &mut changes, None).await {
                return;
            }
            continue;
        }
        let outcome = match connect(state).await {
            Ok((connected, pushed)) => {
                let connected = Arc::new(connected);
                state.messenger.set(Some(connected.clone()));
                // Kept until the next connection replaces it (or the bot
                // is off): a settings change connects again, and what is
                // sent meanwhile (a pairing's approval) still goes out.
                match pushed {
                    Some(pushed) => receive(state, &connected, pushed, &mut changes).await,
                    None => poll(state, &connected, &mut changes).await,
                }
            }
            Err(error) => Err(error),
        };
        match outcome {
            Ok(()) => {}
            Err(error) => {
                state.messenger.set(None);
                tracing::warn!(%error, "the messenger bot stopped");
                say_once(state, &error.to_string()).await;
                if !connections::wait_for_change(state, &mut changes, Some(RETRY_AFTER)).await {
                    return;
                }
            }
        }
    }
}

#[derive(Debug, thiserror::Error)]
enum BotError {
    #[error(transparent)]
    Messenger(#[from] MessengerError),
    #[error("the messenger bot's token is the saved key {key}, which cannot be read: {detail}")]
    Token { key: String, detail: String },
    #[error(transparent)]
    App(#[from] AppError),
}

/// The connected bot, and in webhook mode the queue its deliveries arrive on.
async fn connect(state: &App) -> Result<(Bot, Option<mpsc::Receiver<Update>>), BotError> {
    let config = Config::load(&state.data_dir)?;
    let owner = connections::owner(state).await?;
    let secrets = state.secrets.clone();
    let (account, key) = (owner.clone(), config.token_key.clone());
    let token = blocking(move || secrets.reveal(&account, &key).map_err(AppError::from))
        .await
        .map_err(|error| BotError::Token {
            key: config.token_key.clone(),
            detail: error.to_string(),
        })?;
    let secrets = WebhookSecrets::derive(&token);
    let client = Arc::new(Client::new(&config.base_url, token)?);
    let asked = client.clone();
    let (webhook, pushed, me) = match &config.mode {
        Mode::Polling => {
            let me = blocking(move || {
                asked.delete_webhook()?;
                asked.get_me()
            })
            .await?;
            (None, None, me)
        }
        Mode::Webhook { public_url } => {
            let url = format!(
                "{}{WEBHOOK_PATH}{}",
                public_url.trim_end_matches('/'),
                secrets.path()
            );
            let secret_token = secrets.secret_token().to_owned();
            let me = blocking(move || {
                asked.set_webhook(&url, &secret_token)?;
                asked.get_me()
            })
            .await?;
            let (updates, pushed) = mpsc::channel(WEBHOOK_QUEUE);
            (Some(Webhook { secrets, updates }), Some(pushed), me)
        }
    };
    state.messenger.forget_said();
    tracing::info!(bot = me.username, "the messenger bot is connected");
    let bot = Bot {
        client,
        state: BotState::new(state.db.clone()),
        owner,
        me,
        config,
        webhook,
    };
    Ok((bot, pushed))
}

/// Webhook mode: handles what the route hands over until a setting changes
/// (off, the webhook is deleted, so Telegram keeps the updates for the next
/// connection) or the server stops.
async fn receive(
    state: &App,
    bot: &Arc<Bot>,
    mut pushed: mpsc::Receiver<Update>,
    changes: &mut tokio::sync::watch::Receiver<u64>,
) -> Result<(), BotError> {
    loop {
        let mut stop = state.watch_stop();
        // Decided first and acted on after, so nothing the select holds
        // lives across the action's awaits.
        let next = tokio::select! {
            _ = stop.wait_for(Option::is_some) => None,
            _ = changes.changed() => Some(None),
            update = pushed.recv() => update.map(Some),
        };
        match next {
            None => return Ok(()),
            Some(Some(update)) => handle(state, bot, &bot.me, &bot.config, &update).await,
            // Off, the webhook goes; a new messenger.toml connects again.
            Some(None) if !state.settings.messenger_bot_enabled() => {
                let client = bot.client.clone();
                blocking(move || client.delete_webhook()).await?;
                return Ok(());
            }
            Some(None) if moved(state, bot) => return Ok(()),
            Some(None) => {}
        }
    }
}

/// Whether a settings change asks the bot to connect again: it is off, or
/// `messenger.toml` now says something else than what it connected with.
/// Read at every change rather than trusting the change's key, because a
/// quick off and on reaches the bot as one change, with the bot still on,
/// and the file may have been edited in between.
fn moved(state: &App, bot: &Bot) -> bool {
    !state.settings.messenger_bot_enabled()
        || Config::load(&state.data_dir).ok().as_ref() != Some(&bot.config)
}

/// Why a webhook delivery was not taken.
#[derive(Debug, thiserror::Error)]
pub enum DeliveryRefused {
    /// No bot in webhook mode, or a wrong path or `secret_token`: answered
    /// as any unknown address.
    #[error("no such webhook")]
    Unknown,
    #[error("not an update: {0}")]
    NotAnUpdate(String),
    /// The queue is full; Telegram delivers it again later.
    #[error("the bot is busy; deliver it again later")]
    Busy,
}

/// A delivery to `POST /api/messenger/webhook/<segment>`: checked against
/// the webhook's secrets (in constant time) and queued for the bot.
pub fn webhook_delivery(
    state: &App,
    segment: &str,
    secret_token: Option<&str>,
    body: &[u8],
) -> Result<(), DeliveryRefused> {
    let bot = state.messenger.get().ok_or(DeliveryRefused::Unknown)?;
    let hook = bot.webhook.as_ref().ok_or(DeliveryRefused::Unknown)?;
    if !(hook.secrets.path_matches(segment) && hook.secrets.header_matches(secret_token)) {
        return Err(DeliveryRefused::Unknown);
    }
    let update: Update = serde_json::from_slice(body)
        .map_err(|error| DeliveryRefused::NotAnUpdate(error.to_string()))?;
    hook.updates
        .try_send(update)
        .map_err(|_| DeliveryRefused::Busy)
}

async fn poll(
    state: &App,
    bot: &Arc<Bot>,
    changes: &mut tokio::sync::watch::Receiver<u64>,
) -> Result<(), BotError> {
    let (me, config) = (&bot.me, &bot.config);
    loop {
        let bot_state = bot.state.clone();
        let me_id = me.id;
        let offset = blocking(move || bot_state.offset(me_id).map_err(AppError::from)).await?;
        let client = bot.client.clone();
        let asked = tokio::task::spawn_blocking(move || client.get_updates(offset, POLL_SECONDS));
        let mut stop = state.watch_stop();
        let updates = tokio::select! {
            _ = stop.wait_for(Option::is_some) => return Ok(()),
            // Unconfirmed updates come again from the same offset, so the
            // poll this abandons loses nothing.
            _ = changes.changed() => {
                if moved(state, bot) {
                    return Ok(());
                }
                continue;
            }
            asked = asked => asked.map_err(AppError::from)?,
        };
        let updates = match updates {
            Ok(updates) => updates,
            Err(MessengerError::RateLimited { retry_after, .. }) => {
                tokio::time::sleep(Duration::from_secs(retry_after.min(300))).await;
                continue;
            }
            Err(error) => return Err(error.into()),
        };
        for update in updates {
            handle(state, bot, me, config, &update).await;
            let bot_state = bot.state.clone();
            let next = update.update_id + 1;
            blocking(move || bot_state.set_offset(me_id, next).map_err(AppError::from)).await?;
        }
    }
}

fn policy(state: &App) -> Policy {
    let s = &state.settings;
    let dm = match s.messenger_bot_dm_policy() {
        MessengerBotDmPolicy::Pairing => DmPolicy::Pairing,
        MessengerBotDmPolicy::Allowlist => DmPolicy::Allowlist,
        MessengerBotDmPolicy::Disabled => DmPolicy::Disabled,
    };
    Policy::new(
        dm,
        &s.messenger_bot_allowed_user_ids(),
        &s.messenger_bot_allowed_group_ids(),
        s.messenger_bot_group_require_mention(),
    )
}

async fn handle(state: &App, bot: &Arc<Bot>, me: &Me, config: &Config, update: &messenger::Update) {
    let outcome = match messenger::route(update, &policy(state), me) {
        Routed::Ignore(reason) => {
            tracing::debug!(
                update = update.update_id,
                reason = reason.as_str(),
                "messenger update ignored"
            );
            Ok(())
        }
        Routed::Pairing { chat_id, sender } => pair(state, bot, chat_id, &sender).await,
        Routed::Message(incoming) => message(state, bot, config, &incoming).await,
        Routed::Press(press) => messenger_approvals::pressed(state, bot, &press).await,
        Routed::RefusedPress {
            callback_id,
            reason,
        } => {
            let client = bot.client.clone();
            blocking(move || {
                client
                    .answer_callback_query(&callback_id, Some(reason.as_str()))
                    .map_err(AppError::from)
            })
            .await
        }
    };
    if let Err(error) = outcome {
        tracing::warn!(%error, update = update.update_id, "a messenger update could not be handled");
    }
}

fn owner_caller(bot: &Bot) -> Caller {
    Caller {
        account_id: bot.owner.clone(),
        via: Via::ControlCli,
        source_session_header: None,
    }
}

async fn message(
    state: &App,
    bot: &Arc<Bot>,
    config: &Config,
    incoming: &Incoming,
) -> AppResult<()> {
    let key = incoming.key;
    let bot_state = bot.state.clone();
    let current = blocking(move || bot_state.session_of(key).map_err(AppError::from)).await?;
    let reply = match &incoming.input {
        Input::Command(Command::Start) => Some(
            "Send a message and an agent session starts for this chat; later messages continue it.\n\
             /new starts a fresh session, /stop stops it, /status says what it is doing, \
             /sessions lists the running ones."
                .to_owned(),
        ),
        Input::Command(Command::New) => {
            let bot_state = bot.state.clone();
            blocking(move || bot_state.forget_session(key).map_err(AppError::from)).await?;
            Some("Your next message starts a new session.".to_owned())
        }
        Input::Command(Command::Stop) => Some(match current {
            Some(id) => match state.sessions.stop(&owner_caller(bot), &id).await {
                Ok(session) => format!("Stopped: {}.", name(&session)),
                Err(error) => error.to_string(),
            },
            None => "This chat has no session.".to_owned(),
        }),
        Input::Command(Command::Status) => Some(match current {
            Some(id) => match state.sessions.get(&bot.owner, &id).await {
                Ok(session) => status_line(&session),
                Err(error) => error.to_string(),
            },
            None => "This chat has no session yet: send a message to start one.".to_owned(),
        }),
        Input::Command(Command::Sessions) => Some(running(state, &bot.owner).await?),
        Input::Prompt(text) => prompt(state, bot, config, key, current, text).await?,
    };
    match reply {
        Some(reply) => say(bot, key, &reply, None, state).await,
        None => Ok(()),
    }
}

/// Starts the chat's session or continues it; says why when neither works.
async fn prompt(
    state: &App,
    bot: &Arc<Bot>,
    config: &Config,
    key: ChatKey,
    current: Option<String>,
    text: &str,
) -> AppResult<Option<String>> {
    if let Some(id) = current {
        let continued = match state.sessions.get(&bot.owner, &id).await {
            Ok(session) if session.status.is_active() => Some(
                state
                    .sessions
                    .send(&owner_caller(bot), &state.spawn_policy(), &id, text)
                    .await,
            ),
            _ => None,
        };
        match continued {
            Some(Ok(_)) => return Ok(None),
            Some(Err(error)) => return Ok(Some(error.to_string())),
            None => {}
        }
    }
    let request = SpawnRequest {
        engine: Some(config.engine.clone()),
        prompt: text.to_owned(),
        cwd: Some(config.folder.display().to_string()),
        trigger: Some(Trigger::Messenger),
        ..SpawnRequest::default()
    };
    let spawned = state.spawn_from_outside(&bot.owner, request).await;
    match spawned {
        Ok(spawned) => {
            let (bot_state, id, now) = (
                bot.state.clone(),
                spawned.session.id.clone(),
                state.clock.now(),
            );
            blocking(move || bot_state.set_session(key, &id, now).map_err(AppError::from)).await?;
            Ok(spawned
                .queued
                .map(|at| format!("Queued by the spawn spacing: it starts at {at}.")))
        }
        Err(error) => Ok(Some(format!("No session was started: {error}"))),
    }
}

fn status_line(session: &Session) -> String {
    let cost = session
        .cost_usd
        .map_or_else(|| "no price".to_owned(), |cost| format!("${cost:.2}"));
    let doing = session
        .activity
        .as_ref()
        .filter(|_| session.status == Status::Running)
        .map(|activity| format!("\nNow: {}", activity.text))
        .unwrap_or_default();
    format!(
        "{}: {}, {} turns, {cost}.{doing}",
        name(session),
        session.status.as_str().replace('_', " "),
        session.turns
    )
}

async fn running(state: &App, owner: &str) -> AppResult<String> {
    let sessions = state.sessions.list(owner).await?;
    let lines: Vec<String> = sessions
        .iter()
        .filter(|s| s.status.is_active())
        .take(20)
        .map(|s| format!("- {}", status_line(s)))
        .collect();
    Ok(if lines.is_empty() {
        "No session is running.".to_owned()
    } else {
        lines.join("\n")
    })
}

async fn pair(
    state: &App,
    bot: &Arc<Bot>,
    chat_id: i64,
    sender: &messenger::User,
) -> AppResult<()> {
    let (bot_state, who, now) = (bot.state.clone(), sender.clone(), state.clock.now());
    let requested = blocking(move || {
        bot_state
            .request_pairing(&who, chat_id, now)
            .map_err(AppError::from)
    })
    .await?;
    let key = ChatKey {
        chat_id,
        thread_id: None,
    };
    let code = requested.pairing.code.clone();
    say(
        bot,
        key,
        &format!(
            "This bot answers only people its owner knows. Your pairing code is {code}: \
             the owner approves it in Switchboard's inbox."
        ),
        None,
        state,
    )
    .await?;
    if requested.new {
        pairing_row(state, &bot.owner, &requested.pairing).await;
    }
    Ok(())
}

async fn pairing_row(state: &App, owner: &str, pairing: &Pairing) {
    let handle = pairing
        .username
        .as_deref()
        .map(|u| format!(" (@{u})"))
        .unwrap_or_default();
    let mut row = NewRow::new(
        Category::CliPending,
        format!("{}{handle} asks to talk to your agents", pairing.name),
    );
    row.body = Some(format!(
        "Messenger user {} sent the pairing code {}. Approving adds the id to messengerBotAllowedUserIds.",
        pairing.user_id, pairing.code
    ));
    row.reason = Some("pairing".to_owned());
    row.source = Source {
        request_id: Some(pairing.code.clone()),
        ..Source::default()
    };
    row.actions = vec![Action::ApprovePairing {
        code: pairing.code.clone(),
    }];
    row.dedup_key = Some(format!("messenger-pairing:{}", pairing.user_id));
    let (inbox, account) = (state.inbox.clone(), owner.to_owned());
    match blocking(move || inbox.add(&account, row).map_err(AppError::from)).await {
        Ok(added) => {
            publish::inbox_added(state, owner, added);
        }
        Err(error) => tracing::warn!(%error, "cannot add a pairing request's inbox row"),
    }
}

/// The owner's answer to a pairing request: approving adds the sender to
/// `messengerBotAllowedUserIds` and tells them; either way the code is spent.
pub async fn decide_pairing(state: &App, code: &str, approve: bool) -> AppResult<Pairing> {
    let bot_state = BotState::new(state.db.clone());
    let (code, now) = (code.to_owned(), state.clock.now());
    let pairing = blocking(move || {
        if approve {
            bot_state.approve_pairing(&code, now)
        } else {
            bot_state.reject_pairing(&code, now)
        }
        .map_err(AppError::from)
    })
    .await?;
    if approve {
        let settings = state.settings.clone();
        let id = pairing.user_id.to_string();
        let stored = blocking(move || settings.allow_messenger_bot_user(&id)).await?;
        if let Some(value) = stored {
            publish::setting_changed(
                state,
                &crate::stream_events::SettingChanged {
                    key: settings::MESSENGER_BOT_ALLOWED_USER_IDS.to_owned(),
                    value,
                },
            )
            .await;
        }
    }
    if let Some(bot) = state.messenger.get() {
        let text = if approve {
            "The owner approved you: send a message to start an agent session."
        } else {
            "The owner declined this pairing request."
        };
        let key = ChatKey {
            chat_id: pairing.chat_id,
            thread_id: None,
        };
        if let Err(error) = say(&bot, key, text, None, state).await {
            tracing::warn!(%error, "cannot tell a messenger user the pairing's outcome");
        }
    }
    Ok(pairing)
}

/// A messenger session's turn ended: its final message (or its error) goes
/// to its chat.
async fn send_turn_end(state: &App, update: &SessionUpdate) {
    let Some(bot) = state.messenger.get() else {
        return;
    };
    let (bot_state, id) = (bot.state.clone(), update.session_id.clone());
    let key = match blocking(move || bot_state.chat_of_session(&id).map_err(AppError::from)).await {
        Ok(Some(key)) => key,
        Ok(None) => return,
        Err(error) => {
            tracing::warn!(%error, "cannot look up a session's chat");
            return;
        }
    };
    let Some(text) = crate::connections::turn_end(state, update).await else {
        return;
    };
    if let Err(error) = say(&bot, key, &text, Some(&update.session_id), state).await {
        tracing::warn!(%error, session_id = update.session_id, "cannot send a turn's final message to the messenger");
    }
}

/// A set-up problem goes to the inbox once, until it changes or the bot connects.
async fn say_once(state: &App, problem: &str) {
    if state.messenger.first_time(problem) {
        connections::note(
            state,
            "The messenger bot is not connected",
            problem,
            "messenger-bot-down",
        )
        .await;
    }
}
