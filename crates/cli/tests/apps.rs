//! Running apps through a real server, real dev servers (Python's
//! `http.server`) and the real proxy: a session's turn gets `PORT`, `HOST`
//! and `APP_URL`; two worktree sessions of one repository starting the same
//! command get two ports and two names, both served through the proxy;
//! stopping kills the tree and frees the port; a server the engine starts
//! its own way is found; a foreign Host is refused; an agent sees only its
//! own session's apps; a crash loop ends `failing` with one inbox row; and
//! bad input changes nothing.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{TestServer, git, raw_request};
use serde_json::{Value, json};

/// Engines: `env` writes the app variables where the test reads them;
/// `serve` runs a dev server its own way for a few seconds; `idle` does nothing.
fn server(scratch: &Path, args: &[&str]) -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let script = |name: &str, body: &str| {
        let path = scratch.join(format!("{name}.sh"));
        std::fs::write(&path, body).unwrap();
        path.display().to_string()
    };
    let env = script(
        "env",
        &format!(
            "printf '%s\\n%s\\n%s\\n' \"$PORT\" \"$HOST\" \"$APP_URL\" > {}/env-$APP_SESSION_ID\n",
            scratch.display()
        ),
    );
    let serve = script(
        "serve",
        "python3 -m http.server \"$PORT\" --bind 127.0.0.1 >/dev/null 2>&1 &\nsleep 8\n",
    );
    let toml = format!(
        "[engines.env]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"{env}\"]\n\n\
         [engines.serve]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"{serve}\"]\n\n\
         [engines.idle]\nkind = \"command\"\ncommand = [\"/bin/true\"]\n"
    );
    std::fs::write(dir.path().join("engines.toml"), toml).unwrap();
    TestServer::start_in_with(dir, args)
}

fn proxy_address(server: &TestServer) -> String {
    let file: Value = serde_json::from_str(
        &std::fs::read_to_string(server.data_dir().join("server.json")).unwrap(),
    )
    .unwrap();
    let url = file["appsUrl"].as_str().expect("server.json names appsUrl");
    let port = url.rsplit(':').next().unwrap();
    format!("127.0.0.1:{port}")
}

/// A GET through the proxy with `Host: <host>`.
fn through_proxy(server: &TestServer, host: &str) -> common::Reply {
    let proxy = proxy_address(server);
    let port = proxy.rsplit(':').next().unwrap();
    raw_request(
        &proxy,
        "GET",
        "/",
        &format!("Host: {host}:{port}\r\n"),
        &[],
        None,
    )
}

fn spawn(server: &TestServer, cookie: &str, body: Value) -> String {
    let reply = server.browser_spawn(cookie, &body);
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()["id"].as_str().unwrap().to_owned()
}

