//! The utility model on the real Claude Code CLI: session titles in each
//! style, asked of the stand-in API (which tells a title question from the
//! conversation by its opening phrase), the refresh cadence, and a user's
//! title that nothing replaces; every call on record.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use standins::{Api, Message, Usage};

use crate::rig::Rig;

const NAME: &str = app::titles::NAME_PHRASE;
const RETITLE: &str = app::titles::RETITLE_PHRASE;

fn answer(text: &str) -> Message {
    Message::text(text).usage(Usage {
        input: 400,
        output: 8,
        ..Usage::default()
    })
}

/// Waits until session `id`'s title is `title`, and returns the session.
fn wait_title(rig: &Rig, id: &str, title: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let session = rig
            .server
            .call("GET", &format!("/sessions/{id}"), None)
            .json();
        if session["title"] == title {
            return session;
        }
        assert!(
            Instant::now() < deadline,
            "the title never became {title}: {session}\ncalls: {}",
            rig.server.call("GET", "/utility/calls", None).text()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn title_calls(rig: &Rig) -> Vec<Value> {
    rig.server
        .call("GET", "/utility/calls?feature=title", None)
        .json()["calls"]
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn a_new_session_is_named_from_its_prompt_and_the_call_is_recorded() {
    let Some(rig) = Rig::start(Api::Anthropic, &[]) else {
        return;
    };
    rig.server
        .set_setting("initialTitleModel", json!("claude-haiku-4-5"));
    rig.standin.answer(NAME, answer("Fix the flaky login test"));
    rig.standin.push(Message::text("Done."));
    let id = rig.spawn("the login test fails one run in five, find out why and fix it");
    let session = wait_title(&rig, &id, "Fix the flaky login test");
    assert_eq!(session["titleSource"], "ai");
    // The question was the CLI's own, tool-less, with the feature's model.
    let asked = rig.standin.answered(NAME);
    assert_eq!(asked.len(), 1);
    let body = &asked[0].body;
    assert_eq!(body["model"], "claude-haiku-4-5");
    assert!(body["tools"].as_array().is_none_or(Vec::is_empty), "{body}");
    assert!(asked[0].body_text().contains("one run in five"));
    assert!(asked[0].body_text().contains("2 to 5 words"));
    let calls = title_calls(&rig);
    assert_eq!(calls.len(), 1, "{calls:?}");
    let call = &calls[0];
    assert_eq!(call["outcome"], "ok");
    assert_eq!(call["engine"], "primary");
    assert_eq!(call["model"], "claude-haiku-4-5");
    assert!(call["costUsd"].as_f64().unwrap() > 0.0, "{call}");
    assert_eq!(call["inputTokens"], 400);
    // The conversation itself was left alone: one main request, its own.
    rig.wait_turn(&id, 1);
    assert_eq!(rig.standin.main_requests().len(), 1);
    let spend = rig.server.call("GET", "/utility/spend", None).json();
    let title = spend["features"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["feature"] == "title")
        .unwrap()
        .clone();
    assert_eq!(title["callsToday"], 1, "{spend}");
    assert!(title["capUsd"].is_null());
}

#[test]
fn descriptive_asks_for_a_line_and_custom_asks_nothing() {
    let Some(rig) = Rig::start(Api::Anthropic, &[]) else {
        return;
    };
    rig.server
        .set_setting("sessionTitleStyle", json!("descriptive"));
    rig.standin.answer(
        NAME,
        answer("Finding why the login test fails intermittently"),
    );
    rig.standin.push(Message::text("Done."));
    let id = rig.spawn("the login test fails one run in five");
    wait_title(&rig, &id, "Finding why the login test fails intermittently");
    assert!(
        rig.standin.answered(NAME)[0]
            .body_text()
            .contains("one plain line")
    );

    rig.server.set_setting("sessionTitleStyle", json!("custom"));
    rig.standin.push(Message::text("Done."));
    let custom = rig.spawn("upgrade tokio");
    let session = rig.wait_turn(&custom, 1);
    // Give a title call the time it would take, then check none was made.
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(rig.standin.answered(NAME).len(), 1);
    assert!(session["title"].is_null(), "{session}");
}

#[test]
fn journey_titles_refresh_every_third_turn_and_keep_their_history() {
    let Some(rig) = Rig::start(Api::Anthropic, &[]) else {
        return;
    };
    rig.server
        .set_setting("sessionTitleStyle", json!("journey"));
    rig.server
        .set_setting("refreshTitleModel", json!("claude-haiku-4-5"));
    rig.standin.answer(NAME, answer("Login test"));
    rig.standin
        .answer(RETITLE, answer("Login test \u{2192} race in session store"));
    for reply in ["One.", "Two.", "Three.", "Four."] {
        rig.standin.push(Message::text(reply));
    }
    let id = rig.spawn("the login test fails one run in five");
    rig.wait_turn(&id, 1);
    wait_title(&rig, &id, "Login test");
    for (turn, text) in [(2, "look at the session store"), (3, "add a lock")] {
        rig.send(&id, text);
        rig.wait_turn(&id, turn);
    }
    std::thread::sleep(Duration::from_secs(1));
    assert!(
        rig.standin.answered(RETITLE).is_empty(),
        "retitled before its third turn"
    );
    rig.send(&id, "run it a hundred times");
    rig.wait_turn(&id, 4);
    let session = wait_title(&rig, &id, "Login test \u{2192} race in session store");
    assert_eq!(session["titleHistory"], json!(["Login test"]));
    let asked = rig.standin.answered(RETITLE);
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].body["model"], "claude-haiku-4-5");
    let text = asked[0].body_text();
    assert!(
        text.contains("Login test") && text.contains("run it a hundred times"),
        "{text}"
    );
}

#[test]
fn latest_topic_titles_follow_the_newest_work_and_keep_the_old_ones() {
    let Some(rig) = Rig::start(Api::Anthropic, &[]) else {
        return;
    };
    rig.server
        .set_setting("sessionTitleStyle", json!("latest_topic"));
    rig.server
        .set_setting("refreshTitleModel", json!("claude-haiku-4-5"));
    rig.standin.answer(NAME, answer("Flaky login test"));
    rig.standin.answer(RETITLE, answer("Session store locking"));
    rig.standin.answer(RETITLE, answer("Store lock benchmarks"));
    for _ in 0..7 {
        rig.standin.push(Message::text("Done."));
    }
    let id = rig.spawn("the login test fails one run in five");
    rig.wait_turn(&id, 1);
    wait_title(&rig, &id, "Flaky login test");
    for (turn, text) in [
        (2, "read the store"),
        (3, "find the race"),
        (4, "lock the store"),
    ] {
        rig.send(&id, text);
        rig.wait_turn(&id, turn);
    }
    let session = wait_title(&rig, &id, "Session store locking");
    assert_eq!(session["titleHistory"], json!(["Flaky login test"]));
    let asked = rig.standin.answered(RETITLE);
    assert_eq!(asked.len(), 1);
    let text = asked[0].body_text();
    assert!(
        text.contains("what the session is working on now") && text.contains("lock the store"),
        "the refresh asked for the latest topic from the latest turns: {text}"
    );
    // The next refresh is three turns later, not sooner.
    for (turn, text) in [(5, "measure it"), (6, "again")] {
        rig.send(&id, text);
        rig.wait_turn(&id, turn);
    }
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(rig.standin.answered(RETITLE).len(), 1, "refreshed too soon");
    rig.send(&id, "and once more");
    rig.wait_turn(&id, 7);
    let session = wait_title(&rig, &id, "Store lock benchmarks");
    assert_eq!(
        session["titleHistory"],
        json!(["Flaky login test", "Session store locking"])
    );
}

#[test]
fn a_title_the_user_gave_is_never_replaced() {
    let Some(rig) = Rig::start(Api::Anthropic, &[]) else {
        return;
    };
    rig.server
        .set_setting("sessionTitleStyle", json!("latest_topic"));
    rig.standin.answer(NAME, answer("Model title"));
    rig.standin.answer(RETITLE, answer("Model retitle"));
    for _ in 0..5 {
        rig.standin.push(Message::text("Ok."));
    }
    let body =
        json!({"engine": "primary", "prompt": "first", "cwd": rig.work.path(), "title": "Mine"});
    let typed = rig.server.call("POST", "/sessions", Some(&body)).json();
    let typed = typed["id"].as_str().unwrap().to_owned();
    rig.wait_turn(&typed, 1);
    // A session named by the model, then renamed by the user.
    let id = rig.spawn("second");
    rig.wait_turn(&id, 1);
    wait_title(&rig, &id, "Model title");
    let renamed = rig.server.call(
        "PATCH",
        &format!("/sessions/{id}"),
        Some(&json!({"title": "  My words  "})),
    );
    assert_eq!(renamed.status, 200, "{}", renamed.text());
    assert_eq!(renamed.json()["title"], "My words");
    assert_eq!(renamed.json()["titleSource"], "user");
    for (turn, text) in [(2, "a"), (3, "b"), (4, "c")] {
        rig.send(&id, text);
        rig.wait_turn(&id, turn);
    }
    std::thread::sleep(Duration::from_secs(2));
    assert!(rig.standin.answered(RETITLE).is_empty());
    assert_eq!(
        rig.standin.answered(NAME).len(),
        1,
        "the typed title was asked about"
    );
    for (session, title) in [(&typed, "Mine"), (&id, "My words")] {
        let read = rig
            .server
            .call("GET", &format!("/sessions/{session}"), None)
            .json();
        assert_eq!(read["title"], title);
    }
    // Bad input changes nothing.
    for bad in [
        json!({}),
        json!({"title": 5}),
        json!({"title": "x".repeat(201)}),
    ] {
        let reply = rig
            .server
            .call("PATCH", &format!("/sessions/{id}"), Some(&bad));
        assert_eq!(reply.status, 400, "{bad}: {}", reply.text());
        assert_eq!(
            reply.json()["error"]["code"],
            "invalid_request",
            "{}",
            reply.text()
        );
    }
    let read = rig
        .server
        .call("GET", &format!("/sessions/{id}"), None)
        .json();
    assert_eq!(read["title"], "My words");
}

const CATCH: &str = app::catches::CATCH_PHRASE;

fn caught(rig: &Rig) -> Vec<Value> {
    rig.server.call("GET", "/tasks/caught", None).json()["caught"]
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn follow_ups_are_caught_once_from_an_archived_session_kept_or_dismissed() {
    let Some(rig) = Rig::start(Api::Anthropic, &[]) else {
        return;
    };
    rig.standin.answer(
        CATCH,
        answer(
            r#"{"followUps": [{"task": "Add a retry test", "quote": "A retry test is still missing."},
                              {"task": "Update the changelog", "quote": "Someone should update the changelog."}]}"#,
        ),
    );
    // Off: archiving asks nothing.
    rig.standin
        .push(Message::text("Fixed. A retry test is still missing."));
    let off = rig.spawn("fix the retry loop");
    rig.wait_turn(&off, 1);
    let archived = rig
        .server
        .call("POST", &format!("/sessions/{off}/archive"), None);
    assert_eq!(archived.status, 200, "{}", archived.text());
    std::thread::sleep(Duration::from_secs(2));
    assert!(rig.standin.answered(CATCH).is_empty());

    rig.server.set_setting("tasksV2CatchesEnabled", json!(true));
    rig.server.set_setting(
        "tasksV2CatchesGuidance",
        json!("Only tasks about tests and docs."),
    );
    rig.standin
        .push(Message::text("Fixed. A retry test is still missing."));
    let id = rig.spawn("fix the retry loop again");
    rig.wait_turn(&id, 1);
    rig.server
        .call("POST", &format!("/sessions/{id}/archive"), None);
    let deadline = Instant::now() + Duration::from_secs(60);
    let staged = loop {
        let staged = caught(&rig);
        if staged.len() == 2 {
            break staged;
        }
        assert!(Instant::now() < deadline, "{staged:?}");
        std::thread::sleep(Duration::from_millis(50));
    };
    let asked = rig.standin.answered(CATCH);
    assert_eq!(asked.len(), 1);
    // No model setting of its own: the engine's small model, not its default.
    let model = asked[0].body["model"].as_str().unwrap_or_default();
    assert!(model.starts_with("claude-haiku"), "{model}");
    let text = asked[0].body_text();
    assert!(
        text.contains("A retry test is still missing") && text.contains("Only tasks about tests"),
        "{text}"
    );
    assert!(staged.iter().all(|c| c["sessionId"] == id.as_str()));
    let retry = staged
        .iter()
        .find(|c| c["text"] == "Add a retry test")
        .unwrap();
    assert_eq!(retry["quote"], "A retry test is still missing.");
    let changelog = staged
        .iter()
        .find(|c| c["text"] == "Update the changelog")
        .unwrap();
    let kept = rig.server.call(
        "POST",
        &format!("/tasks/caught/{}/keep", retry["id"].as_str().unwrap()),
        None,
    );
    assert_eq!(kept.status, 201, "{}", kept.text());
    assert_eq!(kept.json()["sourceSessionId"], id.as_str());
    let dismissed = rig.server.call(
        "POST",
        &format!(
            "/tasks/caught/{}/dismiss",
            changelog["id"].as_str().unwrap()
        ),
        None,
    );
    assert_eq!(dismissed.status, 204);
    assert!(caught(&rig).is_empty());
    let tasks = rig.server.call("GET", "/tasks", None).json()["tasks"].clone();
    assert_eq!(tasks.as_array().unwrap().len(), 1);
    assert_eq!(tasks[0]["text"], "Add a retry test");
    // A stopped session ends too, and is scanned like an archived one.
    rig.standin
        .push(Message::text("Half done. A retry test is still missing."));
    let stopped = rig.spawn("clean up the tokens");
    rig.wait_turn(&stopped, 1);
    rig.server
        .call("POST", &format!("/sessions/{stopped}/stop"), None);
    let deadline = Instant::now() + Duration::from_secs(60);
    while caught(&rig).len() < 2 {
        assert!(
            Instant::now() < deadline,
            "a stopped session was not scanned"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        caught(&rig)
            .iter()
            .all(|c| c["sessionId"] == stopped.as_str())
    );
    assert_eq!(rig.standin.answered(CATCH).len(), 2);
    // The same session is never scanned twice (its archive is announced again on a stop).
    rig.server
        .call("POST", &format!("/sessions/{id}/stop"), None);
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(rig.standin.answered(CATCH).len(), 2);
}

#[test]
fn a_codex_session_is_named_by_codex_at_low_reasoning_effort() {
    let Some(rig) = Rig::start(Api::OpenAi, &[]) else {
        return;
    };
    rig.standin.push(Message::text("Done."));
    let id = rig.spawn("tidy the changelog before the release");
    let session = wait_title(&rig, &id, "Codex session");
    assert_eq!(session["titleSource"], "ai");
    let asked = rig.standin.answered(NAME);
    assert_eq!(asked.len(), 1);
    // No model setting: Codex's own model, asked to think little.
    assert_eq!(
        asked[0].body["reasoning"]["effort"], "low",
        "{}",
        asked[0].body
    );
    assert!(asked[0].body_text().contains("tidy the changelog"));
    let calls = title_calls(&rig);
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0]["outcome"], "ok");
    assert_eq!(calls[0]["engine"], "second");
    // Codex reports tokens but no price.
    assert!(calls[0]["costUsd"].is_null(), "{calls:?}");
    assert!(calls[0]["inputTokens"].as_u64().unwrap() > 0, "{calls:?}");
}
