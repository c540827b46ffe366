//! An agent's message published as a document (docs/files.md
//! "Documents"): the message is read from the session's own transcript by
//! its `seq` (so what is published is what the agent wrote, not what a
//! page sent), published as `POST /documents/publish` publishes Markdown,
//! and the link is kept with the message, so the session page shows it on
//! the message, after a reload too.

use serde::{Deserialize, Serialize};
use sessions::{EntryBody, PageFrom};
use store::rusqlite::params;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::App;
use crate::documents_publish::PublishRequest;
use crate::office_error::OfficeError;

/// The longest title made from a message's first line.
const TITLE_CHARS: usize = 80;

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[store::Migration {
    feature: "message_publications",
    sql: "CREATE TABLE message_publications (
            session_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            url TEXT NOT NULL,
            path TEXT NOT NULL,
            published_at TEXT NOT NULL,
            PRIMARY KEY (session_id, seq, path)
          ) STRICT;",
}];

/// `POST /sessions/{id}/entries/{seq}/publish`: where, and under what title.
#[derive(Debug, Clone, Default, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(optional_fields)]
pub struct PublishMessage {
    /// The message's first line (its heading marks dropped) when absent.
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub drive_id: Option<String>,
    #[serde(default)]
    pub folder: Option<String>,
}

/// A message published: which, and the document's link.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MessagePublication {
    #[ts(type = "number")]
    pub seq: i64,
    pub url: String,
    pub path: String,
    pub published_at: String,
}

/// A title from a message: its first line that says something, without a
/// heading's `#`s, cut.
fn title_of(text: &str) -> String {
    let line = text
        .lines()
        .map(|l| l.trim().trim_start_matches('#').trim())
        .find(|l| !l.is_empty())
        .unwrap_or("Agent message");
    let mut title: String = line.chars().take(TITLE_CHARS).collect();
    if line.chars().count() > TITLE_CHARS {
        title.push('…');
    }
    title
}

impl App {
    /// Publishes the agent's message `seq` of session `session_id` and
    /// keeps the link with it.
    pub async fn publish_message(
        &self,
        account: &str,
        is_owner: bool,
        session_id: &str,
        seq: i64,
        request: PublishMessage,
    ) -> Result<MessagePublication, OfficeError> {
        if !self.settings.docs_export_enabled() {
            return Err(OfficeError::DocsOff);
        }
        let page = self
            .sessions
            .entries(
                account,
                session_id,
                PageFrom::After(seq.saturating_sub(1)),
                1,
            )
            .await?;
        let entry = page
            .entries
            .into_iter()
            .next()
            .filter(|e| e.seq == seq)
            .ok_or_else(|| OfficeError::NotFound(format!("entry {seq} of the session")))?;
        let text = match entry.body {
            EntryBody::Text { text } | EntryBody::Final { text } => text,
            _ => {
                return Err(OfficeError::Invalid {
                    field: "seq",
                    message: format!("entry {seq} is not a message of the agent"),
                });
            }
        };
        let title = request
            .title
            .filter(|t| !t.trim().is_empty())
            .unwrap_or_else(|| title_of(&text));
        let publish = PublishRequest {
            markdown: text,
            title,
            drive_id: request.drive_id,
            folder: request.folder,
        };
        let (app, owner) = (self.clone(), account.to_owned());
        let published =
            tokio::task::spawn_blocking(move || app.publish_document(&owner, is_owner, publish))
                .await??;
        let publication = MessagePublication {
            seq,
            url: published.url,
            path: published.path,
            published_at: self.clock.timestamp(),
        };
        let (db, session, kept) = (self.db.clone(), session_id.to_owned(), publication.clone());
        tokio::task::spawn_blocking(move || {
            db.write(|tx| {
                tx.execute(
                    "INSERT OR REPLACE INTO message_publications
                       (session_id, seq, url, path, published_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![session, kept.seq, kept.url, kept.path, kept.published_at],
                )
                .map_err(store::StoreError::from)
            })
        })
        .await??;
        Ok(publication)
    }

    /// The links kept on session `session_id`'s messages, oldest first.
    pub async fn message_publications(
        &self,
        account: &str,
        session_id: &str,
    ) -> Result<Vec<MessagePublication>, OfficeError> {
        self.sessions.get(account, session_id).await?;
        let (db, session) = (self.db.clone(), session_id.to_owned());
        let kept = tokio::task::spawn_blocking(move || {
            db.read(|tx| {
                let mut stmt = tx.prepare_cached(
                    "SELECT seq, url, path, published_at FROM message_publications
                     WHERE session_id = ?1 ORDER BY published_at, seq",
                )?;
                let rows = stmt.query_map(params![session], |r| {
                    Ok(MessagePublication {
                        seq: r.get(0)?,
                        url: r.get(1)?,
                        path: r.get(2)?,
                        published_at: r.get(3)?,
                    })
                })?;
                rows.collect::<Result<Vec<_>, _>>()
                    .map_err(store::StoreError::from)
            })
        })
        .await??;
        Ok(kept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_title_is_the_first_line_that_says_something() {
        assert_eq!(title_of("\n## Release plan\n\nSteps"), "Release plan");
        assert_eq!(title_of("   \n"), "Agent message");
        assert_eq!(title_of(&"w".repeat(100)).chars().count(), TITLE_CHARS + 1);
    }
}
