//! Bookmarks against a real server: every route with the cli token, an
//! agent's token and another account's, `bookmarksCliEnabled` off closing
//! the control server's routes (not the web app's), launching a link (a
//! navigation request: an inbox note with no web app in front) and a recipe
//! (a spawn under the spawn rules), and the CLI.

mod common;

use common::{TestServer, request};
use serde_json::{Value, json};

fn server() -> (TestServer, String) {
    let server = TestServer::with_token_holders(|_| {});
    let (_, token) = server.holder_session();
    (server, token)
}

fn titles(value: &Value) -> Vec<String> {
    value["bookmarks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["title"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn bookmarks_are_kept_in_order_and_launched() {
    let (server, agent) = server();
    let docs = server.call(
        "POST",
        "/bookmarks",
        Some(&json!({"title": "Docs", "kind": "url", "url": "https://docs.rs"})),
    );
    assert_eq!(docs.status, 201, "{}", docs.text());
    let docs = docs.json()["id"].as_str().unwrap().to_owned();
    // An agent may manage them too, while the setting is on (default).
    let recipe = server.call_as(
        &agent,
        "POST",
        "/bookmarks",
        Some(&json!({"title": "Nightly check", "kind": "session", "engine": "holder", "prompt": "check"})),
    );
    assert_eq!(recipe.status, 201, "{}", recipe.text());
    let recipe = recipe.json()["id"].as_str().unwrap().to_owned();
    let bad = server.call(
        "POST",
        "/bookmarks",
        Some(&json!({"title": "x", "kind": "url", "url": "ftp://x"})),
    );
    assert_eq!(bad.status, 400);

    let reordered = server.call(
        "POST",
        "/bookmarks/reorder",
        Some(&json!({"ids": [recipe, docs]})),
    );
    assert_eq!(titles(&reordered.json()), ["Nightly check", "Docs"]);
    let renamed = server.call(
        "PATCH",
        &format!("/bookmarks/{docs}"),
        Some(&json!({"title": "Rust docs"})),
    );
    assert_eq!(renamed.json()["title"], "Rust docs");
    assert_eq!(
        titles(&server.call("GET", "/bookmarks", None).json()),
        ["Nightly check", "Rust docs"]
    );

    // A link with no web app in front becomes a note that opens it.
    let opened = server.call("POST", &format!("/bookmarks/{docs}/launch"), None);
    assert_eq!(opened.status, 202, "{}", opened.text());
    assert_eq!(opened.json()["delivered"], "inbox");
    let notes = server.call("GET", "/inbox?category=note", None).json();
    assert_eq!(
        notes[0]["actions"][0],
        json!({"kind": "open_path", "path": "https://docs.rs"})
    );

    // A recipe is a spawn: from the cli token, the spawn rules apply...
    let refused = server.call("POST", &format!("/bookmarks/{recipe}/launch"), None);
    assert_eq!(
        (refused.status, refused.error_code().as_str()),
        (403, "agent_driven_sessions_disabled")
    );
    // ...and from the web app it starts at once.
    let cookie = server.browser_cookie();
    let launched = request(
        &server.ui,
        "POST",
        &format!("/api/bookmarks/{recipe}/launch"),
        &[("Cookie", &cookie)],
        None,
    );
    assert_eq!(launched.status, 201, "{}", launched.text());
    let session = &launched.json()["session"];
    assert_eq!(session["title"], "Nightly check");
    assert_eq!(session["engine"], "holder");

    // Another account sees none of them.
    let other = server.call("POST", "/accounts", Some(&json!({"name": "second"})));
    let token = other.json()["token"].as_str().unwrap().to_owned();
    assert!(titles(&server.call_as(&token, "GET", "/bookmarks", None).json()).is_empty());
    assert_eq!(
        server
            .call_as(&token, "DELETE", &format!("/bookmarks/{docs}"), None)
            .status,
        404
    );
    assert_eq!(
        server
            .call("DELETE", &format!("/bookmarks/{docs}"), None)
            .status,
        204
    );
}

#[test]
fn with_the_setting_off_every_control_route_refuses_whatever_the_token() {
    let (server, agent) = server();
    let made = server.call(
        "POST",
        "/bookmarks",
        Some(&json!({"title": "Docs", "kind": "url", "url": "https://docs.rs"})),
    );
    let id = made.json()["id"].as_str().unwrap().to_owned();
    server.set_setting("bookmarksCliEnabled", json!(false));
    for token in [server.token.clone(), agent] {
        for (method, path, body) in [
            ("GET", "/bookmarks".to_owned(), None),
            (
                "POST",
                "/bookmarks".to_owned(),
                Some(json!({"title": "x", "kind": "url", "url": "https://x.org"})),
            ),
            (
                "PATCH",
                format!("/bookmarks/{id}"),
                Some(json!({"title": "y"})),
            ),
            ("DELETE", format!("/bookmarks/{id}"), None),
            (
                "POST",
                "/bookmarks/reorder".to_owned(),
                Some(json!({"ids": [id]})),
            ),
            ("POST", format!("/bookmarks/{id}/launch"), None),
        ] {
            let refused = server.call_as(&token, method, &path, body.as_ref());
            assert_eq!(
                (refused.status, refused.error_code().as_str()),
                (403, "bookmarks_cli_disabled"),
                "{method} {path}"
            );
        }
    }
    // Refused before the body is read: a malformed one gets the same answer.
    let malformed = request(
        server.control(),
        "PATCH",
        &format!("/bookmarks/{id}"),
        &[
            ("Authorization", &format!("Bearer {}", server.token)),
            ("Content-Type", "application/json"),
        ],
        Some(b"not json"),
    );
    assert_eq!(
        (malformed.status, malformed.error_code().as_str()),
        (403, "bookmarks_cli_disabled")
    );
    let cookie = server.browser_cookie();
    let listed = request(
        &server.ui,
        "GET",
        "/api/bookmarks",
        &[("Cookie", &cookie)],
        None,
    );
    assert_eq!(titles(&listed.json()), ["Docs"]);
}

#[test]
fn the_cli_lists_adds_and_removes_bookmarks() {
    let (server, _) = server();
    let added = server.cli(&["bookmarks", "add", "Docs", "--url", "https://docs.rs"]);
    assert!(
        added.status.success(),
        "{}",
        String::from_utf8_lossy(&added.stderr)
    );
    let listed = server.cli(&["bookmarks", "--json"]);
    let value: Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(titles(&value), ["Docs"]);
    let id = value["bookmarks"][0]["id"].as_str().unwrap().to_owned();
    let removed = server.cli(&["bookmarks", "remove", &id]);
    assert!(removed.status.success());
    let listed = server.cli(&["bookmarks", "--json"]);
    let value: Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert!(titles(&value).is_empty());
}
