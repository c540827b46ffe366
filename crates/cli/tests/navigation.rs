//! Agents asking to move the user's view or bring the app forward, against
//! a real server: with no web app in front (none open, or its tab hidden)
//! the request becomes an inbox note that opens the view; with one in
//! front, a `navigate` event (a toast, or at once with
//! `allowAgentDirectNavigation`); a foreground request from behind becomes a
//! `foreground` event only with `allowAgentForegroundFromBackground`. The
//! web app's presence reports are the browser's alone.

mod common;

use common::sse::Stream;
use common::{TestServer, request};
use serde_json::{Value, json};

/// A `holder` session whose engine records its agent token.
fn server_with_session() -> (TestServer, String, String) {
    let server = TestServer::with_token_holders(|_| {});
    let (id, token) = server.holder_session();
    (server, id, token)
}

fn presence(server: &TestServer, cookie: &str, visible: bool) {
    let body = json!({"appId": "tab-1", "visible": visible}).to_string();
    let reply = request(
        &server.ui,
        "POST",
        "/api/ui/presence",
        &[("Cookie", cookie), ("Content-Type", "application/json")],
        Some(body.as_bytes()),
    );
    assert_eq!(reply.status, 204, "{}", reply.text());
}

fn delivered(reply: &common::Reply) -> String {
    assert_eq!(reply.status, 202, "{}", reply.text());
    reply.json()["delivered"].as_str().unwrap().to_owned()
}

/// The notes navigation left; the engines here are `command` ones, so the
/// utility model's features also say once that they are idle.
fn notes(server: &TestServer) -> Vec<Value> {
    let all = server.call("GET", "/inbox?category=note", None).json();
    all.as_array()
        .unwrap()
        .iter()
        .filter(|note| {
            !note["title"]
                .as_str()
                .is_some_and(|t| t.ends_with("no primary engine"))
        })
        .cloned()
        .collect()
}

#[test]
fn a_navigation_request_goes_to_an_app_in_front_or_to_the_inbox() {
    let (server, session, agent) = server_with_session();
    let cookie = server.browser_cookie();
    let open = json!({"view": "session", "id": session});

    // No web app open: an inbox note naming the session, opening the view.
    let reply = server.call_as(&agent, "POST", "/ui/navigate", Some(&open));
    assert_eq!(delivered(&reply), "inbox");
    let note = &notes(&server)[0];
    assert!(
        note["title"].as_str().unwrap().starts_with("Session "),
        "{note}"
    );
    assert_eq!(
        note["actions"][0],
        json!({"kind": "open_path", "path": format!("/sessions/{session}")})
    );

    // In front: a toast, then (allowed) a direct switch, as stream events.
    presence(&server, &cookie, true);
    let mut stream = Stream::bearer(&server, &server.token, None);
    assert_eq!(
        delivered(&server.call_as(&agent, "POST", "/ui/navigate", Some(&open))),
        "toast"
    );
    server.set_setting("allowAgentDirectNavigation", json!(true));
    let settings = json!({"view": "settings", "pane": "sessions-agents"});
    assert_eq!(
        delivered(&server.call("POST", "/ui/navigate", Some(&settings))),
        "navigated"
    );
    let mut seen = Vec::new();
    stream.until(|e| {
        if e.name == "navigate" {
            seen.push(e.data.clone());
        }
        seen.len() == 2
    });
    assert_eq!(seen[0]["path"], format!("/sessions/{session}"));
    assert_eq!(seen[0]["direct"], false);
    assert_eq!(seen[0]["sessionId"], session.as_str());
    assert_eq!(
        seen[1],
        json!({"path": "/settings#sessions-agents", "direct": true, "from": "A script", "sessionId": null})
    );

    // Its tab hidden: the inbox again.
    presence(&server, &cookie, false);
    assert_eq!(
        delivered(&server.call("POST", "/ui/navigate", Some(&json!({"view": "inbox"})))),
        "inbox"
    );
    assert_eq!(notes(&server).len(), 2);

    // Bad requests change nothing.
    for bad in [
        json!({"view": "board"}),
        json!({"view": "nowhere"}),
        json!({"view": "inbox", "id": "x"}),
        json!({"view": "session", "id": "../etc"}),
    ] {
        let reply = server.call("POST", "/ui/navigate", Some(&bad));
        assert_eq!(reply.status, 400, "{bad}: {}", reply.text());
    }
    assert_eq!(notes(&server).len(), 2);

    // Presence is the browser's to report, not the control server's.
    let reply = server.call(
        "POST",
        "/ui/presence",
        Some(&json!({"appId": "x", "visible": true})),
    );
    assert_eq!(reply.status, 404, "{}", reply.text());
}

#[test]
fn a_foreground_request_notifies_from_behind_only_when_allowed() {
    let (server, _session, agent) = server_with_session();
    let cookie = server.browser_cookie();
    let ask = json!({"reason": "The build is done; please review."});

    presence(&server, &cookie, true);
    assert_eq!(
        delivered(&server.call_as(&agent, "POST", "/ui/foreground", Some(&ask))),
        "already_in_front"
    );
    presence(&server, &cookie, false);
    assert_eq!(
        delivered(&server.call_as(&agent, "POST", "/ui/foreground", Some(&ask))),
        "inbox"
    );
    let note = &notes(&server)[0];
    assert_eq!(note["body"], "The build is done; please review.");

    server.set_setting("allowAgentForegroundFromBackground", json!(true));
    let mut stream = Stream::bearer(&server, &server.token, None);
    assert_eq!(
        delivered(&server.call_as(&agent, "POST", "/ui/foreground", Some(&ask))),
        "notification"
    );
    let events = stream.until(|e| e.name == "foreground");
    let event = &events.last().unwrap().data;
    assert_eq!(event["reason"], "The build is done; please review.");
    assert_eq!(notes(&server).len(), 1);

    let empty = server.call("POST", "/ui/foreground", Some(&json!({"reason": " "})));
    assert_eq!(empty.status, 400);
}

#[test]
fn another_accounts_requests_reach_only_its_own_app_and_inbox() {
    let server = TestServer::start();
    let cookie = server.browser_cookie();
    presence(&server, &cookie, true);
    let second = server.call("POST", "/accounts", Some(&json!({"name": "second"})));
    let token = second.json()["token"].as_str().unwrap().to_owned();
    // The owner's app in front is not the second account's.
    let reply = server.call_as(
        &token,
        "POST",
        "/ui/navigate",
        Some(&json!({"view": "inbox"})),
    );
    assert_eq!(delivered(&reply), "inbox");
    let theirs = server
        .call_as(&token, "GET", "/inbox?category=note", None)
        .json();
    assert_eq!(theirs.as_array().unwrap().len(), 1);
    assert!(
        notes(&server).is_empty(),
        "nothing reached the owner's inbox"
    );
    let reply = server.call_as(
        &token,
        "POST",
        "/ui/foreground",
        Some(&json!({"reason": "x"})),
    );
    assert_eq!(delivered(&reply), "inbox");
}
