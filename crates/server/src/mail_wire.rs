//! The mail client's request bodies and queries (docs/email.md, "Your own
//! mail"), beside `wire.rs`, which re-exports them. Replies are the app
//! layer's own types (`app::mail_*`).

use serde::Deserialize;
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use app::mail_accounts::MailServer;

/// `POST /mail/accounts`: an IMAP and SMTP account to add.
#[derive(Debug, Clone, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewMailAccountBody {
    /// Shown in the sidebar (1 to 80 characters).
    pub name: String,
    /// The address mail goes from.
    pub address: String,
    /// The login name on both servers.
    pub username: String,
    /// Written to the saved keys; never returned.
    pub password: String,
    pub imap: MailServer,
    pub smtp: MailServer,
}

/// `GET /mail/folders`.
#[derive(Debug, Clone, Deserialize, IntoParams, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct MailFoldersQuery {
    pub account_id: String,
}

/// `GET /mail/threads`: a folder's threads, a page at a time.
#[derive(Debug, Clone, Deserialize, IntoParams, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct MailThreadsQuery {
    pub account_id: String,
    /// A folder's name or role (`inbox`, `sent`, `spam` …); default: the
    /// one `in:` of the search names, else the inbox.
    pub folder: Option<String>,
    /// Words to search for (`in:<folder>` picks the folder); absent:
    /// `webmailDefaultQuery`.
    pub q: Option<String>,
    /// The `next` of the previous page.
    pub cursor: Option<String>,
}

/// `POST /mail/threads/{id}/actions`.
#[derive(Debug, Clone, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MailActionBody {
    pub action: app::mail_actions::MailActionKind,
    /// For `snooze`: when the thread comes back (RFC 3339, in the future).
    #[ts(optional)]
    pub until: Option<String>,
    /// For `move`: the folder's name or role.
    #[ts(optional)]
    pub folder: Option<String>,
}

/// `GET /mail/messages/{id}/frame`.
#[derive(Debug, Clone, Default, Deserialize, IntoParams, ToSchema)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct MailFrameQuery {
    /// `1`: this message's remote images load (the person asked).
    pub images: Option<u8>,
}

/// One or several addresses: `"a@x, b@y"` or `["a@x", "b@y"]`.
#[derive(Debug, Clone, Deserialize, ToSchema, TS)]
#[serde(untagged)]
pub enum MailRecipients {
    One(String),
    Many(Vec<String>),
}

impl MailRecipients {
    pub fn into_list(self) -> Vec<String> {
        match self {
            MailRecipients::One(one) => vec![one],
            MailRecipients::Many(many) => many,
        }
    }
}

/// A file sent with a mail.
#[derive(Debug, Clone, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MailAttachmentBody {
    pub name: String,
    pub content_type: String,
    /// The bytes, base64.
    pub content: String,
}

/// `POST /mail/send`.
#[derive(Debug, Clone, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MailSendBody {
    pub account_id: String,
    pub to: MailRecipients,
    #[ts(optional)]
    pub cc: Option<MailRecipients>,
    #[ts(optional)]
    pub bcc: Option<MailRecipients>,
    pub subject: String,
    pub markdown: String,
    /// The message this answers: a thread's `messages[].id`.
    #[ts(optional)]
    pub in_reply_to: Option<String>,
    #[ts(optional)]
    pub attachments: Option<Vec<MailAttachmentBody>>,
}

/// `GET /mail/cleanup`.
#[derive(Debug, Clone, Deserialize, IntoParams, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct MailCleanupQuery {
    pub account_id: String,
}

/// `POST /mail/cleanup/actions`: what to do to one sender's mail.
#[derive(Debug, Clone, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MailCleanupBody {
    pub account_id: String,
    /// The sender's address, as `GET /mail/cleanup` lists it.
    pub sender: String,
    pub action: app::mail_cleanup::MailCleanupAction,
}
