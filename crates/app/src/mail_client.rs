//! The person's mail client at work (docs/email.md, "Your own mail"): the
//! accounts ([`crate::mail_accounts::MailAccounts`]), the local store the `mailclient` crate
//! keeps in step with each account's server, and the operations the
//! `/mail` routes call. Every operation first asks [`App::mail_enabled`]
//! (`mailclientEnabled` or `webmailEnabled`); the routes answer 409 naming
//! both while both are off.
//!
//! "Web mail" is the same IMAP account: `webmailEnabled` or
//! `mailclientEnabled` shows it, and `mailclientUseAppWebmail` lists the
//! accounts of `email.toml` (the one the app already signs in to for
//! inbound email) so no second sign-in is asked for; off, only the
//! accounts added in the page are listed and synced.

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::mail_accounts::{MailAccount, MailStatus, NewMailAccount};
use crate::mail_error::{MailClientError, off_thread};
use crate::mail_reads::{self, MailFolder, MailThreadPage};
use crate::services::App;

/// An attachment or inline part of a message.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MailAttachment {
    /// The part's id for `GET /mail/messages/{id}/parts/{part}`.
    pub part: String,
    pub name: Option<String>,
    pub content_type: String,
    pub size: u64,
    /// Shown in the body (a `cid:` image) rather than listed.
    pub inline: bool,
}

/// One message of an open thread.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MailMessage {
    /// For `GET /mail/messages/{id}/parts/{part}` and `/frame`.
    pub id: String,
    pub folder: String,
    pub uid: u32,
    pub message_id: Option<String>,
    pub from: String,
    pub to: Vec<String>,
    pub cc: Vec<String>,
    pub subject: String,
    pub date: Option<String>,
    pub unread: bool,
    pub starred: bool,
    pub text: String,
    /// Sanitized HTML (no script, no form, remote images blocked while
    /// `emailBlockRemoteImages` is on): show it in a sandboxed frame, as
    /// `frameUrl` serves it with its Content-Security-Policy.
    pub html: String,
    pub frame_url: String,
    pub attachments: Vec<MailAttachment>,
    /// Remote images held back; `frameUrl` with `?images=1` shows them.
    pub remote_images: u32,
    /// Why the message could not be read whole (shown as text then).
    pub malformed: Option<String>,
}

/// `GET /mail/threads/{id}`: a thread's messages, oldest first.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MailThread {
    pub id: String,
    pub account_id: String,
    pub subject: String,
    pub messages: Vec<MailMessage>,
}

/// The message the routes give while both switches are off.
pub const MAIL_OFF: &str =
    "The mail client is turned off (settings mailclientEnabled and webmailEnabled).";

impl App {
    /// Whether the mail client is on: `mailclientEnabled`, or
    /// `webmailEnabled` (the same client, shown as web mail).
    pub fn mail_enabled(&self) -> bool {
        self.settings.mailclient_enabled() || self.settings.webmail_enabled()
    }

    fn use_toml(&self) -> bool {
        self.settings.mailclient_use_app_webmail()
    }

    pub async fn mail_accounts(&self, owner: &str) -> Result<Vec<MailAccount>, MailClientError> {
        let (app, owner) = (self.clone(), owner.to_owned());
        off_thread(move || app.mail.accounts.list(&owner, app.use_toml())).await
    }

    /// Adds an account; its login is checked in the background.
    pub async fn add_mail_account(
        &self,
        owner: &str,
        new: NewMailAccount,
    ) -> Result<MailAccount, MailClientError> {
        let (app, owner) = (self.clone(), owner.to_owned());
        let account = off_thread(move || app.mail.accounts.add(&owner, new)).await?;
        self.mail.wake.notify_one();
        Ok(account)
    }

    pub async fn remove_mail_account(&self, owner: &str, id: &str) -> Result<(), MailClientError> {
        let (app, owner, id) = (self.clone(), owner.to_owned(), id.to_owned());
        off_thread(move || app.mail.accounts.remove(&owner, &id)).await
    }

    /// The account `id` of `owner`, checked to exist.
    async fn mail_account(&self, owner: &str, id: &str) -> Result<MailAccount, MailClientError> {
        let (app, owner, id) = (self.clone(), owner.to_owned(), id.to_owned());
        off_thread(move || app.mail.accounts.get(&owner, &id, app.use_toml())).await
    }

    pub async fn mail_folders(
        &self,
        owner: &str,
        account: &str,
    ) -> Result<Vec<MailFolder>, MailClientError> {
        self.mail_account(owner, account).await?;
        let (app, account) = (self.clone(), account.to_owned());
        off_thread(move || mail_reads::folders(&app.mail.store, &account)).await
    }

    /// A page of threads: `folder` (default: the one `in:` of the query
    /// names, else the inbox), `q` (default `webmailDefaultQuery`), a page
    /// of `webmailPageSize`.
    pub async fn mail_threads(
        &self,
        owner: &str,
        account: &str,
        folder: Option<String>,
        q: Option<String>,
        cursor: Option<String>,
    ) -> Result<MailThreadPage, MailClientError> {
        let reach = self.mail_reach(owner, account).await?;
        let query = q.unwrap_or_else(|| self.settings.webmail_default_query());
        let (named, words) = mail_reads::split_query(&query);
        let folder = folder
            .filter(|f| !f.is_empty())
            .or(named)
            .unwrap_or_else(|| "inbox".to_owned());
        let folder = {
            let (app, account) = (self.clone(), account.to_owned());
            off_thread(move || mail_reads::resolve_folder(&app.mail.store, &account, &folder))
                .await?
        };
        let words = words.trim();
        let limit = self.settings.webmail_page_size() as usize;
        let page = self
            .mail
            .syncer
            .thread_page(
                account,
                &reach.login(),
                &folder,
                (!words.is_empty()).then_some(words),
                cursor.as_deref(),
                limit,
            )
            .await
            .map_err(|e| match e {
                mailclient::ClientError::BadCursor(_) => {
                    MailClientError::invalid("cursor", "is not a cursor this list gave")
                }
                other => other.into(),
            })?;
        Ok(mail_reads::shown_page(account, page))
    }

