//! The weekly summary on the real Claude Code CLI and a manual clock: due on
//! Monday at its hour, written once from the week's sessions and tasks,
//! caught up once on the day the server returns after it was down at the
//! hour (the same Monday or a later day), kept when the setting goes off;
//! and the feature's daily cap stopping the next call.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use standins::{Api, Message, Usage};

use crate::rig::Rig;

const WEEKLY: &str = app::summaries::WEEKLY_PHRASE;

fn ms(at: &str) -> String {
    let at: jiff::Timestamp = at.parse().unwrap();
    at.as_millisecond().to_string()
}

fn summaries(rig: &Rig) -> Vec<Value> {
    rig.server.call("GET", "/summaries", None).json()["summaries"]
        .as_array()
        .unwrap()
        .clone()
}

fn wait_summaries(rig: &Rig, count: usize) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let found = summaries(rig);
        if found.len() >= count {
            return found;
        }
        assert!(
            Instant::now() < deadline,
            "{count} summaries never came: {found:?}\ncalls: {}",
            rig.server.call("GET", "/utility/calls", None).text()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The inbox's digest rows, newest first, start with these titles.
fn assert_digest_titles(rig: &Rig, starts: &[&str]) {
    let inbox = rig
        .server
        .call("GET", "/inbox?category=digest", None)
        .json();
    let titles: Vec<&str> = inbox
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles.len(), starts.len(), "{inbox}");
    for (title, start) in titles.iter().zip(starts) {
        assert!(title.starts_with(start), "{inbox}");
    }
}

fn settle() {
    std::thread::sleep(Duration::from_millis(1500));
}

fn weekly_settings(rig: &Rig) {
    rig.server
        .set_setting("pmInboxQuietHoursTimeZone", json!("UTC"));
    rig.server
        .set_setting("weeklySummaryScheduleHour", json!(8));
    rig.server.set_setting("weeklySummaryEnabled", json!(true));
}

#[test]
fn the_weekly_summary_comes_on_monday_at_its_hour_and_once_after_a_missed_monday() {
    // Sunday evening.
    let start = ms("2026-11-29T23:00:00Z");
    let Some(mut rig) = Rig::start(Api::Anthropic, &["--manual-clock-start-ms", &start]) else {
        return;
    };
    weekly_settings(&rig);
    rig.standin
        .answer(WEEKLY, Message::text("- One session fixed the login test."));
    rig.standin
        .answer(app::titles::NAME_PHRASE, Message::text("Login test repair"));
    rig.standin.push(Message::text("Done."));
    let id = rig.spawn("fix the login test");
    rig.wait_turn(&id, 1);
    let task = rig.server.call(
        "POST",
        "/tasks",
        Some(&json!({"text": "Ship the retry test"})),
    );
    assert_eq!(task.status, 201, "{}", task.text());
    let done = rig.server.call(
        "PATCH",
        &format!("/tasks/{}", task.json()["id"].as_str().unwrap()),
        Some(&json!({"state": "done"})),
    );
    assert_eq!(done.status, 200, "{}", done.text());
    // Monday 07:59: not yet.
    rig.advance_clock(8 * 3_600_000 + 59 * 60_000);
    settle();
    assert!(summaries(&rig).is_empty());
    // 08:00: the summary of the week before.
    rig.advance_clock(60_000);
    let kept = wait_summaries(&rig, 1);
    assert_eq!(kept[0]["kind"], "weekly");
    assert_eq!(kept[0]["periodEnd"], "2026-11-30T08:00:00.000Z");
    assert_eq!(kept[0]["periodStart"], "2026-11-23T08:00:00.000Z");
    assert_eq!(kept[0]["text"], "- One session fixed the login test.");
    let asked = rig.standin.answered(WEEKLY);
    assert_eq!(asked.len(), 1);
    let facts = asked[0].body_text();
    assert!(
        facts.contains("Login test repair"),
        "the week's session is not in {facts}"
    );
    assert!(
        facts.contains("Tasks: 1 done, 1 added") && facts.contains("Done: \\\"Ship the retry test"),
        "the week's tasks are not in {facts}"
    );
    assert_digest_titles(&rig, &["Weekly summary"]);
    // Later that Monday: nothing more.
    rig.advance_clock(3 * 3_600_000);
    settle();
    assert_eq!(summaries(&rig).len(), 1);
    assert_eq!(rig.standin.answered(WEEKLY).len(), 1);

    // The next Monday the server was down at 08:00 and is back at 10:00.
    rig.restart_with(&["--manual-clock-start-ms", &ms("2026-12-07T10:00:00Z")]);
    let kept = wait_summaries(&rig, 2);
    assert_eq!(kept[0]["periodEnd"], "2026-12-07T08:00:00.000Z");
    settle();
    assert_eq!(rig.standin.answered(WEEKLY).len(), 2);
    // Down over the whole next Monday, back on the Tuesday: that week is
    // written on the day the server returns, once.
    rig.restart_with(&["--manual-clock-start-ms", &ms("2026-12-15T10:00:00Z")]);
    let kept = wait_summaries(&rig, 3);
    assert_eq!(kept[0]["periodEnd"], "2026-12-14T08:00:00.000Z");
    rig.restart_with(&["--manual-clock-start-ms", &ms("2026-12-15T12:00:00Z")]);
    settle();
    assert_eq!(summaries(&rig).len(), 3);
    assert_eq!(rig.standin.answered(WEEKLY).len(), 3);
    // Off: what was written stays.
    rig.server.set_setting("weeklySummaryEnabled", json!(false));
    assert_eq!(summaries(&rig).len(), 3);
}

