//! Approvals in the messenger: an approval a messenger session waits on is
//! sent to its chat once, with Allow and Deny buttons; a press from an
//! allowed user decides it through the permission broker as the inbox
//! would (for this call only), and once it is answered anywhere its
//! buttons go.

use std::sync::Arc;

use messenger::{Decision, Press};
use sessions::{Session, Trigger};

use crate::error::{AppError, AppResult, blocking};
use crate::links::Bot;
use crate::messenger_chat::{name, send_html};
use crate::services::App;

pub(crate) async fn pressed(state: &App, bot: &Arc<Bot>, press: &Press) -> AppResult<()> {
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
