//! Session titles: the user's, typed at spawn or set with `PATCH`, which
//! nothing replaces; and the utility model's, written only while no user
//! title holds, each replaced one kept in the session's title history. The
//! check and the write are one statement, so a user's rename that lands
//! while a model call runs is never overwritten by its answer.

use store::rusqlite::{OptionalExtension, params};

use crate::db;
use crate::error::{Result, SessionError};
use crate::model::Session;
use crate::supervisor::Supervisor;

/// The longest title kept, in characters; a longer AI title is cut.
pub const MAX_TITLE_CHARS: usize = 200;

/// How many replaced AI titles a session keeps.
const HISTORY: usize = 20;

impl Supervisor {
    /// Sets the user's own title, or clears it with `None` or blank text
    /// (the session is then untitled, and the utility model may title it).
    pub async fn rename(&self, account_id: &str, id: &str, title: Option<&str>) -> Result<Session> {
        let title = title.map(str::trim).filter(|t| !t.is_empty());
        if let Some(title) = title
            && title.chars().count() > MAX_TITLE_CHARS
        {
            return Err(SessionError::InvalidInput(format!(
                "A title has at most {MAX_TITLE_CHARS} characters."
            )));
        }
        let (account, id_owned) = (account_id.to_owned(), id.to_owned());
        let title = title.map(str::to_owned);
        let now = self.inner.clock.timestamp();
        self.inner
            .write(move |tx| {
                let changed = tx.execute(
                    "UPDATE sessions SET title = ?3, title_source = iif(?3 IS NULL, NULL, 'user'),
                        updated_at = ?4
                     WHERE id = ?1 AND account_id = ?2",
                    params![id_owned, account, title, now],
                )?;
                if changed == 0 {
                    return Err(SessionError::NotFound);
                }
                Ok(())
            })
            .await?;
        let session = self.get(account_id, id).await?;
        self.inner
            .announce(&session.id, &session.account_id, session.status);
        Ok(session)
    }

    /// Writes the utility model's title unless the user's holds; the title
    /// it replaces goes to the history. `None` when the user's title held.
    pub async fn set_ai_title(
        &self,
        account_id: &str,
        id: &str,
        title: &str,
    ) -> Result<Option<Session>> {
        let title: String = title
            .trim()
            .trim_matches(['"', '\''])
            .chars()
            .take(MAX_TITLE_CHARS)
            .collect();
        if title.trim().is_empty() {
            return Err(SessionError::InvalidInput("The title is empty.".to_owned()));
        }
        let (account, id_owned) = (account_id.to_owned(), id.to_owned());
        let now = self.inner.clock.timestamp();
        let written = self
            .inner
            .write(move |tx| {
                let current: Option<(Option<String>, Option<String>, Option<String>)> = tx
                    .query_row(
                        "SELECT title, title_source, title_history FROM sessions
                         WHERE id = ?1 AND account_id = ?2",
                        params![id_owned, account],
                        |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
                    )
                    .optional()?;
                let Some((old, source, history)) = current else {
                    return Err(SessionError::NotFound);
                };
                if source.as_deref() == Some("user") {
                    return Ok(false);
                }
                let mut history: Vec<String> = history
                    .and_then(|json| serde_json::from_str(&json).ok())
                    .unwrap_or_default();
                if let Some(old) = old.filter(|old| *old != title) {
                    history.push(old);
                }
                let keep_from = history.len().saturating_sub(HISTORY);
                let history = serde_json::to_string(&history[keep_from..])
                    .map_err(|e| SessionError::InvalidInput(e.to_string()))?;
                tx.execute(
                    "UPDATE sessions SET title = ?2, title_source = 'ai', title_history = ?3,
                        titled_turn = (SELECT COUNT(*) FROM session_turns t
                                       WHERE t.session_id = sessions.id),
                        updated_at = ?4
                     WHERE id = ?1",
                    params![id_owned, title, history, now],
                )?;
                Ok(true)
            })
            .await?;
        if !written {
            return Ok(None);
        }
        let session = self.get(account_id, id).await?;
        self.inner
            .announce(&session.id, &session.account_id, session.status);
        Ok(Some(session))
    }

    /// The number of turns the session had when its AI title was written;
    /// `None` before the first.
    pub async fn titled_turn(&self, id: &str) -> Result<Option<i64>> {
        let id = id.to_owned();
        self.inner
            .read(move |tx| {
                Ok(tx
                    .query_row(
                        "SELECT titled_turn FROM sessions WHERE id = ?1",
                        params![id],
                        |row| row.get::<_, Option<i64>>(0),
                    )
                    .optional()?
                    .flatten())
            })
            .await
    }

    /// Any session by id, whoever's it is: for the application's own work
    /// (a title, a scan) that follows the supervisor's broadcasts.
    pub async fn get_any(&self, id: &str) -> Result<Session> {
        let id = id.to_owned();
        self.inner
            .read(move |tx| db::get_session_any(tx, &id)?.ok_or(SessionError::NotFound))
            .await
    }
}
