//! The refill rule, pure: given the dormant sessions (most recently active
//! first), how many work now, what each was revived lately and what revives
//! spent today, which come back and why each other one does not.

use serde::Serialize;
use sessions::{Dormant, Status};
use time::{Duration, OffsetDateTime};
use ts_rs::TS;
use utoipa::ToSchema;

/// The `sessionRefill*` settings, as one check reads them.
#[derive(Debug, Clone, PartialEq)]
pub struct Rules {
    /// `sessionRefillTargetCount`: revive while fewer work.
    pub target: usize,
    /// `sessionRefillBatch`: at most this many per check.
    pub batch: usize,
    /// `sessionRefillCooldownMinutes`.
    pub cooldown: Duration,
    /// `sessionRefillMaxCandidateAgeHours`.
    pub max_age: Duration,
    /// `sessionRefillMaxRevivesPerSessionPerDay`.
    pub max_per_day: u32,
    /// `sessionRefillDailySpendCapUSD`; 0 turns the dollar cap off.
    pub spend_cap_usd: f64,
    /// `sessionRefillIncludePaused`.
    pub include_paused: bool,
    /// `sessionRefillAllowReopenUserClosed`.
    pub reopen_closed: bool,
}

/// Why a dormant session stayed dormant in a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// Paused by the user, and `sessionRefillIncludePaused` is off.
    Paused,
    /// Closed by the user, and `sessionRefillAllowReopenUserClosed` is off.
    Closed,
    /// It resumes by itself at its `resumeAt` (a usage limit's reset).
    Recovering,
    /// Last active longer ago than `sessionRefillMaxCandidateAgeHours`.
    TooOld,
    /// Revived less than `sessionRefillCooldownMinutes` ago.
    Cooldown,
    /// Revived `sessionRefillMaxRevivesPerSessionPerDay` times today.
    DailyLimit,
    /// Its engine reports dollars, and today's revives reached the cap.
    SpendCap,
    /// Enough sessions work already, or this check's batch is full.
    TargetReached,
}

#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Skipped {
    pub id: String,
    pub reason: SkipReason,
}

/// What the governor knows of one dormant session's past revives.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    pub revives_today: u32,
    pub last_revived_at: Option<OffsetDateTime>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Plan {
    pub revive: Vec<String>,
    pub skipped: Vec<Skipped>,
}

/// Decides one check. `dormant` comes most recently active first, which is
/// the order revives take; `spent_today_usd` is what revived turns cost
/// since local midnight.
pub fn plan(
    now: OffsetDateTime,
    working: usize,
    rules: &Rules,
    spent_today_usd: f64,
    dormant: &[Dormant],
    history: impl Fn(&str) -> History,
) -> Plan {
    let room = rules.target.saturating_sub(working).min(rules.batch);
    let at_cap = rules.spend_cap_usd > 0.0 && spent_today_usd >= rules.spend_cap_usd;
    let bounds = Bounds {
        now: clock::timestamp(now),
        oldest: clock::timestamp(now - rules.max_age),
        cooled: now - rules.cooldown,
    };
    let mut plan = Plan::default();
    for session in dormant {
        let reason = skip_reason(&bounds, rules, at_cap, session, &history(&session.id))
            .or_else(|| (plan.revive.len() >= room).then_some(SkipReason::TargetReached));
        match reason {
            Some(reason) => plan.skipped.push(Skipped {
                id: session.id.clone(),
                reason,
            }),
            None => plan.revive.push(session.id.clone()),
        }
    }
    plan
}

/// A check's moments, in the stored form where they meet stored times:
/// `clock::timestamp` writes fixed-width UTC, which sorts as text, so ten
/// thousand candidates cost no parsing.
struct Bounds {
    now: String,
    /// Last active before this is too old.
    oldest: String,
    /// Revived after this is still cooling down.
    cooled: OffsetDateTime,
}

