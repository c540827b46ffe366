//! The interviews' write-ups, stored, and which sessions are interviews.

use std::sync::Arc;

use clock::Clock;
use serde::Serialize;
use store::Db;
use store::rusqlite::{OptionalExtension, Row, params};
use ts_rs::TS;
use utoipa::ToSchema;

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[store::Migration {
    feature: "coaching",
    sql: "CREATE TABLE coaching_interviews (
            session_id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            topic TEXT,
            artifact_id TEXT
          ) STRICT;
          CREATE TABLE coaching_artifacts (
            id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            session_id TEXT,
            title TEXT NOT NULL,
            body TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
          ) STRICT;
          CREATE INDEX coaching_artifacts_by_account ON coaching_artifacts (account_id, updated_at);",
}];

#[derive(Debug, thiserror::Error)]
pub enum CoachingError {
    #[error("no such coaching artifact")]
    NotFound,
    #[error("topic must be at most 500 characters")]
    InvalidTopic,
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<store::rusqlite::Error> for CoachingError {
    fn from(e: store::rusqlite::Error) -> Self {
        CoachingError::Store(e.into())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ArtifactKind {
    WeeklyReport,
    Interview,
}

#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Artifact {
    pub id: String,
    pub kind: ArtifactKind,
    pub title: String,
    /// The interview session it came from.
    pub session_id: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// The write-up (Markdown); left out of lists.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub body: Option<String>,
}

pub struct Coaching {
    db: Arc<Db>,
    clock: Arc<dyn Clock>,
}

const COLUMNS: &str = "id, title, session_id, created_at, updated_at, body";

fn from_row(row: &Row<'_>, with_body: bool) -> store::rusqlite::Result<Artifact> {
    Ok(Artifact {
        id: row.get(0)?,
        kind: ArtifactKind::Interview,
        title: row.get(1)?,
        session_id: row.get(2)?,
        created_at: row.get(3)?,
        updated_at: row.get(4)?,
        body: if with_body { Some(row.get(5)?) } else { None },
    })
}

impl Coaching {
    pub fn new(db: Arc<Db>, clock: Arc<dyn Clock>) -> Self {
        Self { db, clock }
    }

    pub fn check_topic(topic: Option<&str>) -> Result<(), CoachingError> {
        if topic.is_some_and(|t| t.chars().count() > 500) {
            return Err(CoachingError::InvalidTopic);
        }
        Ok(())
    }

    /// Marks `session_id` as an interview, so its answers are kept.
    pub fn interview_started(
        &self,
        account_id: &str,
        session_id: &str,
        topic: Option<&str>,
    ) -> Result<(), CoachingError> {
        self.db.write(|tx| {
            tx.execute(
                "INSERT INTO coaching_interviews (session_id, account_id, topic) VALUES (?1, ?2, ?3)",
                params![session_id, account_id, topic],
            )
        })?;
        Ok(())
    }

    pub fn is_interview(&self, session_id: &str) -> Result<bool, CoachingError> {
        Ok(self
            .db
            .read(|tx| {
                tx.query_row(
                    "SELECT 1 FROM coaching_interviews WHERE session_id = ?1",
                    [session_id],
                    |_| Ok(()),
                )
                .optional()
            })?
            .is_some())
    }

    /// Keeps an interview's latest final answer as its artifact (made at its
    /// first answer, updated at each later one). `None`: not an interview.
    pub fn save_interview(
        &self,
        session_id: &str,
        answer: &str,
    ) -> Result<Option<Artifact>, CoachingError> {
        let now = self.clock.timestamp();
        self.db.write(|tx| {
            let Some((account, topic, artifact)) = tx
                .query_row(
                    "SELECT account_id, topic, artifact_id FROM coaching_interviews WHERE session_id = ?1",
                    [session_id],
                    |r| Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?, r.get::<_, Option<String>>(2)?)),
                )
                .optional()?
            else {
                return Ok(None);
            };
            let id = match artifact {
                Some(id) => {
                    tx.execute(
                        "UPDATE coaching_artifacts SET body = ?2, updated_at = ?3 WHERE id = ?1",
                        params![id, answer, now],
                    )?;
                    id
                }
                None => {
                    let id = store::new_id();
                    let title = match topic.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
                        Some(topic) => format!("Coaching interview: {topic}"),
                        None => "Coaching interview".to_owned(),
                    };
                    tx.execute(
                        "INSERT INTO coaching_artifacts (id, account_id, session_id, title, body, created_at, updated_at)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)",
                        params![id, account, session_id, title, answer, now],
                    )?;
                    tx.execute(
                        "UPDATE coaching_interviews SET artifact_id = ?2 WHERE session_id = ?1",
                        params![session_id, id],
                    )?;
                    id
                }
            };
            Ok(tx
                .query_row(
                    &format!("SELECT {COLUMNS} FROM coaching_artifacts WHERE id = ?1"),
                    [&id],
                    |r| from_row(r, true),
                )
                .optional()?)
        })
    }

    /// The account's interview write-ups, newest first, without their bodies.
    pub fn interviews(&self, account_id: &str) -> Result<Vec<Artifact>, CoachingError> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM coaching_artifacts WHERE account_id = ?1
                 ORDER BY updated_at DESC, id DESC LIMIT 500"
            ))?;
            let rows = stmt.query_map([account_id], |r| from_row(r, false))?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }

    pub fn interview(&self, account_id: &str, id: &str) -> Result<Artifact, CoachingError> {
        self.db.read(|tx| {
            tx.query_row(
                &format!(
                    "SELECT {COLUMNS} FROM coaching_artifacts WHERE id = ?1 AND account_id = ?2"
                ),
                params![id, account_id],
                |r| from_row(r, true),
            )
            .optional()?
            .ok_or(CoachingError::NotFound)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interviews_latest_answer_is_its_artifact_and_other_accounts_see_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let db = Arc::new(Db::open(&dir.path().join("db.sqlite")).unwrap());
        db.migrate(MIGRATIONS).unwrap();
        let coaching = Coaching::new(db, Arc::new(clock::ManualClock::starting_now()));
        assert_eq!(
            coaching.save_interview("s1", "x").unwrap(),
            None,
            "not an interview"
        );
        coaching
            .interview_started("a", "s1", Some("costs"))
            .unwrap();
        let first = coaching.save_interview("s1", "first").unwrap().unwrap();
        let second = coaching.save_interview("s1", "second").unwrap().unwrap();
        assert_eq!(first.id, second.id);
        assert_eq!(second.title, "Coaching interview: costs");
        assert_eq!(
            coaching.interview("a", &first.id).unwrap().body.as_deref(),
            Some("second")
        );
        assert_eq!(coaching.interviews("a").unwrap().len(), 1);
        assert!(coaching.interviews("a").unwrap()[0].body.is_none());
        assert!(matches!(
            coaching.interview("b", &first.id),
            Err(CoachingError::NotFound)
        ));
        assert!(coaching.interviews("b").unwrap().is_empty());
    }
}