fn until<T>(what: &str, mut found: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(value) = found() {
            return value;
        }
        assert!(Instant::now() < deadline, "never: {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn apps(server: &TestServer, query: &str) -> Vec<Value> {
    let reply = server.call("GET", &format!("/apps{query}"), None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json().as_array().unwrap().clone()
}

fn repository(parent: &Path) -> PathBuf {
    let root = parent.join("shop");
    std::fs::create_dir_all(&root).unwrap();
    git(&root, &["init", "--quiet"]);
    std::fs::write(root.join("index.html"), "<h1>shop</h1>\n").unwrap();
    git(&root, &["add", "."]);
    git(&root, &["commit", "--quiet", "-m", "first"]);
    root
}

fn port_is_free(port: u16) -> bool {
    std::net::TcpListener::bind(("127.0.0.1", port)).is_ok()
}

#[test]
fn the_proxy_is_announced_and_a_turn_gets_its_port_host_and_url() {
    let scratch = tempfile::tempdir().unwrap();
    let server = server(scratch.path(), &[]);
    let proxy = server.call("GET", "/apps/proxy", None).json();
    let port = proxy["port"].as_u64().unwrap();
    assert_eq!(proxy["url"], format!("http://localhost:{port}"));
    assert_eq!(proxy_address(&server), format!("127.0.0.1:{port}"));

    let cookie = server.browser_cookie();
    let folder = scratch.path().join("Plain Folder");
    std::fs::create_dir_all(&folder).unwrap();
    let id = spawn(
        &server,
        &cookie,
        json!({"engine": "env", "prompt": "go", "cwd": folder}),
    );
    let written = common::written(&scratch.path().join(format!("env-{id}")));
    let lines: Vec<&str> = written.lines().collect();
    let session_port: u16 = lines[0].parse().unwrap();
    assert!((4100..=4999).contains(&session_port), "{session_port}");
    assert_eq!(lines[1], "127.0.0.1");
    assert_eq!(lines[2], format!("http://plain-folder.localhost:{port}/"));
}

#[test]
fn two_worktrees_of_one_repository_get_two_names_and_ports_both_served_until_stopped() {
    let scratch = tempfile::tempdir().unwrap();
    let server = server(scratch.path(), &[]);
    let cookie = server.browser_cookie();
    let root = repository(scratch.path());
    let body = json!({"engine": "idle", "prompt": "go", "cwd": root, "isolation": "worktree"});
    let first = spawn(&server, &cookie, body.clone());
    let second = spawn(&server, &cookie, body);
    let command = "python3 -m http.server \"$PORT\" --bind 127.0.0.1";
    let mut started = Vec::new();
    for id in [&first, &second] {
        let reply = server.call(
            "POST",
            "/apps",
            Some(&json!({"sessionId": id, "name": "web", "command": command})),
        );
        assert_eq!(reply.status, 201, "{}", reply.text());
        started.push(reply.json());
    }
    let names: Vec<&str> = started
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(names[0], format!("web.{}", &first[first.len() - 8..]));
    assert_eq!(names[1], format!("web.{}", &second[second.len() - 8..]));
    assert_ne!(started[0]["port"], started[1]["port"]);
    for app in &started {
        assert_eq!(app["state"], "running");
        assert_eq!(app["origin"], "started");
        let host = format!("{}.localhost", app["name"].as_str().unwrap());
        let reply = until("the app answers through the proxy", || {
            let reply = through_proxy(&server, &host);
            (reply.status == 200).then_some(reply)
        });
        assert!(reply.text().contains("<h1>shop</h1>"), "{}", reply.text());
    }

    let port = started[0]["port"].as_u64().unwrap() as u16;
    let name = names[0];
    let reply = server.call("POST", &format!("/apps/{name}/stop"), None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["state"], "exited");
    until("the port is free again", || {
        port_is_free(port).then_some(())
    });
    let gone = through_proxy(&server, &format!("{name}.localhost"));
    assert_eq!(gone.status, 502, "{}", gone.text());
    assert!(
        gone.text().contains(names[1]),
        "the page lists what runs: {}",
        gone.text()
    );

    let output = server.call("GET", &format!("/apps/{}/output", names[1]), None);
    assert_eq!(output.status, 200);

    // Archiving the second session stops its app.
    let second_port = started[1]["port"].as_u64().unwrap() as u16;
    let reply = server.call("POST", &format!("/sessions/{second}/archive"), None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    until("archiving stops the session's app", || {
        port_is_free(second_port).then_some(())
    });
}

#[test]
fn a_server_the_engine_starts_its_own_way_is_found_and_a_foreign_host_is_refused() {
    let scratch = tempfile::tempdir().unwrap();
    let server = server(scratch.path(), &[]);
    let cookie = server.browser_cookie();
    let folder = scratch.path().join("blog");
    std::fs::create_dir_all(&folder).unwrap();
    let id = spawn(
        &server,
        &cookie,
        json!({"engine": "serve", "prompt": "go", "cwd": folder}),
    );
    let found = until("the engine's server is listed", || {
        apps(&server, "")
            .into_iter()
            .find(|a| a["sessionId"] == id.as_str())
    });
    assert_eq!(found["name"], "blog");
    assert_eq!(found["origin"], "detected");
    assert!(
        found["command"].as_str().unwrap().contains("http.server"),
        "{found}"
    );
    let reply = until("the found server answers through the proxy", || {
        let reply = through_proxy(&server, "blog.localhost");
        (reply.status == 200).then_some(reply)
    });
    assert!(
        reply.text().contains("Directory listing"),
        "{}",
        reply.text()
    );

    for host in ["evil.example", "localhost", "127.0.0.1"] {
        assert_eq!(through_proxy(&server, host).status, 403, "{host}");
    }
    let unknown = through_proxy(&server, "nothing.localhost");
    assert_eq!(unknown.status, 404);
    assert!(
        unknown.text().contains("blog.localhost"),
        "{}",
        unknown.text()
    );
}

#[test]
fn an_agent_sees_only_its_own_sessions_apps() {
    let server = TestServer::with_token_holders(|_| {});
    let (mine, token) = server.holder_session();
    let (other, _) = server.holder_session();
    let command = "python3 -m http.server \"$PORT\" --bind 127.0.0.1";
    let reply = server.call(
        "POST",
        "/apps",
        Some(&json!({"sessionId": other, "name": "other", "command": command})),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let other_name = reply.json()["name"].as_str().unwrap().to_owned();
    let reply = server.call_as(
        &token,
        "POST",
        "/apps",
        Some(&json!({"sessionId": mine, "name": "mine", "command": command})),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());

    let listed = server.call_as(&token, "GET", "/apps", None).json();
    let names: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 1, "{listed}");
    assert!(names[0].starts_with("mine"), "{listed}");
    for (method, path) in [
        ("POST", format!("/apps/{other_name}/stop")),
        ("GET", format!("/apps/{other_name}/output")),
    ] {
        assert_eq!(
            server.call_as(&token, method, &path, None).status,
            404,
            "{path}"
        );
    }
    let foreign = server.call_as(
        &token,
        "POST",
        "/apps",
        Some(&json!({"sessionId": other, "name": "sneak", "command": command})),
    );
    assert_eq!(foreign.status, 404);
    assert_eq!(apps(&server, "").len(), 2);
}

#[test]
fn a_crash_loop_ends_failing_with_one_inbox_row_and_bad_input_changes_nothing() {
    let scratch = tempfile::tempdir().unwrap();
    let server = server(scratch.path(), &["--manual-clock"]);
    let cookie = server.browser_cookie();
    let id = spawn(
        &server,
        &cookie,
        json!({"engine": "idle", "prompt": "go", "cwd": scratch.path()}),
    );

    for (body, code, field) in [
        (
            json!({"sessionId": id, "name": "Bad Name", "command": "true"}),
            400,
            "name",
        ),
        (json!({"sessionId": id, "name": "web"}), 400, "command"),
        (
            json!({"sessionId": "nope", "name": "web", "command": "true"}),
            404,
            "",
        ),
    ] {
        let reply = server.call("POST", "/apps", Some(&body));
        assert_eq!(reply.status, code, "{body}: {}", reply.text());
        if !field.is_empty() {
            assert_eq!(reply.json()["error"]["field"], field, "{}", reply.text());
        }
    }
    assert!(apps(&server, "").is_empty());

    let reply = server.call(
        "POST",
        "/apps",
        Some(&json!({"sessionId": id, "name": "crash", "command": "echo boom; exit 3"})),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let name = reply.json()["name"].as_str().unwrap().to_owned();
    let failing = until("the crash loop is failing", || {
        let clock = server.call("POST", "/test/clock", Some(&json!({"advanceMs": 2_000})));
        assert_eq!(clock.status, 204);
        apps(&server, "")
            .into_iter()
            .find(|a| a["state"] == "failing")
    });
    assert_eq!(failing["name"], name.as_str());
    assert_eq!(failing["exitStatus"], 3);
    let output = server
        .call("GET", &format!("/apps/{name}/output"), None)
        .json();
    assert!(
        output["lines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l == "boom"),
        "{output}"
    );
    let rows = until("one inbox row says so", || {
        let rows = server.call("GET", "/inbox", None).json();
        let rows: Vec<Value> = rows
            .as_array()
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .filter(|r| {
                r["title"]
                    .as_str()
                    .is_some_and(|t| t.contains("keeps crashing"))
            })
            .collect();
        (!rows.is_empty()).then_some(rows)
    });
    assert_eq!(rows.len(), 1);

    server.set_setting("runningAppsEnabled", json!(false));
    let off = server.call("GET", "/apps", None);
    assert_eq!(off.status, 403);
    assert_eq!(off.error_code(), "apps_disabled");
}