const ARCHIVE: &str = app::summaries::ARCHIVE_PHRASE;

#[test]
fn the_archive_digest_tells_of_the_sessions_archived_the_day_before() {
    // Monday noon: Sunday's digest is due and had nothing archived.
    let start = ms("2026-11-30T12:00:00Z");
    let Some(rig) = Rig::start(Api::Anthropic, &["--manual-clock-start-ms", &start]) else {
        return;
    };
    rig.server
        .set_setting("pmInboxQuietHoursTimeZone", json!("UTC"));
    rig.standin
        .answer(ARCHIVE, Message::text("- The cache fix landed."));
    rig.standin.answer(
        app::titles::NAME_PHRASE,
        Message::text("Cache eviction fix"),
    );
    rig.standin.push(Message::text("Fixed the cache."));
    let id = rig.spawn("fix the cache eviction");
    rig.wait_turn(&id, 1);
    let archived = rig
        .server
        .call("POST", &format!("/sessions/{id}/archive"), None);
    assert_eq!(archived.status, 200, "{}", archived.text());
    // Off: nothing is asked, whatever was archived.
    rig.advance_clock(22 * 3_600_000);
    settle();
    assert!(summaries(&rig).is_empty());

    rig.server
        .set_setting("archiveDigestCadence", json!("daily"));
    // Tuesday 10:00, past the digest's 09:00: Monday's archive is told.
    let kept = wait_summaries(&rig, 1);
    assert_eq!(kept[0]["kind"], "archive_daily");
    assert_eq!(kept[0]["periodStart"], "2026-11-30T00:00:00.000Z");
    assert_eq!(kept[0]["periodEnd"], "2026-12-01T00:00:00.000Z");
    assert_eq!(kept[0]["text"], "- The cache fix landed.");
    let asked = rig.standin.answered(ARCHIVE);
    assert_eq!(asked.len(), 1);
    assert!(asked[0].body_text().contains("Cache eviction fix"));
    assert_digest_titles(&rig, &["Archive digest"]);
    // Wednesday 09:00: nothing was archived on Tuesday, so nothing is
    // asked and nothing posted.
    rig.advance_clock(23 * 3_600_000);
    settle();
    assert_eq!(rig.standin.answered(ARCHIVE).len(), 1);
    assert_digest_titles(&rig, &["Archive digest"]);
}

