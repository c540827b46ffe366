//! The application's side of the utility model: which engine it runs (the
//! primary engine of `engines.toml`, read at each call, so an engine added
//! while the server runs is used), where a feature's day starts (midnight in
//! the inbox's time zone), and the inbox notice a feature gives once when no
//! engine can run it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use inbox::{Category, NewRow};
use time::OffsetDateTime;
use utility::{Engine, EngineKind, Feature, UtilityError};

use crate::error::blocking;
use crate::publish;
use crate::services::App;

/// The utility model of a server on `data_dir`.
pub(crate) fn open(
    state_db: Arc<store::Db>,
    clock: Arc<dyn clock::Clock>,
    data_dir: &Path,
) -> utility::Utility {
    let dir: PathBuf = data_dir.to_owned();
    utility::Utility::new(
        state_db,
        clock,
        Arc::new(move || primary_engine(&dir)),
        data_dir,
    )
}

/// The primary engine: the Claude Code engine (by name `primary` when there
/// are several), else a Codex one; a `command` engine cannot answer a
/// question. An unreadable `engines.toml` is no engine, as for a spawn.
pub fn primary_engine(data_dir: &Path) -> Option<Engine> {
    let engines = sessions::engines::load(data_dir).ok()?;
    let pick = |kind: sessions::EngineKind| {
        engines
            .iter()
            .filter(|(_, spec)| spec.kind == kind)
            .min_by_key(|(name, _)| name.as_str() != "primary")
    };
    let (name, spec) =
        pick(sessions::EngineKind::Claude).or_else(|| pick(sessions::EngineKind::Codex))?;
    Some(engine_of(name, spec))
}

/// The utility model's view of engine `name` of `engines.toml`.
pub fn engine_of(name: &str, spec: &sessions::EngineSpec) -> Engine {
    Engine {
        name: name.to_owned(),
        kind: match spec.kind {
            sessions::EngineKind::Codex => EngineKind::Codex,
            _ => EngineKind::Claude,
        },
        program: spec.program(),
        args: spec.args.clone(),
        env: spec.env.clone(),
        unsafe_allow_unsandboxed: spec.unsafe_allow_unsandboxed,
    }
}

/// The start of today in the inbox's time zone: each feature's cap is per
/// calendar day there.
pub fn day_start(state: &App) -> OffsetDateTime {
    let zone = pm_inbox::window::zone(&state.settings.pm_inbox_quiet_hours_time_zone());
    let now = state.clock.now();
    jiff::Timestamp::from_nanosecond(now.unix_timestamp_nanos())
        .ok()
        .and_then(|at| {
            let day = pm_inbox::window::local_day(&zone, at);
            pm_inbox::window::start_of_day(&zone, day)
        })
        .and_then(|start| OffsetDateTime::from_unix_timestamp_nanos(start.as_nanosecond()).ok())
        .unwrap_or(now)
}

/// Today's date (`YYYY-MM-DD`) in the inbox's time zone.
pub fn local_day(state: &App) -> String {
    let zone = pm_inbox::window::zone(&state.settings.pm_inbox_quiet_hours_time_zone());
    let now = state.clock.now();
    jiff::Timestamp::from_nanosecond(now.unix_timestamp_nanos())
        .map(|at| pm_inbox::window::local_day(&zone, at).to_string())
        .unwrap_or_else(|_| now.date().to_string())
}

/// A feature's daily cap in dollars, from its setting; a feature the
/// catalog gives no cap has none.
pub fn cap(state: &App, feature: Feature) -> Option<f64> {
    match feature {
        Feature::WeeklySummary => Some(state.settings.weekly_summary_daily_cost_cap_usd()),
        Feature::ForensicsDeep => Some(state.settings.session_forensics_daily_cost_cap_usd()),
        Feature::EmailSummary => Some(state.settings.email_summarizer_daily_cost_cap_usd()),
        Feature::AlarmWords => Some(state.settings.alarm_nlp_daily_cost_cap()),
        Feature::Title
        | Feature::Catches
        | Feature::ArchiveDigest
        | Feature::EmailPrescreen
        | Feature::Review
        | Feature::ImageBridge
        | Feature::DailyBriefing
        | Feature::RssDigest
        | Feature::MailSummary => None,
    }
}

/// A feature's budget today.
pub(crate) fn budget(state: &App, feature: Feature) -> utility::Budget {
    utility::Budget {
        cap_usd: cap(state, feature),
        since: day_start(state),
    }
}

/// What a failed call means for the person: nothing to say for a cap (the
/// call list shows it) or a passing failure (the log does), one inbox note
/// per feature when there is no engine at all.
pub(crate) async fn report(state: &App, account_id: &str, feature: Feature, error: &UtilityError) {
    match error {
        UtilityError::NoEngine => {
            let key = format!("no_engine:{}", feature.as_str());
            match state.utility.first_notice(&key).await {
                Ok(true) => {
                    let mut row = NewRow::new(
                        Category::Note,
                        format!("{} is idle: no primary engine", describe(feature)),
                    );
                    row.body = Some(
                        "The utility model runs on the primary engine's own CLI (Claude Code, else Codex) \
                         named in engines.toml or found on PATH, and none is configured. Add one and it \
                         is used from the next call."
                            .to_owned(),
                    );
                    note(state, account_id, row).await;
                }
                Ok(false) => {}
                Err(error) => tracing::warn!(%error, "cannot record the utility notice"),
            }
        }
        UtilityError::Capped { .. } => {
            tracing::info!(feature = feature.as_str(), %error, "utility call skipped at its cap");
        }
        other => tracing::warn!(feature = feature.as_str(), error = %other, "utility call failed"),
    }
}

/// Adds an inbox row and announces it.
pub(crate) async fn note(state: &App, account_id: &str, row: NewRow) {
    let inbox = state.inbox.clone();
    let account = account_id.to_owned();
    match blocking(move || inbox.add(&account, row)).await {
        Ok(added) => {
            publish::inbox_added(state, account_id, added);
        }
        Err(error) => tracing::warn!(%error, "cannot add a utility model inbox row"),
    }
}

fn describe(feature: Feature) -> &'static str {
    match feature {
        Feature::Title => "Session titles",
        Feature::Catches => "Caught follow-ups",
        Feature::WeeklySummary => "The weekly summary",
        Feature::ArchiveDigest => "The archive digest",
        Feature::ForensicsDeep => "The forensics deep analysis",
        Feature::EmailPrescreen => "The inbound email prescreen",
        Feature::Review => "Reviews of returned work",
        Feature::ImageBridge => "Image descriptions for text-only models",
        Feature::EmailSummary => "The email summarizer",
        Feature::DailyBriefing => "The daily briefing",
        Feature::RssDigest => "The RSS morning digest",
        Feature::MailSummary => "Catch me up in the mail client",
        Feature::AlarmWords => "Alarms typed in words",
    }
}
