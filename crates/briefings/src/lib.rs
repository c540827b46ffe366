//! The briefings' own rules (issue 68, docs/briefings.md), apart from the
//! application that runs them on its clock with the utility model:
//!
//! - [`SummaryBook`] (`book.rs`): every mail the email summarizer took, once
//!   (by its place in the mailbox and by Message-ID, so a restart or a
//!   renumbered mailbox summarizes nothing twice), what became of it, the
//!   mail kept while it waits for the next day's budget, and the once-a-day
//!   marks (the cap's notice, the morning digest's run).
//! - [`content`] (`forwarded.rs`): what of a mail is summarized: the
//!   forwarded mail inside it when there is one, else its own text.
//! - [`sections`]: the daily briefing's sources as the settings name them,
//!   its facts one section per source, the prompt over them and the body
//!   that still reads as facts alone when the model wrote nothing.
//! - [`morning`]: when the RSS morning digest is due (`rssDigestTime` in
//!   the user's zone) and its prompt.
//!
//! Knows nothing of HTTP, settings, IMAP connections or the model.

mod book;
mod forwarded;
pub mod morning;
pub mod sections;

pub use book::{EmailSummary, MAX_PAGE, NewMail, Outcome, SummaryBook, SummaryPage, Waiting};
pub use forwarded::{Content, content, summary_prompt};

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[store::Migration {
    feature: "briefings",
    sql: "CREATE TABLE email_summaries (
            id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            mailbox TEXT NOT NULL,
            uid_validity INTEGER NOT NULL,
            uid INTEGER NOT NULL,
            message_id TEXT,
            from_address TEXT NOT NULL,
            subject TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN
              ('pending', 'waiting', 'done', 'no_text', 'failed')),
            summary TEXT,
            failure TEXT,
            raw BLOB,
            inbox_row_id TEXT,
            archived INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            summarized_at TEXT,
            UNIQUE (mailbox, uid_validity, uid)
          ) STRICT;
          CREATE UNIQUE INDEX email_summaries_by_message_id ON email_summaries (message_id)
            WHERE message_id IS NOT NULL;
          CREATE INDEX email_summaries_waiting ON email_summaries (state) WHERE state = 'waiting';
          CREATE TABLE briefing_marks (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL,
            marked_at TEXT NOT NULL
          ) STRICT;",
}];

#[derive(Debug, thiserror::Error)]
pub enum BriefingError {
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<store::rusqlite::Error> for BriefingError {
    fn from(e: store::rusqlite::Error) -> Self {
        BriefingError::Store(e.into())
    }
}

#[cfg(test)]
mod tests;
