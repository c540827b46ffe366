//! The call path with a scripted CLI in place of the engine: a shell script
//! that prints what Claude Code 2.1.330 prints for `-p --output-format json`
//! (the shape recorded in docs/engines.md), one answer per run from a list,
//! so budgets, the JSON retry and the records are checked without a model.
//! The real CLIs against the stand-in API are the `engines` suite's.

use std::os::unix::fs::PermissionsExt;
use std::sync::Arc;

use clock::ManualClock;
use serde::Deserialize;
use serde_json::json;

use super::*;

struct World {
    dir: tempfile::TempDir,
    utility: Utility,
    clock: Arc<ManualClock>,
}

/// A "claude" that answers the n-th run with the n-th line of `answers`
/// (the last line again after that) and records each prompt it read.
fn world(answers: &[&str], cost: f64) -> World {
    let dir = tempfile::tempdir().unwrap();
    let answers_file = dir.path().join("answers");
    std::fs::write(&answers_file, answers.join("\n") + "\n").unwrap();
    let script = dir.path().join("claude");
    std::fs::write(
        &script,
        format!(
            r#"#!/bin/sh
dir='{dir}'
n=$(cat "$dir/runs" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$dir/runs"
cat > "$dir/prompt-$n"
echo "$@" > "$dir/args-$n"
total=$(wc -l < "$dir/answers")
line=$n; [ $line -gt $total ] && line=$total
answer=$(sed -n "${{line}}p" "$dir/answers")
printf '{{"type":"result","subtype":"success","is_error":false,"result":%s,"total_cost_usd":{cost},"usage":{{"input_tokens":10,"cache_read_input_tokens":5,"cache_creation_input_tokens":0,"output_tokens":3}},"modelUsage":{{"claude-haiku-4-5":{{}}}}}}\n' "$answer"
"#,
            dir = dir.path().display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let db = Arc::new(Db::open(&dir.path().join("db.sqlite")).unwrap());
    db.migrate(MIGRATIONS).unwrap();
    let clock = Arc::new(ManualClock::new(
        time::macros::datetime!(2026-11-23 09:00 UTC),
    ));
    let engine = Engine {
        name: "primary".into(),
        kind: EngineKind::Claude,
        program: vec![script.display().to_string()],
        args: vec![],
        env: Default::default(),
        unsafe_allow_unsandboxed: false,
    };
    let source: EngineSource = Arc::new(move || Some(engine.clone()));
    let utility = Utility::new(db, clock.clone(), source, &dir.path().join("data"));
    World {
        dir,
        utility,
        clock,
    }
}

fn ask(feature: Feature, cap: Option<f64>, since: OffsetDateTime) -> Ask<'static> {
    Ask {
        feature,
        model: Some("claude-haiku-4-5"),
        prompt: "Name this session.",
        budget: Budget {
            cap_usd: cap,
            since,
        },
    }
}

#[tokio::test]
async fn a_text_call_is_recorded_with_its_cost_tokens_and_model() {
    let w = world(&[r#""Fix the login bug""#], 0.002);
    let now = w.clock.now();
    let answer = w
        .utility
        .text(&ask(Feature::Title, None, now))
        .await
        .unwrap();
    assert_eq!(answer.text, "Fix the login bug");
    let prompt = std::fs::read_to_string(w.dir.path().join("prompt-1")).unwrap();
    assert_eq!(prompt, "Name this session.");
    let args = std::fs::read_to_string(w.dir.path().join("args-1")).unwrap();
    assert!(args.contains("--model claude-haiku-4-5"), "{args}");
    let calls = w.utility.calls(None, None, 10).await.unwrap();
    assert_eq!(calls.len(), 1);
    let call = &calls[0];
    assert_eq!(call.feature, Feature::Title);
    assert_eq!(call.outcome, Outcome::Ok);
    assert_eq!(call.cost_usd, Some(0.002));
    assert_eq!((call.input_tokens, call.output_tokens), (15, 3));
    assert_eq!(call.engine.as_deref(), Some("primary"));
}

#[tokio::test]
async fn at_the_cap_no_call_is_made_and_the_refusal_is_recorded() {
    let w = world(&[r#""Summary""#], 0.03);
    let day = w.clock.now();
    for _ in 0..2 {
        w.utility
            .text(&ask(Feature::WeeklySummary, Some(0.05), day))
            .await
            .unwrap();
    }
    let refused = w
        .utility
        .text(&ask(Feature::WeeklySummary, Some(0.05), day))
        .await;
    assert!(
        matches!(refused, Err(UtilityError::Capped { .. })),
        "{refused:?}"
    );
    assert_eq!(
        std::fs::read_to_string(w.dir.path().join("runs"))
            .unwrap()
            .trim(),
        "2"
    );
    let calls = w
        .utility
        .calls(Some(Feature::WeeklySummary), None, 10)
        .await
        .unwrap();
    assert_eq!(calls[0].outcome, Outcome::Capped);
    // Another feature has its own budget, and the next day starts afresh.
    w.utility
        .text(&ask(Feature::Title, Some(0.05), day))
        .await
        .unwrap();
    w.clock.advance(time::Duration::days(1));
    let tomorrow = w.clock.now();
    w.utility
        .text(&ask(Feature::WeeklySummary, Some(0.05), tomorrow))
        .await
        .unwrap();
    let spend = w.utility.spend(day).await.unwrap();
    let weekly = spend
        .iter()
        .find(|s| s.feature == Feature::WeeklySummary)
        .unwrap();
    assert_eq!(weekly.calls, 3);
    assert!((weekly.spent_usd - 0.09).abs() < 1e-9);
}

#[tokio::test]
async fn a_cap_of_zero_is_no_limit() {
    let w = world(&[r#""x""#], 1.0);
    let day = w.clock.now();
    for _ in 0..3 {
        w.utility
            .text(&ask(Feature::ForensicsDeep, Some(0.0), day))
            .await
            .unwrap();
    }
}

#[derive(Debug, Deserialize, PartialEq)]
struct Titled {
    title: String,
}

#[tokio::test]
async fn invalid_json_is_asked_again_once_with_the_reason() {
    let w = world(
        &[
            r#""Sure! Here it is: title""#,
            r#""{\"title\": \"Fix login\"}""#,
        ],
        0.001,
    );
    let schema = json!({"type": "object", "properties": {"title": {"type": "string"}}});
    let (value, _) = w
        .utility
        .json::<Titled>(&ask(Feature::Title, None, w.clock.now()), &schema)
        .await
        .unwrap();
    assert_eq!(
        value,
        Titled {
            title: "Fix login".into()
        }
    );
    let retry = std::fs::read_to_string(w.dir.path().join("prompt-2")).unwrap();
    assert!(retry.contains("was not valid"), "{retry}");
    assert!(retry.contains("Sure! Here it is"), "{retry}");
    let outcomes: Vec<Outcome> = w
        .utility
        .calls(None, None, 10)
        .await
        .unwrap()
        .iter()
        .map(|c| c.outcome)
        .collect();
    assert_eq!(outcomes, [Outcome::Ok, Outcome::Invalid]);
}

#[tokio::test]
async fn invalid_twice_is_an_error_and_fences_are_accepted() {
    let w = world(&[r#""nope""#], 0.001);
    let schema = json!({});
    let result = w
        .utility
        .json::<Titled>(&ask(Feature::Catches, None, w.clock.now()), &schema)
        .await;
    assert!(
        matches!(result, Err(UtilityError::Invalid(_))),
        "{result:?}"
    );
    assert_eq!(
        parse_json::<Titled>("```json\n{\"title\": \"a\"}\n```").unwrap(),
        Titled { title: "a".into() }
    );
    assert_eq!(
        parse_json::<Titled>("Here: {\"title\": \"b\"} done").unwrap(),
        Titled { title: "b".into() }
    );
}

#[tokio::test]
async fn without_an_engine_nothing_runs_and_the_notice_is_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = Arc::new(Db::open(&dir.path().join("db.sqlite")).unwrap());
    db.migrate(MIGRATIONS).unwrap();
    let clock = Arc::new(ManualClock::starting_now());
    let utility = Utility::new(db, clock.clone(), Arc::new(|| None), dir.path());
    let result = utility.text(&ask(Feature::Title, None, clock.now())).await;
    assert!(matches!(result, Err(UtilityError::NoEngine)));
    assert_eq!(
        utility.calls(None, None, 5).await.unwrap()[0].outcome,
        Outcome::NoEngine
    );
    assert!(utility.first_notice("no_engine:title").await.unwrap());
    assert!(!utility.first_notice("no_engine:title").await.unwrap());
}

#[tokio::test]
async fn a_failing_cli_is_recorded_as_failed_with_what_it_said() {
    let w = world(&[r#""x""#], 0.0);
    let broken = Engine {
        name: "primary".into(),
        kind: EngineKind::Claude,
        program: vec![
            "sh".into(),
            "-c".into(),
            "echo 'Invalid API key' >&2; exit 1".into(),
            "x".into(),
        ],
        args: vec![],
        env: Default::default(),
        unsafe_allow_unsandboxed: false,
    };
    let utility = Utility::new(
        w.utility.db.clone(),
        w.clock.clone(),
        Arc::new(move || Some(broken.clone())),
        &w.dir.path().join("data"),
    );
    let result = utility
        .text(&ask(Feature::Title, None, w.clock.now()))
        .await;
    let Err(UtilityError::Failed(reason)) = result else {
        panic!("{result:?}")
    };
    assert!(reason.contains("Invalid API key"), "{reason}");
    let calls = utility.calls(Some(Feature::Title), None, 5).await.unwrap();
    assert_eq!(calls[0].outcome, Outcome::Failed);
}

#[tokio::test]
async fn the_cli_cannot_reach_the_data_directory() {
    if sandbox::support().mode == sandbox::Mode::Unavailable {
        eprintln!("skipped: this kernel cannot confine processes");
        return;
    }
    let w = world(&[r#""x""#], 0.0);
    let data = w.dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("cli-token"), "secret").unwrap();
    let prying = Engine {
        name: "primary".into(),
        kind: EngineKind::Claude,
        program: vec![
            "sh".into(),
            "-c".into(),
            format!(
                "cat {}/cli-token; echo planted > {}/planted",
                data.display(),
                data.display()
            ),
            "x".into(),
        ],
        args: vec![],
        env: Default::default(),
        unsafe_allow_unsandboxed: false,
    };
    let utility = Utility::new(
        w.utility.db.clone(),
        w.clock.clone(),
        Arc::new(move || Some(prying.clone())),
        &data,
    );
    let result = utility
        .text(&ask(Feature::Title, None, w.clock.now()))
        .await;
    let Err(UtilityError::Failed(reason)) = result else {
        panic!("{result:?}")
    };
    assert!(!reason.contains("secret"), "{reason}");
    assert!(!data.join("planted").exists());
}

#[tokio::test]
async fn an_image_goes_to_claude_code_as_a_content_block_and_is_recorded() {
    let w = world(&[r#""A red square.""#], 0.001);
    let image = w.dir.path().join("shot.png");
    std::fs::write(&image, b"\x89PNG\r\n\x1a\nrest").unwrap();
    let ask = Ask {
        feature: Feature::ImageBridge,
        model: None,
        prompt: "Describe this image.",
        budget: Budget::unlimited(w.clock.now()),
    };
    let answer = w
        .utility
        .describe_image(&ask, &image, "image/png")
        .await
        .unwrap();
    assert_eq!(answer.text, "A red square.");
    let args = std::fs::read_to_string(w.dir.path().join("args-1")).unwrap();
    assert!(
        args.contains("--input-format stream-json --output-format stream-json --verbose"),
        "{args}"
    );
    let stdin = std::fs::read_to_string(w.dir.path().join("prompt-1")).unwrap();
    let message: serde_json::Value = serde_json::from_str(stdin.trim()).unwrap();
    let content = &message["message"]["content"];
    assert_eq!(content[0]["type"], "image");
    assert_eq!(content[0]["source"]["media_type"], "image/png");
    assert_eq!(content[0]["source"]["data"], "iVBORw0KGgpyZXN0");
    assert_eq!(content[1]["text"], "Describe this image.");
    let calls = w
        .utility
        .calls(Some(Feature::ImageBridge), None, 10)
        .await
        .unwrap();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].outcome, Outcome::Ok);
}
