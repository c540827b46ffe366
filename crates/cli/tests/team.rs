//! Team time and meeting rooms against a real server: the workspace's
//! members always among the people, zones checked, `teamTimeEnabled` off
//! closing the people routes with the rows kept, and saved rooms (a Jitsi
//! room made on demand) kept and served whatever `meetingRoomsEnabled` says.

mod common;

use common::TestServer;
use serde_json::{Value, json};

fn names(value: &Value, list: &str) -> Vec<String> {
    value[list]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn team_time_lists_members_and_own_people_and_its_switch_closes_the_routes() {
    let server = TestServer::start();
    let owner = server.call("GET", "/team/people", None);
    assert_eq!(owner.status, 200, "{}", owner.text());
    let members = owner.json()["people"].as_array().unwrap().clone();
    assert_eq!(members.len(), 1, "the owner's account: {members:?}");
    assert!(members[0]["memberAccountId"].is_string());

    let other = server.call("POST", "/accounts", Some(&json!({"name": "Priya"})));
    let other_token = other.json()["token"].as_str().unwrap().to_owned();
    let ana = server.call(
        "POST",
        "/team/people",
        Some(&json!({"name": "Ana", "zone": "America/Sao_Paulo", "startMinute": 480, "endMinute": 960})),
    );
    assert_eq!(ana.status, 201, "{}", ana.text());
    let ana = ana.json()["id"].as_str().unwrap().to_owned();
    let bad = server.call(
        "POST",
        "/team/people",
        Some(&json!({"name": "Bo", "zone": "Mars/Olympus"})),
    );
    assert_eq!(bad.status, 400, "{}", bad.text());

    let listed = server.call("GET", "/team/people", None).json();
    assert_eq!(listed["people"].as_array().unwrap().len(), 3, "{listed}");
    assert!(names(&listed, "people").contains(&"Priya".to_owned()));
    let priya = listed["people"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Priya")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let moved = server.call(
        "PATCH",
        &format!("/team/people/{priya}"),
        Some(&json!({"zone": "Asia/Kolkata"})),
    );
    assert_eq!(moved.json()["zone"], "Asia/Kolkata");
    let kept = server.call("DELETE", &format!("/team/people/{priya}"), None);
    assert_eq!(kept.status, 400);
    assert_eq!(kept.json()["error"]["code"], "workspace_member");
    // The other account's list is its own: it has no Ana.
    let theirs = server
        .call_as(&other_token, "GET", "/team/people", None)
        .json();
    assert!(!names(&theirs, "people").contains(&"Ana".to_owned()));

    server.set_setting("teamTimeEnabled", json!(false));
    for (method, path, body) in [
        ("GET", "/team/people".to_owned(), None),
        (
            "POST",
            "/team/people".to_owned(),
            Some(json!({"name": "Cy"})),
        ),
        ("DELETE", format!("/team/people/{ana}"), None),
    ] {
        let reply = server.call(method, &path, body.as_ref());
        assert_eq!(reply.status, 403, "{method} {path}: {}", reply.text());
        assert_eq!(reply.json()["error"]["code"], "team_time_disabled");
    }
    server.set_setting("teamTimeEnabled", json!(true));
    let back = server.call("GET", "/team/people", None).json();
    let ana_back = back["people"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Ana")
        .unwrap()
        .clone();
    assert_eq!(ana_back["zone"], "America/Sao_Paulo");
    assert_eq!(
        (
            ana_back["startMinute"].as_i64(),
            ana_back["endMinute"].as_i64()
        ),
        (Some(480), Some(960))
    );
}

#[test]
fn meeting_rooms_are_saved_and_kept_while_the_switch_is_off() {
    let server = TestServer::start();
    let zoom = server.call(
        "POST",
        "/meeting-rooms",
        Some(&json!({"name": "Stand-up", "url": "https://zoom.us/j/123"})),
    );
    assert_eq!(zoom.status, 201, "{}", zoom.text());
    assert_eq!(zoom.json()["provider"], "zoom");
    let made = server.call(
        "POST",
        "/meeting-rooms",
        Some(&json!({"name": "Quick call", "jitsi": true})),
    );
    assert_eq!(made.status, 201, "{}", made.text());
    let url = made.json()["url"].as_str().unwrap().to_owned();
    assert!(url.starts_with("https://meet.jit.si/"), "{url}");
    assert_eq!(made.json()["provider"], "jitsi");
    let bad = server.call(
        "POST",
        "/meeting-rooms",
        Some(&json!({"name": "x", "url": "javascript:alert(1)"})),
    );
    assert_eq!(bad.status, 400);

    server.set_setting("meetingRoomsEnabled", json!(false));
    let while_off = server.call("GET", "/meeting-rooms", None);
    assert_eq!(while_off.status, 200);
    assert_eq!(
        names(&while_off.json(), "rooms"),
        ["Quick call", "Stand-up"]
    );
    server.set_setting("meetingRoomsEnabled", json!(true));
    let back = server.call("GET", "/meeting-rooms", None).json();
    assert_eq!(back["rooms"][0]["url"], url);

    let other = server.call("POST", "/accounts", Some(&json!({"name": "second"})));
    let token = other.json()["token"].as_str().unwrap().to_owned();
    let theirs = server.call_as(&token, "GET", "/meeting-rooms", None).json();
    assert!(names(&theirs, "rooms").is_empty());
}
