//! The messenger's SQL: the account's sync state, rooms, messages (one row
//! per event id) and the outbox of transaction ids.

use store::rusqlite::{OptionalExtension, Transaction, params};

use crate::{Engine, MatrixError, MatrixMessage, MatrixRoom, MessengerState, MessengerStatus};

/// The stored sync position and identity of an account.
pub(crate) struct AccountRow {
    pub engine: String,
    pub user_id: Option<String>,
    pub since: Option<String>,
}

pub(crate) fn account(
    tx: &Transaction<'_>,
    account: &str,
) -> Result<Option<AccountRow>, MatrixError> {
    Ok(tx
        .query_row(
            "SELECT engine, user_id, since FROM matrix_accounts WHERE account_id = ?1",
            [account],
            |r| {
                Ok(AccountRow {
                    engine: r.get(0)?,
                    user_id: r.get(1)?,
                    since: r.get(2)?,
                })
            },
        )
        .optional()?)
}

/// A new sign-in: the position starts over (a new device syncs afresh).
pub(crate) fn signed_in(
    tx: &Transaction<'_>,
    account: &str,
    engine: Engine,
    user_id: &str,
) -> Result<(), MatrixError> {
    tx.execute(
        "INSERT INTO matrix_accounts (account_id, engine, user_id, since, state)
         VALUES (?1, ?2, ?3, NULL, 'connected')
         ON CONFLICT (account_id) DO UPDATE SET engine = excluded.engine,
            user_id = excluded.user_id, since = NULL, state = 'connected', failure = NULL",
        params![account, engine.as_str(), user_id],
    )?;
    Ok(())
}

pub(crate) fn set_state(
    tx: &Transaction<'_>,
    account: &str,
    engine: Engine,
    state: MessengerState,
    failure: Option<&str>,
) -> Result<(), MatrixError> {
    tx.execute(
        "INSERT INTO matrix_accounts (account_id, engine, state, failure) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (account_id) DO UPDATE SET state = excluded.state, failure = excluded.failure",
        params![account, engine.as_str(), state.as_str(), failure],
    )?;
    Ok(())
}

pub(crate) fn set_user(tx: &Transaction<'_>, account: &str, user: &str) -> Result<(), MatrixError> {
    tx.execute(
        "UPDATE matrix_accounts SET user_id = ?2 WHERE account_id = ?1",
        [account, user],
    )?;
    Ok(())
}

/// A switch of engine: signed out, the position forgotten.
pub(crate) fn switch_engine(
    tx: &Transaction<'_>,
    account: &str,
    engine: Engine,
) -> Result<bool, MatrixError> {
    let changed = tx.execute(
        "UPDATE matrix_accounts SET engine = ?2, since = NULL, state = 'signed_out',
            failure = NULL WHERE account_id = ?1 AND engine != ?2",
        [account, engine.as_str()],
    )?;
    Ok(changed > 0)
}

pub(crate) fn synced(
    tx: &Transaction<'_>,
    account: &str,
    since: &str,
    now: &str,
) -> Result<(), MatrixError> {
    tx.execute(
        "UPDATE matrix_accounts SET since = ?2, state = 'connected', failure = NULL,
            synced_at = ?3 WHERE account_id = ?1",
        [account, since, now],
    )?;
    Ok(())
}

pub(crate) fn status(tx: &Transaction<'_>, account: &str) -> Result<MessengerStatus, MatrixError> {
    Ok(tx
        .query_row(
            "SELECT state, user_id, failure, synced_at FROM matrix_accounts WHERE account_id = ?1",
            [account],
            |r| {
                Ok(MessengerStatus {
                    state: MessengerState::parse(&r.get::<_, String>(0)?),
                    user_id: r.get(1)?,
                    failure: r.get(2)?,
                    synced_at: r.get(3)?,
                })
            },
        )
        .optional()?
        .unwrap_or(MessengerStatus {
            state: MessengerState::SignedOut,
            user_id: None,
            failure: None,
            synced_at: None,
        }))
}

