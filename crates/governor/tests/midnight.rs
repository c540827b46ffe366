//! The governor's budgets by the local day, on a real database with a
//! manual clock in Europe/Berlin: at the dollar cap, a session whose engine
//! reports dollars waits until local midnight, and then comes back; the
//! per-session daily revive budget starts over at the same midnight.

use std::sync::Arc;

use clock::{Clock, ManualClock};
use governor::{Governor, Rules, SkipReason};
use store::rusqlite::params;
use time::macros::datetime;

struct NoTokens;

impl sessions::TokenIssuer for NoTokens {
    fn mint(&self, _: &str, _: &str, _: sessions::TokenAccess) -> String {
        String::new()
    }
    fn revoke(&self, _: &str) {}
}

fn rules() -> Rules {
    Rules {
        target: 5,
        batch: 5,
        cooldown: time::Duration::minutes(1),
        max_age: time::Duration::hours(48),
        max_per_day: 1,
        spend_cap_usd: 5.0,
        include_paused: false,
        reopen_closed: false,
    }
}

#[tokio::test]
async fn the_dollar_cap_and_the_daily_budget_start_over_at_local_midnight() {
    let dir = tempfile::tempdir().unwrap();
    let db = Arc::new(store::Db::open(&dir.path().join("db.sqlite")).unwrap());
    db.migrate(governor::MIGRATIONS).unwrap();
    // 23:30 in Berlin (UTC+1 in November).
    let clock = Arc::new(ManualClock::new(datetime!(2026-11-22 22:30 UTC)));
    let supervisor = sessions::Supervisor::start(
        db.clone(),
        clock.clone(),
        dir.path().to_owned(),
        None,
        Arc::new(NoTokens),
        sessions::Hooks::default(),
        false,
    )
    .await
    .unwrap();
    let now = clock::timestamp(clock.now());
    let earlier = clock::timestamp(clock.now() - time::Duration::hours(1));
    db.write(|tx| {
        for (id, cost) in [("paid", Some(5.0)), ("free", None)] {
            tx.execute(
                "INSERT INTO sessions (id, account_id, engine, engine_kind, engine_spec, cwd, prompt,
                   status, agent_driven, max_dollars, max_turns, created_at, updated_at,
                   last_turn_at, reports_cost)
                 VALUES (?1, 'a', 'none', 'command', '{\"kind\":\"command\",\"command\":[\"/bin/false\"]}',
                   '/tmp', 'p', 'interrupted', 0, 0, 0, ?2, ?2, ?2, ?3)",
                params![id, earlier, cost.is_some()],
            )?;
            // Today's revive of it already cost what `cost` says.
            tx.execute(
                "INSERT INTO session_turns (session_id, turn, kind, input, status, started_at, cost_usd)
                 VALUES (?1, 1, 'revive', 'p', 'done', ?2, ?3)",
                params![id, now, cost],
            )?;
        }
        Ok::<_, store::StoreError>(())
    })
    .unwrap();
    let zone = jiff::tz::TimeZone::get("Europe/Berlin").unwrap();
    let governor = Governor::new(db, clock.clone(), supervisor, zone);

    let check = governor.check(&rules()).await.unwrap().unwrap();
    assert_eq!(check.spent_today_usd, 5.0);
    assert_eq!(
        check.revived,
        ["free"],
        "a session that costs no dollars is not held by the cap"
    );
    let held: Vec<(&str, SkipReason)> = check
        .skipped
        .iter()
        .map(|s| (s.id.as_str(), s.reason))
        .collect();
    assert_eq!(held, [("paid", SkipReason::SpendCap)]);

    // "free" ran (its engine fails at once) and is cut off again.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while governor_status(&db_of(&dir), "free") != "failed" {
        assert!(
            std::time::Instant::now() < deadline,
            "the revived session never ended"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    db_of(&dir)
        .write(|tx| {
            tx.execute(
                "UPDATE sessions SET status = 'interrupted' WHERE id = 'free'",
                [],
            )
        })
        .unwrap();

    // Still the same local day at 23:59: the cap holds "paid", and "free"
    // had its one revive of the day.
    clock.advance(time::Duration::minutes(29));
    let check = governor.check(&rules()).await.unwrap().unwrap();
    assert!(check.revived.is_empty(), "{check:?}");
    let held: Vec<(&str, SkipReason)> = check
        .skipped
        .iter()
        .map(|s| (s.id.as_str(), s.reason))
        .collect();
    assert!(held.contains(&("free", SkipReason::DailyLimit)), "{held:?}");

    // Past local midnight (23:00 UTC): a new day, a new budget.
    clock.advance(time::Duration::minutes(2));
    let check = governor.check(&rules()).await.unwrap().unwrap();
    assert_eq!(check.spent_today_usd, 0.0);
    assert!(check.revived.contains(&"paid".to_owned()), "{check:?}");
    assert!(check.revived.contains(&"free".to_owned()), "{check:?}");
}

fn db_of(dir: &tempfile::TempDir) -> store::Db {
    store::Db::open(&dir.path().join("db.sqlite")).unwrap()
}

fn governor_status(db: &store::Db, id: &str) -> String {
    db.read(|tx| {
        tx.query_row("SELECT status FROM sessions WHERE id = ?1", [id], |r| {
            r.get::<_, String>(0)
        })
    })
    .unwrap()
}
