//! The messenger bot (`messengerBotEnabled`): each direct chat, and each
//! forum topic of an allowed group, is an agent session of the owner's.
//!
//! One task follows the setting: while it is on and `DIR/messenger.toml`
//! names a saved key holding the bot token, it long-polls `getUpdates`
//! (the offset kept in SQLite and moved past an update only once it is
//! handled, so a restart handles nothing twice), routes each update by the
//! `messenger` crate's rules with the settings as they are at that update,
//! and starts a session for a chat's first message, sends its later ones as
//! follow-ups, and answers the chat's commands. Turning the setting off, or
//! any change to the settings, ends the poll at once; the bot then reads
//! the settings again.
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
    BotState, ChatKey, Client, Command, Config, Decision, DmPolicy, Incoming, Input, Me,
    MessengerError, Mode, Outgoing, Pairing, Policy, Press, Routed,
};
use sessions::{Caller, PageFrom, Session, SessionUpdate, SpawnRequest, Status, Trigger, Via};
use settings::MessengerBotDmPolicy;

use crate::connections;
use crate::error::{AppError, AppResult, blocking};
use crate::links::Bot;
use crate::publish;
use crate::services::App;

/// How long one `getUpdates` waits for news. Telegram holds the request
/// that long at most; well under the client's own time limit.
const POLL_SECONDS: u64 = 25;

/// The wait before trying again after the service could not be reached or
/// the bot could not be set up.
const RETRY_AFTER: Duration = Duration::from_secs(30);

/// How much of a session's transcript end is read for its turn's final
/// message.
const TURN_END_ENTRIES: u32 = 200;

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
            Ok(connected) => {
                let connected = Arc::new(connected);
                state.messenger.set(Some(connected.clone()));
                let outcome = poll(state, &connected, &mut changes).await;
                state.messenger.set(None);
                outcome
            }
            Err(error) => Err(error),
        };
        match outcome {
            Ok(()) => {}
            Err(error) => {
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
    #[error(
        "messenger.toml asks for webhook mode, which this version does not serve yet: use polling"
    )]
    WebhookMode,
    #[error(transparent)]
    App(#[from] AppError),
}

