//! The cards' rules on figures, and what they keep on a real database.

use std::sync::Arc;

use time::macros::{date, datetime};

use super::*;
use crate::balance::{Spend, forecast, hours_left, run_out_due, under_threshold};
use crate::load::{Crowded, Login, crowded};
use crate::watching::{Recap, last_week_start, step, week_start};
use crate::words::{Reading, WordsError, checked, prompt};

fn login(name: &str, running: u32, limit: Option<u32>) -> Login {
    Login {
        name: name.to_owned(),
        running,
        limit,
    }
}

#[test]
fn a_login_far_busier_and_near_its_limit_is_crowded() {
    let logins = [
        login("primary", 8, Some(10)),
        login("second", 2, Some(10)),
        login("third", 1, None),
    ];
    assert_eq!(
        crowded(&logins),
        Some(Crowded {
            login: "primary".to_owned(),
            running: 8,
            limit: 10,
            suggest: Some("third".to_owned()),
        })
    );
}

#[test]
fn busy_but_not_far_or_not_near_is_no_card() {
    // Near its limit, but the others carry nearly as many.
    assert_eq!(
        crowded(&[login("a", 8, Some(10)), login("b", 5, None)]),
        None
    );
    // Far more, but far from its limit.
    assert_eq!(
        crowded(&[login("a", 6, Some(20)), login("b", 1, None)]),
        None
    );
    // No limit set: never near one.
    assert_eq!(crowded(&[login("a", 9, None), login("b", 0, None)]), None);
    // One login alone has no others to place on.
    assert_eq!(crowded(&[login("a", 10, Some(10))]), None);
    // Two sessions against none is not "far" by the margin.
    assert_eq!(
        crowded(&[login("a", 1, Some(1)), login("b", 0, None)]),
        None
    );
}

#[test]
fn the_suggestion_skips_a_login_at_its_own_limit() {
    let logins = [
        login("a", 4, Some(5)),
        login("b", 1, Some(1)),
        login("c", 2, None),
    ];
    assert_eq!(crowded(&logins).unwrap().suggest.as_deref(), Some("c"));
}

#[test]
fn weeks_start_on_monday_and_steps_are_capped() {
    assert_eq!(week_start(date!(2026 - 11 - 28)), date!(2026 - 11 - 23));
    assert_eq!(week_start(date!(2026 - 11 - 23)), date!(2026 - 11 - 23));
    assert_eq!(
        last_week_start(date!(2026 - 11 - 30)),
        date!(2026 - 11 - 23)
    );
    let now = datetime!(2026-11-28 10:00 UTC);
    let ago = |seconds| now - time::Duration::seconds(seconds);
    assert_eq!(step(Some(ago(61)), ago(600), now), 61);
    assert_eq!(step(Some(ago(3 * 3600)), ago(4 * 3600), now), 120);
    assert_eq!(
        step(Some(ago(60)), ago(20), now),
        20,
        "a page in front since the last sample counts from then"
    );
    assert_eq!(
        step(None, ago(45), now),
        45,
        "the first sample counts from when the page came in front"
    );
    assert_eq!(step(None, ago(600), now), 120);
    assert_eq!(step(Some(now), ago(30), now), 0);
}

#[test]
fn a_recap_sums_its_own_week_only() {
    let days = [
        (date!(2026 - 11 - 22), 9_000),
        (date!(2026 - 11 - 23), 3 * 3600),
        (date!(2026 - 11 - 25), 5 * 3600),
        (date!(2026 - 11 - 29), 2 * 3600),
        (date!(2026 - 11 - 30), 7_000),
    ];
    let recap = Recap::of(date!(2026 - 11 - 23), &days);
    assert_eq!(recap.total_seconds, 10 * 3600);
    assert_eq!(recap.days, 3);
    assert_eq!(recap.busiest_day, "2026-11-25");
    assert!(recap.heavy());
    assert!(recap.body().contains("10.0 hours"), "{}", recap.body());
    assert!(recap.body().contains("Wednesday"), "{}", recap.body());
    assert!(!Recap::of(date!(2026 - 11 - 30), &days).heavy());
}

fn spend(since_set_usd: f64, window_usd: f64, hours: i64) -> Spend {
    Spend {
        since_set_usd,
        window_usd,
        window: time::Duration::hours(hours),
    }
}

