//! The texts' SQL: messages, threads per number (with the spam hold), and
//! the contacts the spam rule trusts.

use store::rusqlite::{OptionalExtension, Row, Transaction, params};

use crate::{DeliveryState, SmsDirection, SmsError, SmsMessage, SmsThread};

const MESSAGE_COLUMNS: &str = "id, number, direction, text, state, failure, spam, created_at";

fn message(row: &Row<'_>) -> store::rusqlite::Result<SmsMessage> {
    Ok(SmsMessage {
        id: row.get(0)?,
        number: row.get(1)?,
        direction: if row.get::<_, String>(2)? == "in" {
            SmsDirection::In
        } else {
            SmsDirection::Out
        },
        text: row.get(3)?,
        state: DeliveryState::parse(&row.get::<_, String>(4)?),
        failure: row.get(5)?,
        spam: row.get(6)?,
        created_at: row.get(7)?,
    })
}

pub(crate) fn message_of(tx: &Transaction<'_>, id: &str) -> Result<SmsMessage, SmsError> {
    tx.query_row(
        &format!("SELECT {MESSAGE_COLUMNS} FROM sms_messages WHERE id = ?1"),
        [id],
        message,
    )
    .optional()?
    .ok_or(SmsError::NotFound)
}

/// The message stored for a gateway's incoming id, if it was.
pub(crate) fn incoming_of(
    tx: &Transaction<'_>,
    account: &str,
    gateway_id: &str,
) -> Result<Option<SmsMessage>, SmsError> {
    Ok(tx
        .query_row(
            &format!(
                "SELECT {MESSAGE_COLUMNS} FROM sms_messages
                 WHERE account_id = ?1 AND direction = 'in' AND gateway_id = ?2"
            ),
            [account, gateway_id],
            message,
        )
        .optional()?)
}

pub(crate) struct NewMessage<'a> {
    pub id: &'a str,
    pub account: &'a str,
    pub number: &'a str,
    pub direction: SmsDirection,
    pub text: &'a str,
    pub state: DeliveryState,
    pub gateway_id: Option<&'a str>,
    pub spam: bool,
    pub now: &'a str,
}

pub(crate) fn insert(tx: &Transaction<'_>, new: &NewMessage<'_>) -> Result<(), SmsError> {
    let direction = match new.direction {
        SmsDirection::In => "in",
        SmsDirection::Out => "out",
    };
    tx.execute(
        "INSERT INTO sms_messages (id, account_id, number, direction, text, state, gateway_id,
            spam, read, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        params![
            new.id,
            new.account,
            new.number,
            direction,
            new.text,
            new.state.as_str(),
            new.gateway_id,
            new.spam,
            new.direction == SmsDirection::Out,
            new.now
        ],
    )?;
    // Texting a number takes its thread out of Spam.
    let spam = new.spam && new.direction == SmsDirection::In;
    tx.execute(
        "INSERT INTO sms_threads (account_id, number, spam, last_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (account_id, number) DO UPDATE SET last_at = excluded.last_at,
            spam = CASE WHEN ?5 = 'out' THEN 0 ELSE spam END",
        params![new.account, new.number, spam, new.now, direction],
    )?;
    if new.direction == SmsDirection::Out {
        tx.execute(
            "UPDATE sms_messages SET spam = 0 WHERE account_id = ?1 AND number = ?2",
            [new.account, new.number],
        )?;
    }
    Ok(())
}

pub(crate) fn set_state(
    tx: &Transaction<'_>,
    id: &str,
    state: DeliveryState,
    gateway_id: Option<&str>,
    failure: Option<&str>,
) -> Result<(), SmsError> {
    tx.execute(
        "UPDATE sms_messages SET state = ?2, gateway_id = COALESCE(?3, gateway_id), failure = ?4
         WHERE id = ?1",
        params![id, state.as_str(), gateway_id, failure],
    )?;
    Ok(())
}

