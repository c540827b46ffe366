//! [`Matrix`]: sign-in, a sync round, sends and what was stored.

use std::sync::Arc;
use std::time::Duration;

use clock::Clock;
use serde_json::Value;
use store::Db;

use crate::book;
use crate::client::{Client, Login};
use crate::{
    Engine, MAX_TEXT_CHARS, MatrixError, MatrixMessage, MatrixRoom, MessengerState, MessengerStatus,
};

pub struct Matrix {
    db: Arc<Db>,
    clock: Arc<dyn Clock>,
}

/// What a sync round brought: the messages not seen before. `initial` is
/// the first round after a sign-in, whose messages are history, not news.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyncReport {
    pub initial: bool,
    pub new_messages: Vec<MatrixMessage>,
}

impl Matrix {
    pub fn new(db: Arc<Db>, clock: Arc<dyn Clock>) -> Self {
        Matrix { db, clock }
    }

    /// A client for `homeserver` on `engine`, with the account's token.
    pub fn client(&self, homeserver: &str, engine: Engine, token: Option<String>) -> Client {
        let client = Client::new(self.clock.clone(), homeserver, engine);
        match token {
            Some(token) => client.with_token(token),
            None => client,
        }
    }

    /// Signs in with a password; the caller keeps the token (a saved key).
    pub async fn login(
        &self,
        account: &str,
        client: &Client,
        user: &str,
        password: &str,
    ) -> Result<Login, MatrixError> {
        let login = client.login(user, password).await?;
        self.db
            .write(|tx| book::signed_in(tx, account, client.engine(), &login.user_id))?;
        Ok(login)
    }

    /// `messengerEngine` changed: signed out, the sync position forgotten.
    /// True when it was a change (the caller then forgets the token).
    pub fn switch_engine(&self, account: &str, engine: Engine) -> Result<bool, MatrixError> {
        self.db.write(|tx| book::switch_engine(tx, account, engine))
    }

    pub fn status(&self, account: &str) -> Result<MessengerStatus, MatrixError> {
        self.db.read(|tx| book::status(tx, account))
    }

    pub fn rooms(&self, account: &str) -> Result<Vec<MatrixRoom>, MatrixError> {
        self.db.read(|tx| book::rooms(tx, account))
    }

    pub fn messages(&self, account: &str, room: &str) -> Result<Vec<MatrixMessage>, MatrixError> {
        self.db.read(|tx| {
            if !book::room_exists(tx, account, room)? {
                return Err(MatrixError::NotFound);
            }
            book::messages(tx, account, room)
        })
    }

    /// One `/sync` from the stored position, holding up to `timeout`; its
    /// rooms, messages and next position are stored in one transaction.
    pub async fn sync(
        &self,
        account: &str,
        client: &Client,
        timeout: Duration,
    ) -> Result<SyncReport, MatrixError> {
        let row = self.db.read(|tx| book::account(tx, account))?;
        let engine = client.engine();
        if row.as_ref().is_some_and(|r| r.engine != engine.as_str()) {
            return Err(MatrixError::NotConfigured(
                "the engine changed: sign in again".to_owned(),
            ));
        }
        let mut user = row.as_ref().and_then(|r| r.user_id.clone());
        if user.is_none() {
            let me = self.failing(account, engine, client.whoami().await)?;
            self.db.write(|tx| {
                book::set_state(tx, account, engine, MessengerState::Connected, None)?;
                book::set_user(tx, account, &me)
            })?;
            user = Some(me);
        }
        let since = row.and_then(|r| r.since);
        let answer = client.sync(since.as_deref(), timeout).await;
        let answer = self.failing(account, engine, answer)?;
        let next = answer["next_batch"]
            .as_str()
            .ok_or_else(|| MatrixError::Invalid("the sync answered no next_batch".to_owned()))?;
        let me = user.unwrap_or_default();
        let now = self.clock.timestamp();
        let new_messages = self.db.write(|tx| {
            let mut new = Vec::new();
            if let Some(rooms) = answer["rooms"]["join"].as_object() {
                for (room, data) in rooms {
                    let messages = room_messages(room, data, &me);
                    let last = messages.last().map_or(now.as_str(), |m| m.sent_at.as_str());
                    book::upsert_room(tx, account, room, room_name(data).as_deref(), last)?;
                    for message in messages {
                        if book::insert_message(tx, account, &message)? {
                            new.push(message);
                        }
                    }
                }
            }
            book::synced(tx, account, next, &now)?;
            Ok::<_, MatrixError>(new)
        })?;
        Ok(SyncReport {
            initial: since.is_none(),
            new_messages,
        })
    }

