//! A server short of open files refuses new sessions whole, with an error
//! that names the limit, while it still answers its clients and keeps the
//! sessions it has; the engines get the limit the server was started with.

mod common;

use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::json;

const LIMIT: u64 = 200;

#[test]
fn sessions_stop_at_the_reserve_and_the_server_still_answers() {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let limit_seen = scratch.path().join("limit");
    std::fs::write(
        dir.path().join("engines.toml"),
        format!(
            "[engines.holder]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"ulimit -n > {}; exec sleep 600\"]\n",
            limit_seen.display()
        ),
    )
    .unwrap();
    let server = TestServer::start_with_open_file_limit(dir, LIMIT);
    let cookie = server.browser_cookie();
    let body = json!({"engine": "holder", "prompt": "hold", "cwd": scratch.path()});

    let mut started = Vec::new();
    let refused = loop {
        let reply = server.browser_spawn(&cookie, &body);
        if reply.status != 201 {
            break reply;
        }
        let id = reply.json()["id"].as_str().unwrap().to_owned();
        server.wait_for_status(&id, "running");
        started.push(id);
        assert!(started.len() < LIMIT as usize, "never refused");
    };
    assert_eq!(refused.status, 503, "{}", refused.text());
    assert_eq!(refused.error_code(), "resource_exhausted");
    let message = refused.json()["error"]["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        message.contains(&format!("of the {LIMIT} open files")),
        "{message}"
    );
    // Each running session holds three descriptors; below a couple of dozen,
    // something per session is held open that need not be.
    assert!(started.len() >= 20, "only {} sessions", started.len());

    // The reserve is what lets the server go on answering.
    assert_eq!(server.call("GET", "/settings", None).status, 200);
    for id in &started {
        let session = server.call("GET", &format!("/sessions/{id}"), None).json();
        assert_eq!(session["status"], "running", "{session}");
    }
    assert_eq!(
        std::fs::read_to_string(&limit_seen).unwrap().trim(),
        LIMIT.to_string()
    );

    // Room made is room to start again.
    for id in started.iter().take(3) {
        let stopped = server.call("POST", &format!("/sessions/{id}/stop"), None);
        assert_eq!(stopped.status, 202, "{}", stopped.text());
        server.wait_for_status(id, "stopped");
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let reply = server.browser_spawn(&cookie, &body);
        if reply.status == 201 {
            break;
        }
        assert_eq!(reply.error_code(), "resource_exhausted", "{}", reply.text());
        assert!(
            Instant::now() < deadline,
            "no room after stopping three sessions"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