#[test]
fn at_the_daily_cap_the_next_call_is_not_made_and_is_recorded_capped() {
    let start = ms("2026-11-30T07:30:00Z");
    let Some(rig) = Rig::start(Api::Anthropic, &["--manual-clock-start-ms", &start]) else {
        return;
    };
    weekly_settings(&rig);
    rig.server
        .set_setting("weeklySummaryDailyCostCapUsd", json!(0.05));
    // A second account: each account's summary is a call of the same feature.
    let second = rig
        .server
        .call("POST", "/accounts", Some(&json!({"name": "second"})));
    assert_eq!(second.status, 201, "{}", second.text());
    // One answer that costs more than the cap.
    rig.standin.answer(
        WEEKLY,
        Message::text("- A quiet week.").usage(Usage {
            input: 200_000,
            output: 100,
            ..Usage::default()
        }),
    );
    rig.advance_clock(30 * 60_000);
    let deadline = Instant::now() + Duration::from_secs(60);
    let calls = loop {
        let calls = rig
            .server
            .call("GET", "/utility/calls?feature=weekly_summary", None)
            .json()["calls"]
            .as_array()
            .unwrap()
            .clone();
        if calls.len() >= 2 {
            break calls;
        }
        assert!(Instant::now() < deadline, "{calls:?}");
        std::thread::sleep(Duration::from_millis(50));
    };
    let outcomes: Vec<&str> = calls
        .iter()
        .map(|c| c["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(outcomes, ["capped", "ok"], "{calls:?}");
    assert!(calls[1]["costUsd"].as_f64().unwrap() > 0.05, "{calls:?}");
    assert_eq!(rig.standin.answered(WEEKLY).len(), 1);
    // Paused for the day: a quarter hour later it is not asked again.
    rig.advance_clock(20 * 60_000);
    settle();
    assert_eq!(rig.standin.answered(WEEKLY).len(), 1);
    let spend = rig.server.call("GET", "/utility/spend", None).json();
    let weekly = spend["features"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["feature"] == "weekly_summary")
        .unwrap()
        .clone();
    assert_eq!(weekly["capUsd"], 0.05);
    assert_eq!(weekly["callsToday"], 1);
}

#[test]
fn the_weekly_friction_analysis_reads_the_weeks_findings_once() {
    // Monday, early.
    let start = ms("2026-11-30T06:00:00Z");
    let Some(rig) = Rig::start(Api::Anthropic, &["--manual-clock-start-ms", &start]) else {
        return;
    };
    rig.server
        .set_setting("pmInboxQuietHoursTimeZone", json!("UTC"));
    rig.server
        .set_setting("sessionForensicsScanIntervalHours", json!(1));
    rig.server
        .set_setting("sessionForensicsAutoWeeklyEnabled", json!(true));
    rig.server.set_setting("sessionTitleStyle", json!("custom"));
    rig.standin.answer(
        app::forensics::DEEP_PHRASE,
        Message::text("- Builds are stopped mid-turn: give them a time limit."),
    );
    stopped_without_a_final_message(&rig);
    // 07:00: the scan finds it. 08:00: the analysis.
    rig.advance_clock(3_600_000);
    let deadline = Instant::now() + Duration::from_secs(30);
    while rig.server.call("GET", "/forensics", None).json()["findings"]
        .as_array()
        .unwrap()
        .is_empty()
    {
        assert!(Instant::now() < deadline, "no finding");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        rig.standin.answered(app::forensics::DEEP_PHRASE).is_empty(),
        "before Monday 08:00"
    );
    rig.advance_clock(3_600_000);
    let kept = wait_summaries(&rig, 1);
    assert_eq!(kept[0]["kind"], "forensics_weekly");
    assert_eq!(
        kept[0]["text"],
        "- Builds are stopped mid-turn: give them a time limit."
    );
    let asked = rig.standin.answered(app::forensics::DEEP_PHRASE);
    assert_eq!(asked.len(), 1);
    assert!(
        asked[0].body_text().contains("no_final_message"),
        "{}",
        asked[0].body_text()
    );
    let calls = rig
        .server
        .call("GET", "/utility/calls?feature=forensics_deep", None)
        .json();
    assert_eq!(calls["calls"][0]["outcome"], "ok", "{calls}");
    rig.advance_clock(3_600_000);
    settle();
    assert_eq!(rig.standin.answered(app::forensics::DEEP_PHRASE).len(), 1);
}

#[test]
fn triage_sessions_stop_starting_at_their_rolling_cap() {
    let Some(rig) = Rig::start(Api::Anthropic, &["--manual-clock"]) else {
        return;
    };
    rig.server
        .set_setting("sessionForensicsScanIntervalHours", json!(1));
    rig.server
        .set_setting("frictionTriageCostCapUsd", json!(0.05));
    rig.server.set_setting("sessionTitleStyle", json!("custom"));
    let id = stopped_without_a_final_message(&rig);
    rig.advance_clock(3_600_000);
    let deadline = Instant::now() + Duration::from_secs(30);
    let finding = loop {
        let report = rig.server.call("GET", "/forensics", None).json();
        if let Some(finding) = report["findings"].as_array().unwrap().first() {
            break finding["id"].as_str().unwrap().to_owned();
        }
        assert!(Instant::now() < deadline, "no finding");
        std::thread::sleep(Duration::from_millis(50));
    };
    // The first triage runs on Claude Code in the session's folder and costs more than the cap.
    rig.standin.push(
        Message::text("Found it: the build waits on stdin.").usage(Usage {
            input: 200_000,
            output: 100,
            ..Usage::default()
        }),
    );
    let started = rig.server.call(
        "POST",
        &format!("/forensics/findings/{finding}/triage"),
        None,
    );
    assert_eq!(started.status, 201, "{}", started.text());
    let triage = started.json();
    assert_eq!(triage["engine"], "primary");
    assert_eq!(triage["cwd"], rig.work.path().to_str().unwrap());
    let prompt = triage["prompt"].as_str().unwrap();
    assert!(
        prompt.contains(&id) && prompt.contains("without a final message"),
        "{prompt}"
    );
    let triage_id = triage["id"].as_str().unwrap().to_owned();
    let done = rig.wait_turn(&triage_id, 1);
    assert!(done["costUsd"].as_f64().unwrap() > 0.05, "{done}");
    let refused = rig.server.call(
        "POST",
        &format!("/forensics/findings/{finding}/triage"),
        None,
    );
    assert_eq!(
        (refused.status, refused.json()["error"]["code"].as_str()),
        (429, Some("triage_cap_reached")),
        "{}",
        refused.text()
    );
    // A day later the spend has rolled out of the window.
    rig.advance_clock(25 * 3_600_000);
    rig.standin.push(Message::text("Nothing more."));
    let again = rig.server.call(
        "POST",
        &format!("/forensics/findings/{finding}/triage"),
        None,
    );
    assert_eq!(again.status, 201, "{}", again.text());
    let missing = rig
        .server
        .call("POST", "/forensics/findings/nope/triage", None);
    assert_eq!(missing.status, 404);
}

/// A session of a second engine (a `command` one, beside Claude Code) that
/// works until it is stopped: it ends without a final message.
fn stopped_without_a_final_message(rig: &Rig) -> String {
    let toml = rig.server.data_dir().join("engines.toml");
    let mut engines = std::fs::read_to_string(&toml).unwrap();
    engines.push_str(
        "\n[engines.slow]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"echo building; sleep 600\"]\n",
    );
    std::fs::write(&toml, engines).unwrap();
    let body = json!({"engine": "slow", "prompt": "build it", "cwd": rig.work.path()});
    let id = rig.server.call("POST", "/sessions", Some(&body)).json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    rig.server.wait_for_status(&id, "running");
    rig.server
        .call("POST", &format!("/sessions/{id}/stop"), None);
    id
}