    /// Sends `text` to `room` under a transaction id stored first, so the
    /// message is sent once however often the call is retried.
    pub async fn send(
        &self,
        account: &str,
        client: &Client,
        room: &str,
        text: &str,
    ) -> Result<MatrixMessage, MatrixError> {
        if text.trim().is_empty() {
            return Err(MatrixError::Invalid("the message is empty".to_owned()));
        }
        if text.chars().count() > MAX_TEXT_CHARS {
            return Err(MatrixError::Invalid(format!(
                "a message holds at most {MAX_TEXT_CHARS} characters"
            )));
        }
        let known = self.db.read(|tx| book::room_exists(tx, account, room))?;
        if !known {
            return Err(MatrixError::NotFound);
        }
        let txn = uuid::Uuid::now_v7().simple().to_string();
        let now = self.clock.timestamp();
        self.db
            .write(|tx| book::queue(tx, account, &txn, room, text, &now))?;
        self.deliver(account, client, &txn, room, text).await
    }

    /// Sends again what a failure left unsent, under the same transaction ids.
    pub async fn flush(&self, account: &str, client: &Client) -> Result<usize, MatrixError> {
        let unsent = self.db.read(|tx| book::unsent(tx, account))?;
        let count = unsent.len();
        for (txn, room, body) in unsent {
            self.deliver(account, client, &txn, &room, &body).await?;
        }
        Ok(count)
    }

    async fn deliver(
        &self,
        account: &str,
        client: &Client,
        txn: &str,
        room: &str,
        text: &str,
    ) -> Result<MatrixMessage, MatrixError> {
        let engine = client.engine();
        let event = client.send_text(room, txn, text).await;
        let event = self.failing(account, engine, event)?;
        let status = self.status(account)?;
        let message = MatrixMessage {
            event_id: event,
            room_id: room.to_owned(),
            sender: status.user_id.unwrap_or_default(),
            body: text.to_owned(),
            sent_at: self.clock.timestamp(),
            own: true,
        };
        self.db.write(|tx| {
            book::sent(tx, account, txn, &message.event_id)?;
            book::insert_message(tx, account, &message)?;
            book::upsert_room(tx, account, room, None, &message.sent_at)
        })?;
        Ok(message)
    }

    /// Records a failed call's state (revoked, failing) and passes it on.
    fn failing<T>(
        &self,
        account: &str,
        engine: Engine,
        result: Result<T, MatrixError>,
    ) -> Result<T, MatrixError> {
        match result {
            Ok(value) => Ok(value),
            Err(error) => {
                let state = match error {
                    MatrixError::TokenRevoked => Some(MessengerState::Revoked),
                    MatrixError::Unreachable(_) | MatrixError::RateLimited(_) => {
                        Some(MessengerState::Failing)
                    }
                    _ => None,
                };
                if let Some(state) = state {
                    let failure = error.to_string();
                    self.db
                        .write(|tx| book::set_state(tx, account, engine, state, Some(&failure)))?;
                }
                Err(error)
            }
        }
    }
}

/// The room's name from its state or timeline, else its canonical alias,
/// else the heroes the summary names.
fn room_name(data: &Value) -> Option<String> {
    let events = data["state"]["events"]
        .as_array()
        .into_iter()
        .flatten()
        .chain(data["timeline"]["events"].as_array().into_iter().flatten());
    let mut name = None;
    let mut alias = None;
    for event in events {
        match event["type"].as_str() {
            Some("m.room.name") => {
                name = event["content"]["name"].as_str().map(str::to_owned);
            }
            Some("m.room.canonical_alias") => {
                alias = event["content"]["alias"].as_str().map(str::to_owned);
            }
            _ => {}
        }
    }
    let heroes = data["summary"]["m.heroes"].as_array().map(|heroes| {
        heroes
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(", ")
    });
    name.filter(|n| !n.trim().is_empty())
        .or(alias)
        .or(heroes.filter(|h| !h.is_empty()))
}

fn room_messages(room: &str, data: &Value, me: &str) -> Vec<MatrixMessage> {
    data["timeline"]["events"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| e["type"] == "m.room.message")
        .filter_map(|event| {
            let body = event["content"]["body"].as_str()?;
            let sender = event["sender"].as_str()?;
            let ms = event["origin_server_ts"].as_i64().unwrap_or(0);
            let at = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
                .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
            Some(MatrixMessage {
                event_id: event["event_id"].as_str()?.to_owned(),
                room_id: room.to_owned(),
                sender: sender.to_owned(),
                body: body.to_owned(),
                sent_at: clock::timestamp(at),
                own: sender == me,
            })
        })
        .collect()
}
