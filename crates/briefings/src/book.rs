//! The email summarizer's book in SQLite: each mail claimed once, its
//! outcome, the raw mail kept only while it waits for the next day's
//! budget, and the once-a-day marks.

use std::sync::Arc;

use clock::Clock;
use serde::Serialize;
use store::Db;
use store::rusqlite::{OptionalExtension, params};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::BriefingError;

/// The most summaries one page holds.
pub const MAX_PAGE: usize = 200;

/// A mail the watcher handed over, as the book keys it.
#[derive(Debug, Clone)]
pub struct NewMail<'a> {
    pub account_id: &'a str,
    /// `address/Mailbox`, as the settings name the inbox.
    pub mailbox: &'a str,
    pub uid_validity: u32,
    pub uid: u32,
    pub message_id: Option<&'a str>,
    pub from: &'a str,
    pub subject: &'a str,
}

/// What became of a claimed mail.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Summarized; the inbox row that holds the summary.
    Done { summary: String, row_id: String },
    /// The mail had no text: a row says so, no model was asked.
    NoText { row_id: String },
    /// The model failed (or no engine could run it); never asked again.
    Failed { failure: String, row_id: String },
}

/// A mail waiting for the next day's budget.
#[derive(Debug, Clone)]
pub struct Waiting {
    pub id: String,
    pub account_id: String,
    pub mailbox: String,
    pub uid_validity: u32,
    pub uid: u32,
    pub raw: Vec<u8>,
}

/// One mail as `GET /summaries/email` lists it.
#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmailSummary {
    pub id: String,
    pub from: String,
    pub subject: String,
    /// The original's Message-ID, without angle brackets.
    pub message_id: Option<String>,
    /// `pending`, `waiting` (the day's cap was reached: summarized the next
    /// day), `done`, `no_text` or `failed`.
    pub state: String,
    pub summary: Option<String>,
    /// Why it could not be summarized.
    pub failure: Option<String>,
    /// The inbox row (category `email_summary`) that tells it.
    pub inbox_row_id: Option<String>,
    /// Moved to the server's Archive mailbox after its summary.
    pub archived: bool,
    pub created_at: String,
    pub summarized_at: Option<String>,
}

/// One page, newest first; `next` is the cursor of the page after it.
#[derive(Debug, Clone, PartialEq)]
pub struct SummaryPage {
    pub summaries: Vec<EmailSummary>,
    pub next: Option<String>,
}

pub struct SummaryBook {
    db: Arc<Db>,
    clock: Arc<dyn Clock>,
}

impl SummaryBook {
    /// `db` must have [`crate::MIGRATIONS`] applied.
    pub fn new(db: Arc<Db>, clock: Arc<dyn Clock>) -> Self {
        Self { db, clock }
    }

