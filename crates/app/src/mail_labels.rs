//! The email summarizer over the person's own mail
//! (`emailSummarizerGmailEnabled`): after each sync round, every thread with
//! mail in the account's [`SUMMARIZE_LABEL`] folder (a Gmail label is an
//! IMAP folder; anywhere else, a folder of that name) is summarized into
//! an `email_summary` inbox row, with the summarizer's instructions
//! (`emailSummarizerDefaultPrompt`) and its daily cap. A thread is
//! summarized again only when newer mail is filed under the label
//! (`mailclient_label_summaries` keeps the newest UID seen per thread), so
//! nothing is summarized twice across rounds or restarts. Reaching the cap
//! leaves the rest for a later round.

use std::collections::HashMap;

use inbox::{Category, NewRow};
use store::rusqlite::{OptionalExtension, params};
use utility::{Feature, UtilityError};

use crate::mail_error::{MailClientError, off_thread};
use crate::mail_reads;
use crate::mail_summary::{Question, SUMMARIZE_LABEL};
use crate::services::App;

impl App {
    /// Summarizes account `id`'s newly labelled threads; failures are
    /// logged (and told in a row per thread), never stop the sync loop.
    pub(crate) async fn summarize_labelled(&self, owner: &str, id: &str) {
        if !self.settings.email_summarizer_gmail_enabled() {
            return;
        }
        let due = match self.labelled_due(id).await {
            Ok(due) => due,
            Err(error) => {
                tracing::warn!(account = %id, %error, "the labelled threads were not read");
                return;
            }
        };
        let question = Question {
            feature: Feature::EmailSummary,
            model: String::new(),
            instructions: self.settings.email_summarizer_default_prompt(),
        };
        for (thread, newest_uid) in due {
            let public = mail_reads::public_id(id, &thread);
            let mut row = match self.summarize_thread(owner, &public, &question).await {
                Ok(written) => {
                    let mut row = NewRow::new(
                        Category::EmailSummary,
                        format!("Summary: {}", written.subject),
                    );
                    row.body = Some(inbox::clip(&written.summary, inbox::MAX_BODY_CHARS));
                    row
                }
                Err(MailClientError::Summary(UtilityError::Capped { .. })) => return,
                Err(error) => {
                    tracing::warn!(account = %id, %error, "a labelled thread was not summarized");
                    let mut row = NewRow::new(
                        Category::EmailSummary,
                        "Could not summarize a labelled thread",
                    );
                    row.body = Some(error.to_string());
                    row
                }
            };
            let query = form_urlencoded::Serializer::new(String::new())
                .append_pair("account", id)
                .append_pair("thread", &public)
                .finish();
            row.actions.push(inbox::Action::OpenPath {
                path: format!("/mail?{query}"),
            });
            crate::publish::add_row(self, owner, row).await;
            if let Err(error) = self.mark_labelled(&thread, newest_uid).await {
                tracing::warn!(account = %id, %error, "a labelled summary was not recorded");
            }
        }
    }

    /// The label folder's threads with mail newer than their last summary:
    /// (the store's thread id, the newest UID under the label).
    async fn labelled_due(&self, id: &str) -> Result<Vec<(String, u32)>, MailClientError> {
        let (app, id) = (self.clone(), id.to_owned());
        off_thread(move || {
            let store = &app.mail.store;
            let Some(folder) = store
                .folders(&id)?
                .into_iter()
                .find(|f| f.name.eq_ignore_ascii_case(SUMMARIZE_LABEL))
            else {
                return Ok(Vec::new());
            };
            let mut newest: HashMap<String, u32> = HashMap::new();
            for uid in store.uids(&id, &folder.name)? {
                if let Some(thread) = store
                    .message(&id, &folder.name, uid)?
                    .and_then(|m| m.thread_id)
                {
                    let at = newest.entry(thread).or_insert(uid);
                    *at = (*at).max(uid);
                }
            }
            let mut due = Vec::new();
            for (thread, uid) in newest {
                let seen: Option<u32> = app.db.read(|tx| {
                    tx.query_row(
                        "SELECT newest_uid FROM mailclient_label_summaries WHERE thread = ?1",
                        params![thread],
                        |r| r.get(0),
                    )
                    .optional()
                    .map_err(MailClientError::from)
                })?;
                if seen.is_none_or(|seen| uid > seen) {
                    due.push((thread, uid));
                }
            }
            due.sort_by_key(|(_, uid)| *uid);
            Ok(due)
        })
        .await
    }

    async fn mark_labelled(&self, thread: &str, newest_uid: u32) -> Result<(), MailClientError> {
        let (db, thread) = (self.db.clone(), thread.to_owned());
        off_thread(move || {
            db.write(|tx| {
                tx.execute(
                    "INSERT INTO mailclient_label_summaries (thread, newest_uid) VALUES (?1, ?2)
                     ON CONFLICT (thread) DO UPDATE SET newest_uid = excluded.newest_uid",
                    params![thread, newest_uid],
                )
                .map_err(MailClientError::from)
            })?;
            Ok(())
        })
        .await
    }
}