    /// A thread's messages, bodies fetched from the server on first open
    /// (and kept, searchable from then on); with `webmailAutoMarkRead` its
    /// unread messages are marked read on the server.
    pub async fn mail_thread(&self, owner: &str, id: &str) -> Result<MailThread, MailClientError> {
        self.open_thread(owner, id, self.settings.webmail_auto_mark_read())
            .await
    }

    /// Thread `id` with its bodies downloaded; marked read on the server
    /// only when `mark_read` (a person opened it, not a summary).
    pub(crate) async fn open_thread(
        &self,
        owner: &str,
        id: &str,
        mark_read: bool,
    ) -> Result<MailThread, MailClientError> {
        let (account, thread) = mail_reads::parse_public_id(id)
            .ok_or_else(|| MailClientError::NotFound(format!("No thread is `{id}`.")))?;
        let reach = self.mail_reach(owner, &account).await?;
        let login = reach.login();
        let stored = self
            .mail
            .syncer
            .thread(&account, &login, &thread)
            .await
            .map_err(|e| match e {
                mailclient::ClientError::NoSuchThread(_) => {
                    MailClientError::NotFound(format!("No thread is `{id}`."))
                }
                other => other.into(),
            })?;
        let mut folders: Vec<String> = Vec::new();
        for message in stored.iter().filter(|m| m.header.is_unread()) {
            if !folders.contains(&message.folder) {
                folders.push(message.folder.clone());
            }
        }
        if mark_read {
            for folder in &folders {
                self.mail
                    .syncer
                    .apply(&account, &login, folder, &thread, &mailclient::Action::Read)
                    .await?;
            }
        }
        let block = self.settings.email_block_remote_images();
        let messages = stored
            .iter()
            .map(|m| shown(&account, m, block, mark_read))
            .collect::<Vec<_>>();
        Ok(MailThread {
            id: id.to_owned(),
            account_id: account,
            subject: messages
                .first()
                .map(|m| m.subject.clone())
                .unwrap_or_default(),
            messages,
        })
    }

    /// How to reach account `account` of `owner`.
    pub(crate) async fn mail_reach(
        &self,
        owner: &str,
        account: &str,
    ) -> Result<crate::mail_accounts::Reach, MailClientError> {
        let (app, owner, account) = (self.clone(), owner.to_owned(), account.to_owned());
        off_thread(move || app.mail.accounts.reach(&owner, &account, app.use_toml())).await
    }

    /// Checks the login of and syncs account `id` now, recording its status:
    /// a refusal marks it failing with the server's words.
    pub(crate) async fn sync_mail_account(
        &self,
        owner: &str,
        id: &str,
    ) -> Option<mailclient::SyncReport> {
        let reach = self.mail_reach(owner, id).await;
        let outcome = match reach {
            Ok(reach) => self
                .mail
                .syncer
                .sync(id, &reach.login())
                .await
                .map_err(|e| e.to_string()),
            Err(error) => Err(error.to_string()),
        };
        match outcome {
            Ok(report) => {
                self.mail.accounts.set_status(id, MailStatus::Ok, None);
                Some(report)
            }
            Err(failure) => {
                tracing::info!(account = %id, %failure, "a mail account did not sync");
                self.mail
                    .accounts
                    .set_status(id, MailStatus::Failing, Some(failure));
                None
            }
        }
    }
}

/// The URL template of a message's parts, as B's renderer fills it.
fn part_url(message: &str) -> String {
    format!("/mail/messages/{message}/parts/{{part}}")
}

/// A message as the page shows it, rendered from its bytes.
fn shown(account: &str, m: &mailclient::ThreadMessage, block: bool, read: bool) -> MailMessage {
    let id = mail_reads::public_id(account, &format!("{}\u{1f}{}", m.folder, m.uid));
    let template = part_url(&id);
    let r = mailclient::render(
        &m.raw,
        &mailclient::RenderOptions {
            block_remote_images: block,
            part_url: &template,
        },
    );
    MailMessage {
        frame_url: format!("/mail/messages/{id}/frame"),
        id,
        folder: m.folder.clone(),
        uid: m.uid,
        message_id: m.header.message_id.clone(),
        from: m.header.from.clone(),
        to: m.header.to.clone(),
        cc: m.header.cc.clone(),
        subject: m.header.subject.clone(),
        date: m.header.date.and_then(mail_reads::rfc3339),
        unread: m.header.is_unread() && !read,
        starred: m.header.is_starred(),
        text: r.text,
        html: r.html,
        attachments: r
            .attachments
            .into_iter()
            .map(|p| MailAttachment {
                part: p.id,
                name: p.name,
                content_type: p.content_type,
                size: p.size as u64,
                inline: p.inline,
            })
            .collect(),
        remote_images: u32::try_from(r.remote_images).unwrap_or(u32::MAX),
        malformed: r.malformed,
    }
}
