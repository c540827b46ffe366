//! The messenger at work (docs/phone.md "Messenger"): the owner's own
//! Matrix account of `DIR/matrix.toml`, not the agents' Telegram bot
//! (`messenger_bot.rs`).
//!
//! One loop follows `messengerEnabled`: while it is on it long-polls
//! `/sync` (the since token kept by the `matrix` crate, so nothing comes
//! twice) and makes each new message of someone else, after the first sync
//! of a sign-in (history, not news), an inbox row of category `messenger`
//! (`inboxShowMessenger`) that opens its room. With no token saved it signs
//! in with the password key the config names, if any, and saves the token.
//! `messengerEngine` changed signs out: the token is dropped until the next
//! sign-in. A revoked token is one alert; the loop then waits for a change.

use std::sync::Arc;
use std::time::Duration;

use matrix::{Client, Config, Engine, MatrixError, MatrixMessage, MatrixRoom};
use settings::MessengerEngine;

use crate::services::App;

/// How long one `/sync` waits for news on the homeserver.
const SYNC_HOLD: Duration = Duration::from_secs(20);
/// How long the loop waits after a failure, or while it has nothing to do.
const RETRY_AFTER: time::Duration = time::Duration::minutes(1);
const IDLE: time::Duration = time::Duration::minutes(5);
const REVOKED_ALERT: &str = "The messenger was signed out";

impl App {
    /// The owner's joined rooms, the latest first.
    pub async fn messenger_rooms(&self) -> Result<Vec<MatrixRoom>, MatrixError> {
        let owner = owner(self).await?;
        let matrix = Arc::clone(&self.matrix);
        blocking(move || matrix.rooms(&owner)).await
    }

    /// A room's stored messages, oldest first.
    pub async fn messenger_messages(&self, room: &str) -> Result<Vec<MatrixMessage>, MatrixError> {
        let owner = owner(self).await?;
        let (matrix, room) = (Arc::clone(&self.matrix), room.to_owned());
        blocking(move || matrix.messages(&owner, &room)).await
    }

    /// Sends `text` to `room` as the owner.
    pub async fn messenger_send(
        &self,
        room: &str,
        text: &str,
    ) -> Result<MatrixMessage, MatrixError> {
        let owner = owner(self).await?;
        let client = self.messenger_client(&owner).await?;
        self.matrix.send(&owner, &client, room, text).await
    }

    /// A client with the saved token, signing in first when there is none
    /// and the config names a password key.
    async fn messenger_client(&self, owner: &str) -> Result<Client, MatrixError> {
        let config = Config::load(&self.data_dir)?;
        let engine = match self.settings.messenger_engine() {
            MessengerEngine::EngineMaintained => Engine::Maintained,
            MessengerEngine::EngineLegacy => Engine::Legacy,
        };
        if self.matrix.switch_engine(owner, engine)? {
            // Switching engines signs out until the next sign-in.
            let _ = self.secrets.delete_key(owner, &config.token_key);
        }
        if let Ok(token) = self.secrets.reveal(owner, &config.token_key) {
            return Ok(self.matrix.client(&config.homeserver, engine, Some(token)));
        }
        let Some(password_key) = &config.password_key else {
            return Err(MatrixError::NotConfigured(format!(
                "save the access token as {} or name a password_key in matrix.toml",
                config.token_key
            )));
        };
        let password = self.secrets.reveal(owner, password_key).map_err(|e| {
            MatrixError::NotConfigured(format!("the saved key {password_key} cannot be read ({e})"))
        })?;
        let anonymous = self.matrix.client(&config.homeserver, engine, None);
        let login = self
            .matrix
            .login(owner, &anonymous, &config.user, &password)
            .await?;
        self.secrets
            .save_key(owner, &config.token_key, &login.access_token)
            .map_err(|e| MatrixError::Invalid(format!("the token was not saved: {e}")))?;
        Ok(self
            .matrix
            .client(&config.homeserver, engine, Some(login.access_token)))
    }
}

pub(crate) fn start(app: &App) {
    crate::looking::spawn(
        app,
        Arc::new(tokio::sync::Notify::new()),
        |app| async move { round(&app).await },
    );
}

/// One sync while the messenger is on; the moment to sync again.
async fn round(app: &App) -> time::OffsetDateTime {
    let now = app.clock.now();
    if !app.settings.messenger_enabled() {
        return now + IDLE;
    }
    let Ok(owner) = owner(app).await else {
        return now + IDLE;
    };
    let synced = match app.messenger_client(&owner).await {
        Ok(client) => app.matrix.sync(&owner, &client, SYNC_HOLD).await,
        Err(error) => Err(error),
    };
    match synced {
        Ok(report) => {
            if !report.initial && app.settings.inbox_show_messenger() {
                let rooms = app.messenger_rooms().await.unwrap_or_default();
                for message in report.new_messages.iter().filter(|m| !m.own) {
                    let row = message_row(message, &rooms);
                    crate::publish::add_row(app, &owner, row).await;
                }
            }
            app.clock.now()
        }
        Err(MatrixError::TokenRevoked) => {
            if let Ok(config) = Config::load(&app.data_dir) {
                let _ = app.secrets.delete_key(&owner, &config.token_key);
            }
            let mut row = inbox::NewRow::new(inbox::Category::Alert, REVOKED_ALERT);
            row.body = Some(
                "The homeserver revoked the messenger's access token (signed out elsewhere, or the password changed). Save a new token or password key to reconnect.".to_owned(),
            );
            crate::publish::add_row(app, &owner, row.dedup("messenger-revoked")).await;
            now + IDLE
        }
        Err(MatrixError::NotConfigured(_)) => now + IDLE,
        Err(error) => {
            tracing::warn!(%error, "the messenger's sync failed");
            now + RETRY_AFTER
        }
    }
}

/// The inbox row of a new message: who, where, what, and the room it opens.
fn message_row(message: &MatrixMessage, rooms: &[MatrixRoom]) -> inbox::NewRow {
    let room = rooms
        .iter()
        .find(|r| r.id == message.room_id)
        .map_or(message.room_id.as_str(), |r| r.name.as_str());
    let mut row = inbox::NewRow::new(
        inbox::Category::Messenger,
        inbox::clip(
            &format!("{} in {room}", message.sender),
            inbox::MAX_TITLE_CHARS,
        ),
    );
    row.body = Some(inbox::clip(&message.body, 600));
    let query = form_urlencoded::Serializer::new(String::new())
        .append_pair("room", &message.room_id)
        .finish();
    row.actions.push(inbox::Action::OpenPath {
        path: format!("/messenger?{query}"),
    });
    row.dedup(&format!("matrix:{}", message.event_id))
}

async fn owner(app: &App) -> Result<String, MatrixError> {
    crate::connections::owner(app)
        .await
        .map_err(|e| MatrixError::NotConfigured(e.to_string()))
}

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, MatrixError> + Send + 'static,
) -> Result<T, MatrixError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| MatrixError::Unreachable(format!("the work did not finish: {e}")))?
}
