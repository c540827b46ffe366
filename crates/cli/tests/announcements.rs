//! The maker's announcements against a real server: this version's show
//! while `developerMessagesEnabled` is on, once per account (dismissed, they
//! do not come back), and not at all while it is off. People only.

mod common;

use common::TestServer;
use serde_json::{Value, json};

fn titles(server: &TestServer) -> Vec<Value> {
    let reply = server.call("GET", "/announcements", None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["title"].clone())
        .collect()
}

#[test]
fn shown_once_per_version_and_never_while_off() {
    let server = TestServer::start();
    assert!(titles(&server).is_empty(), "off by default");

    server.set_setting("developerMessagesEnabled", json!(true));
    let reply = server.call("GET", "/announcements", None).json();
    let shown = reply.as_array().unwrap();
    assert!(!shown.is_empty(), "this version ships an announcement");
    assert!(
        shown
            .iter()
            .all(|a| a["version"] == env!("CARGO_PKG_VERSION"))
    );

    server.set_setting("developerMessagesEnabled", json!(false));
    assert!(titles(&server).is_empty(), "off stops them");
    server.set_setting("developerMessagesEnabled", json!(true));
    assert_eq!(titles(&server).len(), shown.len(), "not seen yet: back");

    let dismissed = server.call("POST", "/announcements/dismiss", None);
    assert_eq!(dismissed.status, 204, "{}", dismissed.text());
    assert!(
        titles(&server).is_empty(),
        "seen once, gone for this version"
    );
}

#[test]
fn agent_tokens_are_refused() {
    let server = TestServer::with_token_holders(|_| {});
    let (_session, token) = server.holder_session();
    for (method, path) in [
        ("GET", "/announcements"),
        ("POST", "/announcements/dismiss"),
    ] {
        let reply = server.call_as(&token, method, path, None);
        assert_eq!(reply.status, 403, "{method} {path}: {}", reply.text());
    }
}
