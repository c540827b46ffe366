//! Alarms typed in words (`alarmNlpDailyCostCap`, docs/fleet-cards.md): the
//! utility model reads the words as the fields of an alarm, within the
//! day's cap, and the alarm is set as `POST /alarms` sets one. Past the cap,
//! with no engine, or when the reading makes no alarm, the caller is told
//! which, so the form asks for the fields instead.

use alarms::Alarm;
use fleet_cards::words::{self, Reading, WordsError};
use serde_json::json;
use utility::{Ask, Feature, UtilityError};

use crate::services::App;
use crate::utility_model;

#[derive(Debug, thiserror::Error)]
pub enum AlarmWordsError {
    #[error(transparent)]
    Words(#[from] WordsError),
    #[error("today's spend on reading alarms in words reached its cap (alarmNlpDailyCostCap)")]
    Capped,
    #[error("no primary engine can read the words")]
    NoEngine,
    #[error("the words could not be read: {0}")]
    Failed(String),
    #[error(transparent)]
    Alarm(#[from] alarms::AlarmError),
    #[error("the work was cancelled")]
    Cancelled,
}

/// Sets the alarm `text` describes, for `account_id`.
pub async fn set(app: &App, account_id: &str, text: &str) -> Result<Alarm, AlarmWordsError> {
    let prompt = words::prompt(text, &now_local(app))?;
    let budget = utility_model::budget(app, Feature::AlarmWords);
    // The catalog's 0 is no spend at all, not the utility model's "no cap".
    if budget.cap_usd.is_some_and(|cap| cap <= 0.0) {
        return Err(AlarmWordsError::Capped);
    }
    let schema = json!({
        "type": "object",
        "required": ["label", "at"],
        "properties": {
            "label": {"type": "string"},
            "at": {"type": "string"},
            "repeat": {"enum": [null, "daily", "weekdays"]}
        }
    });
    let ask = Ask {
        feature: Feature::AlarmWords,
        model: None,
        prompt: &prompt,
        budget,
    };
    let reading = match app.utility.json::<Reading>(&ask, &schema).await {
        Ok((reading, _)) => words::checked(reading)?,
        Err(error) => {
            utility_model::report(app, account_id, Feature::AlarmWords, &error).await;
            return Err(match error {
                UtilityError::Capped { .. } => AlarmWordsError::Capped,
                UtilityError::NoEngine => AlarmWordsError::NoEngine,
                other => AlarmWordsError::Failed(other.to_string()),
            });
        }
    };
    let (alarms, account) = (app.alarms.clone(), account_id.to_owned());
    let alarm = tokio::task::spawn_blocking(move || {
        alarms.create(&account, &reading.label, &reading.at, reading.repeat)
    })
    .await
    .map_err(|_| AlarmWordsError::Cancelled)??;
    crate::publish::alarm_changed(app, &alarm);
    Ok(alarm)
}

/// Now where the alarms ring (the system's zone), as the prompt names it.
fn now_local(app: &App) -> String {
    let now = app.clock.now();
    jiff::Timestamp::from_nanosecond(now.unix_timestamp_nanos())
        .map(|at| {
            at.to_zoned(jiff::tz::TimeZone::system())
                .strftime("%Y-%m-%d %H:%M, %A")
                .to_string()
        })
        .unwrap_or_else(|_| clock::timestamp(now))
}