    /// Records the mail as `pending` and returns its id; `None` when this
    /// mail (by its place or its Message-ID) was taken before.
    pub fn claim(&self, mail: &NewMail<'_>) -> Result<Option<String>, BriefingError> {
        let id = store::new_id();
        let inserted = self.db.write(|tx| {
            tx.execute(
                "INSERT INTO email_summaries (id, account_id, mailbox, uid_validity, uid,
                   message_id, from_address, subject, state, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'pending', ?9)
                 ON CONFLICT DO NOTHING",
                params![
                    id,
                    mail.account_id,
                    mail.mailbox,
                    mail.uid_validity,
                    mail.uid,
                    mail.message_id,
                    mail.from,
                    mail.subject,
                    self.clock.timestamp()
                ],
            )
        })?;
        Ok((inserted == 1).then_some(id))
    }

    /// The mail waits for the next day: its bytes are kept until then.
    pub fn wait(&self, id: &str, raw: &[u8]) -> Result<(), BriefingError> {
        self.db.write(|tx| {
            tx.execute(
                "UPDATE email_summaries SET state = 'waiting', raw = ?2 WHERE id = ?1",
                params![id, raw],
            )
        })?;
        Ok(())
    }

    /// Every waiting mail, oldest first.
    pub fn waiting(&self) -> Result<Vec<Waiting>, BriefingError> {
        Ok(self.db.read(|tx| {
            tx.prepare_cached(
                "SELECT id, account_id, mailbox, uid_validity, uid, raw FROM email_summaries
                 WHERE state = 'waiting' AND raw IS NOT NULL ORDER BY id",
            )?
            .query_map([], |r| {
                Ok(Waiting {
                    id: r.get(0)?,
                    account_id: r.get(1)?,
                    mailbox: r.get(2)?,
                    uid_validity: r.get(3)?,
                    uid: r.get(4)?,
                    raw: r.get(5)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()
        })?)
    }

    /// Says what became of the mail; its kept bytes go.
    pub fn finish(&self, id: &str, outcome: &Outcome) -> Result<(), BriefingError> {
        let (state, summary, failure, row) = match outcome {
            Outcome::Done { summary, row_id } => ("done", Some(summary.as_str()), None, row_id),
            Outcome::NoText { row_id } => ("no_text", None, None, row_id),
            Outcome::Failed { failure, row_id } => ("failed", None, Some(failure.as_str()), row_id),
        };
        self.db.write(|tx| {
            tx.execute(
                "UPDATE email_summaries SET state = ?2, summary = ?3, failure = ?4,
                   inbox_row_id = ?5, raw = NULL, summarized_at = ?6 WHERE id = ?1",
                params![id, state, summary, failure, row, self.clock.timestamp()],
            )
        })?;
        Ok(())
    }

    /// The mail was moved to the server's Archive mailbox.
    pub fn archived(&self, id: &str) -> Result<(), BriefingError> {
        self.db.write(|tx| {
            tx.execute(
                "UPDATE email_summaries SET archived = 1 WHERE id = ?1",
                params![id],
            )
        })?;
        Ok(())
    }

    /// The account's summaries, newest first; `before` is a page's `next`.
    pub fn page(
        &self,
        account_id: &str,
        limit: usize,
        before: Option<&str>,
    ) -> Result<SummaryPage, BriefingError> {
        let limit = limit.clamp(1, MAX_PAGE);
        let mut summaries = self.db.read(|tx| {
            tx.prepare_cached(
                "SELECT id, from_address, subject, message_id, state, summary, failure,
                   inbox_row_id, archived, created_at, summarized_at
                 FROM email_summaries WHERE account_id = ?1 AND (?2 IS NULL OR id < ?2)
                 ORDER BY id DESC LIMIT ?3",
            )?
            .query_map(params![account_id, before, limit as i64 + 1], |r| {
                Ok(EmailSummary {
                    id: r.get(0)?,
                    from: r.get(1)?,
                    subject: r.get(2)?,
                    message_id: r.get(3)?,
                    state: r.get(4)?,
                    summary: r.get(5)?,
                    failure: r.get(6)?,
                    inbox_row_id: r.get(7)?,
                    archived: r.get(8)?,
                    created_at: r.get(9)?,
                    summarized_at: r.get(10)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()
        })?;
        let next = if summaries.len() > limit {
            summaries.truncate(limit);
            summaries.last().map(|s| s.id.clone())
        } else {
            None
        };
        Ok(SummaryPage { summaries, next })
    }

    /// Marks `key` once: true the first time, false after.
    pub fn mark_once(&self, key: &str, value: &str) -> Result<bool, BriefingError> {
        let inserted = self.db.write(|tx| {
            tx.execute(
                "INSERT INTO briefing_marks (key, value, marked_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT DO NOTHING",
                params![key, value, self.clock.timestamp()],
            )
        })?;
        Ok(inserted == 1)
    }

    /// Sets `key`'s value, first time or not.
    pub fn set_mark(&self, key: &str, value: &str) -> Result<(), BriefingError> {
        self.db.write(|tx| {
            tx.execute(
                "INSERT INTO briefing_marks (key, value, marked_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value,
                   marked_at = excluded.marked_at",
                params![key, value, self.clock.timestamp()],
            )
        })?;
        Ok(())
    }

    /// `key`'s value, if marked.
    pub fn mark(&self, key: &str) -> Result<Option<String>, BriefingError> {
        Ok(self.db.read(|tx| {
            tx.query_row(
                "SELECT value FROM briefing_marks WHERE key = ?1",
                params![key],
                |r| r.get(0),
            )
            .optional()
        })?)
    }
}
