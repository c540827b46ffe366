//! An agent's message published as a document (docs/files.md "Documents"),
//! through the real binary against a real WebDAV server (WsgiDAV): the
//! message is read from the transcript by its `seq`, lands on the drive as
//! `.docx`, `.md` and `.html`, and its link is kept and listed with the
//! session; an entry that is not the agent's message, one that does not
//! exist and another's session are refused.

mod common;

use common::{TestServer, conversation_engine};
use serde_json::{Value, json};

const USER: &str = "ada";
const PASSWORD: &str = "dav-publish-secret-61";

#[test]
fn an_agents_message_is_published_and_its_link_kept_with_the_session() {
    let dav_dir = tempfile::tempdir().unwrap();
    let Some(dav) = test_servers::serve_webdav(dav_dir.path(), USER, PASSWORD) else {
        return;
    };
    let share = dav_dir.path().join("root");
    let dir = tempfile::tempdir().unwrap();
    conversation_engine(dir.path());
    let server = TestServer::start_in(dir);
    server.add_webdav_drive(&dav.url(""), USER, PASSWORD);
    let work = tempfile::tempdir().unwrap();
    let cookie = server.browser_cookie();
    let spawned = server.browser_spawn(
        &cookie,
        &json!({"engine": "primary", "prompt": "write the plan", "cwd": work.path()}),
    );
    assert_eq!(spawned.status, 201, "{}", spawned.text());
    let id = spawned.json()["id"].as_str().unwrap().to_owned();
    server.wait_for_status(&id, "waiting_for_input");
    let page = server
        .call(
            "GET",
            &format!("/sessions/{id}/transcript?format=json"),
            None,
        )
        .json();
    let entries = page["entries"].as_array().unwrap();
    let seq_of = |kind: &str| -> i64 {
        entries
            .iter()
            .find(|e| e["kind"] == kind)
            .unwrap_or_else(|| panic!("no {kind} entry: {page}"))["seq"]
            .as_i64()
            .unwrap()
    };
    let (input, message) = (seq_of("input"), seq_of("final"));
    let text = entries.iter().find(|e| e["kind"] == "final").unwrap()["text"]
        .as_str()
        .unwrap()
        .to_owned();
    let publish = |seq: i64, body: Value| {
        server.call(
            "POST",
            &format!("/sessions/{id}/entries/{seq}/publish"),
            Some(&body),
        )
    };

    let off = publish(message, json!({}));
    assert_eq!(
        (off.status, off.error_code()),
        (403, "docs_disabled".into())
    );
    server.set_setting("docsExportEnabled", json!(true));

    let published = publish(message, json!({}));
    assert_eq!(published.status, 201, "{}", published.text());
    let published = published.json();
    assert_eq!(published["seq"], message);
    let path = published["path"].as_str().unwrap().to_owned();
    assert!(path.starts_with("/Done in conversation"), "{published}");
    assert!(path.ends_with(".docx"), "{published}");
    assert!(published["url"].as_str().unwrap().starts_with(&dav.url("")));
    let markdown = share.join(path.trim_start_matches('/').replace(".docx", ".md"));
    assert_eq!(std::fs::read_to_string(markdown).unwrap(), text);

    let titled = publish(message, json!({"title": "Release plan"}));
    assert_eq!(titled.status, 201, "{}", titled.text());
    assert_eq!(titled.json()["path"], "/Release plan.docx");
    assert!(share.join("Release plan.html").is_file());

    for (seq, body, status) in [
        (input, json!({}), 400),
        (999_999, json!({}), 404),
        (i64::MIN, json!({}), 404),
        (message, json!({"title": "x", "bogus": 1}), 400),
    ] {
        let refused = publish(seq, body.clone());
        assert_eq!(refused.status, status, "{seq} {body}: {}", refused.text());
    }
    let unknown = server.call(
        "POST",
        &format!("/sessions/nope/entries/{message}/publish"),
        Some(&json!({})),
    );
    assert_eq!(unknown.status, 404, "{}", unknown.text());

    let kept = server.call("GET", &format!("/sessions/{id}/publications"), None);
    assert_eq!(kept.status, 200, "{}", kept.text());
    let kept = kept.json();
    let paths: Vec<&str> = kept
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, [path.as_str(), "/Release plan.docx"], "{kept}");
    assert!(kept.as_array().unwrap().iter().all(|p| p["seq"] == message));
    let none = server.call("GET", "/sessions/nope/publications", None);
    assert_eq!(none.status, 404);
}
