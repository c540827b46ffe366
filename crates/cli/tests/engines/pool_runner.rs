//! The pinned real Claude Code on a pool runner (docs/runners.md): a
//! `switchboard runner --connect` process in its own user and mount
//! namespace, connected over TLS to the server's listener, runs a turn, a
//! follow-up that resumes the conversation kept in its home, and a stop
//! that ends the CLI and its command there.

use std::time::{Duration, Instant};

use serde_json::json;
use standins::Api;

use crate::claude::{bash_then_done, processes_with};
use crate::pool::{Pool, PoolRunner, listener_toml, wait_for_runner};
use crate::rig::Rig;

fn rig_on_pool() -> Option<(Rig, Pool, PoolRunner)> {
    let rig = Rig::start(Api::Anthropic, &[])?;
    std::fs::write(rig.server.data_dir().join("runners.toml"), listener_toml()).unwrap();
    rig.server
        .set_setting("cloudControlPlaneEnabled", json!(true));
    let pool = Pool::open(&rig.server);
    let runner = pool.start("pool-claude", &[]);
    wait_for_runner(&rig.server, "pool-claude", "connected");
    let rig = rig.on_pool(&runner);
    Some((rig, pool, runner))
}

#[test]
fn claude_on_a_pool_runner_resumes_its_conversation_and_stops() {
    let Some((rig, _pool, runner)) = rig_on_pool() else {
        return;
    };
    let id = rig.two_turns_on_the_runner("2.1.330");
    assert!(runner.home.path().join(".claude").is_dir());

    // A stop mid-command ends the CLI and its command on the runner.
    rig.set_level("autonomous");
    let marker = format!("sleep 30.{}", std::process::id());
    bash_then_done(&rig, &format!("echo started && {marker}"));
    rig.send(&id, "wait a while");
    let deadline = Instant::now() + Duration::from_secs(60);
    while processes_with(&marker).is_empty() {
        assert!(
            Instant::now() < deadline,
            "the command never started: {:?}",
            rig.entries(&id)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let reply = rig
        .server
        .call("POST", &format!("/sessions/{id}/stop"), None);
    assert!(reply.status < 300, "{}", reply.text());
    let deadline = Instant::now() + Duration::from_secs(10);
    while !processes_with(&marker).is_empty() {
        assert!(Instant::now() < deadline, "the command outlived the stop");
        std::thread::sleep(Duration::from_millis(20));
    }
    rig.server.wait_for_status(&id, "stopped");
}
