//! Text messages at work (docs/phone.md "Text messages"): the owner's texts
//! through `DIR/sms.toml`'s provider (`smsProvider`), its secrets revealed
//! from the saved keys it names.
//!
//! - Sending ([`App::sms_send`]) and the thread lists are the owner's; an
//!   agent token cannot text (the routes take the user's credential only).
//! - An incoming delivery ([`App::sms_incoming`]) is checked against the
//!   saved signing key, stored once, held in Spam by
//!   `spamFilterSmsEnabled`'s rule, and, when new and not spam, becomes an
//!   inbox row of category `sms` (`inboxShowSms`) that opens its thread.
//! - A loop on the app clock asks the gateway every [`CHECK_EVERY`] for the
//!   fate of texts not yet delivered (or, with none, whether it answers).
//!   Whatever call finds texts failing or working again raises or clears
//!   one inbox alert while `smsHealthAlertsEnabled` is on.

use std::sync::Arc;

use settings::SmsProvider;
use sms::{Config, Delivery, Endpoint, Provider, SmsError, SmsMessage, SmsThread, Transition};

use crate::services::App;

/// How often the gateway is asked about texts in flight and its health.
const CHECK_EVERY: time::Duration = time::Duration::minutes(5);
/// The alert's title, which finds it again to clear it.
const HEALTH_ALERT: &str = "Text messages are failing";

/// What an incoming delivery became.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Incoming {
    Stored {
        message: SmsMessage,
        new: bool,
    },
    /// Another event of the gateway's, answered and dropped.
    Ignored(String),
}

impl App {
    /// The chosen provider's endpoint, its secret revealed.
    fn sms_endpoint(&self, owner: &str) -> Result<Endpoint, SmsError> {
        let config = Config::load(&self.data_dir)?;
        let provider = match self.settings.sms_provider() {
            SmsProvider::Native => Provider::Native,
            SmsProvider::Relay => Provider::Relay,
        };
        let section = config.section(provider)?;
        let secret = reveal(self, owner, &section.secret_key)?;
        Ok(Endpoint::new(provider, section, secret))
    }

    /// Sends a text as the owner (blocking work off the async workers).
    pub async fn sms_send(&self, to: &str, text: &str) -> Result<SmsMessage, SmsError> {
        let owner = owner(self).await?;
        let (app, to, text) = (self.clone(), to.to_owned(), text.to_owned());
        let who = owner.clone();
        let sent = blocking(move || {
            let endpoint = app.sms_endpoint(&who)?;
            app.sms.send(&who, &endpoint, &to, &text)
        })
        .await?;
        self.sms_health_changed(&owner, sent.health).await;
        Ok(sent.message)
    }

    /// The owner's threads: the inbox's, or those held in Spam.
    pub async fn sms_threads(&self, spam: bool) -> Result<Vec<SmsThread>, SmsError> {
        let owner = owner(self).await?;
        let sms = Arc::clone(&self.sms);
        blocking(move || sms.threads(&owner, spam)).await
    }

    /// One thread's texts, oldest first (reading marks them read).
    pub async fn sms_messages(&self, number: &str) -> Result<Vec<SmsMessage>, SmsError> {
        let owner = owner(self).await?;
        let (sms, number) = (Arc::clone(&self.sms), number.to_owned());
        blocking(move || sms.messages(&owner, &number)).await
    }

    /// Saves `number` as a contact named `name` (the spam rule trusts it).
    pub async fn sms_save_contact(&self, number: &str, name: &str) -> Result<(), SmsError> {
        let owner = owner(self).await?;
        let (sms, number, name) = (Arc::clone(&self.sms), number.to_owned(), name.to_owned());
        blocking(move || sms.save_contact(&owner, &number, &name)).await
    }

    /// Lets a thread out of Spam: its texts so far and to come arrive as
    /// any other's.
    pub async fn sms_not_spam(&self, number: &str) -> Result<(), SmsError> {
        let owner = owner(self).await?;
        let (sms, number) = (Arc::clone(&self.sms), number.to_owned());
        blocking(move || sms.not_spam(&owner, &number)).await
    }

    /// A delivery to `POST /sms/incoming`: its signature checked with the
    /// signing key `sms.toml` names, then stored.
    pub async fn sms_incoming(
        &self,
        body: &[u8],
        timestamp: Option<&str>,
        signature: Option<&str>,
    ) -> Result<Incoming, SmsError> {
        let owner = owner(self).await?;
        let config = Config::load(&self.data_dir)?;
        let key = reveal(self, &owner, &config.webhook_secret_key)?;
        sms::webhook::verify(&key, body, timestamp, signature, self.clock.now())?;
        let incoming = match sms::webhook::parse(body)? {
            Delivery::Text(incoming) => incoming,
            Delivery::Ignored(event) => return Ok(Incoming::Ignored(event)),
        };
        let (sms, who) = (Arc::clone(&self.sms), owner.clone());
        let filter = self.settings.spam_filter_sms_enabled();
        let received = blocking(move || sms.receive(&who, &incoming, filter)).await?;
        if received.new && !received.message.spam && self.settings.inbox_show_sms() {
            crate::publish::add_row(self, &owner, text_row(&received.message)).await;
        }
        Ok(Incoming::Stored {
            message: received.message,
            new: received.new,
        })
    }

