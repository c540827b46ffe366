//! The person's own mail client, its domain: a local store of each
//! account's folders and messages, searchable, threaded, and kept in step
//! with the IMAP server; triage and snooze applied on the server first.
//!
//! - Open: `db.migrate(`[`MIGRATIONS`]`)`, [`MailStore::new`], then one
//!   [`Syncer::new`] per process (it keeps at most one command connection
//!   per account; [`Syncer::wait_inbox`] uses one more, for IDLE).
//! - Sync: [`Syncer::sync`] (every folder), [`Syncer::sync_folder`];
//!   incremental, in windows, resumable, CONDSTORE where offered, a new
//!   UIDVALIDITY handled. Threads: THREAD=REFERENCES where offered, joined
//!   with JWZ ([`thread()`]) across folders.
//! - Read: [`MailStore::folder_list`] (roles, unread and total counts),
//!   [`Syncer::thread_page`] / [`MailStore::thread_page`] (a page of a
//!   folder's threads, newest first, with FTS5 search and the server's
//!   SEARCH while a folder is not fully synced), [`Syncer::thread`] (a
//!   thread's messages with their bytes, fetched on demand).
//! - Act: [`Syncer::apply`] with an [`Action`]; [`Syncer::wake_due`] wakes
//!   snoozed mail at the clock's time.
//! - Content, pure functions over a message's bytes: [`render()`] (sanitized
//!   HTML, remote images blocked, `cid:` parts, broken MIME as text; the
//!   frame's [`content_security_policy`]), [`compose()`] (Markdown to text and
//!   HTML, threaded, with reply and forward rules), [`cleanup()`] (senders
//!   by volume and how to unsubscribe, [`one_click_unsubscribe`]) and
//!   [`verdict`] (the spam rule).
//!
//! Knows nothing of HTTP or settings: it reuses the `mail` crate's account
//! configuration, TLS trust and mail parsing.

mod actions;
mod catch_up;
mod cleanup;
mod compose;
mod detail;
mod error;
mod headers;
mod idle;
mod imap;
mod list;
mod render;
mod role;
mod sanitize;
mod schema;
mod server_thread;
mod snooze;
mod spam;
mod store;
mod summary;
mod sync;
mod thread;

pub use actions::Action;
pub use catch_up::{
    CatchUpMessage, DEFAULT_CATCH_UP_INSTRUCTIONS, MAX_CATCH_UP_CHARS, catch_up_prompt,
};
pub use cleanup::{
    CLEANUP_FIELDS, Cleanup, DomainGroup, MAX_UNSUBSCRIBE_REDIRECTS, OneClickOptions, SenderGroup,
    SenderHeaders, Unsubscribe, UnsubscribeError, cleanup, one_click_unsubscribe, sender_headers,
    unsubscribe_method,
};
pub use compose::{
    ComposeError, Composed, Draft, MAX_ATTACHMENT_BYTES, MAX_REFERENCES,
    MAX_TOTAL_ATTACHMENT_BYTES, OutgoingAttachment, Parent, Purpose, check_attachments, compose,
    forward_subject, forwarded_attachments, markdown_to_html, parent_of, references, reply_all,
    reply_subject, reply_to,
};
pub use detail::ThreadMessage;
pub use error::ClientError;
pub use headers::{FIELDS, Header, PREVIEW_BYTES, PREVIEW_CHARS, preview};
pub use imap::{ImapSession, Login};
pub use list::{FolderSummary, ThreadPage, ThreadSummary};
pub use render::{Address, PartBytes, PartInfo, Rendered, part, render};
pub use role::{Role, SNOOZED};
pub use sanitize::{
    RenderOptions, Sanitized, content_security_policy, sanitize_html, text_to_html,
};
pub use schema::MIGRATIONS;
pub use server_thread::parse_thread;
pub use snooze::Snoozed;
pub use spam::{
    AuthResults, SPAM_THRESHOLD, Verdict, authentication_results, known_sender, verdict,
};
pub use store::{Folder, MAX_HITS, MailStore, Stored};
pub use sync::{SyncReport, Syncer, WINDOW, windows};
pub use thread::{ThreadInput, base_subject, thread};
