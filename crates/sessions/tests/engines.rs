//! Real engine processes: the command engine's contract, failures, tree kill,
//! follow-up queueing, prompt composition, and the Claude and Codex adapters
//! against fake executables that speak their formats.

mod common;

use common::*;
use sessions::{EntryBody, NoticeSource, PageFrom, PromptSettings, SessionError, Status};

/// The session's typed entries, its first prompt's `input` left out.
async fn bodies(h: &Harness, id: &str) -> Vec<EntryBody> {
    let page = h
        .sup
        .entries("a", id, PageFrom::After(0), 1000)
        .await
        .unwrap();
    page.entries
        .into_iter()
        .map(|e| e.body)
        .filter(|b| !matches!(b, EntryBody::Input { .. }))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn command_engine_gets_stdin_env_and_cwd_and_follow_ups_get_turn_two() {
    let h = Harness::new().await;
    let work = h.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let mut req = request("env", "hello engine");
    req.cwd = Some(work.to_string_lossy().into_owned());
    req.title = Some("  env check ".into());
    let spawned = h
        .sup
        .spawn(&ui("a"), &open_policy(), &PromptSettings::default(), req)
        .await
        .unwrap();
    assert_eq!(spawned.queued, None);
    let id = spawned.session.id.clone();
    let session = h.wait_status("a", &id, Status::WaitingForInput).await;
    assert_eq!(session.title.as_deref(), Some("env check"));
    assert!(!session.agent_driven);
    assert!(h.sup.is_live(&id));

    let out = &h.sup.transcript("a", &id).await.unwrap().turns[0].output;
    assert!(out.starts_with("hello engine\n"), "{out}");
    assert!(out.contains("turn=1 "), "{out}");
    assert!(out.contains(&format!("sid={id} ")), "{out}");
    assert!(out.contains(&format!("url={CONTROL_URL} ")), "{out}");
    assert!(out.contains(&format!("tok=tok-{id} ")), "{out}");
    assert!(out.contains(&format!("pwd={} ", work.display())), "{out}");
    assert!(out.contains("extra=from-engines-toml"), "{out}");

    h.sup
        .send(&ui("a"), &open_policy(), &id, "second")
        .await
        .unwrap();
    let turns = wait_turns(&h.sup, "a", &id, 2).await;
    assert!(turns[1].output.starts_with("second\n"));
    assert!(turns[1].output.contains("turn=2 "));
    let session = h.sup.get("a", &id).await.unwrap();
    let transcript = h.sup.transcript("a", &id).await.unwrap();
    assert_eq!(session.turns, 2);
    assert_eq!(session.cost_usd, None);
    // The token is minted once per process life of the session, not per turn.
    assert_eq!(
        h.issuer
            .minted
            .lock()
            .unwrap()
            .iter()
            .filter(|m| **m == id)
            .count(),
        1
    );
    let moves: Vec<Status> = transcript.events.iter().map(|e| e.to).collect();
    assert_eq!(
        moves,
        [
            Status::Starting,
            Status::Running,
            Status::WaitingForInput,
            Status::Starting,
            Status::Running,
            Status::WaitingForInput
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_ups_sent_during_a_turn_run_in_order_after_it() {
    let h = Harness::new().await;
    let id = h.spawn_ui("a", "gated", "one").await.id;
    h.wait_status("a", &id, Status::Running).await;
    h.sup
        .send(&ui("a"), &open_policy(), &id, "two")
        .await
        .unwrap();
    h.sup
        .send(&ui("a"), &open_policy(), &id, "three")
        .await
        .unwrap();
    // The engine holds the first turn open until the gate file exists.
    let turns = h.sup.transcript("a", &id).await.unwrap().turns;
    assert_eq!(turns.len(), 1, "{turns:?}");
    assert_eq!(turns[0].status, "running");
    std::fs::write(h.path().join(format!("gate-{id}")), "").unwrap();
    let turns = wait_turns(&h.sup, "a", &id, 3).await;
    let outputs: Vec<&str> = turns.iter().map(|t| t.output.as_str()).collect();
    assert_eq!(outputs, ["one", "two", "three"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_non_zero_exit_fails_the_session_with_stderr_and_revokes_its_token() {
    let h = Harness::new().await;
    let id = h.spawn_ui("a", "fail", "x").await.id;
    let session = h.wait_status("a", &id, Status::Failed).await;
    let error = session.error.unwrap();
    assert!(
        error.contains("status 3") && error.contains("something broke"),
        "{error}"
    );
    let turn = &h.sup.transcript("a", &id).await.unwrap().turns[0];
    assert_eq!(turn.output, "partial\n");
    assert_eq!(turn.stderr, "something broke\n");
    assert_eq!(turn.exit_code, Some(3));
    assert_eq!(turn.status, "failed");
    // The failed turn ends with its `error` entry, though the program said nothing typed.
    assert_eq!(
        bodies(&h, &id).await.last(),
        Some(&EntryBody::Error { message: error })
    );
    eventually("revoke", || h.issuer.was_revoked(&id)).await;
    assert!(!h.sup.is_live(&id));
    let refused = h.sup.send(&ui("a"), &open_policy(), &id, "more").await;
    assert!(matches!(
        refused,
        Err(SessionError::SessionEnded {
            status: Status::Failed
        })
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_program_fails_with_the_reason() {
    let h = Harness::new().await;
    let id = h.spawn_ui("a", "missing", "x").await.id;
    let session = h.wait_status("a", &id, Status::Failed).await;
    let error = session.error.unwrap();
    // Said plainly, with where to fix it; the operating system's words kept last.
    assert!(
        error.starts_with(
            "The engine `missing` could not be started: the program \
             `/nonexistent/engine-binary` does not exist. Configure it in engines.toml \
             (docs/engines.md). ("
        ) && error.ends_with("(os error 2))"),
        "{error}"
    );
    assert_eq!(
        h.sup.transcript("a", &id).await.unwrap().turns[0]
            .error
            .as_deref(),
        Some(error.as_str())
    );
    assert_eq!(bodies(&h, &id).await, [EntryBody::Error { message: error }]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claude_engine_not_on_path_is_named_as_claude_code() {
    let h = Harness::new().await;
    let engines = h.data().join("engines.toml");
    let mut toml = std::fs::read_to_string(&engines).unwrap();
    toml.push_str(
        "\n[engines.nowhere]\nkind = \"claude\"\ncommand = [\"switchboard-test-no-such-claude\"]\n",
    );
    std::fs::write(&engines, toml).unwrap();
    let id = h.spawn_ui("a", "nowhere", "x").await.id;
    let error = h.wait_status("a", &id, Status::Failed).await.error.unwrap();
    assert_eq!(
        error,
        "Claude Code (engine `nowhere`) could not be started: the program \
         `switchboard-test-no-such-claude` was not found on PATH. Configure it in engines.toml \
         (docs/engines.md). (No such file or directory (os error 2))"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_ends_the_whole_process_tree() {
    let h = Harness::new().await;
    let id = h.spawn_ui("a", "tree", "x").await.id;
    let leader = read_pid(&h.path().join(format!("leader-{id}"))).await;
    let grandchild = read_pid(&h.path().join(format!("grandchild-{id}"))).await;
    assert!(alive(leader) && alive(grandchild));
    h.wait_status("a", &id, Status::Running).await;
    let session = h.sup.stop(&ui("a"), &id).await.unwrap();
    assert_eq!(session.status, Status::Stopped);
    eventually("the tree to die", || !alive(leader) && !alive(grandchild)).await;
    assert!(h.issuer.was_revoked(&id));
    assert!(!h.sup.is_live(&id));
    assert_eq!(
        h.sup.transcript("a", &id).await.unwrap().turns[0].status,
        "stopped"
    );
}

/// A process that left the engine's group (as Codex's commands do, each in
/// a session of its own) still ends with the stopped turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_ends_a_process_that_left_the_group() {
    let h = Harness::new().await;
    let id = h.spawn_ui("a", "escapee", "x").await.id;
    let escapee = read_pid(&h.path().join(format!("escapee-{id}"))).await;
    assert!(alive(escapee));
    h.wait_status("a", &id, Status::Running).await;
    let session = h.sup.stop(&ui("a"), &id).await.unwrap();
    assert_eq!(session.status, Status::Stopped);
    eventually("the escapee to die", || !alive(escapee)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_accounts_session_is_not_found() {
    let h = Harness::new().await;
    let id = h.spawn_ui("a", "echo", "x").await.id;
    assert!(matches!(
        h.sup.get("b", &id).await,
        Err(SessionError::NotFound)
    ));
    assert!(matches!(
        h.sup.transcript("b", &id).await,
        Err(SessionError::NotFound)
    ));
    assert!(matches!(
        h.sup.stop(&ui("b"), &id).await,
        Err(SessionError::NotFound)
    ));
    assert!(matches!(
        h.sup.send(&ui("b"), &open_policy(), &id, "hi").await,
        Err(SessionError::NotFound)
    ));
    assert!(h.sup.list("b").await.unwrap().is_empty());
    let second = h.spawn_ui("a", "echo", "y").await.id;
    let ids: Vec<String> = h
        .sup
        .list("a")
        .await
        .unwrap()
        .into_iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(ids, [second, id]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prompt_settings_prefix_the_first_turn_and_the_transcript_says_so() {
    let h = Harness::new().await;
    let prompts = PromptSettings {
        app_awareness: true,
        key_reminders: true,
        ..PromptSettings::default()
    };
    let id = h
        .sup
        .spawn(
            &ui("a"),
            &open_policy(),
            &prompts,
            request("echo", "do the thing"),
        )
        .await
        .unwrap()
        .session
        .id;
    h.wait_status("a", &id, Status::WaitingForInput).await;
    h.sup
        .send(&ui("a"), &open_policy(), &id, "and more")
        .await
        .unwrap();
    let turns = wait_turns(&h.sup, "a", &id, 2).await;
    let added = turns[0].added.clone().unwrap();
    assert!(added.contains("$APP_CLI_TOKEN") && added.contains("switchboard spawn"));
    assert_eq!(turns[0].input, "do the thing");
    // cat echoes what the engine received: the added text, then the prompt.
    assert!(turns[0].output.starts_with(&added));
    assert!(turns[0].output.ends_with("do the thing"));
    let reminders = turns[1].added.clone().unwrap();
    assert!(reminders.starts_with("Reminders:"));
    assert!(!reminders.contains("switchboard spawn"));
}

/// The instruction presets go into primary-engine (kind `claude`) sessions
/// only; the notes and the custom instructions go into every session.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn instruction_presets_go_into_primary_engine_sessions_only() {
    let h = Harness::new().await;
    let prompts = PromptSettings {
        default_instructions_enabled: true,
        default_instructions_custom: "Use tabs.".into(),
        app_awareness: true,
        ..PromptSettings::default()
    };
    for (engine, presets) in [("primary", true), ("second", false), ("echo", false)] {
        let id = h
            .sup
            .spawn(&ui("a"), &open_policy(), &prompts, request(engine, "go"))
            .await
            .unwrap()
            .session
            .id;
        let turns = wait_turns(&h.sup, "a", &id, 1).await;
        let added = turns[0].added.clone().unwrap();
        assert_eq!(
            added.contains("Standing instructions:"),
            presets,
            "{engine}: {added}"
        );
        assert!(added.contains("$APP_CONTROL_URL"), "{engine}: {added}");
        assert!(added.contains("Use tabs."), "{engine}: {added}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claude_adapter_records_reply_id_cost_and_resumes_with_the_latest_id() {
    let h = Harness::new().await;
    let id = h.spawn_ui("a", "primary", "hi").await.id;
    let session = h.wait_status("a", &id, Status::WaitingForInput).await;
    assert_eq!(session.engine_kind, "claude");
    assert_eq!(session.engine_session_id.as_deref(), Some("c-1"));
    assert_eq!(session.cost_usd, Some(0.25));
    assert_eq!(session.engine_turns, 2);
    assert_eq!(session.tokens.output, 20);
    assert_eq!(
        h.sup.transcript("a", &id).await.unwrap().turns[0].output,
        "Hello from claude"
    );

    h.sup
        .send(&ui("a"), &open_policy(), &id, "more")
        .await
        .unwrap();
    let turns = wait_turns(&h.sup, "a", &id, 2).await;
    let session = h.sup.get("a", &id).await.unwrap();
    assert_eq!(session.engine_session_id.as_deref(), Some("c-2"));
    assert_eq!(session.cost_usd, Some(0.5));
    assert_eq!(turns[1].output, "Resumed c-1");
    assert_eq!(turns[1].engine_session_id.as_deref(), Some("c-2"));
    let log = std::fs::read_to_string(h.path().join("claude.log")).unwrap();
    assert_eq!(log, "resume=\nresume=c-1\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claude_not_logged_in_fails_with_its_own_message() {
    let h = Harness::new().await;
    let id = h.spawn_ui("a", "primary", "LOGOUT please").await.id;
    let session = h.wait_status("a", &id, Status::Failed).await;
    assert_eq!(
        session.error.as_deref(),
        Some("Not logged in · Please run /login")
    );
    let turn = &h.sup.transcript("a", &id).await.unwrap().turns[0];
    assert_eq!(turn.exit_code, Some(1));
    assert!(turn.output.contains("Not logged in"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codex_adapter_records_reply_and_tokens_and_resumes_the_thread() {
    let h = Harness::new().await;
    let id = h.spawn_ui("a", "second", "go").await.id;
    let session = h.wait_status("a", &id, Status::WaitingForInput).await;
    assert_eq!(session.engine_kind, "codex");
    assert_eq!(session.engine_session_id.as_deref(), Some("x-1"));
    assert_eq!(session.cost_usd, None);
    assert_eq!(session.tokens.output, 122);
    assert_eq!(
        h.sup.transcript("a", &id).await.unwrap().turns[0].output,
        "Done."
    );
    h.sup
        .send(&ui("a"), &open_policy(), &id, "again")
        .await
        .unwrap();
    let turns = wait_turns(&h.sup, "a", &id, 2).await;
    assert_eq!(turns[1].output, "Continued x-1");
    let id = h.spawn_ui("a", "second", "FAILTURN").await.id;
    let session = h.wait_status("a", &id, Status::Failed).await;
    assert_eq!(
        session.error.as_deref(),
        Some("stream disconnected before completion")
    );
    let turn = &h.sup.transcript("a", &id).await.unwrap().turns[0];
    assert_eq!(turn.stderr, "progress goes to stderr\n");
    // The retried error is a notice; only `turn.failed` is the turn's error.
    // Stderr's order against stdout is not known (a line after a quiet
    // spell is stored at once), so it is left out.
    let mut bodies = bodies(&h, &id).await;
    bodies.retain(|b| !matches!(b, EntryBody::Stderr { .. }));
    assert_eq!(
        bodies[..2],
        [
            EntryBody::Notice {
                text: "Reconnecting... 1/5".into(),
                source: NoticeSource::Engine
            },
            EntryBody::Error {
                message: "stream disconnected before completion".into()
            },
        ]
    );
    assert_eq!(
        bodies
            .iter()
            .filter(|b| matches!(b, EntryBody::Error { .. }))
            .count(),
        1,
        "{bodies:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_engine_and_a_bad_cwd_are_refused_up_front() {
    let h = Harness::new().await;
    let unknown = h
        .sup
        .spawn(
            &ui("a"),
            &open_policy(),
            &PromptSettings::default(),
            request("nope", "x"),
        )
        .await;
    assert!(matches!(unknown, Err(SessionError::UnknownEngine { .. })));
    let mut req = request("echo", "x");
    req.cwd = Some("relative/dir".into());
    let bad = h
        .sup
        .spawn(&ui("a"), &open_policy(), &PromptSettings::default(), req)
        .await;
    assert!(matches!(bad, Err(SessionError::InvalidInput(_))));
    assert!(h.sup.list("a").await.unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_entry_is_stored_with_the_supervisor_clocks_time_and_announced_with_it() {
    let h = Harness::new().await;
    let moment = time::macros::datetime!(2026-01-05 09:00:00.250 UTC);
    h.clock.set(moment);
    let mut output = h.sup.subscribe_output();
    let id = h.spawn_ui("a", "echo", "hello").await.id;
    h.wait_status("a", &id, Status::WaitingForInput).await;
    let page = h
        .sup
        .entries("a", &id, PageFrom::After(0), 1000)
        .await
        .unwrap();
    assert!(page.entries.len() >= 2, "{:?}", page.entries);
    for entry in &page.entries {
        assert_eq!(
            entry.at.as_deref(),
            Some("2026-01-05T09:00:00.250Z"),
            "{entry:?}"
        );
    }
    let announced = output.recv().await.unwrap();
    assert_eq!(announced.entries[0].seq, page.entries[0].seq);
    assert_eq!(announced.at, "2026-01-05T09:00:00.250Z");
}