async fn connect(state: &App) -> Result<Bot, BotError> {
    let config = Config::load(&state.data_dir)?;
    if matches!(config.mode, Mode::Webhook { .. }) {
        return Err(BotError::WebhookMode);
    }
    let owner = connections::owner(state).await?;
    let secrets = state.secrets.clone();
    let (account, key) = (owner.clone(), config.token_key.clone());
    let token = blocking(move || secrets.reveal(&account, &key).map_err(AppError::from))
        .await
        .map_err(|error| BotError::Token {
            key: config.token_key.clone(),
            detail: error.to_string(),
        })?;
    let client = Arc::new(Client::new(&config.base_url, token)?);
    let asked = client.clone();
    let me = blocking(move || {
        asked.delete_webhook()?;
        asked.get_me()
    })
    .await?;
    state.messenger.forget_said();
    tracing::info!(bot = me.username, "the messenger bot is connected");
    Ok(Bot {
        client,
        state: BotState::new(state.db.clone()),
        owner,
        me,
        config,
    })
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
                if state.settings.messenger_bot_enabled() {
                    continue;
                }
                return Ok(());
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
        Routed::Press(press) => pressed(state, bot, &press).await,
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

/// Sends `text` (Markdown) to a chat, split at the platform's limit; the
/// bot's messages are recorded so a reply to one of them addresses it.
async fn say(
    bot: &Arc<Bot>,
    key: ChatKey,
    markdown: &str,
    session_id: Option<&str>,
    state: &App,
) -> AppResult<()> {
    for html in messenger::render_reply(markdown) {
        send_html(bot, key, html, None, session_id, state).await?;
    }
    Ok(())
}

async fn send_html(
    bot: &Arc<Bot>,
    key: ChatKey,
    html: String,
    buttons: Option<Vec<Vec<messenger::InlineButton>>>,
    session_id: Option<&str>,
    state: &App,
) -> AppResult<i64> {
    let client = bot.client.clone();
    let sent = blocking(move || {
        client
            .send_message(&Outgoing {
                key,
                html,
                buttons,
                reply_to: None,
            })
            .map_err(AppError::from)
    })
    .await?;
    let (bot_state, session, now) = (
        bot.state.clone(),
        session_id.map(str::to_owned),
        state.clock.now(),
    );
    let message_id = sent.message_id;
    blocking(move || {
        bot_state
            .record_sent(key, message_id, session.as_deref(), now)
            .map_err(AppError::from)
    })
    .await?;
    Ok(message_id)
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
    let caller = owner_caller(bot);
    if let Some(id) = current {
        let continued = match state.sessions.get(&bot.owner, &id).await {
            Ok(session) if session.status.is_active() => Some(
                state
                    .sessions
                    .send(&caller, &state.spawn_policy(), &id, text)
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
    // A chat has no session to name as its source: the bot, holding the
    // owner's allowlist, is the source. The other rules hold.
    let policy = sessions::SpawnPolicy {
        require_spawn_source_session: false,
        ..state.spawn_policy()
    };
    let spawned = state
        .sessions
        .spawn(&caller, &policy, &state.prompt_settings(), request)
        .await;
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

fn name(session: &Session) -> String {
    session
        .title
        .clone()
        .unwrap_or_else(|| session.prompt.lines().next().unwrap_or_default().to_owned())
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
            );
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

async fn pressed(state: &App, bot: &Arc<Bot>, press: &Press) -> AppResult<()> {
    let (bot_state, token) = (bot.state.clone(), press.token.clone());
    let announced =
        blocking(move || bot_state.approval_by_token(&token).map_err(AppError::from)).await?;
    let answer = match announced {
        None => "This approval is not known here.".to_owned(),
        Some(announced) => {
            let broker = state.permissions.clone();
            let (owner, id) = (bot.owner.clone(), announced.approval_id.clone());
            let allow = press.decision == Decision::Allow;
            let decided = blocking(move || {
                broker
                    .decide(&owner, &id, allow, permissions::Remember::Once)
                    .map_err(AppError::from)
            })
            .await;
            match decided {
                Ok(_) if allow => "Approved.".to_owned(),
                Ok(_) => "Denied.".to_owned(),
                Err(error) => error.to_string(),
            }
        }
    };
    let (client, callback) = (bot.client.clone(), press.callback_id.clone());
    blocking(move || {
        client
            .answer_callback_query(&callback, Some(&answer))
            .map_err(AppError::from)
    })
    .await
}

/// An approval a messenger session waits on: sent to its chat with the
/// buttons, once.
pub fn approval_opened(state: &App, session: &Session, approval: &permissions::Approval) {
    if session.trigger != Some(Trigger::Messenger) {
        return;
    }
    let Some(bot) = state.messenger.get() else {
        return;
    };
    let (app, session, approval) = (state.clone(), session.clone(), approval.clone());
    tokio::spawn(async move {
        if let Err(error) = announce(&app, &bot, &session, &approval).await {
            tracing::warn!(%error, approval = approval.id, "cannot send an approval to the messenger");
        }
    });
}

async fn announce(
    state: &App,
    bot: &Arc<Bot>,
    session: &Session,
    approval: &permissions::Approval,
) -> AppResult<()> {
    let (bot_state, session_id) = (bot.state.clone(), session.id.clone());
    let Some(key) = blocking(move || {
        bot_state
            .chat_of_session(&session_id)
            .map_err(AppError::from)
    })
    .await?
    else {
        return Ok(());
    };
    let (bot_state, id, now) = (bot.state.clone(), approval.id.clone(), state.clock.now());
    let Some(token) = blocking(move || {
        bot_state
            .announce_approval(&id, key, now)
            .map_err(AppError::from)
    })
    .await?
    else {
        return Ok(());
    };
    let target = approval
        .target
        .as_deref()
        .map(|t| format!(" <code>{}</code>", messenger::escape_html(t)))
        .unwrap_or_default();
    let html = format!(
        "<b>{} asks to run {}</b>{target}\n{}",
        messenger::escape_html(&name(session)),
        messenger::escape_html(&approval.tool),
        messenger::escape_html(&approval.reason)
    );
    let message_id = send_html(
        bot,
        key,
        html,
        messenger::approval_keyboard(&token),
        Some(&session.id),
        state,
    )
    .await?;
    let (bot_state, id) = (bot.state.clone(), approval.id.clone());
    blocking(move || {
        bot_state
            .approval_sent(&id, message_id)
            .map_err(AppError::from)
    })
    .await
}

/// An approval was answered, anywhere: its buttons go.
pub fn approval_settled(state: &App, approval_id: &str) {
    let Some(bot) = state.messenger.get() else {
        return;
    };
    let (now, id) = (state.clock.now(), approval_id.to_owned());
    tokio::spawn(async move {
        let bot_state = bot.state.clone();
        let answered = blocking(move || {
            bot_state
                .approval_answered(&id, now)
                .map_err(AppError::from)
        })
        .await;
        if let Ok(Some(announced)) = answered
            && let Some(message_id) = announced.message_id
        {
            let client = bot.client.clone();
            let chat = announced.key.chat_id;
            if let Err(error) = blocking(move || {
                client
                    .remove_buttons(chat, message_id)
                    .map_err(AppError::from)
            })
            .await
            {
                tracing::warn!(%error, "cannot remove an answered approval's buttons");
            }
        }
    });
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
    let page = match state
        .sessions
        .entries(
            &update.account_id,
            &update.session_id,
            PageFrom::Tail,
            TURN_END_ENTRIES,
        )
        .await
    {
        Ok(page) => page,
        Err(error) => {
            tracing::warn!(%error, "cannot read a messenger session's turn end");
            return;
        }
    };
    let Some(text) = connections::turn_end_text(&page.entries, update.status) else {
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
