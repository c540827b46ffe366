//! The `automation_rules` and `rule_firings` tables: make (active for the
//! user, `pending` for an agent), approve, pause, resume, replace and
//! delete rules; find the rules an event fires; record each firing under
//! the hourly cap; and follow a firing's session to its end.

use jiff::SignedDuration;
use store::rusqlite::types::Type;
use store::rusqlite::{self, OptionalExtension, Row, Transaction, params};

use crate::automation_rule::{
    AutomationRule, FiringOutcome, ItemFollowUp, MAX_FIRINGS_PER_HOUR, NewRule, RuleFiring,
    RuleState,
};
use crate::error::AutomationError;
use crate::service::Automations;
use crate::stamp::stamp;
use crate::trigger::Event;

/// Append-only: never edit an applied step.
pub const RULE_MIGRATIONS: &[store::Migration] = &[
    store::Migration {
        feature: "automation_rules",
        // `trigger` and `actions` are the wire's JSON, checked when written.
        // A firing keeps the item follow-up of the action that started its
        // session, so the item can follow the session's end after a restart.
        sql: "CREATE TABLE automation_rules (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            account_id TEXT NOT NULL,
            name TEXT NOT NULL,
            state TEXT NOT NULL,
            created_by_agent INTEGER NOT NULL,
            trigger TEXT NOT NULL,
            actions TEXT NOT NULL,
            last_fired_at TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
          ) STRICT;
          CREATE INDEX automation_rules_by_account ON automation_rules (account_id, seq);
          CREATE TABLE rule_firings (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            account_id TEXT NOT NULL,
            rule_id TEXT NOT NULL REFERENCES automation_rules (id) ON DELETE CASCADE,
            at TEXT NOT NULL,
            event TEXT NOT NULL,
            outcome TEXT NOT NULL,
            reason TEXT,
            session_id TEXT,
            run_id TEXT,
            item_id TEXT,
            follow_up TEXT
          ) STRICT;
          CREATE INDEX rule_firings_by_rule ON rule_firings (rule_id, seq);
          CREATE INDEX rule_firings_by_session ON rule_firings (session_id)
            WHERE session_id IS NOT NULL;",
    },
    // The firings whose session has yet to end, looked over every minute
    // in case a session's end went by unseen.
    store::Migration {
        feature: "automation_rules",
        sql: "CREATE INDEX rule_firings_started ON rule_firings (seq)
                WHERE outcome = 'started';",
    },
];

/// A rule keeps this many of its latest firings (and every one whose
/// session has yet to end): its history, and what its hourly cap counts.
pub const FIRINGS_KEPT: u32 = 500;

const COLUMNS: &str = "id, account_id, name, state, created_by_agent, trigger, actions, \
                       last_fired_at, created_at, updated_at";
const FIRING_COLUMNS: &str =
    "id, rule_id, at, event, outcome, reason, session_id, run_id, item_id, follow_up";

/// Whether a rule may act on an event now.
#[derive(Debug, Clone, PartialEq)]
pub enum Begun {
    /// Act, then record how it went with [`Automations::settle_firing`].
    Act(Box<RuleFiring>),
    /// At the hourly cap: recorded skipped. `first` is the first skip of
    /// this hour, which the user is told of.
    Capped { first: bool },
}