#[test]
fn the_forecast_runs_out_at_the_weeks_burn_rate() {
    let now = datetime!(2026-11-28 12:00 UTC);
    let balance = Balance {
        vendor: Vendor::A,
        balance_usd: 50.0,
        set_at: "2026-11-27T12:00:00.000Z".to_owned(),
    };
    // $168 over a week is $1 an hour; $10 spent since, $40 left: 40 hours.
    let f = forecast(Vendor::A, Some(&balance), spend(10.0, 168.0, 168), now);
    assert_eq!(f.remaining_usd, Some(40.0));
    assert!((f.burn_usd_per_hour - 1.0).abs() < 1e-9);
    assert_eq!(f.runs_out_at.as_deref(), Some("2026-11-30T04:00:00.000Z"));
    assert!((hours_left(&f, now).unwrap() - 40.0).abs() < 1e-6);
    assert!(!run_out_due(&f, 24.0, now));
    assert!(run_out_due(&f, 48.0, now));
    assert!(f.recharge_url.starts_with("https://console.anthropic.com/"));

    let idle = forecast(Vendor::A, Some(&balance), spend(0.0, 0.0, 168), now);
    assert_eq!(idle.runs_out_at, None);
    assert!(!run_out_due(&idle, 720.0, now));

    let none = forecast(Vendor::B, None, spend(3.0, 3.0, 168), now);
    assert_eq!(none.remaining_usd, None);
    assert!(!under_threshold(&none, 5.0));

    let b = Balance {
        vendor: Vendor::B,
        balance_usd: 8.0,
        set_at: "2026-11-27T12:00:00.000Z".to_owned(),
    };
    let low = forecast(Vendor::B, Some(&b), spend(4.0, 4.0, 168), now);
    assert!(under_threshold(&low, 5.0));
    assert!(!under_threshold(&low, 4.0));
    assert!(low.recharge_url.starts_with("https://platform.openai.com/"));
}

#[test]
fn the_words_become_a_question_and_its_answer_is_checked() {
    let question = prompt(
        "every weekday at 9 remind me to check the nightly run",
        "2026-11-28 10:00, Saturday",
    )
    .unwrap();
    assert!(question.starts_with("Read this alarm request"));
    assert!(question.ends_with("Request: every weekday at 9 remind me to check the nightly run"));
    assert_eq!(prompt("   ", "x"), Err(WordsError::BadText));
    assert_eq!(prompt(&"a".repeat(301), "x"), Err(WordsError::BadText));

    let reading: Reading = serde_json::from_str(
        r#"{"label": " check the nightly run ", "at": "09:00", "repeat": "weekdays"}"#,
    )
    .unwrap();
    let reading = checked(reading).unwrap();
    assert_eq!(reading.label, "check the nightly run");
    assert_eq!(reading.repeat, Some(alarms::Repeat::Weekdays));
    let empty: Reading = serde_json::from_str(r#"{"label": "", "at": "09:00"}"#).unwrap();
    assert_eq!(checked(empty), Err(WordsError::Unreadable));
}

fn cards() -> (tempfile::TempDir, Cards) {
    let dir = tempfile::tempdir().unwrap();
    let db = store::Db::open(&dir.path().join("db.sqlite")).unwrap();
    db.migrate(MIGRATIONS).unwrap();
    (dir, Cards::new(Arc::new(db)))
}

#[test]
fn a_card_is_made_once_per_account_kind_and_period() {
    let (_dir, cards) = cards();
    assert!(cards.first("a", "recap", "2026-11-23", "t").unwrap());
    assert!(!cards.first("a", "recap", "2026-11-23", "t").unwrap());
    assert!(cards.first("a", "recap", "2026-11-30", "t").unwrap());
    assert!(cards.first("b", "recap", "2026-11-23", "t").unwrap());
}

#[test]
fn watched_seconds_add_up_per_day() {
    let (_dir, cards) = cards();
    cards.add_watching("a", date!(2026 - 11 - 23), 60).unwrap();
    cards.add_watching("a", date!(2026 - 11 - 23), 60).unwrap();
    cards.add_watching("a", date!(2026 - 11 - 24), 30).unwrap();
    cards.add_watching("b", date!(2026 - 11 - 24), 30).unwrap();
    cards.add_watching("a", date!(2026 - 11 - 24), 0).unwrap();
    assert_eq!(
        cards
            .watching("a", date!(2026 - 11 - 23), date!(2026 - 11 - 29))
            .unwrap(),
        vec![(date!(2026 - 11 - 23), 120), (date!(2026 - 11 - 24), 30)]
    );
}

#[test]
fn a_balance_is_kept_replaced_and_cleared() {
    let (_dir, cards) = cards();
    assert_eq!(cards.balance("a", Vendor::A).unwrap(), None);
    cards.set_balance("a", Vendor::A, 20.0, "t1").unwrap();
    cards.set_balance("a", Vendor::A, 25.0, "t2").unwrap();
    let kept = cards.balance("a", Vendor::A).unwrap().unwrap();
    assert_eq!((kept.balance_usd, kept.set_at.as_str()), (25.0, "t2"));
    assert_eq!(cards.balance("a", Vendor::B).unwrap(), None);
    assert!(matches!(
        cards.set_balance("a", Vendor::B, -1.0, "t"),
        Err(CardsError::InvalidBalance)
    ));
    assert!(matches!(
        cards.set_balance("a", Vendor::B, f64::NAN, "t"),
        Err(CardsError::InvalidBalance)
    ));
    assert_eq!(
        cards.accounts_with_balances().unwrap(),
        vec!["a".to_owned()]
    );
    cards.clear_balance("a", Vendor::A).unwrap();
    assert_eq!(cards.balance("a", Vendor::A).unwrap(), None);
}
