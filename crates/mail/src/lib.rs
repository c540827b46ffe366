//! Email in and out for Switchboard's inbound mail: a mail to a watched
//! inbox from an approved sender can start an agent session, and the
//! session's final message goes back as a reply in the same thread.
//!
//! - [`Config`] reads `DIR/email.toml` (accounts, their IMAP and SMTP
//!   servers, the saved keys holding their passwords); [`resolve_inbox`]
//!   turns `emailInboundInboxId` (`address` or `address/Mailbox`) into an
//!   [`Inbox`]. docs/email.md documents both.
//! - [`Watcher`] keeps an IMAP connection (async-imap, rustls) and hands
//!   each new mail ([`Fetched`]) to the caller: IDLE when the server has it,
//!   else polling; reconnecting with a growing pause; stopping when told.
//! - [`parse`] reads a mail ([`Mail`]): sender, thread headers, text,
//!   attachments with safe names, and whether a machine sent it.
//! - [`archive()`] moves one mail to the account's Archive mailbox (the
//!   email summarizer's `emailSummarizerArchiveEnabled`).
//! - [`Mailer`] sends the reply or the refusal by SMTP (lettre).
//! - [`is_approved`] is the `emailInboundApprovedSenders` rule.
//! - [`Mailbook`] keeps the tables ([`MIGRATIONS`]): cursors, every mail
//!   seen with its [`Decision`] (each processed once), the thread map, and
//!   the once-a-day refusals.
//!
//! Knows nothing of HTTP servers, settings, sessions or the utility model:
//! the app passes the settings' values and the saved keys' values, decides
//! what a mail starts, and runs the sessions.

mod archive;
mod book;
mod config;
mod error;
mod parse;
mod reply;
#[cfg(feature = "test-rig")]
pub mod rig;
mod rules;
mod schema;
mod tls;
mod watch;

pub use archive::{ARCHIVE_MAILBOX, archive};
pub use book::{Cursor, Decision, Fetched, MAX_LIST, Mailbook, Seen};
pub use config::{
    Account, CONFIG_FILE, Config, DEFAULT_MAILBOX, Inbox, Reports, Server, Tls, resolve_inbox,
};
pub use error::MailError;
pub use parse::{Attachment, MAX_ATTACHMENT_NAME_CHARS, Mail, bare_id, parse, sanitize_name};
pub use reply::{Mailer, REFUSAL, Sent, build_reply, reply_subject};
pub use rules::is_approved;
pub use schema::MIGRATIONS;
pub use tls::Trust;
pub use watch::{IDLE_RENEW, Status, Watcher};