impl Automations {
    /// Makes a rule: active at once when the user makes it, `pending`
    /// until approved when an agent does.
    pub fn create_rule(
        &self,
        account_id: &str,
        fields: &NewRule,
        by_agent: bool,
    ) -> Result<AutomationRule, AutomationError> {
        let fields = fields.validate()?;
        let now = stamp(self.now());
        let rule = AutomationRule {
            id: store::new_id(),
            account_id: account_id.to_owned(),
            name: fields.name,
            state: if by_agent {
                RuleState::Pending
            } else {
                RuleState::Active
            },
            created_by_agent: by_agent,
            when: fields.when,
            then: fields.then,
            created_at: now.clone(),
            updated_at: now,
            last_fired_at: None,
        };
        let (trigger, actions) = (json(&rule.when)?, json(&rule.then)?);
        self.db.write(|tx| {
            tx.execute(
                &format!(
                    "INSERT INTO automation_rules ({COLUMNS})
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, NULL, ?8, ?8)"
                ),
                params![
                    rule.id,
                    rule.account_id,
                    rule.name,
                    rule.state.as_str(),
                    rule.created_by_agent,
                    trigger,
                    actions,
                    rule.created_at,
                ],
            )?;
            Ok(rule)
        })
    }

    /// The account's rules, oldest first.
    pub fn list_rules(&self, account_id: &str) -> Result<Vec<AutomationRule>, AutomationError> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM automation_rules WHERE account_id = ?1 ORDER BY seq"
            ))?;
            let rows = stmt.query_map([account_id], read_rule)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    pub fn rule(&self, account_id: &str, id: &str) -> Result<AutomationRule, AutomationError> {
        self.db.read(|tx| find_rule(tx, account_id, id))
    }

    /// Replaces a rule's name, trigger and actions; an agent's change sends
    /// an active rule back to `pending`.
    pub fn replace_rule(
        &self,
        account_id: &str,
        id: &str,
        fields: &NewRule,
        by_agent: bool,
    ) -> Result<AutomationRule, AutomationError> {
        let fields = fields.validate()?;
        let now = stamp(self.now());
        let (trigger, actions) = (json(&fields.when)?, json(&fields.then)?);
        self.db.write(|tx| {
            let old = find_rule(tx, account_id, id)?;
            let state = if by_agent && old.state == RuleState::Active {
                RuleState::Pending
            } else {
                old.state
            };
            tx.execute(
                "UPDATE automation_rules SET name = ?2, state = ?3, trigger = ?4, actions = ?5,
                        created_by_agent = created_by_agent OR ?6, updated_at = ?7
                 WHERE id = ?1",
                params![
                    id,
                    fields.name,
                    state.as_str(),
                    trigger,
                    actions,
                    by_agent,
                    now
                ],
            )?;
            find_rule(tx, account_id, id)
        })
    }

    pub fn delete_rule(&self, account_id: &str, id: &str) -> Result<(), AutomationError> {
        self.db.write(|tx| {
            let deleted = tx.execute(
                "DELETE FROM automation_rules WHERE account_id = ?1 AND id = ?2",
                params![account_id, id],
            )?;
            if deleted == 0 {
                return Err(AutomationError::RuleNotFound);
            }
            Ok(())
        })
    }

    /// `pending` → `active`.
    pub fn approve_rule(
        &self,
        account_id: &str,
        id: &str,
    ) -> Result<AutomationRule, AutomationError> {
        self.move_rule(
            account_id,
            id,
            RuleState::Pending,
            RuleState::Active,
            "only a pending rule is approved",
        )
    }

    /// `active` → `paused`.
    pub fn pause_rule(
        &self,
        account_id: &str,
        id: &str,
    ) -> Result<AutomationRule, AutomationError> {
        self.move_rule(
            account_id,
            id,
            RuleState::Active,
            RuleState::Paused,
            "only an active rule is paused",
        )
    }

    /// `paused` → `active`.
    pub fn resume_rule(
        &self,
        account_id: &str,
        id: &str,
    ) -> Result<AutomationRule, AutomationError> {
        self.move_rule(
            account_id,
            id,
            RuleState::Paused,
            RuleState::Active,
            "only a paused rule is resumed",
        )
    }

    fn move_rule(
        &self,
        account_id: &str,
        id: &str,
        from: RuleState,
        to: RuleState,
        message: &'static str,
    ) -> Result<AutomationRule, AutomationError> {
        let now = stamp(self.now());
        self.db.write(|tx| {
            let rule = find_rule(tx, account_id, id)?;
            if rule.state != from {
                return Err(AutomationError::RuleWrongState {
                    state: rule.state.as_str(),
                    message,
                });
            }
            tx.execute(
                "UPDATE automation_rules SET state = ?2, updated_at = ?3 WHERE id = ?1",
                params![id, to.as_str(), now],
            )?;
            find_rule(tx, account_id, id)
        })
    }

    /// Whether the account has an active rule of one of these trigger
    /// `kinds`, so an event nobody waits for costs no further reading.
    pub fn watches(&self, account_id: &str, kinds: &[&str]) -> Result<bool, AutomationError> {
        Ok(self
            .list_rules(account_id)?
            .iter()
            .any(|rule| rule.state == RuleState::Active && kinds.contains(&rule.when.kind())))
    }

    /// Every firing whose session has yet to end, with its account.
    pub fn started_firings(&self) -> Result<Vec<(String, RuleFiring)>, AutomationError> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare_cached(&format!(
                "SELECT {FIRING_COLUMNS}, account_id FROM rule_firings
                 WHERE outcome = 'started' ORDER BY seq"
            ))?;
            let rows = stmt.query_map([], |r| Ok((r.get(10)?, read_firing(r)?)))?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    /// The account's active rules that `event` fires, never the rule whose
    /// own action caused it.
    pub fn rules_for(
        &self,
        account_id: &str,
        event: &Event,
    ) -> Result<Vec<AutomationRule>, AutomationError> {
        let caused_by = event.caused_by();
        Ok(self
            .list_rules(account_id)?
            .into_iter()
            .filter(|rule| {
                rule.state == RuleState::Active
                    && caused_by != Some(rule.id.as_str())
                    && event.matches(&rule.when)
            })
            .collect())
    }

    /// Records that `rule` fires on `event`, or, at its hourly cap, that it
    /// skipped it.
    pub fn begin_firing(
        &self,
        rule: &AutomationRule,
        event: &Event,
    ) -> Result<Begun, AutomationError> {
        let now = self.now();
        let hour_ago = stamp(now - SignedDuration::from_hours(1));
        let at = stamp(now);
        let item_id = event.item().map(|item| item.item_id.clone());
        self.db.write(|tx| {
            let (acted, skipped): (u32, u32) = tx.query_row(
                "SELECT count(*) FILTER (WHERE outcome <> 'skipped'),
                        count(*) FILTER (WHERE outcome = 'skipped')
                 FROM rule_firings WHERE rule_id = ?1 AND at > ?2",
                params![rule.id, hour_ago],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            let capped = acted >= MAX_FIRINGS_PER_HOUR;
            let firing = RuleFiring {
                id: store::new_id(),
                rule_id: rule.id.clone(),
                at: at.clone(),
                event: event.describe(),
                outcome: if capped {
                    FiringOutcome::Skipped
                } else {
                    FiringOutcome::Done
                },
                reason: capped.then(|| {
                    format!("the rule fired {MAX_FIRINGS_PER_HOUR} times within the hour")
                }),
                session_id: None,
                run_id: None,
                item_id,
                follow_up: None,
            };
            tx.execute(
                &format!(
                    "INSERT INTO rule_firings (account_id, {FIRING_COLUMNS})
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, NULL, NULL, ?8, NULL)"
                ),
                params![
                    rule.account_id,
                    firing.id,
                    firing.rule_id,
                    firing.at,
                    firing.event,
                    firing.outcome.as_str(),
                    firing.reason,
                    firing.item_id,
                ],
            )?;
            // The oldest firings go, past what a rule keeps; a firing whose
            // session runs stays until it ends.
            tx.execute(
                "DELETE FROM rule_firings WHERE rule_id = ?1 AND outcome <> 'started'
                   AND seq < (SELECT seq FROM rule_firings WHERE rule_id = ?1
                              ORDER BY seq DESC LIMIT 1 OFFSET ?2)",
                params![rule.id, FIRINGS_KEPT - 1],
            )?;
            if capped {
                return Ok(Begun::Capped {
                    first: skipped == 0,
                });
            }
            tx.execute(
                "UPDATE automation_rules SET last_fired_at = ?2 WHERE id = ?1",
                params![rule.id, at],
            )?;
            Ok(Begun::Act(Box::new(firing)))
        })
    }

    /// Records how a firing's actions went: `started` with the session an
    /// action started (and how its item follows it), else done or failed.
    pub fn settle_firing(
        &self,
        firing_id: &str,
        outcome: FiringOutcome,
        reason: Option<&str>,
        started: Option<(&str, &str, Option<&ItemFollowUp>)>,
    ) -> Result<(), AutomationError> {
        let (session_id, run_id, follow_up) = match started {
            Some((session, run, follow)) => {
                (Some(session), Some(run), follow.map(json).transpose()?)
            }
            None => (None, None, None),
        };
        self.db.write(|tx| {
            tx.execute(
                "UPDATE rule_firings SET outcome = ?2, reason = ?3,
                        session_id = coalesce(?4, session_id), run_id = coalesce(?5, run_id),
                        follow_up = coalesce(?6, follow_up)
                 WHERE id = ?1",
                params![
                    firing_id,
                    outcome.as_str(),
                    reason,
                    session_id,
                    run_id,
                    follow_up
                ],
            )?;
            Ok(())
        })
    }

    /// Ends a `started` firing as its session ends; false when it had
    /// ended already (the session's end is seen twice: as it happens, and
    /// by the firing that started a session quicker than it was recorded).
    pub fn end_firing(
        &self,
        firing_id: &str,
        outcome: FiringOutcome,
        reason: Option<&str>,
    ) -> Result<bool, AutomationError> {
        self.db.write(|tx| {
            Ok(tx.execute(
                "UPDATE rule_firings SET outcome = ?2, reason = ?3
                 WHERE id = ?1 AND outcome = 'started'",
                params![firing_id, outcome.as_str(), reason],
            )? == 1)
        })
    }

    /// The firing whose action started `session_id`, if one did.
    pub fn firing_for_session(
        &self,
        session_id: &str,
    ) -> Result<Option<(String, RuleFiring)>, AutomationError> {
        self.db.read(|tx| {
            Ok(tx
                .prepare_cached(&format!(
                    "SELECT {FIRING_COLUMNS}, account_id FROM rule_firings WHERE session_id = ?1"
                ))?
                .query_row([session_id], |r| Ok((r.get(10)?, read_firing(r)?)))
                .optional()?)
        })
    }

    /// A rule's latest firings, newest first.
    pub fn firings(
        &self,
        account_id: &str,
        rule_id: &str,
        limit: u32,
    ) -> Result<Vec<RuleFiring>, AutomationError> {
        self.db.read(|tx| {
            find_rule(tx, account_id, rule_id)?;
            let mut stmt = tx.prepare_cached(&format!(
                "SELECT {FIRING_COLUMNS} FROM rule_firings WHERE rule_id = ?1
                 ORDER BY seq DESC LIMIT ?2"
            ))?;
            let rows = stmt.query_map(params![rule_id, limit], read_firing)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }
}

fn json<T: serde::Serialize>(value: &T) -> Result<String, AutomationError> {
    serde_json::to_string(value).map_err(|_| AutomationError::Corrupt("rule"))
}

fn find_rule(
    tx: &Transaction,
    account_id: &str,
    id: &str,
) -> Result<AutomationRule, AutomationError> {
    tx.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM automation_rules WHERE account_id = ?1 AND id = ?2"
    ))?
    .query_row(params![account_id, id], read_rule)
    .optional()?
    .ok_or(AutomationError::RuleNotFound)
}

