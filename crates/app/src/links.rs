//! The application's connections to outside services that come and go with
//! their settings (the messenger bot, the inbound mail watcher): what is
//! connected now, for the tasks that reach it from elsewhere (a turn's end,
//! an approval, the summarizer's archiving), and the set-up problem said
//! last, so it is said once.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use mail::{Mailbook, Mailer};
use messenger::{BotState, Client, Config, Me, Update, WebhookSecrets};
use tokio::sync::{mpsc, watch};

/// One connection, while it is up.
pub struct Link<T> {
    current: Mutex<Option<Arc<T>>>,
    said: Mutex<Option<String>>,
}

impl<T> Default for Link<T> {
    fn default() -> Self {
        Self {
            current: Mutex::new(None),
            said: Mutex::new(None),
        }
    }
}

impl<T> Link<T> {
    pub(crate) fn get(&self) -> Option<Arc<T>> {
        self.current
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    pub(crate) fn set(&self, current: Option<Arc<T>>) {
        *self.current.lock().unwrap_or_else(PoisonError::into_inner) = current;
    }

    /// True the first time `problem` is said since the last different one
    /// (or since [`Link::forget_said`]).
    pub(crate) fn first_time(&self, problem: &str) -> bool {
        let mut said = self.said.lock().unwrap_or_else(PoisonError::into_inner);
        if said.as_deref() == Some(problem) {
            return false;
        }
        *said = Some(problem.to_owned());
        true
    }

    /// The connection is up: a problem said before may be said again.
    pub(crate) fn forget_said(&self) {
        *self.said.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

/// The messenger bot while it is connected.
pub struct Bot {
    pub(crate) client: Arc<Client>,
    pub(crate) state: BotState,
    pub(crate) owner: String,
    pub(crate) me: Me,
    pub(crate) config: Config,
    /// In webhook mode: what a delivery must show, and where it goes.
    pub(crate) webhook: Option<Webhook>,
}

/// The messenger bot's webhook: the secrets of its address and header, and
/// the queue the route hands each update to.
pub struct Webhook {
    pub(crate) secrets: WebhookSecrets,
    pub(crate) updates: mpsc::Sender<Update>,
}

/// The inbound mail while its inbox is watched.
pub struct Inbox {
    pub(crate) book: Arc<Mailbook>,
    pub(crate) mailer: Mailer,
    pub(crate) owner: String,
    /// Where email sessions get their folders.
    pub(crate) folder: PathBuf,
    pub(crate) status: watch::Receiver<mail::Status>,
}

/// The email summarizer's inbox while it is watched: what archiving a
/// summarized mail needs (`email_summarizer.rs`).
pub struct Summarizer {
    pub(crate) inbox: mail::Inbox,
    pub(crate) password: String,
    pub(crate) trust: mail::Trust,
    pub(crate) owner: String,
    pub(crate) status: watch::Receiver<mail::Status>,
}
