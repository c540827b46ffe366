//! The maker's announcements (`developerMessagesEnabled`): a few lines that
//! ship with each version's release notes, compiled into the binary from
//! `announcements.json`, so nothing is fetched from anywhere.
//!
//! Each account sees a version's announcements once: [`Announcements::pending`]
//! gives the running version's unless the account dismissed them
//! ([`Announcements::dismiss`], remembered in the database). Whether to show
//! them at all is the caller's decision (the setting); this crate knows
//! nothing of settings or HTTP.

use std::sync::Arc;

use clock::Clock;
use serde::{Deserialize, Serialize};
use store::rusqlite::{self, params};
use store::{Db, Migration};
use ts_rs::TS;
use utoipa::ToSchema;

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[Migration] = &[Migration {
    feature: "announcements",
    sql: "CREATE TABLE announcements_seen (
        account_id TEXT NOT NULL,
        version TEXT NOT NULL,
        seen_at TEXT NOT NULL,
        PRIMARY KEY (account_id, version)
      ) STRICT, WITHOUT ROWID;",
}];

/// What ships with this build.
const SHIPPED: &str = include_str!("../announcements.json");

/// One announcement of one version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
pub struct Announcement {
    pub version: String,
    pub title: String,
    pub body: String,
}

#[derive(Debug, thiserror::Error)]
pub enum AnnouncementError {
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<rusqlite::Error> for AnnouncementError {
    fn from(e: rusqlite::Error) -> Self {
        AnnouncementError::Store(e.into())
    }
}

/// The announcements compiled into this build, every version's.
pub fn shipped() -> Vec<Announcement> {
    // The file is ours and checked by a test; a broken one shows nothing rather than stopping the server.
    serde_json::from_str(SHIPPED).unwrap_or_default()
}

pub struct Announcements {
    db: Arc<Db>,
    clock: Arc<dyn Clock>,
    all: Vec<Announcement>,
}

impl Announcements {
    /// With the announcements this build ships.
    pub fn new(db: Arc<Db>, clock: Arc<dyn Clock>) -> Self {
        Self::with(db, clock, shipped())
    }

    /// With a list of one's own (tests).
    pub fn with(db: Arc<Db>, clock: Arc<dyn Clock>, all: Vec<Announcement>) -> Self {
        Self { db, clock, all }
    }

    /// `version`'s announcements, unless the account dismissed that version.
    pub fn pending(
        &self,
        account_id: &str,
        version: &str,
    ) -> Result<Vec<Announcement>, AnnouncementError> {
        let seen: bool = self.db.read(|tx| {
            tx.query_row(
                "SELECT EXISTS (SELECT 1 FROM announcements_seen WHERE account_id = ?1 AND version = ?2)",
                params![account_id, version],
                |r| r.get(0),
            )
        })?;
        if seen {
            return Ok(Vec::new());
        }
        Ok(self
            .all
            .iter()
            .filter(|a| a.version == version)
            .cloned()
            .collect())
    }

    /// The account has seen `version`'s announcements: they do not come back.
    pub fn dismiss(&self, account_id: &str, version: &str) -> Result<(), AnnouncementError> {
        let now = self.clock.timestamp();
        self.db.write(|tx| {
            tx.execute(
                "INSERT OR IGNORE INTO announcements_seen (account_id, version, seen_at)
                 VALUES (?1, ?2, ?3)",
                params![account_id, version, now],
            )?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn announcements() -> (tempfile::TempDir, Announcements) {
        let dir = tempfile::tempdir().unwrap();
        let db = Arc::new(Db::open(&dir.path().join("db.sqlite")).unwrap());
        db.migrate(MIGRATIONS).unwrap();
        let clock = Arc::new(clock::ManualClock::starting_now());
        let note = |version: &str, title: &str| Announcement {
            version: version.into(),
            title: title.into(),
            body: "b".into(),
        };
        let all = vec![
            note("1.0.0", "old"),
            note("1.1.0", "new"),
            note("1.1.0", "also"),
        ];
        (dir, Announcements::with(db, clock, all))
    }

    #[test]
    fn a_versions_announcements_show_until_the_account_dismisses_them() {
        let (_dir, a) = announcements();
        let titles = |account: &str, version: &str| -> Vec<String> {
            a.pending(account, version)
                .unwrap()
                .into_iter()
                .map(|n| n.title)
                .collect()
        };
        assert_eq!(titles("x", "1.1.0"), ["new", "also"]);
        a.dismiss("x", "1.1.0").unwrap();
        a.dismiss("x", "1.1.0").unwrap();
        assert!(titles("x", "1.1.0").is_empty());
        assert_eq!(titles("y", "1.1.0"), ["new", "also"], "per account");
        assert_eq!(titles("x", "1.0.0"), ["old"], "per version");
        assert!(titles("x", "2.0.0").is_empty());
    }

    #[test]
    fn the_shipped_file_reads_and_names_this_version() {
        let parsed: Vec<Announcement> = serde_json::from_str(SHIPPED).unwrap();
        assert!(
            parsed
                .iter()
                .all(|a| !a.title.is_empty() && !a.body.is_empty())
        );
        assert!(
            parsed
                .iter()
                .any(|a| a.version == env!("CARGO_PKG_VERSION")),
            "the release notes of {} say nothing",
            env!("CARGO_PKG_VERSION")
        );
    }
}