fn parse_json<T: serde::de::DeserializeOwned>(index: usize, text: &str) -> rusqlite::Result<T> {
    serde_json::from_str(text)
        .map_err(|e| rusqlite::Error::FromSqlConversionFailure(index, Type::Text, Box::new(e)))
}

fn bad_text(index: usize, what: &str) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(
        index,
        Type::Text,
        format!("an unknown {what}").into(),
    )
}

fn read_rule(r: &Row) -> rusqlite::Result<AutomationRule> {
    let state: String = r.get(3)?;
    let trigger: String = r.get(5)?;
    let actions: String = r.get(6)?;
    Ok(AutomationRule {
        id: r.get(0)?,
        account_id: r.get(1)?,
        name: r.get(2)?,
        state: RuleState::parse(&state).ok_or_else(|| bad_text(3, "rule state"))?,
        created_by_agent: r.get(4)?,
        when: parse_json(5, &trigger)?,
        then: parse_json(6, &actions)?,
        last_fired_at: r.get(7)?,
        created_at: r.get(8)?,
        updated_at: r.get(9)?,
    })
}

fn read_firing(r: &Row) -> rusqlite::Result<RuleFiring> {
    let outcome: String = r.get(4)?;
    let follow_up: Option<String> = r.get(9)?;
    Ok(RuleFiring {
        id: r.get(0)?,
        rule_id: r.get(1)?,
        at: r.get(2)?,
        event: r.get(3)?,
        outcome: FiringOutcome::parse(&outcome).ok_or_else(|| bad_text(4, "firing outcome"))?,
        reason: r.get(5)?,
        session_id: r.get(6)?,
        run_id: r.get(7)?,
        item_id: r.get(8)?,
        follow_up: follow_up.map(|text| parse_json(9, &text)).transpose()?,
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;

    use super::*;
    use crate::trigger::{Cause, ItemFacts};

    fn automations() -> (tempfile::TempDir, Arc<clock::ManualClock>, Automations) {
        let dir = tempfile::tempdir().unwrap();
        let db = Arc::new(store::Db::open(&dir.path().join("db.sqlite")).unwrap());
        db.migrate(crate::MIGRATIONS).unwrap();
        db.migrate(RULE_MIGRATIONS).unwrap();
        let clock = Arc::new(clock::ManualClock::new(
            time::macros::datetime!(2026-01-05 08:00 UTC),
        ));
        let automations = Automations::new(db, clock.clone());
        (dir, clock, automations)
    }

    fn ready_rule() -> NewRule {
        serde_json::from_value(json!({
            "name": "Agent loop",
            "when": {"kind": "item_status", "boardId": "b1", "status": "Ready for agent"},
            "then": [{"kind": "inbox", "title": "Ready"}],
        }))
        .unwrap()
    }

    fn moved(cause: Option<&str>) -> Event {
        Event::ItemStatus {
            item: ItemFacts {
                board_id: "b1".into(),
                item_id: "i1".into(),
                name: "Fix".into(),
                group_id: "g".into(),
                values: serde_json::Map::new(),
            },
            column: "status".into(),
            status: "Ready for agent".into(),
            cause: Cause {
                rule_id: cause.map(str::to_owned),
            },
        }
    }

    #[test]
    fn an_agents_rule_waits_for_approval_and_a_users_acts_at_once() {
        let (_dir, _clock, automations) = automations();
        let agents = automations.create_rule("me", &ready_rule(), true).unwrap();
        assert_eq!(agents.state, RuleState::Pending);
        assert!(!automations.watches("me", &["item_status"]).unwrap());
        assert!(
            automations
                .rules_for("me", &moved(None))
                .unwrap()
                .is_empty()
        );
        let approved = automations.approve_rule("me", &agents.id).unwrap();
        assert_eq!(approved.state, RuleState::Active);
        assert!(automations.watches("me", &["item_status"]).unwrap());
        assert!(
            !automations
                .watches("me", &["webhook", "session_end"])
                .unwrap()
        );
        assert!(matches!(
            automations.approve_rule("me", &agents.id),
            Err(AutomationError::RuleWrongState { .. })
        ));
        let users = automations.create_rule("me", &ready_rule(), false).unwrap();
        assert_eq!(users.state, RuleState::Active);
        assert_eq!(automations.rules_for("me", &moved(None)).unwrap().len(), 2);
        assert!(
            automations
                .rules_for("you", &moved(None))
                .unwrap()
                .is_empty()
        );
        // An agent's change to an active rule needs approving again.
        let changed = automations
            .replace_rule("me", &users.id, &ready_rule(), true)
            .unwrap();
        assert_eq!(changed.state, RuleState::Pending);
        assert!(changed.created_by_agent);
    }

    #[test]
    fn a_rules_own_action_never_fires_it() {
        let (_dir, _clock, automations) = automations();
        let rule = automations.create_rule("me", &ready_rule(), false).unwrap();
        let other = automations.create_rule("me", &ready_rule(), false).unwrap();
        let fired: Vec<String> = automations
            .rules_for("me", &moved(Some(&rule.id)))
            .unwrap()
            .into_iter()
            .map(|r| r.id)
            .collect();
        assert_eq!(fired, [other.id]);
    }

    #[test]
    fn a_rule_is_capped_per_hour_and_says_so_once() {
        let (_dir, clock, automations) = automations();
        let rule = automations.create_rule("me", &ready_rule(), false).unwrap();
        for _ in 0..MAX_FIRINGS_PER_HOUR {
            assert!(matches!(
                automations.begin_firing(&rule, &moved(None)).unwrap(),
                Begun::Act(_)
            ));
        }
        assert_eq!(
            automations.begin_firing(&rule, &moved(None)).unwrap(),
            Begun::Capped { first: true }
        );
        assert_eq!(
            automations.begin_firing(&rule, &moved(None)).unwrap(),
            Begun::Capped { first: false }
        );
        let firings = automations.firings("me", &rule.id, 5).unwrap();
        assert_eq!(firings[0].outcome, FiringOutcome::Skipped);
        clock.advance(time::Duration::minutes(61));
        assert!(matches!(
            automations.begin_firing(&rule, &moved(None)).unwrap(),
            Begun::Act(_)
        ));
    }

    #[test]
    fn a_rule_keeps_its_latest_firings_and_every_running_one() {
        let (_dir, _clock, automations) = automations();
        let rule = automations.create_rule("me", &ready_rule(), false).unwrap();
        let Begun::Act(first) = automations.begin_firing(&rule, &moved(None)).unwrap() else {
            panic!("capped at once");
        };
        automations
            .settle_firing(
                &first.id,
                FiringOutcome::Started,
                None,
                Some(("s1", "run1", None)),
            )
            .unwrap();
        for _ in 0..FIRINGS_KEPT + 20 {
            automations.begin_firing(&rule, &moved(None)).unwrap();
        }
        let kept = automations
            .firings("me", &rule.id, FIRINGS_KEPT + 100)
            .unwrap();
        assert_eq!(kept.len(), FIRINGS_KEPT as usize + 1);
        assert_eq!(kept.last().map(|f| f.id.as_str()), Some(first.id.as_str()));
        let started = automations.started_firings().unwrap();
        assert_eq!(started.len(), 1);
        assert_eq!(started[0].0, "me");
    }

    #[test]
    fn a_firing_follows_its_session() {
        let (_dir, _clock, automations) = automations();
        let rule = automations.create_rule("me", &ready_rule(), false).unwrap();
        let Begun::Act(firing) = automations.begin_firing(&rule, &moved(None)).unwrap() else {
            panic!("capped at once");
        };
        let follow = ItemFollowUp {
            finished_status: Some("Review".into()),
            ..ItemFollowUp::default()
        };
        automations
            .settle_firing(
                &firing.id,
                FiringOutcome::Started,
                None,
                Some(("s1", "run1", Some(&follow))),
            )
            .unwrap();
        let (account, found) = automations.firing_for_session("s1").unwrap().unwrap();
        assert_eq!(account, "me");
        assert_eq!(found.outcome, FiringOutcome::Started);
        assert_eq!(found.item_id.as_deref(), Some("i1"));
        assert_eq!(found.follow_up, Some(follow));
        assert!(automations.firing_for_session("s2").unwrap().is_none());
        automations.delete_rule("me", &rule.id).unwrap();
        assert!(automations.firing_for_session("s1").unwrap().is_none());
    }
}
