//! [`Sms`]: sending, receiving, threads and health over one store.

use std::sync::Arc;

use clock::Clock;
use store::Db;

use crate::book::{self, NewMessage};
use crate::gateway::{Endpoint, Gateway, GatewayError};
use crate::health::{self, Transition};
use crate::webhook::Incoming;
use crate::{
    DeliveryState, Health, MAX_SEND_CHARS, MAX_STORED_CHARS, SmsDirection, SmsError, SmsMessage,
    SmsThread, number,
};

pub struct Sms {
    db: Arc<Db>,
    clock: Arc<dyn Clock>,
    gateway: Gateway,
}

/// A text handed to the gateway: `message.state` is `failed` (with the
/// reason) when the gateway did not take it; `health` is what that changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    pub message: SmsMessage,
    pub health: Option<Transition>,
}

/// An incoming text stored; `new` is false for a delivery repeated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Received {
    pub message: SmsMessage,
    pub new: bool,
}

impl Sms {
    pub fn new(db: Arc<Db>, clock: Arc<dyn Clock>) -> Self {
        Self::with_gateway(db, clock, Gateway::default())
    }

    pub fn with_gateway(db: Arc<Db>, clock: Arc<dyn Clock>, gateway: Gateway) -> Self {
        Sms { db, clock, gateway }
    }

    /// Sends `text` to `to` (blocking: it calls the gateway). The text is
    /// stored before the call, so one the gateway never took stays, failed.
    pub fn send(
        &self,
        account: &str,
        endpoint: &Endpoint,
        to: &str,
        text: &str,
    ) -> Result<Sent, SmsError> {
        let to = number::normalize_recipient(to)?;
        if text.trim().is_empty() {
            return Err(SmsError::Invalid("the text is empty".to_owned()));
        }
        let chars = text.chars().count();
        if chars > MAX_SEND_CHARS {
            return Err(SmsError::Invalid(format!(
                "the text has {chars} characters; at most {MAX_SEND_CHARS} are sent"
            )));
        }
        let id = uuid::Uuid::now_v7().to_string();
        let now = self.clock.timestamp();
        self.db.write(|tx| {
            book::insert(
                tx,
                &NewMessage {
                    id: &id,
                    account,
                    number: &to,
                    direction: SmsDirection::Out,
                    text,
                    state: DeliveryState::Pending,
                    gateway_id: None,
                    spam: false,
                    now: &now,
                },
            )
        })?;
        let answer = self.gateway.send(endpoint, &id, &to, text);
        let health = self.db.write(|tx| {
            match &answer {
                Ok(accepted) => book::set_state(tx, &id, accepted.state, Some(&accepted.id), None)?,
                Err(e) => {
                    book::set_state(tx, &id, DeliveryState::Failed, None, Some(&e.to_string()))?
                }
            }
            self.report(tx, account, answer.as_ref().err())
        })?;
        let message = self.db.read(|tx| book::message_of(tx, &id))?;
        Ok(Sent { message, health })
    }

    /// Stores an incoming text once per gateway id. With `filter_spam`
    /// (`spamFilterSmsEnabled`), a text from a number neither saved as a
    /// contact nor ever texted is held in Spam; short codes never are.
    pub fn receive(
        &self,
        account: &str,
        incoming: &Incoming,
        filter_spam: bool,
    ) -> Result<Received, SmsError> {
        let from = number::normalize_sender(&incoming.from)?;
        let text: String = incoming.text.chars().take(MAX_STORED_CHARS).collect();
        let now = self.clock.timestamp();
        self.db.write(|tx| {
            if let Some(message) = book::incoming_of(tx, account, &incoming.id)? {
                return Ok(Received {
                    message,
                    new: false,
                });
            }
            let spam =
                filter_spam && !number::is_short_code(&from) && !book::known(tx, account, &from)?;
            let id = uuid::Uuid::now_v7().to_string();
            book::insert(
                tx,
                &NewMessage {
                    id: &id,
                    account,
                    number: &from,
                    direction: SmsDirection::In,
                    text: &text,
                    state: DeliveryState::Received,
                    gateway_id: Some(&incoming.id),
                    spam,
                    now: &now,
                },
            )?;
            Ok(Received {
                message: book::message_of(tx, &id)?,
                new: true,
            })
        })
    }

    /// Asks the gateway for the fate of texts not yet delivered or failed,
    /// or, with none, whether it answers at all: the health check of a
    /// quiet gateway (blocking).
    pub fn refresh(
        &self,
        account: &str,
        endpoint: &Endpoint,
    ) -> Result<Option<Transition>, SmsError> {
        let unsettled = self.db.read(|tx| book::unsettled(tx, account))?;
        if unsettled.is_empty() {
            let answer = self.gateway.check(endpoint);
            return self
                .db
                .write(|tx| self.report(tx, account, answer.as_ref().err()));
        }
        let mut last = None;
        for (id, gateway_id) in unsettled {
            let answer = self.gateway.state(endpoint, &gateway_id);
            let transition = self.db.write(|tx| {
                if let Ok(state) = answer {
                    book::set_state(tx, &id, state, None, None)?;
                }
                self.report(tx, account, answer.as_ref().err())
            })?;
            last = transition.or(last);
            if matches!(
                answer,
                Err(GatewayError::Away(_) | GatewayError::Refused(_))
            ) {
                break;
            }
        }
        Ok(last)
    }

    fn report(
        &self,
        tx: &store::rusqlite::Transaction<'_>,
        account: &str,
        error: Option<&GatewayError>,
    ) -> Result<Option<Transition>, SmsError> {
        match error {
            // An answer that is not success still shows the gateway is
            // there and took the credentials.
            None | Some(GatewayError::Rejected { .. }) => health::succeeded(tx, account),
            Some(error) => health::failed(tx, account, error, self.clock.now()),
        }
    }

    pub fn health(&self, account: &str) -> Result<Health, SmsError> {
        self.db.read(|tx| health::read(tx, account))
    }

    /// The threads in the inbox (`spam` false) or in Spam, newest first.
    pub fn threads(&self, account: &str, spam: bool) -> Result<Vec<SmsThread>, SmsError> {
        self.db.read(|tx| book::threads(tx, account, spam))
    }

    /// A thread's texts, oldest first; reading them marks them read.
    pub fn messages(&self, account: &str, number: &str) -> Result<Vec<SmsMessage>, SmsError> {
        let number = number::normalize_sender(number)?;
        self.db.write(|tx| {
            book::mark_read(tx, account, &number)?;
            book::messages(tx, account, &number)
        })
    }

    /// Saves `number` as a contact: the spam rule trusts it from now on.
    pub fn save_contact(&self, account: &str, number: &str, name: &str) -> Result<(), SmsError> {
        let number = number::normalize_sender(number)?;
        let name = name.trim();
        if name.is_empty() {
            return Err(SmsError::Invalid("a contact needs a name".to_owned()));
        }
        self.db
            .write(|tx| book::save_contact(tx, account, &number, name))
    }

    /// Lets a thread out of Spam.
    pub fn not_spam(&self, account: &str, number: &str) -> Result<(), SmsError> {
        let number = number::normalize_sender(number)?;
        self.db.write(|tx| book::not_spam(tx, account, &number))
    }
}
