//! Session trees: a session with everything it spawned, its children's
//! children included, stopped together.

use std::time::Duration;

use store::rusqlite::Transaction;

use crate::error::Result;
use crate::model::{Caller, Session, Status};
use crate::state::EndRequest;
use crate::supervisor::Supervisor;

/// How many times a tree stop waits for a session that is recorded as active
/// but not yet running under the supervisor (a spawn between its row and its actor).
const STARTING_RETRIES: u32 = 50;

impl Supervisor {
    /// Stops a session and all its descendants, whole process groups each, as
    /// [`Supervisor::stop`] does for one; a descendant that already ended is
    /// left as it is. Rounds repeat until one finds nothing active, since a
    /// descendant may spawn another while the tree is being stopped.
    pub async fn stop_tree(&self, caller: &Caller, id: &str) -> Result<Session> {
        self.get(&caller.account_id, id).await?;
        let mut retries = 0;
        loop {
            let account = caller.account_id.clone();
            let root = id.to_owned();
            let active = self
                .inner
                .read(move |tx| active_tree(tx, &account, &root))
                .await?;
            let waits: Vec<_> = {
                let live = self.inner.live();
                active
                    .iter()
                    .filter_map(|id| live.get(id))
                    .map(|live| {
                        live.end.send_replace(Some(EndRequest::Stop));
                        live.done.clone()
                    })
                    .collect()
            };
            if waits.is_empty() {
                if active.is_empty() || retries >= STARTING_RETRIES {
                    break;
                }
                retries += 1;
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
            for mut done in waits {
                let _ = done.wait_for(|finished| *finished).await;
            }
        }
        self.get(&caller.account_id, id).await
    }
}

/// The ids of the active sessions among `root` and its descendants.
fn active_tree(tx: &Transaction<'_>, account: &str, root: &str) -> Result<Vec<String>> {
    let mut stmt = tx.prepare(
        "WITH RECURSIVE tree(id) AS (
            SELECT id FROM sessions WHERE id = ?2 AND account_id = ?1
            UNION SELECT c.id FROM sessions c JOIN tree ON c.source_session_id = tree.id
                WHERE c.account_id = ?1)
         SELECT s.id, s.status FROM sessions s JOIN tree ON tree.id = s.id",
    )?;
    let rows = stmt.query_map([account, root], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
    })?;
    let mut active = Vec::new();
    for row in rows {
        let (id, status) = row?;
        if Status::parse(&status).is_some_and(Status::is_active) {
            active.push(id);
        }
    }
    Ok(active)
}
