//! Reading sessions as the API shows them: the records from the database
//! and, for local sessions, what each one's tree used.
//!
//! A tree's use is a few cgroup files a session. A list of 1,024 sessions
//! read them all on every request (4,096 files on cgroup v1), and the
//! scale bench asks for the list 20 times a second, so lists and
//! announcements take each session's use from `UsageCache` when it is
//! under [`USAGE_FRESH`] old on the clock. One under [`USAGE_KEPT`] old
//! is taken too, while a read of the stale ones goes on beside the list;
//! [`Supervisor::get`] of one session always reads its tree.

use crate::db;
use crate::error::{Result, SessionError};
use crate::model::Session;
use crate::supervisor::Supervisor;
use crate::tree_usage::{USAGE_FRESH, USAGE_KEPT};

impl Supervisor {
    /// The account's sessions, newest first.
    pub async fn list(&self, account_id: &str) -> Result<Vec<Session>> {
        let sessions = self.remembered_list(account_id).await?;
        Ok(self.with_resources(sessions, true).await)
    }

    /// [`Supervisor::list`] without what each tree used (`resources` is
    /// `null`): for callers that read only the records, so a list of
    /// hundreds costs no cgroup reads.
    pub async fn list_records(&self, account_id: &str) -> Result<Vec<Session>> {
        self.remembered_list(account_id).await
    }

    async fn remembered_list(&self, account_id: &str) -> Result<Vec<Session>> {
        let account = account_id.to_owned();
        let inner = self.inner.clone();
        self.inner
            .read(move |tx| inner.remembered.list(tx, &account))
            .await
    }

    pub async fn get(&self, account_id: &str, id: &str) -> Result<Session> {
        let account = account_id.to_owned();
        let id = id.to_owned();
        let session = self
            .inner
            .read(move |tx| db::get_session(tx, &account, &id)?.ok_or(SessionError::NotFound))
            .await?;
        let mut one = self.with_resources(vec![session], false).await;
        one.pop().ok_or(SessionError::NotFound)
    }

    /// Whose session `id` is, for what runs on a session's behalf without
    /// a caller (an app that keeps crashing reports to its account).
    pub async fn account_of(&self, id: &str) -> Result<String> {
        let id = id.to_owned();
        self.inner
            .read(move |tx| {
                use store::rusqlite::OptionalExtension;
                tx.query_row(
                    "SELECT account_id FROM sessions WHERE id = ?1",
                    [&id],
                    |r| r.get(0),
                )
                .optional()?
                .ok_or(SessionError::NotFound)
            })
            .await
    }

    /// The sessions `wanted` names (account, id), read in one transaction,
    /// in that order; one that is gone or of another account is left out.
    /// For announcing many changed sessions at once.
    pub async fn get_many(&self, wanted: Vec<(String, String)>) -> Result<Vec<Session>> {
        let inner = self.inner.clone();
        let sessions = self
            .inner
            .read(move |tx| {
                let mut found = Vec::with_capacity(wanted.len());
                for (account, id) in &wanted {
                    found.extend(inner.remembered.get(tx, account, id)?);
                }
                Ok(found)
            })
            .await?;
        Ok(self.with_resources(sessions, true).await)
    }

    /// Each local session's use, read from its tree (a few small files a
    /// session, on the blocking pool); with `cached`, a read under
    /// [`USAGE_FRESH`] old is taken instead, and one under [`USAGE_KEPT`]
    /// old too while [`Supervisor::refresh_usage`] reads it again.
    async fn with_resources(&self, mut sessions: Vec<Session>, cached: bool) -> Vec<Session> {
        let Some(trees) = self.inner.trees.clone() else {
            return sessions;
        };
        let now = self.inner.clock.now();
        // Indexes into `sessions`: a list of 1,024 cloned every id twice.
        let mut stale = Vec::new();
        let mut kept = Vec::new();
        {
            let read = self.inner.usage.lock();
            for (place, session) in sessions.iter_mut().enumerate() {
                if session.runner != runners::LOCAL {
                    continue;
                }
                match read.get(&session.id) {
                    Some((at, usage)) if cached && *at <= now && now - *at < USAGE_KEPT => {
                        session.resources = *usage;
                        if now - *at >= USAGE_FRESH {
                            kept.push(session.id.clone());
                        }
                    }
                    _ => stale.push(place),
                }
            }
        }
        if !kept.is_empty() {
            self.refresh_usage(kept);
        }
        if !stale.is_empty() {
            let ids: Vec<String> = stale.iter().map(|&p| sessions[p].id.clone()).collect();
            let fresh = tokio::task::spawn_blocking(move || {
                ids.into_iter()
                    .map(|id| (trees.usage(&id), id))
                    .collect::<Vec<_>>()
            })
            .await
            .unwrap_or_default();
            let mut read = self.inner.usage.lock();
            // Sessions that are gone leave the map when it outgrows the list.
            if read.len() > 2 * sessions.len() + 64 {
                read.retain(|_, (at, _)| now - *at < USAGE_FRESH);
            }
            for (place, (usage, id)) in stale.into_iter().zip(fresh) {
                sessions[place].resources = usage;
                read.insert(id, (now, usage));
            }
        }
        sessions
    }

    /// Reads the trees of `ids` again on the blocking pool, beside the list
    /// that found their uses stale; nothing when such a read already runs.
    fn refresh_usage(&self, ids: Vec<String>) {
        let (Some(trees), inner) = (self.inner.trees.clone(), self.inner.clone()) else {
            return;
        };
        if !inner.usage.start_refresh() {
            return;
        }
        tokio::task::spawn_blocking(move || {
            let _ending = inner.usage.ends_refresh();
            let fresh: Vec<_> = ids.into_iter().map(|id| (trees.usage(&id), id)).collect();
            let now = inner.clock.now();
            let mut read = inner.usage.lock();
            for (usage, id) in fresh {
                read.insert(id, (now, usage));
            }
        });
    }
}
