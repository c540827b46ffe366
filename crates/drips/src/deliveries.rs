//! The outbox between a claimed tick and the inbox: claiming a tick writes
//! what it delivers here in the same transaction, and the caller hands each
//! waiting delivery to the inbox and then drops it
//! ([`Drips::delivered`]). A server stopped in between finds the delivery
//! still waiting at its next start, so a claimed tick is never lost.

use serde::{Deserialize, Serialize};
use store::rusqlite::{Transaction, params};

use crate::error::DripError;
use crate::item::ItemKind;
use crate::service::Drips;
use automations::stamp;

use crate::when::Due;

/// What a delivery puts in the inbox.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Release {
    /// A scheduled message's note.
    Message {
        message_id: String,
        title: String,
        markdown: String,
        /// The agent session that made the message.
        session_id: Option<String>,
    },
    /// A drip's next item, with its content as it was released.
    Item {
        drip_id: String,
        drip_name: String,
        item_id: String,
        item_name: String,
        item_kind: ItemKind,
        content: String,
    },
    /// A drip's tick found nothing to release: said once, until an item is
    /// released again. `reason` when its folder could not be read.
    Exhausted {
        drip_id: String,
        drip_name: String,
        reason: Option<String>,
    },
}

/// One delivery waiting for the inbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivery {
    pub id: String,
    pub account_id: String,
    pub release: Release,
    /// The tick it stands for (RFC 3339, UTC).
    pub tick: String,
    /// Noticed well after its tick (the server was down, the feature off).
    pub late: bool,
    /// Earlier ticks that passed unseen and are folded into this one.
    pub passed_over: u64,
}

/// Records a delivery in the claiming transaction.
pub(crate) fn insert(
    tx: &Transaction<'_>,
    account_id: &str,
    release: &Release,
    due: &Due,
    now: &str,
) -> Result<(), DripError> {
    let payload = serde_json::to_string(release).map_err(|_| DripError::Corrupt("delivery"))?;
    tx.execute(
        "INSERT INTO drip_deliveries (id, account_id, payload, tick, late, passed_over, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            store::new_id(),
            account_id,
            payload,
            stamp(due.tick),
            due.late,
            i64::try_from(due.passed_over).unwrap_or(i64::MAX),
            now,
        ],
    )?;
    Ok(())
}

impl Drips {
    /// Every delivery waiting for the inbox, oldest first.
    pub fn pending_deliveries(&self) -> Result<Vec<Delivery>, DripError> {
        let rows: Vec<(String, String, String, String, bool, i64)> = self.db.read(|tx| {
            let mut stmt = tx.prepare(
                "SELECT id, account_id, payload, tick, late, passed_over
                 FROM drip_deliveries ORDER BY seq",
            )?;
            let rows = stmt.query_map([], |row| {
                Ok((
                    row.get(0)?,
                    row.get(1)?,
                    row.get(2)?,
                    row.get(3)?,
                    row.get(4)?,
                    row.get(5)?,
                ))
            })?;
            rows.collect::<store::rusqlite::Result<Vec<_>>>()
        })?;
        rows.into_iter()
            .map(|(id, account_id, payload, tick, late, passed_over)| {
                Ok(Delivery {
                    id,
                    account_id,
                    release: serde_json::from_str(&payload)
                        .map_err(|_| DripError::Corrupt("delivery"))?,
                    tick,
                    late,
                    passed_over: u64::try_from(passed_over).unwrap_or_default(),
                })
            })
            .collect()
    }

    /// The inbox has the delivery: it is no longer waiting.
    pub fn delivered(&self, id: &str) -> Result<(), DripError> {
        self.db.write(|tx| {
            tx.execute("DELETE FROM drip_deliveries WHERE id = ?1", [id])?;
            Ok(())
        })
    }
}
