//! Cost and tokens from fake `claude` and `codex` executables that print the
//! real formats' lines: per turn, per session, per tree, and per day and
//! engine (`GET /usage`), with a manual clock putting turns on different days.

mod common;

use clock::Clock;
use common::*;
use sessions::{PromptSettings, SessionError, Status, Tokens};

/// The fake's result line: 100 fresh, 2,000 written to and 30,000 read from the cache.
const CLAUDE_TURN: Tokens = Tokens {
    input: 32_100,
    output: 20,
    cached_input: 30_000,
};
const CODEX_TURN: Tokens = Tokens {
    input: 24_763,
    output: 122,
    cached_input: 24_448,
};

fn times(tokens: Tokens, n: i64) -> Tokens {
    Tokens {
        input: tokens.input * n,
        output: tokens.output * n,
        cached_input: tokens.cached_input * n,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claude_turn_reports_cost_and_tokens_and_two_turns_sum() {
    let h = Harness::new().await;
    let id = h.spawn_ui("a", "primary", "hi").await.id;
    let session = h.wait_status("a", &id, Status::WaitingForInput).await;
    assert_eq!(session.cost_usd, Some(0.25));
    assert_eq!(session.tokens, CLAUDE_TURN);
    assert_eq!(session.tree_cost_usd, Some(0.25));
    let json = serde_json::to_value(&session).unwrap();
    assert_eq!(json["costUsd"], 0.25);
    assert_eq!(
        json["tokens"],
        serde_json::json!({"input": 32_100, "output": 20, "cachedInput": 30_000})
    );

    // An older Claude Code reports `cost_usd`; the sum takes it the same way.
    h.sup
        .send(&ui("a"), &open_policy(), &id, "more OLDCOST")
        .await
        .unwrap();
    let turns = wait_turns(&h.sup, "a", &id, 2).await;
    assert_eq!(turns[1].cost_usd, Some(0.125));
    let session = h.sup.get("a", &id).await.unwrap();
    assert_eq!(session.cost_usd, Some(0.375));
    assert_eq!(session.tokens, times(CLAUDE_TURN, 2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_codex_turn_counts_tokens_with_no_price() {
    let h = Harness::new().await;
    let id = h.spawn_ui("a", "second", "go").await.id;
    let session = h.wait_status("a", &id, Status::WaitingForInput).await;
    assert_eq!(session.cost_usd, None);
    assert_eq!(session.tree_cost_usd, None);
    assert_eq!(session.tokens, CODEX_TURN);
    assert!(serde_json::to_value(&session).unwrap()["costUsd"].is_null());
    h.sup
        .send(&ui("a"), &open_policy(), &id, "again")
        .await
        .unwrap();
    wait_turns(&h.sup, "a", &id, 2).await;
    let session = h.sup.get("a", &id).await.unwrap();
    assert_eq!(session.cost_usd, None);
    assert_eq!(session.tokens, times(CODEX_TURN, 2));

    // A Claude turn without a price keeps the cost null too, its tokens counted.
    let id = h.spawn_ui("a", "primary", "NOPRICE").await.id;
    let session = h.wait_status("a", &id, Status::WaitingForInput).await;
    assert_eq!(session.cost_usd, None);
    assert_eq!(session.tokens, CLAUDE_TURN);

    // A command engine reports nothing at all.
    let id = h.spawn_ui("a", "echo", "plain").await.id;
    let session = h.wait_status("a", &id, Status::WaitingForInput).await;
    assert_eq!(session.cost_usd, None);
    assert_eq!(session.tokens, Tokens::default());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tree_sums_its_descendants_cost() {
    let h = Harness::new().await;
    let parent = h.spawn_ui("a", "primary", "lead").await.id;
    // The child is spawned with the parent's agent token, the grandchild by the
    // cli token naming the child in X-App-Source-Session-Id.
    let child = h
        .sup
        .spawn(
            &agent("a", &parent, None),
            &open_policy(),
            &PromptSettings::default(),
            request("primary", "help"),
        )
        .await
        .unwrap()
        .session
        .id;
    let grandchild = h
        .sup
        .spawn(
            &cli("a", Some(&child)),
            &open_policy(),
            &PromptSettings::default(),
            request("second", "sub-help"),
        )
        .await
        .unwrap()
        .session
        .id;
    for id in [&parent, &child, &grandchild] {
        h.wait_status("a", id, Status::WaitingForInput).await;
    }
    let get = |id: String| {
        let sup = h.sup.clone();
        async move { sup.get("a", &id).await.unwrap() }
    };
    let (p, c, g) = (
        get(parent.clone()).await,
        get(child.clone()).await,
        get(grandchild.clone()).await,
    );
    assert_eq!(p.children, vec![child.clone()]);
    assert_eq!(c.parent_id.as_deref(), Some(parent.as_str()));
    assert_eq!(c.children, vec![grandchild.clone()]);
    assert_eq!(g.parent_id.as_deref(), Some(child.as_str()));
    assert_eq!(p.cost_usd, Some(0.25));
    assert_eq!(p.tree_cost_usd, Some(0.5));
    assert_eq!(c.tree_cost_usd, Some(0.25));
    assert_eq!(g.tree_cost_usd, None);
    let listed = h.sup.list("a").await.unwrap();
    let listed_parent = listed.iter().find(|s| s.id == parent).unwrap();
    assert_eq!(listed_parent.tree_cost_usd, Some(0.5));
    assert_eq!(listed_parent.children, vec![child]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn usage_groups_turns_by_day_and_engine() {
    let h = Harness::new().await;
    let day_one = h.clock.timestamp()[..10].to_owned();
    let claude = h.spawn_ui("a", "primary", "first").await.id;
    wait_turns(&h.sup, "a", &claude, 1).await;
    let codex = h.spawn_ui("a", "second", "first").await.id;
    wait_turns(&h.sup, "a", &codex, 1).await;
    // Another account's spending is never counted.
    let other = h.spawn_ui("b", "primary", "theirs").await.id;
    wait_turns(&h.sup, "b", &other, 1).await;

    h.clock.advance(time::Duration::days(1));
    let day_two = h.clock.timestamp()[..10].to_owned();
    for prompt in ["second", "third"] {
        h.sup
            .send(&ui("a"), &open_policy(), &claude, prompt)
            .await
            .unwrap();
    }
    wait_turns(&h.sup, "a", &claude, 3).await;
    let later = h.spawn_ui("a", "primary", "another").await.id;
    wait_turns(&h.sup, "a", &later, 1).await;

    let usage = h.sup.usage("a", None, None).await.unwrap();
    let rows: Vec<_> = usage
        .days
        .iter()
        .map(|d| {
            (
                d.date.as_str(),
                d.engine.as_str(),
                d.sessions,
                d.turns,
                d.cost_usd,
                d.tokens,
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            (day_one.as_str(), "primary", 1, 1, Some(0.25), CLAUDE_TURN),
            (day_one.as_str(), "second", 1, 1, None, CODEX_TURN),
            (
                day_two.as_str(),
                "primary",
                2,
                3,
                Some(0.75),
                times(CLAUDE_TURN, 3)
            ),
        ]
    );
    let json = serde_json::to_value(&usage).unwrap();
    assert_eq!(json["days"][1]["costUsd"], serde_json::Value::Null);
    assert_eq!(json["days"][1]["tokens"]["cachedInput"], 24_448);

    let only_two = h.sup.usage("a", Some(&day_two), None).await.unwrap();
    assert_eq!(only_two.days.len(), 1);
    let only_one = h
        .sup
        .usage("a", Some(&day_one), Some(&day_one))
        .await
        .unwrap();
    assert_eq!(only_one.days.len(), 2);
    let until_one = h.sup.usage("a", None, Some(&day_one)).await.unwrap();
    assert_eq!(until_one.days, only_one.days);

    for (from, to) in [
        (Some("2026-13-01"), None),
        (None, Some("tomorrow")),
        (Some(day_two.as_str()), Some(day_one.as_str())),
    ] {
        let refused = h.sup.usage("a", from, to).await;
        assert!(
            matches!(refused, Err(SessionError::InvalidInput(_))),
            "{from:?} {to:?}: {refused:?}"
        );
    }
}
