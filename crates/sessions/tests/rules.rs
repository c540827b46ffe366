//! The control server's spawn rules, in the contract's order: each rule on and
//! off against each way of asking, the concurrency ceiling and its release, the
//! spacing queue (kept across a restart), and limits stored but not enforced.

mod common;

use common::*;
use sessions::{Caller, PromptSettings, SessionError, SpawnPolicy, Status, Supervisor};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

#[derive(Debug, PartialEq)]
enum Verdict {
    Ok,
    Disabled,
    AgentToken,
    Source,
}

async fn verdict(h: &Harness, caller: &Caller, policy: &SpawnPolicy) -> Verdict {
    match h
        .sup
        .spawn(
            caller,
            policy,
            &PromptSettings::default(),
            request("echo", "x"),
        )
        .await
    {
        Ok(spawned) => {
            assert_eq!(
                spawned.session.agent_driven,
                caller.via != sessions::Via::Ui
            );
            Verdict::Ok
        }
        Err(SessionError::AgentDrivenSessionsDisabled) => Verdict::Disabled,
        Err(SessionError::AgentTokenSpawnDisabled) => Verdict::AgentToken,
        Err(SessionError::SourceSessionRequired) => Verdict::Source,
        Err(other) => panic!("unexpected {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rule_matrix() {
    let h = Harness::new().await;
    let own = h.spawn_ui("a", "echo", "mine").await.id;
    let sibling = h.spawn_ui("a", "echo", "sibling").await.id;
    let foreign = h.spawn_ui("b", "echo", "theirs").await.id;
    let ended = h.spawn_ui("a", "fail", "dead").await.id;
    h.wait_status("a", &ended, Status::Failed).await;

    let base = open_policy();
    let off = |f: fn(&mut SpawnPolicy)| {
        let mut p = base.clone();
        f(&mut p);
        p
    };
    let disabled = off(|p| p.agent_driven_sessions_enabled = false);
    let no_agent_token = off(|p| p.allow_agent_token_spawn = false);
    let require = off(|p| p.require_spawn_source_session = true);
    let everything_strict = off(|p| {
        p.agent_driven_sessions_enabled = false;
        p.allow_agent_token_spawn = false;
        p.require_spawn_source_session = true;
    });

    use Verdict::*;
    let cases: Vec<(&str, Caller, &SpawnPolicy, Verdict)> = vec![
        // Rule 1, whatever the token; the UI is never held back.
        ("ui, disabled", ui("a"), &disabled, Ok),
        ("cli, disabled", cli("a", Some(&own)), &disabled, Disabled),
        (
            "agent, disabled",
            agent("a", &own, Some(&own)),
            &disabled,
            Disabled,
        ),
        ("ui, all strict", ui("a"), &everything_strict, Ok),
        (
            "agent, all strict: rule 1 first",
            agent("a", &own, None),
            &everything_strict,
            Disabled,
        ),
        // Rule 2 touches agent tokens only.
        ("cli, agent spawn off", cli("a", None), &no_agent_token, Ok),
        (
            "agent, agent spawn off",
            agent("a", &own, Some(&own)),
            &no_agent_token,
            AgentToken,
        ),
        ("agent, agent spawn on", agent("a", &own, None), &base, Ok),
        // Rule 3.
        ("cli, required, no header", cli("a", None), &require, Source),
        (
            "cli, required, own account's live session",
            cli("a", Some(&own)),
            &require,
            Ok,
        ),
        (
            "cli, required, another account's session",
            cli("a", Some(&foreign)),
            &require,
            Source,
        ),
        (
            "cli, required, ended session",
            cli("a", Some(&ended)),
            &require,
            Source,
        ),
        (
            "cli, required, unknown id",
            cli("a", Some("nope")),
            &require,
            Source,
        ),
        (
            "agent, required, its own session",
            agent("a", &own, Some(&own)),
            &require,
            Ok,
        ),
        (
            "agent, required, a sibling session",
            agent("a", &own, Some(&sibling)),
            &require,
            Source,
        ),
        (
            "agent, required, no header",
            agent("a", &own, None),
            &require,
            Source,
        ),
        (
            "agent, required, another account's",
            agent("a", &own, Some(&foreign)),
            &require,
            Source,
        ),
        ("ui, required, no header", ui("a"), &require, Ok),
        ("cli, not required, no header", cli("a", None), &base, Ok),
    ];
    for (name, caller, policy, expected) in cases {
        assert_eq!(verdict(&h, &caller, policy).await, expected, "{name}");
    }

    // Follow-ups: rule 1 holds them too, for every control caller but not the UI.
    for caller in [cli("a", None), agent("a", &own, Some(&own))] {
        assert!(matches!(
            h.sup.send(&caller, &disabled, &own, "more").await,
            Err(SessionError::AgentDrivenSessionsDisabled)
        ));
    }
    h.sup.send(&ui("a"), &disabled, &own, "more").await.unwrap();
    h.sup
        .send(&cli("a", None), &base, &own, "more")
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_concurrency_ceiling_counts_active_agent_sessions_and_is_released() {
    let h = Harness::new().await;
    let policy = SpawnPolicy {
        agent_driven_max_concurrent: 2,
        ..open_policy()
    };
    let spawn = |caller| {
        let sup = h.sup.clone();
        let policy = policy.clone();
        async move {
            sup.spawn(
                &caller,
                &policy,
                &PromptSettings::default(),
                request("echo", "x"),
            )
            .await
        }
    };
    let first = spawn(cli("a", None)).await.unwrap().session.id;
    h.wait_status("a", &first, Status::WaitingForInput).await;
    let second = spawn(cli("b", None)).await.unwrap().session.id;
    // Waiting for input still counts, across accounts.
    assert!(matches!(
        spawn(cli("a", None)).await,
        Err(SessionError::ConcurrencyLimit { max: 2 })
    ));
    // The user's own sessions are neither counted nor held back.
    spawn(ui("a")).await.unwrap();
    h.sup.stop(&cli("a", None), &first).await.unwrap();
    let third = spawn(cli("a", None)).await.unwrap().session.id;
    assert!(matches!(
        spawn(cli("a", None)).await,
        Err(SessionError::ConcurrencyLimit { max: 2 })
    ));
    h.wait_status("b", &second, Status::WaitingForInput).await;
    let archived = h.sup.archive(&cli("b", None), &second).await.unwrap();
    assert!(archived.archived);
    assert_eq!(archived.status, Status::Finished);
    spawn(cli("a", None)).await.unwrap();
    // A failed session releases its place too.
    let policy_three = SpawnPolicy {
        agent_driven_max_concurrent: 3,
        ..open_policy()
    };
    let failing = h
        .sup
        .spawn(
            &cli("a", None),
            &policy_three,
            &PromptSettings::default(),
            request("fail", "x"),
        )
        .await
        .unwrap()
        .session
        .id;
    h.wait_status("a", &failing, Status::Failed).await;
    h.sup
        .spawn(
            &cli("a", None),
            &policy_three,
            &PromptSettings::default(),
            request("echo", "x"),
        )
        .await
        .unwrap();
    assert!(h.sup.is_live(&third));
}

fn parse(at: &str) -> OffsetDateTime {
    OffsetDateTime::parse(at, &Rfc3339).unwrap()
}

/// When the session's move to `running` was recorded (on the harness's clock).
async fn started_at(sup: &Supervisor, id: &str) -> OffsetDateTime {
    let events = sup.transcript("a", id).await.unwrap().events;
    parse(&events.iter().find(|e| e.to == Status::Running).unwrap().at)
}

/// Waits (in real time, briefly) until `count` queued sessions sleep on the clock.
async fn until_sleeping(h: &Harness, count: usize) {
    eventually("queued sessions waiting on the clock", || {
        h.clock.sleepers() >= count
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spacing_queues_bursts_and_a_queued_session_starts_no_earlier() {
    let h = Harness::new().await;
    let policy = SpawnPolicy {
        cli_spawn_spacing_seconds: 60,
        ..open_policy()
    };
    let prompts = PromptSettings::default();
    let first = h
        .sup
        .spawn(&cli("a", None), &policy, &prompts, request("echo", "1"))
        .await
        .unwrap();
    assert_eq!(first.queued, None);
    assert_ne!(first.session.status, Status::Queued);
    let second = h
        .sup
        .spawn(&cli("a", None), &policy, &prompts, request("echo", "2"))
        .await
        .unwrap();
    let third = h
        .sup
        .spawn(&cli("a", None), &policy, &prompts, request("echo", "3"))
        .await
        .unwrap();
    let user = h
        .sup
        .spawn(&ui("a"), &policy, &prompts, request("echo", "mine"))
        .await
        .unwrap();
    assert_eq!(user.queued, None);
    assert_eq!(second.session.status, Status::Queued);
    let first_at = parse(first.session.starts_at.as_deref().unwrap());
    let second_at = parse(second.queued.as_deref().unwrap());
    let third_at = parse(third.queued.as_deref().unwrap());
    assert_eq!(second_at - first_at, time::Duration::seconds(60));
    assert_eq!(third_at - second_at, time::Duration::seconds(60));
    h.wait_status("a", &first.session.id, Status::WaitingForInput)
        .await;

    // Each queued session starts when the clock reaches its slot, not before.
    let (second_id, third_id) = (&second.session.id, &third.session.id);
    until_sleeping(&h, 2).await;
    h.clock.advance(time::Duration::seconds(59));
    assert_eq!(
        h.sup.get("a", second_id).await.unwrap().status,
        Status::Queued
    );
    h.clock.advance(time::Duration::seconds(1));
    h.wait_status("a", second_id, Status::WaitingForInput).await;
    assert_eq!(started_at(&h.sup, second_id).await, second_at);
    assert_eq!(
        h.sup.get("a", third_id).await.unwrap().status,
        Status::Queued
    );
    h.clock.advance(time::Duration::seconds(60));
    h.wait_status("a", third_id, Status::WaitingForInput).await;
    assert_eq!(started_at(&h.sup, third_id).await, third_at);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_spacing_queue_survives_a_restart() {
    let h = Harness::new().await;
    let policy = SpawnPolicy {
        cli_spawn_spacing_seconds: 120,
        ..open_policy()
    };
    let prompts = PromptSettings::default();
    h.sup
        .spawn(&cli("a", None), &policy, &prompts, request("echo", "1"))
        .await
        .unwrap();
    let queued = h
        .sup
        .spawn(&cli("a", None), &policy, &prompts, request("echo", "2"))
        .await
        .unwrap();
    let at = parse(queued.queued.as_deref().unwrap());
    h.sup.shutdown().await;

    let sup = start(&h.db, &h.clock, &h.data(), &h.issuer, false).await;
    let id = &queued.session.id;
    assert_eq!(sup.get("a", id).await.unwrap().status, Status::Queued);
    assert!(sup.is_live(id));
    until_sleeping(&h, 1).await;
    h.clock.advance(time::Duration::seconds(120));
    wait_status(&sup, "a", id, Status::WaitingForInput).await;
    assert_eq!(started_at(&sup, id).await, at);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_are_stored_and_shown_but_not_enforced() {
    let h = Harness::new().await;
    let policy = SpawnPolicy {
        max_dollars_per_session: 0.1,
        max_turns_per_session: 1,
        remote_runners: false,
        remote_started_sessions: false,
        ..open_policy()
    };
    let id = h
        .sup
        .spawn(
            &cli("a", None),
            &policy,
            &PromptSettings::default(),
            request("primary", "x"),
        )
        .await
        .unwrap()
        .session
        .id;
    h.wait_status("a", &id, Status::WaitingForInput).await;
    h.sup
        .send(&cli("a", None), &policy, &id, "two")
        .await
        .unwrap();
    h.sup
        .send(&cli("a", None), &policy, &id, "three")
        .await
        .unwrap();
    wait_turns(&h.sup, "a", &id, 3).await;
    let session = h.sup.get("a", &id).await.unwrap();
    assert_eq!(session.cost_usd, Some(0.75));
    assert_eq!(session.max_dollars_per_session, 0.1);
    assert_eq!(session.max_turns_per_session, 1);
    let json = serde_json::to_value(&session).unwrap();
    assert_eq!(json["maxTurnsPerSession"], 1);
    assert_eq!(json["agentDriven"], true);
    assert_eq!(json["status"], "waiting_for_input");
}
