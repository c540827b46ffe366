//! The record of utility-model calls: one row per CLI run or refusal, read
//! back as the call list, each feature's spend since a moment, and the
//! notices said once.

use serde::Serialize;
use store::Db;
use store::rusqlite::{Row, params};
use time::OffsetDateTime;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::call::{Feature, Outcome, UtilityCall};

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[store::Migration {
    feature: "utility",
    sql: "CREATE TABLE utility_calls (
            id TEXT PRIMARY KEY,
            feature TEXT NOT NULL,
            engine TEXT,
            model TEXT,
            input_tokens INTEGER NOT NULL,
            output_tokens INTEGER NOT NULL,
            cost_usd REAL,
            duration_ms INTEGER NOT NULL,
            outcome TEXT NOT NULL,
            error TEXT,
            at TEXT NOT NULL
          ) STRICT;
          CREATE INDEX utility_calls_by_feature ON utility_calls (feature, at);
          CREATE INDEX utility_calls_by_time ON utility_calls (at);
          CREATE TABLE utility_notices (
            key TEXT PRIMARY KEY,
            at TEXT NOT NULL
          ) STRICT;",
}];

/// One feature's day so far.
#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FeatureSpend {
    pub feature: Feature,
    pub spent_usd: f64,
    /// Calls made (not the refused ones).
    pub calls: u64,
}

pub(crate) fn record(db: &Db, call: &UtilityCall) -> Result<(), store::StoreError> {
    db.write(|tx| {
        tx.execute(
            "INSERT INTO utility_calls (id, feature, engine, model, input_tokens, output_tokens,
               cost_usd, duration_ms, outcome, error, at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            params![
                call.id,
                call.feature.as_str(),
                call.engine,
                call.model,
                i64::try_from(call.input_tokens).unwrap_or(i64::MAX),
                i64::try_from(call.output_tokens).unwrap_or(i64::MAX),
                call.cost_usd,
                i64::try_from(call.duration_ms).unwrap_or(i64::MAX),
                call.outcome.as_str(),
                call.error,
                call.at,
            ],
        )?;
        Ok(())
    })
}

pub(crate) fn mark_invalid(db: &Db, id: &str, reason: &str) -> Result<(), store::StoreError> {
    db.write(|tx| {
        tx.execute(
            "UPDATE utility_calls SET outcome = 'invalid', error = ?2 WHERE id = ?1",
            params![id, reason],
        )?;
        Ok(())
    })
}

pub(crate) fn spent(
    db: &Db,
    feature: Feature,
    since: OffsetDateTime,
) -> Result<f64, store::StoreError> {
    db.read(|conn| {
        Ok(conn.query_row(
            "SELECT COALESCE(SUM(cost_usd), 0) FROM utility_calls WHERE feature = ?1 AND at >= ?2",
            params![feature.as_str(), clock::timestamp(since)],
            |row| row.get(0),
        )?)
    })
}

pub(crate) fn spend(
    db: &Db,
    since: OffsetDateTime,
) -> Result<Vec<FeatureSpend>, store::StoreError> {
    let since = clock::timestamp(since);
    db.read(|conn| {
        let mut statement = conn.prepare_cached(
            "SELECT COALESCE(SUM(cost_usd), 0),
                    COUNT(*) FILTER (WHERE outcome NOT IN ('capped', 'no_engine'))
             FROM utility_calls WHERE feature = ?1 AND at >= ?2",
        )?;
        let mut spends = Vec::new();
        for feature in Feature::ALL {
            let (spent_usd, calls): (f64, i64) = statement
                .query_row(params![feature.as_str(), since], |row| {
                    Ok((row.get(0)?, row.get(1)?))
                })?;
            spends.push(FeatureSpend {
                feature,
                spent_usd,
                calls: u64::try_from(calls).unwrap_or(0),
            });
        }
        Ok(spends)
    })
}

pub(crate) fn calls(
    db: &Db,
    feature: Option<Feature>,
    from: Option<OffsetDateTime>,
    limit: usize,
) -> Result<Vec<UtilityCall>, store::StoreError> {
    let from = from.map(clock::timestamp);
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    db.read(|conn| {
        let mut statement = conn.prepare_cached(
            "SELECT id, feature, engine, model, input_tokens, output_tokens, cost_usd,
                    duration_ms, outcome, error, at
             FROM utility_calls
             WHERE (?1 IS NULL OR feature = ?1) AND (?2 IS NULL OR at >= ?2)
             ORDER BY at DESC, id DESC LIMIT ?3",
        )?;
        let rows = statement.query_map(params![feature.map(Feature::as_str), from, limit], call)?;
        Ok(rows.filter_map(Result::ok).flatten().collect())
    })
}

/// A row whose feature this build does not know (written by a newer one)
/// is left out rather than failing the list.
fn call(row: &Row<'_>) -> store::rusqlite::Result<Option<UtilityCall>> {
    let Some(feature) = Feature::parse(&row.get::<_, String>(1)?) else {
        return Ok(None);
    };
    let count = |index: usize| -> store::rusqlite::Result<u64> {
        Ok(u64::try_from(row.get::<_, i64>(index)?).unwrap_or(0))
    };
    Ok(Some(UtilityCall {
        id: row.get(0)?,
        feature,
        engine: row.get(2)?,
        model: row.get(3)?,
        input_tokens: count(4)?,
        output_tokens: count(5)?,
        cost_usd: row.get(6)?,
        duration_ms: count(7)?,
        outcome: Outcome::parse(&row.get::<_, String>(8)?),
        error: row.get(9)?,
        at: row.get(10)?,
    }))
}

pub(crate) fn first_notice(db: &Db, key: &str, at: &str) -> Result<bool, store::StoreError> {
    db.write(|tx| {
        let added = tx.execute(
            "INSERT INTO utility_notices (key, at) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
            params![key, at],
        )?;
        Ok(added == 1)
    })
}