fn skip_reason(
    bounds: &Bounds,
    rules: &Rules,
    at_cap: bool,
    session: &Dormant,
    history: &History,
) -> Option<SkipReason> {
    if session.status == Status::Paused && !rules.include_paused {
        return Some(SkipReason::Paused);
    }
    if session.archived && !rules.reopen_closed {
        return Some(SkipReason::Closed);
    }
    if session
        .resume_at
        .as_deref()
        .is_some_and(|at| at > bounds.now.as_str())
    {
        return Some(SkipReason::Recovering);
    }
    if session.last_active_at.as_str() < bounds.oldest.as_str() {
        return Some(SkipReason::TooOld);
    }
    if history.last_revived_at.is_some_and(|at| at > bounds.cooled) {
        return Some(SkipReason::Cooldown);
    }
    if history.revives_today >= rules.max_per_day {
        return Some(SkipReason::DailyLimit);
    }
    if at_cap && session.reports_cost {
        return Some(SkipReason::SpendCap);
    }
    None
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    const NOW: OffsetDateTime = datetime!(2026-11-22 12:00 UTC);

    fn rules() -> Rules {
        Rules {
            target: 10,
            batch: 3,
            cooldown: Duration::minutes(30),
            max_age: Duration::hours(24),
            max_per_day: 2,
            spend_cap_usd: 0.0,
            include_paused: false,
            reopen_closed: false,
        }
    }

    fn dormant(id: &str, minutes_ago: i64) -> Dormant {
        Dormant {
            id: id.to_owned(),
            account_id: "a".to_owned(),
            status: Status::Interrupted,
            archived: false,
            last_active_at: clock::timestamp(NOW - Duration::minutes(minutes_ago)),
            resume_at: None,
            reports_cost: false,
        }
    }

    fn none(_: &str) -> History {
        History::default()
    }

    fn reasons(plan: &Plan) -> Vec<(&str, SkipReason)> {
        plan.skipped
            .iter()
            .map(|s| (s.id.as_str(), s.reason))
            .collect()
    }

    #[test]
    fn the_most_recent_come_back_first_up_to_the_batch_and_the_target() {
        let all: Vec<Dormant> = (1..=5).map(|i| dormant(&format!("s{i}"), i)).collect();
        let plan = plan(NOW, 0, &rules(), 0.0, &all, none);
        assert_eq!(plan.revive, ["s1", "s2", "s3"]);
        assert_eq!(
            reasons(&plan),
            [
                ("s4", SkipReason::TargetReached),
                ("s5", SkipReason::TargetReached)
            ]
        );
        // Eight of ten working: room for two only.
        let plan = super::plan(NOW, 8, &rules(), 0.0, &all, none);
        assert_eq!(plan.revive, ["s1", "s2"]);
        let full = super::plan(NOW, 10, &rules(), 0.0, &all, none);
        assert!(full.revive.is_empty());
    }

    #[test]
    fn paused_and_closed_come_back_only_when_the_settings_say() {
        let mut paused = dormant("paused", 1);
        paused.status = Status::Paused;
        let mut closed = dormant("closed", 2);
        closed.archived = true;
        let all = [paused, closed];
        let plan = plan(NOW, 0, &rules(), 0.0, &all, none);
        assert_eq!(
            reasons(&plan),
            [
                ("paused", SkipReason::Paused),
                ("closed", SkipReason::Closed)
            ]
        );
        let wider = Rules {
            include_paused: true,
            reopen_closed: true,
            ..rules()
        };
        assert_eq!(
            super::plan(NOW, 0, &wider, 0.0, &all, none).revive,
            ["paused", "closed"]
        );
    }

    #[test]
    fn a_session_that_resumes_by_itself_or_is_too_old_stays() {
        let mut waiting = dormant("limit", 1);
        waiting.resume_at = Some(clock::timestamp(NOW + Duration::hours(1)));
        let mut due = dormant("due", 2);
        due.resume_at = Some(clock::timestamp(NOW - Duration::minutes(1)));
        let old = dormant("old", 25 * 60);
        let plan = plan(NOW, 0, &rules(), 0.0, &[waiting, due, old], none);
        assert_eq!(plan.revive, ["due"]);
        assert_eq!(
            reasons(&plan),
            [
                ("limit", SkipReason::Recovering),
                ("old", SkipReason::TooOld)
            ]
        );
    }

    #[test]
    fn the_cooldown_and_the_daily_budget_hold_a_session_back() {
        let all = [dormant("cool", 1), dormant("spent", 2), dormant("fine", 3)];
        let history = |id: &str| match id {
            "cool" => History {
                revives_today: 1,
                last_revived_at: Some(NOW - Duration::minutes(29)),
            },
            "spent" => History {
                revives_today: 2,
                last_revived_at: Some(NOW - Duration::hours(3)),
            },
            _ => History {
                revives_today: 1,
                last_revived_at: Some(NOW - Duration::minutes(30)),
            },
        };
        let plan = plan(NOW, 0, &rules(), 0.0, &all, history);
        assert_eq!(plan.revive, ["fine"]);
        assert_eq!(
            reasons(&plan),
            [
                ("cool", SkipReason::Cooldown),
                ("spent", SkipReason::DailyLimit)
            ]
        );
    }

    #[test]
    fn the_dollar_cap_holds_only_sessions_that_cost_dollars() {
        let mut paid = dormant("paid", 1);
        paid.reports_cost = true;
        let all = [paid, dormant("subscription", 2)];
        let capped = Rules {
            spend_cap_usd: 5.0,
            ..rules()
        };
        let plan = plan(NOW, 0, &capped, 5.0, &all, none);
        assert_eq!(plan.revive, ["subscription"]);
        assert_eq!(reasons(&plan), [("paid", SkipReason::SpendCap)]);
        // Under the cap, or with the cap off (0), both come back.
        assert_eq!(
            super::plan(NOW, 0, &capped, 4.99, &all, none).revive.len(),
            2
        );
        assert_eq!(
            super::plan(NOW, 0, &rules(), 1e9, &all, none).revive.len(),
            2
        );
    }
}
