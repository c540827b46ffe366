//! What the ledger records and the API lists: the feature a call was for,
//! how it ended, and the call itself.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

/// What a call is for; each feature has its own budget and history.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "UtilityFeature")]
#[schema(as = UtilityFeature)]
pub enum Feature {
    Title,
    Catches,
    WeeklySummary,
    ArchiveDigest,
    ForensicsDeep,
    /// Inbound email's classifier: start a session, or not.
    EmailPrescreen,
    /// A reviewer engine's findings over work that came back.
    Review,
    /// An attached image described for a model that cannot see it.
    ImageBridge,
    /// A mail to the summarizer's inbox summarized (`emailSummarizer*`).
    EmailSummary,
    /// The daily briefing written over the day's facts.
    DailyBriefing,
    /// The RSS morning digest's picks (`rssDigest*`).
    RssDigest,
    /// A mail thread's "Catch me up" summary (`mailclientAiSummary*`).
    MailSummary,
    /// An alarm typed in words read as its fields (`alarmNlpDailyCostCap`).
    AlarmWords,
}

impl Feature {
    pub const ALL: [Feature; 13] = [
        Feature::Title,
        Feature::Catches,
        Feature::WeeklySummary,
        Feature::ArchiveDigest,
        Feature::ForensicsDeep,
        Feature::EmailPrescreen,
        Feature::Review,
        Feature::ImageBridge,
        Feature::EmailSummary,
        Feature::DailyBriefing,
        Feature::RssDigest,
        Feature::MailSummary,
        Feature::AlarmWords,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Feature::Title => "title",
            Feature::Catches => "catches",
            Feature::WeeklySummary => "weekly_summary",
            Feature::ArchiveDigest => "archive_digest",
            Feature::ForensicsDeep => "forensics_deep",
            Feature::EmailPrescreen => "email_prescreen",
            Feature::Review => "review",
            Feature::ImageBridge => "image_bridge",
            Feature::EmailSummary => "email_summary",
            Feature::DailyBriefing => "daily_briefing",
            Feature::RssDigest => "rss_digest",
            Feature::MailSummary => "mail_summary",
            Feature::AlarmWords => "alarm_words",
        }
    }

    pub fn parse(text: &str) -> Option<Feature> {
        Feature::ALL.into_iter().find(|f| f.as_str() == text)
    }
}

/// How a recorded call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "UtilityOutcome")]
#[schema(as = UtilityOutcome)]
pub enum Outcome {
    Ok,
    /// The answer was not the JSON asked for.
    Invalid,
    /// The CLI failed, timed out or reported an error.
    Failed,
    /// The feature's cap for the day was reached: no call was made.
    Capped,
    /// No primary engine is configured: no call was made.
    NoEngine,
}

impl Outcome {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Invalid => "invalid",
            Outcome::Failed => "failed",
            Outcome::Capped => "capped",
            Outcome::NoEngine => "no_engine",
        }
    }

    pub(crate) fn parse(text: &str) -> Outcome {
        match text {
            "ok" => Outcome::Ok,
            "invalid" => Outcome::Invalid,
            "capped" => Outcome::Capped,
            "no_engine" => Outcome::NoEngine,
            _ => Outcome::Failed,
        }
    }
}

/// One recorded call, as `GET /utility/calls` lists it.
#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UtilityCall {
    pub id: String,
    pub feature: Feature,
    /// The engine's name in `engines.toml`; null when none was configured.
    pub engine: Option<String>,
    /// The model asked for, else the one the CLI reported using.
    pub model: Option<String>,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// As the CLI reported it; null where it reports no price (Codex).
    pub cost_usd: Option<f64>,
    pub duration_ms: u64,
    pub outcome: Outcome,
    pub error: Option<String>,
    pub at: String,
}
