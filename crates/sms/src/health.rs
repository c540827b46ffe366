//! Whether texts work (`smsHealthAlertsEnabled`): each call to the gateway
//! reports here. Refused credentials alert at once; a gateway away alerts
//! only once it has been away for [`SUSTAINED_AWAY`] on the clock (a phone
//! changing networks is not news); either alerts once, however many calls
//! fail after, and the first call that works clears it. Kept in SQLite, so
//! a restart neither repeats nor forgets an alert.

use store::rusqlite::{OptionalExtension, Transaction, params};
use time::{Duration, OffsetDateTime};

use crate::gateway::GatewayError;
use crate::{Health, HealthState, SmsError};

/// How long the gateway must stay away before it is news.
pub const SUSTAINED_AWAY: Duration = Duration::minutes(15);

/// What a report changed, for the app to raise or clear its alert.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transition {
    /// Texts stopped working: one alert, saying why.
    Raised(String),
    /// They work again: the alert clears.
    Cleared,
}

pub(crate) fn read(tx: &Transaction<'_>, account: &str) -> Result<Health, SmsError> {
    let row = tx
        .query_row(
            "SELECT failing_since, failure, alerted FROM sms_health WHERE account_id = ?1",
            [account],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, bool>(2)?,
                ))
            },
        )
        .optional()?;
    Ok(match row {
        None => Health {
            state: HealthState::Ok,
            failure: None,
            failing_since: None,
        },
        Some((since, failure, alerted)) => Health {
            state: if alerted {
                HealthState::Alerting
            } else {
                HealthState::Failing
            },
            failure: Some(failure),
            failing_since: Some(since),
        },
    })
}

pub(crate) fn succeeded(
    tx: &Transaction<'_>,
    account: &str,
) -> Result<Option<Transition>, SmsError> {
    let alerted: Option<bool> = tx
        .query_row(
            "DELETE FROM sms_health WHERE account_id = ?1 RETURNING alerted",
            [account],
            |r| r.get(0),
        )
        .optional()?;
    Ok((alerted == Some(true)).then_some(Transition::Cleared))
}

pub(crate) fn failed(
    tx: &Transaction<'_>,
    account: &str,
    error: &GatewayError,
    now: OffsetDateTime,
) -> Result<Option<Transition>, SmsError> {
    let stamp = clock::timestamp(now);
    let failure = error.to_string();
    tx.execute(
        "INSERT INTO sms_health (account_id, failing_since, failure, alerted)
         VALUES (?1, ?2, ?3, 0)
         ON CONFLICT (account_id) DO UPDATE SET failure = excluded.failure",
        params![account, stamp, failure],
    )?;
    let (since, alerted): (String, bool) = tx.query_row(
        "SELECT failing_since, alerted FROM sms_health WHERE account_id = ?1",
        [account],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    if alerted {
        return Ok(None);
    }
    let away_for =
        time::OffsetDateTime::parse(&since, &time::format_description::well_known::Rfc3339)
            .map(|since| now - since)
            .unwrap_or(Duration::ZERO);
    let news = match error {
        GatewayError::Refused(_) => true,
        GatewayError::Away(_) => away_for >= SUSTAINED_AWAY,
        // The gateway answered: it is there and took the credentials.
        GatewayError::Rejected { .. } => false,
    };
    if !news {
        return Ok(None);
    }
    tx.execute(
        "UPDATE sms_health SET alerted = 1 WHERE account_id = ?1",
        [account],
    )?;
    let reason = match error {
        GatewayError::Refused(_) => format!(
            "Text messages are failing: {failure}. Check the username and password (or token) in sms.toml's saved key."
        ),
        _ => format!(
            "Text messages are failing: the gateway has been away since {since} ({failure})."
        ),
    };
    Ok(Some(Transition::Raised(reason)))
}
