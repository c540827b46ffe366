//! `switchboard serve` as a user and an attacker see it: files it writes,
//! guards on both listeners, credentials, error shapes, the settings API and
//! its process effects, startup failures.

mod common;

use std::os::unix::fs::PermissionsExt;

use common::{Reply, TestServer, raw_request, request};
use serde_json::{Value, json};

fn assert_error(reply: &Reply, status: u16, code: &str) {
    assert_eq!(reply.status, status, "{}", reply.text());
    assert_eq!(reply.error_code(), code, "{}", reply.text());
    assert!(
        reply.json()["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty())
    );
}

#[test]
fn first_start_writes_token_and_server_file_and_a_clean_stop_removes_it() {
    let mut server = TestServer::start();
    let token_path = server.data_dir().join("cli-token");
    let mode = std::fs::metadata(&token_path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    assert!(server.token.len() >= 22);
    let info: Value = serde_json::from_str(
        &std::fs::read_to_string(server.data_dir().join("server.json")).unwrap(),
    )
    .unwrap();
    assert!(
        info["controlUrl"]
            .as_str()
            .unwrap()
            .starts_with("http://127.0.0.1:")
    );
    assert!(
        info["uiUrl"]
            .as_str()
            .unwrap()
            .starts_with("http://127.0.0.1:")
    );
    assert!(server.data_dir().join("switchboard.db").exists());

    let status = server.stop();
    assert!(status.success());
    assert!(!server.data_dir().join("server.json").exists());

    let token_before = server.token.clone();
    let server = server.restart();
    assert_eq!(
        server.token, token_before,
        "the token is kept across restarts"
    );
    assert_eq!(server.call("GET", "/settings", None).status, 200);
}

#[test]
fn host_header_allowlist_on_both_listeners() {
    let server = TestServer::start();
    for addr in [server.control(), server.ui.as_str()] {
        let port = addr.rsplit(':').next().unwrap();
        for good in [
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            format!("[::1]:{port}"),
            format!("LocalHost:{port}"),
        ] {
            let reply = raw_request(
                addr,
                "GET",
                "/settings",
                &format!("Host: {good}\r\n"),
                &[],
                None,
            );
            assert_ne!(reply.status, 403, "{good} on {addr}");
        }
        for bad in [
            "Host: evil.example\r\n".to_owned(),
            format!("Host: localhost.evil.example:{port}\r\n"),
            "Host: 127.0.0.1:1\r\n".to_owned(),
            format!("Host: 0.0.0.0:{port}\r\n"),
            "Host: \r\n".to_owned(),
            String::new(),
        ] {
            let reply = raw_request(addr, "GET", "/settings", &bad, &[], None);
            assert_error(&reply, 403, "forbidden_host");
        }
    }
}

#[test]
fn origin_check_on_both_listeners_and_no_cors_headers() {
    let server = TestServer::start();
    let ui_port = server.ui.rsplit(':').next().unwrap().to_owned();
    let auth = format!("Bearer {}", server.token);
    let ui_origin = format!("http://127.0.0.1:{ui_port}");
    let ok = request(
        server.control(),
        "GET",
        "/settings",
        &[("Authorization", &auth), ("Origin", &ui_origin)],
        None,
    );
    assert_eq!(ok.status, 200);
    for bad in [
        "http://evil.example",
        "null",
        &format!("http://127.0.0.1:{}", ui_port.parse::<u16>().unwrap() + 1),
    ] {
        for addr in [server.control(), server.ui.as_str()] {
            let reply = request(
                addr,
                "GET",
                "/settings",
                &[("Authorization", &auth), ("Origin", bad)],
                None,
            );
            assert_error(&reply, 403, "forbidden_origin");
        }
    }
    let plain = request(
        server.control(),
        "GET",
        "/settings",
        &[("Authorization", &auth)],
        None,
    );
    assert_eq!(plain.status, 200);
    assert!(
        plain
            .headers
            .iter()
            .all(|(n, _)| !n.to_ascii_lowercase().starts_with("access-control-"))
    );
}

#[test]
fn credentials_are_required_and_only_where_they_belong() {
    let server = TestServer::start();
    let control = server.control();
    assert_error(
        &request(control, "GET", "/settings", &[], None),
        401,
        "unauthenticated",
    );
    for bad in [
        "Bearer wrong",
        "Bearer ",
        "Basic abc",
        "Bearer aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    ] {
        assert_error(
            &request(control, "GET", "/settings", &[("Authorization", bad)], None),
            401,
            "unauthenticated",
        );
    }
    let too_long = format!("Bearer {}x", server.token);
    assert_error(
        &request(
            control,
            "GET",
            "/settings",
            &[("Authorization", &too_long)],
            None,
        ),
        401,
        "unauthenticated",
    );
    let in_query = format!("/settings?token={}", server.token);
    assert_error(
        &request(control, "GET", &in_query, &[], None),
        401,
        "unauthenticated",
    );

    // The UI server's API takes only its cookie, never a bearer token.
    let auth = format!("Bearer {}", server.token);
    assert_error(
        &request(
            &server.ui,
            "GET",
            "/api/settings",
            &[("Authorization", &auth)],
            None,
        ),
        401,
        "unauthenticated",
    );
    assert_error(
        &request(
            &server.ui,
            "GET",
            &format!("/api/settings?token={}", server.token),
            &[],
            None,
        ),
        401,
        "unauthenticated",
    );
}

#[test]
fn ui_login_sets_a_strict_http_only_cookie_that_only_the_ui_api_accepts() {
    let server = TestServer::start();
    let login = request(
        &server.ui,
        "GET",
        &format!("/login?token={}&next=/dashboards/x", server.token),
        &[],
        None,
    );
    assert_eq!(login.status, 303);
    assert_eq!(login.header("location"), Some("/dashboards/x"));
    let cookie = login.header("set-cookie").unwrap().to_owned();
    assert!(cookie.contains("HttpOnly"));
    assert!(cookie.contains("SameSite=Strict"));
    let pair = cookie.split(';').next().unwrap().to_owned();

    let settings = request(
        &server.ui,
        "GET",
        "/api/settings",
        &[("Cookie", &pair)],
        None,
    );
    assert_eq!(settings.status, 200);
    assert!(settings.json().get("cliServerEnabled").is_some());
    let me = request(&server.ui, "GET", "/api/me", &[("Cookie", &pair)], None);
    assert_eq!(me.json()["isOwner"], true);

    // The cookie is no credential on the control server.
    assert_error(
        &request(
            server.control(),
            "GET",
            "/settings",
            &[("Cookie", &pair)],
            None,
        ),
        401,
        "unauthenticated",
    );

    let open_redirect = request(
        &server.ui,
        "GET",
        &format!("/login?token={}&next=//evil.example", server.token),
        &[],
        None,
    );
    assert_eq!(open_redirect.header("location"), Some("/"));
    assert_error(
        &request(&server.ui, "GET", "/login?token=wrong", &[], None),
        401,
        "unauthenticated",
    );
    // A browser that opened a stale link gets a page that says what to do, not JSON.
    let page = request(
        &server.ui,
        "GET",
        "/login?token=wrong",
        &[("Accept", "text/html,application/xhtml+xml")],
        None,
    );
    assert_eq!(page.status, 401);
    assert!(
        page.header("content-type")
            .unwrap_or_default()
            .starts_with("text/html"),
        "{:?} {}",
        page.headers,
        page.text()
    );
    assert!(page.header("set-cookie").is_none());
    assert!(
        page.text().contains("This login link is not valid"),
        "{}",
        page.text()
    );
}

/// A PATCH with the owner's token, a JSON content type and `body` as sent.
fn patch_raw(server: &TestServer, path: &str, body: &[u8]) -> Reply {
    let auth = format!("Bearer {}", server.token);
    request(
        server.control(),
        "PATCH",
        path,
        &[
            ("Authorization", &auth),
            ("Content-Type", "application/json"),
        ],
        Some(body),
    )
}

#[test]
fn bodies_must_be_small_json_and_every_error_has_the_shape() {
    let server = TestServer::start();
    let control = server.control();
    let auth = format!("Bearer {}", server.token);
    let path = "/settings/heardAboutUs";

    let huge = vec![b' '; 2 * 1024 * 1024];
    let reply = patch_raw(&server, path, &huge);
    assert_error(&reply, 413, "payload_too_large");

    let reply = request(
        control,
        "PATCH",
        path,
        &[("Authorization", &auth), ("Content-Type", "text/plain")],
        Some(b"{\"value\":\"x\"}"),
    );
    assert_error(&reply, 415, "unsupported_media_type");
    let reply = request(
        control,
        "PATCH",
        path,
        &[("Authorization", &auth)],
        Some(b"{\"value\":\"x\"}"),
    );
    assert_error(&reply, 415, "unsupported_media_type");

    let reply = patch_raw(&server, path, b"{\"value\": \"x");
    assert_error(&reply, 400, "invalid_json");
    let reply = patch_raw(&server, path, b"[1]");
    assert_eq!(reply.status, 400);
    let reply = patch_raw(&server, path, b"{\"nope\": 1}");
    assert_error(&reply, 400, "invalid_request");

    assert_error(
        &server.call("GET", "/no/such/route", None),
        404,
        "not_found",
    );
    assert_error(
        &server.call("PUT", "/settings", None),
        405,
        "method_not_allowed",
    );
    // axum's own query-string rejection: the shape, and the sentence saying what was wrong.
    let reply = server.call("GET", "/events?limit=many", None);
    assert_error(&reply, 400, "invalid_request");
    assert!(
        reply.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("limit"),
        "{}",
        reply.text()
    );
    assert_error(
        &request(&server.ui, "GET", "/api/no/such/route", &[], None),
        404,
        "not_found",
    );
    assert_eq!(
        server.call("GET", "/settings/heardAboutUs", None).json()["value"],
        ""
    );
}

#[test]
fn settings_api_reads_changes_refuses_and_resets() {
    let server = TestServer::start();
    let all = server.call("GET", "/settings", None).json();
    assert_eq!(
        all.as_object().unwrap().len(),
        settings::definitions().len()
    );
    assert_eq!(all["cliServerEnabled"], true);
    assert_eq!(all["agentDrivenSessionsEnabled"], false);
    assert_eq!(all["requireSpawnSourceSession"], true);

    let one = server
        .call("GET", "/settings/sessionCpuCapPercent", None)
        .json();
    assert_eq!(one["key"], "sessionCpuCapPercent");
    assert_eq!(one["type"], "number");
    assert_eq!(one["value"], one["default"]);

    let changed = server.call(
        "PATCH",
        "/settings/sessionCpuCapPercent",
        Some(&json!({"value": 55})),
    );
    assert_eq!(changed.status, 200, "{}", changed.text());
    assert_eq!(
        changed.json(),
        json!({"key": "sessionCpuCapPercent", "value": 55})
    );

    for refused in [
        json!(57),
        json!(20),
        json!(95),
        json!("55"),
        json!(true),
        json!(null),
        json!(55.5),
    ] {
        let reply = server.call(
            "PATCH",
            "/settings/sessionCpuCapPercent",
            Some(&json!({"value": refused})),
        );
        assert_error(&reply, 400, "invalid_value");
        let message = reply.json()["error"]["message"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(
            message.contains("25") && message.contains("90") && message.contains('5'),
            "{message}"
        );
    }
    assert_eq!(
        server
            .call("GET", "/settings/sessionCpuCapPercent", None)
            .json()["value"],
        55
    );

    assert_error(
        &server.call(
            "PATCH",
            "/settings/agentAlertsEnabled",
            Some(&json!({"value": "true"})),
        ),
        400,
        "invalid_value",
    );
    assert_error(
        &server.call(
            "PATCH",
            "/settings/agentAlertsEnabled",
            Some(&json!({"value": 1})),
        ),
        400,
        "invalid_value",
    );
    assert_error(
        &server.call("GET", "/settings/noSuchKey", None),
        404,
        "unknown_setting",
    );
    assert_error(
        &server.call("PATCH", "/settings/noSuchKey", Some(&json!({"value": 1}))),
        404,
        "unknown_setting",
    );

    let reset = server
        .call("DELETE", "/settings/sessionCpuCapPercent", None)
        .json();
    assert_eq!(reset["value"], reset["default"]);

    let server = server.crash_and_restart();
    assert_eq!(
        server
            .call("GET", "/settings/sessionCpuCapPercent", None)
            .json()["value"],
        reset["default"]
    );
    server.call(
        "PATCH",
        "/settings/heardAboutUs",
        Some(&json!({"value": "a friend"})),
    );
    let server = server.crash_and_restart();
    assert_eq!(
        server.call("GET", "/settings/heardAboutUs", None).json()["value"],
        "a friend"
    );
}

#[test]
fn other_accounts_read_settings_but_only_the_owner_changes_them() {
    let server = TestServer::start();
    let created = server.call("POST", "/accounts", Some(&json!({"name": "teammate"})));
    assert_eq!(created.status, 201, "{}", created.text());
    let other = created.json()["token"].as_str().unwrap().to_owned();
    assert!(created.json()["id"].as_str().is_some());

    assert_eq!(server.call_as(&other, "GET", "/settings", None).status, 200);
    let reply = server.call_as(
        &other,
        "PATCH",
        "/settings/heardAboutUs",
        Some(&json!({"value": "x"})),
    );
    assert_error(&reply, 403, "owner_only");
    assert_error(
        &server.call_as(&other, "DELETE", "/settings/heardAboutUs", None),
        403,
        "owner_only",
    );
    assert_error(
        &server.call_as(&other, "POST", "/accounts", Some(&json!({"name": "third"}))),
        403,
        "owner_only",
    );
    assert_error(
        &server.call("POST", "/accounts", Some(&json!({"name": ""}))),
        400,
        "invalid_request",
    );
}

#[test]
fn restart_route_is_disabled_until_allowed() {
    let server = TestServer::start();
    assert_error(
        &server.call("POST", "/app/restart", None),
        403,
        "restart_disabled",
    );
}

#[test]
fn turning_the_control_server_off_takes_effect_at_the_next_launch() {
    let server = TestServer::start();
    server.set_setting("cliServerEnabled", json!(false));
    let old_control = server.control().to_owned();
    assert_eq!(
        server
            .call("GET", "/settings/cliServerEnabled", None)
            .json()["value"],
        false
    );

    let server = server.restart();
    assert!(server.control.is_none());
    let info: Value = serde_json::from_str(
        &std::fs::read_to_string(server.data_dir().join("server.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(info["controlUrl"], Value::Null);
    // Nothing takes the cli token where the control server was: the port is closed, or whatever
    // took it since (this server's UI listener, another test's server) refuses the token.
    let auth = format!("Bearer {}", server.token);
    let control_answers = std::net::TcpStream::connect(&old_control).is_ok() && {
        let me = request(
            &old_control,
            "GET",
            "/me",
            &[("Authorization", &auth)],
            None,
        );
        serde_json::from_slice::<Value>(&me.body).is_ok_and(|me| me["tokenKind"] == "cli")
    };
    assert!(
        !control_answers,
        "the control API still answers at {old_control}"
    );

    // The UI still works, and the CLI says plainly that it cannot connect.
    assert_eq!(request(&server.ui, "GET", "/", &[], None).status, 200);
    let output = server.cli(&["settings", "get", "cliServerEnabled"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("cliServerEnabled"));
}

#[test]
fn the_cli_reads_and_changes_settings_and_reports_refusals() {
    let server = TestServer::start();
    let run = |args: &[&str]| server.cli(args);
    let set = run(&["settings", "set", "pmColorMode", "dark"]);
    assert!(
        set.status.success(),
        "{}",
        String::from_utf8_lossy(&set.stderr)
    );
    let get = run(&["settings", "get", "pmColorMode", "--json"]);
    let value: Value = serde_json::from_slice(&get.stdout).unwrap();
    assert_eq!(value["value"], "dark");
    let list = run(&["settings", "list", "--json"]);
    let all: Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(all["pmColorMode"], "dark");

    let refused = run(&["settings", "set", "pmColorMode", "purple"]);
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("invalid_value") && stderr.contains("dark"),
        "{stderr}"
    );
    let number = run(&["settings", "set", "toastDisplayDurationSeconds", "12"]);
    assert!(number.status.success());
    assert_eq!(
        server
            .call("GET", "/settings/toastDisplayDurationSeconds", None)
            .json()["value"],
        12
    );
}

#[test]
fn startup_failures_exit_non_zero_with_one_line() {
    let first = TestServer::start();
    let taken: u16 = first.control().rsplit(':').next().unwrap().parse().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let port_taken = common::serve::serve_command_on(dir.path(), taken)
        .output()
        .unwrap();
    let unwritable = tempfile::tempdir().unwrap();
    let file_as_dir = unwritable.path().join("a-file");
    std::fs::write(&file_as_dir, b"x").unwrap();
    let not_a_dir = common::serve::serve_command(&file_as_dir).output().unwrap();
    let corrupt_dir = tempfile::tempdir().unwrap();
    std::fs::write(corrupt_dir.path().join("switchboard.db"), vec![0x5a; 8192]).unwrap();
    let corrupt = common::serve::serve_command(corrupt_dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&port_taken.stderr);
    assert_eq!(
        stderr.trim_end(),
        format!(
            "switchboard: cannot listen on 127.0.0.1:{taken} for the control server: \
             Address already in use (os error 98)"
        ),
        "the cause is said once"
    );
    for (what, output) in [
        ("port taken", port_taken),
        ("not a directory", not_a_dir),
        ("corrupt db", corrupt),
    ] {
        assert!(!output.status.success(), "{what}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.trim_end().lines().count(), 1, "{what}: {stderr}");
        assert!(stderr.starts_with("switchboard: "), "{what}: {stderr}");
    }
}

/// Waits for the server to come back from a restart: the same process (exec
/// keeps the pid) rewrites server.json, whose new contents it returns.
fn restarted(server: &TestServer, before: &str) -> Value {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let info = loop {
        if let Ok(text) = std::fs::read_to_string(server.data_dir().join("server.json"))
            && text != before
            && let Ok(info) = serde_json::from_str::<Value>(&text)
        {
            break info;
        }
        assert!(std::time::Instant::now() < deadline, "no restart happened");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(
        info["pid"].as_u64(),
        Some(server.child.as_ref().unwrap().id() as u64)
    );
    info
}

#[test]
fn the_restart_route_restarts_in_place_when_allowed() {
    let server = TestServer::start();
    server.set_setting("allowAgentAppRestart", json!(true));
    let before = std::fs::read_to_string(server.data_dir().join("server.json")).unwrap();
    assert_eq!(server.call("POST", "/app/restart", None).status, 202);
    let info = restarted(&server, &before);
    let control = info["controlUrl"]
        .as_str()
        .unwrap()
        .trim_start_matches("http://");
    let auth = format!("Bearer {}", server.token);
    let reply = request(
        control,
        "GET",
        "/settings/allowAgentAppRestart",
        &[("Authorization", &auth)],
        None,
    );
    assert_eq!(reply.json()["value"], true);
}

#[test]
fn the_users_restart_button_works_whatever_the_setting_and_only_on_the_ui_server() {
    let server = TestServer::start();
    assert_eq!(
        server.call("POST", "/app/user-restart", None).status,
        404,
        "not on the control server"
    );
    let cookie = server.browser_cookie();
    let auth = format!("Bearer {}", server.token);
    let bearer = request(
        &server.ui,
        "POST",
        "/api/app/user-restart",
        &[("Authorization", &auth)],
        None,
    );
    assert_eq!(bearer.status, 401, "a token is no browser session");
    let before = std::fs::read_to_string(server.data_dir().join("server.json")).unwrap();
    let reply = request(
        &server.ui,
        "POST",
        "/api/app/user-restart",
        &[("Cookie", &cookie)],
        None,
    );
    assert_eq!(reply.status, 202, "{}", reply.text());
    let info = restarted(&server, &before);
    let ui = info["uiUrl"]
        .as_str()
        .unwrap()
        .trim_start_matches("http://");
    let me = request(ui, "GET", "/api/me", &[("Cookie", &cookie)], None);
    assert_eq!(me.status, 200, "the browser session survives the restart");
}

/// The web app's session check answers 200 signed in or not, so a visitor's
/// first page logs no failed request; it exists on the UI server only.
#[test]
fn the_browser_session_check_answers_visitors_without_a_failure() {
    let server = TestServer::start();
    assert_eq!(server.call("GET", "/session", None).status, 404);
    let visitor = request(&server.ui, "GET", "/api/session", &[], None);
    assert_eq!(visitor.status, 200);
    assert_eq!(visitor.json(), json!({"signedIn": false, "me": null}));
    let auth = format!("Bearer {}", server.token);
    let bearer = request(
        &server.ui,
        "GET",
        "/api/session",
        &[("Authorization", &auth)],
        None,
    );
    assert_eq!(
        bearer.json()["signedIn"],
        false,
        "a token is no browser session"
    );
    let cookie = server.browser_cookie();
    let signed_in = request(
        &server.ui,
        "GET",
        "/api/session",
        &[("Cookie", &cookie)],
        None,
    );
    let body = signed_in.json();
    assert_eq!(body["signedIn"], true);
    assert_eq!(body["me"]["tokenKind"], "ui");
    assert_eq!(body["me"]["isOwner"], true);
}