    async fn sms_health_changed(&self, owner: &str, transition: Option<Transition>) {
        let Some(transition) = transition else { return };
        match transition {
            Transition::Raised(reason) if self.settings.sms_health_alerts_enabled() => {
                let mut row = inbox::NewRow::new(inbox::Category::Alert, HEALTH_ALERT);
                row.body = Some(reason);
                let detail = row.body.clone().unwrap_or_default();
                row.actions.push(inbox::Action::OpenPath {
                    path: "/texts".to_owned(),
                });
                crate::publish::add_row(self, owner, row.dedup("sms-health")).await;
                // The one notification: a push to the user's devices, once per failing spell.
                let alert = crate::push_delivery::Alert {
                    title: HEALTH_ALERT,
                    detail: &detail,
                    url: "/texts",
                    tag: "sms-health",
                };
                let id = format!("sms-health-{}", self.clock.now().unix_timestamp());
                crate::push_delivery::alert(self, owner, &id, &alert);
            }
            Transition::Raised(_) => {}
            Transition::Cleared => self.clear_sms_alert(owner).await,
        }
    }

    async fn clear_sms_alert(&self, owner: &str) {
        let (inbox, who) = (Arc::clone(&self.inbox), owner.to_owned());
        let cleared = blocking(move || {
            let query = inbox::ListQuery {
                category: Some(inbox::Category::Alert),
                limit: 200,
                ..inbox::ListQuery::default()
            };
            let rows = inbox.list(&who, &query).map_err(inbox_error)?;
            let mut changed = Vec::new();
            for row in rows.into_iter().filter(|r| r.title == HEALTH_ALERT) {
                let change = inbox::RowChange {
                    read: Some(true),
                    archived: Some(true),
                };
                changed.push(inbox.change(&who, &row.id, change).map_err(inbox_error)?);
            }
            Ok(changed)
        })
        .await;
        match cleared {
            Ok(rows) => {
                for row in rows {
                    crate::publish::inbox_changed(
                        self,
                        owner,
                        &crate::stream_events::InboxEvent::Updated(row),
                    );
                }
            }
            Err(error) => tracing::warn!(%error, "the texts' health alert was not cleared"),
        }
    }
}

/// The inbox row of a new text: who, what, and the thread it opens.
fn text_row(message: &SmsMessage) -> inbox::NewRow {
    let mut row = inbox::NewRow::new(
        inbox::Category::Sms,
        inbox::clip(
            &format!("Text from {}", message.number),
            inbox::MAX_TITLE_CHARS,
        ),
    );
    row.body = Some(inbox::clip(&message.text, 600));
    let query = form_urlencoded::Serializer::new(String::new())
        .append_pair("number", &message.number)
        .finish();
    row.actions.push(inbox::Action::OpenPath {
        path: format!("/texts?{query}"),
    });
    row.dedup(&format!("sms:{}", message.id))
}

pub(crate) fn start(app: &App) {
    crate::looking::spawn(
        app,
        Arc::new(tokio::sync::Notify::new()),
        |app| async move {
            check(&app).await;
            app.clock.now() + CHECK_EVERY
        },
    );
}

/// One look at the gateway while texts are on.
async fn check(app: &App) {
    if !app.settings.sms_enabled() {
        return;
    }
    let Ok(owner) = owner(app).await else { return };
    let (worker, who) = (app.clone(), owner.clone());
    let checked = blocking(move || {
        let endpoint = worker.sms_endpoint(&who)?;
        worker.sms.refresh(&who, &endpoint)
    })
    .await;
    match checked {
        Ok(transition) => app.sms_health_changed(&owner, transition).await,
        // Not set up is the settings page's to say, not an alert's.
        Err(SmsError::NotConfigured(_)) => {}
        Err(error) => tracing::warn!(%error, "the texts' check failed"),
    }
}

fn reveal(app: &App, owner: &str, key: &str) -> Result<String, SmsError> {
    app.secrets
        .reveal(owner, key)
        .map_err(|e| SmsError::NotConfigured(format!("the saved key {key} cannot be read ({e})")))
}

async fn owner(app: &App) -> Result<String, SmsError> {
    crate::connections::owner(app)
        .await
        .map_err(|e| SmsError::NotConfigured(e.to_string()))
}

fn inbox_error(error: inbox::InboxError) -> SmsError {
    SmsError::Invalid(error.to_string())
}

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, SmsError> + Send + 'static,
) -> Result<T, SmsError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| SmsError::Invalid(format!("the work did not finish: {e}")))?
}