/// Outgoing messages the gateway took whose fate is not known yet.
pub(crate) fn unsettled(
    tx: &Transaction<'_>,
    account: &str,
) -> Result<Vec<(String, String)>, SmsError> {
    let mut stmt = tx.prepare(
        "SELECT id, gateway_id FROM sms_messages
         WHERE account_id = ?1 AND direction = 'out' AND state IN ('pending', 'sent')
           AND gateway_id IS NOT NULL
         ORDER BY created_at LIMIT 50",
    )?;
    let rows = stmt.query_map([account], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The spam rule's trust: a saved contact, a number ever texted, or a
/// thread already let through (by hand, or while the filter was off).
pub(crate) fn known(tx: &Transaction<'_>, account: &str, number: &str) -> Result<bool, SmsError> {
    Ok(tx
        .query_row(
            "SELECT 1 FROM sms_contacts WHERE account_id = ?1 AND number = ?2
             UNION ALL
             SELECT 1 FROM sms_messages WHERE account_id = ?1 AND number = ?2 AND direction = 'out'
             UNION ALL
             SELECT 1 FROM sms_threads WHERE account_id = ?1 AND number = ?2 AND spam = 0
             LIMIT 1",
            [account, number],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

pub(crate) fn save_contact(
    tx: &Transaction<'_>,
    account: &str,
    number: &str,
    name: &str,
) -> Result<(), SmsError> {
    tx.execute(
        "INSERT INTO sms_contacts (account_id, number, name) VALUES (?1, ?2, ?3)
         ON CONFLICT (account_id, number) DO UPDATE SET name = excluded.name",
        [account, number, name],
    )?;
    Ok(())
}

pub(crate) fn not_spam(tx: &Transaction<'_>, account: &str, number: &str) -> Result<(), SmsError> {
    let changed = tx.execute(
        "UPDATE sms_threads SET spam = 0 WHERE account_id = ?1 AND number = ?2",
        [account, number],
    )?;
    if changed == 0 {
        return Err(SmsError::NotFound);
    }
    tx.execute(
        "UPDATE sms_messages SET spam = 0 WHERE account_id = ?1 AND number = ?2",
        [account, number],
    )?;
    Ok(())
}

pub(crate) fn threads(
    tx: &Transaction<'_>,
    account: &str,
    spam: bool,
) -> Result<Vec<SmsThread>, SmsError> {
    let mut stmt = tx.prepare(
        "SELECT t.number, c.name, t.spam, t.last_at,
            (SELECT text FROM sms_messages m WHERE m.account_id = t.account_id
               AND m.number = t.number ORDER BY m.created_at DESC, m.rowid DESC LIMIT 1),
            (SELECT COUNT(*) FROM sms_messages m WHERE m.account_id = t.account_id
               AND m.number = t.number),
            (SELECT COUNT(*) FROM sms_messages m WHERE m.account_id = t.account_id
               AND m.number = t.number AND m.read = 0)
         FROM sms_threads t
         LEFT JOIN sms_contacts c ON c.account_id = t.account_id AND c.number = t.number
         WHERE t.account_id = ?1 AND t.spam = ?2
         ORDER BY t.last_at DESC, t.number",
    )?;
    let rows = stmt.query_map(params![account, spam], |r| {
        Ok(SmsThread {
            number: r.get(0)?,
            name: r.get(1)?,
            spam: r.get(2)?,
            last_at: r.get(3)?,
            last_text: r.get::<_, Option<String>>(4)?.unwrap_or_default(),
            count: r.get(5)?,
            unread: r.get(6)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(crate) fn messages(
    tx: &Transaction<'_>,
    account: &str,
    number: &str,
) -> Result<Vec<SmsMessage>, SmsError> {
    let mut stmt = tx.prepare(&format!(
        "SELECT {MESSAGE_COLUMNS} FROM sms_messages WHERE account_id = ?1 AND number = ?2
         ORDER BY created_at, rowid"
    ))?;
    let rows = stmt.query_map([account, number], message)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(crate) fn mark_read(tx: &Transaction<'_>, account: &str, number: &str) -> Result<(), SmsError> {
    tx.execute(
        "UPDATE sms_messages SET read = 1 WHERE account_id = ?1 AND number = ?2",
        [account, number],
    )?;
    Ok(())
}
