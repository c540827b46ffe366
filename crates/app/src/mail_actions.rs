//! What the person does to a thread (`POST /mail/threads/{id}/actions`)
//! and to one message's parts: each action is applied on the server first
//! (the `mailclient` crate's MOVE or STORE) and the store follows only
//! when the server agreed, so a refusal leaves both as they were and comes
//! back with the server's words. Snooze moves the thread to the Snoozed
//! folder until a moment of the app clock; the sync loop brings it back.

use std::collections::HashMap;

use serde::Deserialize;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::mail_error::{MailClientError, off_thread};
use crate::mail_reads;
use crate::services::App;

/// What `POST /mail/threads/{id}/actions` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MailActionKind {
    Archive,
    Star,
    Unstar,
    Read,
    Unread,
    Spam,
    NotSpam,
    Snooze,
    Move,
}

/// An action with what some kinds need: `until` for `snooze` (RFC 3339, in
/// the future), `folder` for `move`.
#[derive(Debug, Clone)]
pub struct MailAction {
    pub kind: MailActionKind,
    pub until: Option<String>,
    pub folder: Option<String>,
}

impl App {
    /// Applies `action` to thread `id`; returns how many messages it moved
    /// or changed.
    pub async fn mail_act(
        &self,
        owner: &str,
        id: &str,
        action: MailAction,
    ) -> Result<usize, MailClientError> {
        let (account, thread) = mail_reads::parse_public_id(id)
            .ok_or_else(|| MailClientError::NotFound(format!("No thread is `{id}`.")))?;
        let until = match action.kind {
            MailActionKind::Snooze => Some(self.snooze_until(action.until.as_deref())?),
            _ => None,
        };
        let target = match action.kind {
            MailActionKind::Move => {
                let folder = action
                    .folder
                    .as_deref()
                    .map(str::trim)
                    .filter(|f| !f.is_empty())
                    .ok_or_else(|| MailClientError::invalid("folder", "is required to move"))?
                    .to_owned();
                let (app, account) = (self.clone(), account.clone());
                Some(
                    off_thread(move || {
                        mail_reads::resolve_folder(&app.mail.store, &account, &folder)
                            .map_err(|e| MailClientError::invalid("folder", e.to_string()))
                    })
                    .await?,
                )
            }
            _ => None,
        };
        let reach = self.mail_reach(owner, &account).await?;
        let login = reach.login();
        let homes = self.thread_folders(&account, &thread).await?;
        if homes.is_empty() {
            return Err(MailClientError::NotFound(format!("No thread is `{id}`.")));
        }
        let acted_in: Vec<&String> = match action.kind {
            // Flags go on every copy of the thread, wherever it is.
            MailActionKind::Star
            | MailActionKind::Unstar
            | MailActionKind::Read
            | MailActionKind::Unread => homes.keys().collect(),
            MailActionKind::NotSpam => homes
                .iter()
                .filter(|(_, role)| role.as_deref() == Some("spam"))
                .map(|(name, _)| name)
                .collect(),
            // A move takes the thread out of where the person sees it: every
            // folder but Sent and Drafts, which keep their copies.
            _ => homes
                .iter()
                .filter(|(_, role)| !matches!(role.as_deref(), Some("sent" | "drafts")))
                .map(|(name, _)| name)
                .collect(),
        };
        if action.kind == MailActionKind::NotSpam {
            let (app, account2, thread2) = (self.clone(), account.clone(), thread.clone());
            let senders = off_thread(move || {
                Ok(app
                    .mail
                    .store
                    .thread(&account2, &thread2)?
                    .into_iter()
                    .map(|m| m.header.from)
                    .collect::<Vec<_>>())
            })
            .await?;
            for sender in senders {
                self.mark_known_sender(&account, &sender).await?;
            }
        }
        let act = match action.kind {
            MailActionKind::Archive => mailclient::Action::Archive,
            MailActionKind::Star => mailclient::Action::Star,
            MailActionKind::Unstar => mailclient::Action::Unstar,
            MailActionKind::Read => mailclient::Action::Read,
            MailActionKind::Unread => mailclient::Action::Unread,
            MailActionKind::Spam => mailclient::Action::Spam,
            MailActionKind::NotSpam => mailclient::Action::NotSpam,
            MailActionKind::Move => mailclient::Action::Move(target.unwrap_or_default()),
            MailActionKind::Snooze => mailclient::Action::Snooze {
                until: until.unwrap_or_default(),
            },
        };
        let mut acted = 0;
        for folder in acted_in {
            acted += self
                .mail
                .syncer
                .apply(&account, &login, folder, &thread, &act)
                .await?;
        }
        Ok(acted)
    }

    /// `until` as Unix seconds, refused unless it is after the app clock's now.
    fn snooze_until(&self, until: Option<&str>) -> Result<i64, MailClientError> {
        let until =
            until.ok_or_else(|| MailClientError::invalid("until", "is required to snooze"))?;
        let at = time::OffsetDateTime::parse(until, &time::format_description::well_known::Rfc3339)
            .map_err(|_| {
                MailClientError::invalid("until", "must be a time such as 2026-12-01T09:00:00Z")
            })?;
        if at <= self.clock.now() {
            return Err(MailClientError::invalid("until", "must be in the future"));
        }
        Ok(at.unix_timestamp())
    }

    /// The folders thread `thread` has messages in, with their roles.
    async fn thread_folders(
        &self,
        account: &str,
        thread: &str,
    ) -> Result<HashMap<String, Option<String>>, MailClientError> {
        let (app, account, thread) = (self.clone(), account.to_owned(), thread.to_owned());
        off_thread(move || {
            let roles: HashMap<String, Option<String>> =
                mail_reads::folders(&app.mail.store, &account)?
                    .into_iter()
                    .map(|f| (f.name, f.role))
                    .collect();
            Ok(app
                .mail
                .store
                .thread(&account, &thread)?
                .into_iter()
                .map(|m| {
                    let role = roles.get(&m.folder).cloned().flatten();
                    (m.folder, role)
                })
                .collect())
        })
        .await
    }

    /// One message's raw bytes (stored when its thread was opened).
    pub async fn mail_message_raw(
        &self,
        owner: &str,
        id: &str,
    ) -> Result<Vec<u8>, MailClientError> {
        let missing = || MailClientError::NotFound(format!("No message is `{id}`."));
        let (account, local) = mail_reads::parse_public_id(id).ok_or_else(missing)?;
        let (folder, uid) = local
            .rsplit_once('\u{1f}')
            .and_then(|(folder, uid)| Some((folder.to_owned(), uid.parse::<u32>().ok()?)))
            .ok_or_else(missing)?;
        self.mail_reach(owner, &account).await?;
        let app = self.clone();
        off_thread(move || Ok(app.mail.store.raw(&account, &folder, uid)?))
            .await?
            .ok_or_else(|| {
                MailClientError::NotFound(format!(
                    "Message `{id}` is not downloaded yet: open its thread first."
                ))
            })
    }
}
