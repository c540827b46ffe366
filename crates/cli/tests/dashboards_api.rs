//! Dashboards over HTTP: account isolation with nothing changed, layout
//! refusals, If-Match against a second tab, and publish-to-web with its
//! reduced, unauthenticated payload.

mod common;

use common::{TestServer, request};
use serde_json::{Value, json};

fn setup(server: &TestServer) -> (String, String) {
    let workspace = server
        .call("POST", "/workspaces", Some(&json!({"name": "W"})))
        .json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    server.call(
        "POST",
        "/members",
        Some(&json!({"name": "Ada", "email": "ada@example.com"})),
    );
    let board = server.call(
        "POST",
        "/boards",
        Some(&json!({"workspaceId": workspace, "name": "B", "columns": [
            {"id": "budget", "title": "Budget", "type": "number", "settings": {"unit": "$"}},
            {"id": "secret", "title": "Secret notes", "type": "text"},
            {"id": "status", "title": "Status", "type": "status"}
        ]})),
    );
    let board = board.json()["id"].as_str().unwrap().to_owned();
    server.call(
        "POST",
        &format!("/boards/{board}/items"),
        Some(&json!({"name": "x", "values": {"budget": 1234, "secret": "do not share", "status": "Done"}})),
    );
    (workspace, board)
}

fn config(board: &str) -> Value {
    json!({
        "boardIds": [board],
        "filters": {"rules": [{"column": "status", "op": "is_not_empty"}]},
        "widgets": [{"id": "n1", "type": "numbers", "layout": {"x": 0, "y": 0, "w": 4, "h": 3},
                     "settings": {"function": "sum", "column": "budget"}}]
    })
}

#[test]
fn isolation_layouts_and_if_match() {
    let server = TestServer::start();
    let (workspace, board) = setup(&server);
    let created = server.call(
        "POST",
        "/dashboards",
        Some(&json!({"workspaceId": workspace, "name": "D", "config": config(&board)})),
    );
    assert_eq!(created.status, 201, "{}", created.text());
    let dashboard = created.json();
    let id = dashboard["id"].as_str().unwrap().to_owned();
    for field in [
        "id",
        "workspaceId",
        "name",
        "config",
        "createdAt",
        "updatedAt",
    ] {
        assert!(dashboard.get(field).is_some(), "{field}");
    }
    assert_eq!(dashboard["config"], config(&board));

    let other = server
        .call("POST", "/accounts", Some(&json!({"name": "o"})))
        .json()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let theirs = server
        .call_as(
            &other,
            "POST",
            "/workspaces",
            Some(&json!({"name": "theirs"})),
        )
        .json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    // Another account cannot see, change or borrow anything of the owner's.
    let missing = "ffffffffffffffffffffffffffffffff";
    for (path, absent) in [
        (
            format!("/dashboards/{id}"),
            format!("/dashboards/{missing}"),
        ),
        (
            format!("/dashboards?workspaceId={workspace}"),
            format!("/dashboards?workspaceId={missing}"),
        ),
    ] {
        let a = server.call_as(&other, "GET", &path, None);
        let b = server.call_as(&other, "GET", &absent, None);
        assert_eq!((a.status, &a.body), (404, &b.body), "{path}");
    }
    assert_eq!(
        server
            .call_as(
                &other,
                "PATCH",
                &format!("/dashboards/{id}"),
                Some(&json!({"name": "pwned"}))
            )
            .status,
        404
    );
    assert_eq!(
        server
            .call_as(&other, "DELETE", &format!("/dashboards/{id}"), None)
            .status,
        404
    );
    let borrow = server.call_as(
        &other,
        "POST",
        "/dashboards",
        Some(&json!({"workspaceId": theirs, "name": "x", "config": config(&board)})),
    );
    assert_eq!(borrow.status, 404);
    assert!(
        server
            .call_as(
                &other,
                "GET",
                &format!("/dashboards?workspaceId={theirs}"),
                None
            )
            .json()
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        server
            .call("GET", &format!("/dashboards/{id}"), None)
            .json()["name"],
        "D"
    );

    for layout in [
        json!({"x": -1, "y": 0, "w": 1, "h": 1}),
        json!({"x": 0, "y": 0, "w": 0, "h": 1}),
        json!({"x": 0, "y": 0, "w": 1}),
        json!({"x": 0.5, "y": 0, "w": 1, "h": 1}),
        json!("0,0,1,1"),
    ] {
        let mut bad = config(&board);
        bad["widgets"][0]["layout"] = layout.clone();
        let reply = server.call(
            "PATCH",
            &format!("/dashboards/{id}"),
            Some(&json!({"config": bad})),
        );
        assert_eq!(reply.status, 400, "{layout}");
    }
    assert_eq!(
        server
            .call("GET", &format!("/dashboards/{id}"), None)
            .json()["config"],
        config(&board)
    );

    let etag = server
        .call("GET", &format!("/dashboards/{id}"), None)
        .header("etag")
        .unwrap()
        .to_owned();
    let auth = format!("Bearer {}", server.token);
    let patch = |if_match: &str, name: &str| {
        let body = json!({"name": name}).to_string();
        request(
            server.control(),
            "PATCH",
            &format!("/dashboards/{id}"),
            &[
                ("Authorization", &auth),
                ("Content-Type", "application/json"),
                ("If-Match", if_match),
            ],
            Some(body.as_bytes()),
        )
    };
    let first = patch(&etag, "first tab");
    assert_eq!(first.status, 200);
    let second = patch(&etag, "second tab");
    assert_eq!(
        (second.status, second.error_code().as_str()),
        (412, "stale_dashboard")
    );
    assert_eq!(
        server
            .call("GET", &format!("/dashboards/{id}"), None)
            .json()["name"],
        "first tab"
    );
    assert_eq!(
        server
            .call("DELETE", &format!("/dashboards/{id}"), None)
            .status,
        204
    );
}

