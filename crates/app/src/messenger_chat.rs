//! Writing to a messenger chat: the agent's Markdown as Telegram HTML cut at
//! the platform's limit, each message the bot sends recorded (so a reply to
//! it addresses the bot), and how a session is named there.

use std::sync::Arc;

use sessions::Session;

use crate::error::{AppError, AppResult, blocking};
use crate::links::Bot;
use crate::services::App;

/// Sends `text` (Markdown) to a chat, split at the platform's limit; the
/// bot's messages are recorded so a reply to one of them addresses it.
pub(crate) async fn say(
    bot: &Arc<Bot>,
    key: messenger::ChatKey,
    markdown: &str,
    session_id: Option<&str>,
    state: &App,
) -> AppResult<()> {
    for html in messenger::render_reply(markdown) {
        send_html(bot, key, html, None, session_id, state).await?;
    }
    Ok(())
}

pub(crate) async fn send_html(
    bot: &Arc<Bot>,
    key: messenger::ChatKey,
    html: String,
    buttons: Option<Vec<Vec<messenger::InlineButton>>>,
    session_id: Option<&str>,
    state: &App,
) -> AppResult<i64> {
    let client = bot.client.clone();
    let sent = blocking(move || {
        client
            .send_message(&messenger::Outgoing {
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

/// How a session is named in the chat: its title, else its prompt's first line.
pub(crate) fn name(session: &Session) -> String {
    session
        .title
        .clone()
        .unwrap_or_else(|| session.prompt.lines().next().unwrap_or_default().to_owned())
}