pub(crate) fn upsert_room(
    tx: &Transaction<'_>,
    account: &str,
    room: &str,
    name: Option<&str>,
    at: &str,
) -> Result<(), MatrixError> {
    tx.execute(
        "INSERT INTO matrix_rooms (account_id, room_id, name, last_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (account_id, room_id) DO UPDATE SET
            name = COALESCE(excluded.name, name), last_at = MAX(last_at, excluded.last_at)",
        params![account, room, name, at],
    )?;
    Ok(())
}

/// Stores a message once; true when it was new.
pub(crate) fn insert_message(
    tx: &Transaction<'_>,
    account: &str,
    message: &MatrixMessage,
) -> Result<bool, MatrixError> {
    let inserted = tx.execute(
        "INSERT OR IGNORE INTO matrix_messages
            (account_id, event_id, room_id, sender, body, sent_at, own)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            account,
            message.event_id,
            message.room_id,
            message.sender,
            message.body,
            message.sent_at,
            message.own
        ],
    )?;
    Ok(inserted > 0)
}

pub(crate) fn rooms(tx: &Transaction<'_>, account: &str) -> Result<Vec<MatrixRoom>, MatrixError> {
    let mut stmt = tx.prepare(
        "SELECT r.room_id, COALESCE(r.name, r.room_id), r.last_at,
            (SELECT body FROM matrix_messages m WHERE m.account_id = r.account_id
               AND m.room_id = r.room_id ORDER BY m.sent_at DESC LIMIT 1)
         FROM matrix_rooms r WHERE r.account_id = ?1
         ORDER BY r.last_at DESC, r.room_id",
    )?;
    let rows = stmt.query_map([account], |r| {
        Ok(MatrixRoom {
            id: r.get(0)?,
            name: r.get(1)?,
            last_at: r.get(2)?,
            last_text: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(crate) fn room_exists(
    tx: &Transaction<'_>,
    account: &str,
    room: &str,
) -> Result<bool, MatrixError> {
    Ok(tx
        .query_row(
            "SELECT 1 FROM matrix_rooms WHERE account_id = ?1 AND room_id = ?2",
            [account, room],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

pub(crate) fn messages(
    tx: &Transaction<'_>,
    account: &str,
    room: &str,
) -> Result<Vec<MatrixMessage>, MatrixError> {
    let mut stmt = tx.prepare(
        "SELECT event_id, room_id, sender, body, sent_at, own FROM matrix_messages
         WHERE account_id = ?1 AND room_id = ?2 ORDER BY sent_at, event_id",
    )?;
    let rows = stmt.query_map([account, room], |r| {
        Ok(MatrixMessage {
            event_id: r.get(0)?,
            room_id: r.get(1)?,
            sender: r.get(2)?,
            body: r.get(3)?,
            sent_at: r.get(4)?,
            own: r.get(5)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(crate) fn queue(
    tx: &Transaction<'_>,
    account: &str,
    txn: &str,
    room: &str,
    body: &str,
    now: &str,
) -> Result<(), MatrixError> {
    tx.execute(
        "INSERT INTO matrix_outbox (account_id, txn_id, room_id, body, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        [account, txn, room, body, now],
    )?;
    Ok(())
}

pub(crate) fn unsent(
    tx: &Transaction<'_>,
    account: &str,
) -> Result<Vec<(String, String, String)>, MatrixError> {
    let mut stmt = tx.prepare(
        "SELECT txn_id, room_id, body FROM matrix_outbox
         WHERE account_id = ?1 AND event_id IS NULL ORDER BY created_at",
    )?;
    let rows = stmt.query_map([account], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(crate) fn sent(
    tx: &Transaction<'_>,
    account: &str,
    txn: &str,
    event: &str,
) -> Result<(), MatrixError> {
    tx.execute(
        "UPDATE matrix_outbox SET event_id = ?3 WHERE account_id = ?1 AND txn_id = ?2",
        [account, txn, event],
    )?;
    Ok(())
}