/// The status of the public read of `token`, with no credential at all.
fn public_status(server: &TestServer, token: &str) -> u16 {
    request(
        &server.ui,
        "GET",
        &format!("/api/public/dashboards/{token}"),
        &[],
        None,
    )
    .status
}

#[test]
fn publish_withdraw_republish_and_the_reduced_public_payload() {
    let server = TestServer::start();
    let (workspace, board) = setup(&server);
    let id = server
        .call(
            "POST",
            "/dashboards",
            Some(&json!({"workspaceId": workspace, "name": "D", "config": config(&board)})),
        )
        .json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let published = server
        .call("POST", &format!("/dashboards/{id}/publish"), None)
        .json();
    let token = published["token"].as_str().unwrap().to_owned();
    assert!(token.len() >= 22);
    assert_eq!(published["url"], format!("http://{}/p/{token}", server.ui));

    // No credential at all, on either listener.
    let public = request(
        &server.ui,
        "GET",
        &format!("/api/public/dashboards/{token}"),
        &[],
        None,
    );
    assert_eq!(public.status, 200, "{}", public.text());
    let text = public.text();
    assert!(
        !text.contains("do not share") && !text.contains("secret"),
        "{text}"
    );
    assert!(!text.contains("ada@example.com"));
    let payload = public.json();
    let columns: Vec<&str> = payload["boards"][0]["board"]["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(columns, ["budget", "status"]);
    assert_eq!(payload["boards"][0]["items"][0]["values"]["budget"], 1234);
    assert_eq!(
        request(
            server.control(),
            "GET",
            &format!("/public/dashboards/{token}"),
            &[],
            None
        )
        .status,
        200
    );
    let page = request(&server.ui, "GET", &format!("/p/{token}"), &[], None);
    assert_eq!(page.status, 200);
    assert!(
        page.header("content-type")
            .unwrap()
            .starts_with("text/html")
    );

    assert_eq!(
        server
            .call("DELETE", &format!("/dashboards/{id}/publish"), None)
            .status,
        204
    );
    assert_eq!(public_status(&server, &token), 404);
    let again = server
        .call("POST", &format!("/dashboards/{id}/publish"), None)
        .json()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_ne!(again, token);
    assert_eq!(public_status(&server, &again), 200);
    assert_eq!(public_status(&server, &token), 404);
    server.call("DELETE", &format!("/dashboards/{id}"), None);
    assert_eq!(public_status(&server, &again), 404);
}
