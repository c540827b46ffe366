//! A mail thread summarized by the utility model, two ways:
//!
//! - "Catch me up" (`POST /mail/threads/{id}/summary`), with the person's
//!   own instructions (`mailclientAiSummaryPrompt`) and model
//!   (`mailclientAiSummaryModel`) when they set them;
//! - the email summarizer's label (`emailSummarizerGmailEnabled`): each
//!   thread the person files under the [`SUMMARIZE_LABEL`] folder (a Gmail
//!   label is an IMAP folder) becomes an `email_summary` inbox row, with
//!   the summarizer's instructions and daily cap.
//!
//! A summary is kept per thread, message count and question
//! (`mailclient_catch_up`): asking again costs nothing, and a thread that
//! grew, or new instructions, ask the model again. Reading a thread for a
//! summary never marks it read.

use serde::Serialize;
use store::rusqlite::{OptionalExtension, params};
use ts_rs::TS;
use utility::{Ask, Feature};
use utoipa::ToSchema;

use crate::mail_error::{MailClientError, off_thread};
use crate::services::App;
use crate::utility_model;

/// The folder (a Gmail label) whose threads the summarizer summarizes.
pub const SUMMARIZE_LABEL: &str = "Summarize";

/// `POST /mail/threads/{id}/summary`'s answer.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MailCatchUp {
    pub summary: String,
}

/// Who asks for a summary, and so with which instructions, model and cap.
pub(crate) struct Question {
    pub feature: Feature,
    pub model: String,
    pub instructions: String,
}

/// A thread's summary and the subject it was written under.
pub(crate) struct ThreadSummary {
    pub subject: String,
    pub summary: String,
}

impl App {
    pub async fn mail_thread_summary(
        &self,
        owner: &str,
        id: &str,
    ) -> Result<MailCatchUp, MailClientError> {
        let question = Question {
            feature: Feature::MailSummary,
            model: self.settings.mailclient_ai_summary_model(),
            instructions: self.settings.mailclient_ai_summary_prompt(),
        };
        let written = self.summarize_thread(owner, id, &question).await?;
        Ok(MailCatchUp {
            summary: written.summary,
        })
    }

    /// Thread `id` summarized for `question`, from the kept summaries when
    /// nothing changed since.
    pub(crate) async fn summarize_thread(
        &self,
        owner: &str,
        id: &str,
        question: &Question,
    ) -> Result<ThreadSummary, MailClientError> {
        let thread = self.open_thread(owner, id, false).await?;
        let key = CacheKey {
            thread: id.to_owned(),
            messages: i64::try_from(thread.messages.len()).unwrap_or(i64::MAX),
            asked: format!(
                "{}\u{1f}{}\u{1f}{}",
                question.feature.as_str(),
                question.model.trim(),
                question.instructions.trim()
            ),
        };
        let written = |summary: String| ThreadSummary {
            subject: thread.subject.clone(),
            summary,
        };
        if let Some(summary) = self.cached_summary(&key).await? {
            return Ok(written(summary));
        }
        let messages: Vec<mailclient::CatchUpMessage> = thread
            .messages
            .iter()
            .map(|m| mailclient::CatchUpMessage {
                from: &m.from,
                date: m.date.as_deref(),
                text: &m.text,
            })
            .collect();
        if messages.iter().all(|m| m.text.trim().is_empty()) {
            return Err(MailClientError::invalid(
                "id",
                "names a thread with no text to summarize",
            ));
        }
        let prompt =
            mailclient::catch_up_prompt(&question.instructions, &thread.subject, &messages);
        let ask = Ask {
            feature: question.feature,
            model: Some(question.model.trim()).filter(|m| !m.is_empty()),
            prompt: &prompt,
            budget: utility_model::budget(self, question.feature),
        };
        let answer = self.utility.text(&ask).await?;
        let summary = answer.text.trim().to_owned();
        self.keep_summary(key, summary.clone()).await?;
        Ok(written(summary))
    }

    async fn cached_summary(&self, key: &CacheKey) -> Result<Option<String>, MailClientError> {
        let (db, thread) = (self.db.clone(), key.thread.clone());
        let (messages, asked) = (key.messages, key.asked.clone());
        off_thread(move || {
            db.read(|tx| {
                tx.query_row(
                    "SELECT summary FROM mailclient_catch_up
                     WHERE thread = ?1 AND messages = ?2 AND asked = ?3",
                    params![thread, messages, asked],
                    |r| r.get(0),
                )
                .optional()
                .map_err(MailClientError::from)
            })
        })
        .await
    }

    async fn keep_summary(&self, key: CacheKey, summary: String) -> Result<(), MailClientError> {
        let db = self.db.clone();
        off_thread(move || {
            db.write(|tx| {
                tx.execute(
                    "INSERT INTO mailclient_catch_up (thread, messages, asked, summary)
                     VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT (thread, asked) DO UPDATE
                     SET messages = excluded.messages, summary = excluded.summary",
                    params![key.thread, key.messages, key.asked, summary],
                )
                .map_err(MailClientError::from)
            })?;
            Ok(())
        })
        .await
    }
}

/// What a kept summary was written for.
struct CacheKey {
    thread: String,
    messages: i64,
    asked: String,
}
