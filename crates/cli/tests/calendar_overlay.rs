//! The boards on the calendar, through the real binary over HTTP: with
//! `pmCalendarOverlayEnabled` on (its default) `GET /calendar/events` holds
//! each item on its due day (the `due` column, else a date column titled
//! "deadline") and each sprint over its items' dates, all-day, each with
//! its board's color and its `source`, done items included, in order;
//! `pmCalendarBoardIds` narrows the boards; with the overlay off there are
//! no board entries, and with `calendarEnabled` off too the route is 403;
//! another account's boards never appear, even when named in the filter;
//! a PATCH of an item's due date (what a drag to another day sends) moves
//! its entry and its sprint; bad days are a 400 naming the field.

mod common;

use common::TestServer;
use serde_json::{Value, json};

const MARCH: (&str, &str) = ("2026-03-01", "2026-03-31");

/// The first two colors of the boards' palette.
const FIRST_COLOR: &str = "#1e6fd9";
const SECOND_COLOR: &str = "#c62828";

fn created(reply: common::Reply) -> String {
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()["id"].as_str().unwrap_or_default().to_owned()
}

fn board(server: &TestServer, token: &str, name: &str, columns: Value) -> String {
    let workspace =
        created(server.call_as(token, "POST", "/workspaces", Some(&json!({"name": "Work"}))));
    let body = json!({"workspaceId": workspace, "name": name, "columns": columns,
                      "groups": [{"id": "g1", "title": "Now"}]});
    created(server.call_as(token, "POST", "/boards", Some(&body)))
}

fn item(server: &TestServer, token: &str, board: &str, name: &str, values: Value) -> String {
    let body = json!({"groupId": "g1", "name": name, "values": values});
    created(server.call_as(
        token,
        "POST",
        &format!("/boards/{board}/items"),
        Some(&body),
    ))
}

/// A sprint board (the presets' `sprint`, `due`, `done_on`) and a board
/// whose due date is the column titled "Launch deadline".
struct Boards {
    platform: String,
    marketing: String,
    spec: String,
    press: String,
}

fn boards(server: &TestServer) -> Boards {
    let token = server.token.clone();
    let platform = board(
        server,
        &token,
        "Platform",
        json!([
            {"id": "status", "title": "Status", "type": "status",
             "settings": {"labels": [{"name": "Working on it"}, {"name": "Done", "done": true}]}},
            {"id": "sprint", "title": "Sprint", "type": "text"},
            {"id": "due", "title": "Due date", "type": "date"},
            {"id": "done_on", "title": "Completed", "type": "date"}
        ]),
    );
    let spec = item(
        server,
        &token,
        &platform,
        "Write spec",
        json!({"due": "2026-03-03", "sprint": "Sprint 1"}),
    );
    let done = json!({"due": "2026-03-10", "sprint": "Sprint 1", "status": "Done", "done_on": "2026-03-12"});
    item(server, &token, &platform, "Ship it", done);
    item(
        server,
        &token,
        &platform,
        "No sprint",
        json!({"due": "2026-03-10"}),
    );
    let may = json!({"due": "2026-05-01", "sprint": "Sprint 2"});
    item(server, &token, &platform, "Later", may);
    item(
        server,
        &token,
        &platform,
        "Undated",
        json!({"sprint": "Sprint 3"}),
    );
    let marketing = board(
        server,
        &token,
        "Marketing",
        json!([
            {"id": "kickoff", "title": "Kick-off", "type": "date"},
            {"id": "launch", "title": "Launch deadline", "type": "date"}
        ]),
    );
    let dates = json!({"kickoff": "2026-03-01", "launch": "2026-03-20"});
    let press = item(server, &token, &marketing, "Press release", dates);
    Boards {
        platform,
        marketing,
        spec,
        press,
    }
}

fn events_as(server: &TestServer, token: &str, (from, to): (&str, &str)) -> Vec<Value> {
    let path = format!("/calendar/events?from={from}&to={to}");
    let reply = server.call_as(token, "GET", &path, None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json().as_array().cloned().unwrap_or_default()
}

fn events(server: &TestServer, days: (&str, &str)) -> Vec<Value> {
    events_as(server, &server.token.clone(), days)
}

/// `(title, start, end)` of each entry, in the order answered.
fn spans(events: &[Value]) -> Vec<(String, String, String)> {
    let text = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    events
        .iter()
        .map(|e| (text(&e["title"]), text(&e["start"]), text(&e["end"])))
        .collect()
}

fn owned(list: &[(&str, &str, &str)]) -> Vec<(String, String, String)> {
    list.iter()
        .map(|(a, b, c)| ((*a).to_owned(), (*b).to_owned(), (*c).to_owned()))
        .collect()
}

#[test]
fn due_dates_and_sprints_are_on_the_calendar_with_their_sources() {
    let server = TestServer::start();
    let b = boards(&server);
    let march = events(&server, MARCH);
    assert_eq!(
        spans(&march),
        owned(&[
            (
                "Sprint 1",
                "2026-03-03T00:00:00.000Z",
                "2026-03-13T00:00:00.000Z"
            ),
            (
                "Write spec",
                "2026-03-03T00:00:00.000Z",
                "2026-03-04T00:00:00.000Z"
            ),
            (
                "No sprint",
                "2026-03-10T00:00:00.000Z",
                "2026-03-11T00:00:00.000Z"
            ),
            (
                "Ship it",
                "2026-03-10T00:00:00.000Z",
                "2026-03-11T00:00:00.000Z"
            ),
            (
                "Press release",
                "2026-03-20T00:00:00.000Z",
                "2026-03-21T00:00:00.000Z"
            ),
        ]),
        "{march:#?}"
    );
    assert!(
        march
            .iter()
            .all(|e| e["allDay"] == true && e["recurring"] == false)
    );
    assert_eq!(march[0]["uid"], format!("sprint:{}:Sprint 1", b.platform));
    assert_eq!(
        march[0]["source"],
        json!({"kind": "sprint", "boardId": b.platform, "board": "Platform",
               "sprint": "Sprint 1", "color": FIRST_COLOR})
    );
    assert_eq!(march[1]["uid"], format!("item:{}:due", b.spec));
    assert_eq!(march[1]["location"], Value::Null);
    assert_eq!(
        march[1]["source"],
        json!({"kind": "item", "boardId": b.platform, "board": "Platform",
               "itemId": b.spec, "columnId": "due", "color": FIRST_COLOR})
    );
    assert_eq!(
        march[4]["source"],
        json!({"kind": "item", "boardId": b.marketing, "board": "Marketing",
               "itemId": b.press, "columnId": "launch", "color": SECOND_COLOR})
    );

    // A sprint shows on any day of its span; one with no dated item never.
    let inside = events(&server, ("2026-03-05", "2026-03-06"));
    assert_eq!(spans(&inside)[0].0, "Sprint 1");
    assert_eq!(inside.len(), 1, "{inside:#?}");
    let may = events(&server, ("2026-05-01", "2026-05-31"));
    let titles: Vec<String> = spans(&may).into_iter().map(|s| s.0).collect();
    assert_eq!(titles, ["Later", "Sprint 2"]);
}

#[test]
fn the_board_filter_and_the_two_switches() {
    let server = TestServer::start();
    let b = boards(&server);
    server.set_setting("pmCalendarBoardIds", json!([b.marketing, "no-such-board"]));
    let only = events(&server, MARCH);
    assert_eq!(spans(&only).len(), 1, "{only:#?}");
    assert_eq!(only[0]["source"]["itemId"], b.press);
    // The color is the board's among all the account's boards, whatever the filter.
    assert_eq!(only[0]["source"]["color"], SECOND_COLOR);
    server.set_setting("pmCalendarBoardIds", json!([]));
    assert_eq!(events(&server, MARCH).len(), 5);

    server.set_setting("pmCalendarOverlayEnabled", json!(false));
    let off = server.call(
        "GET",
        "/calendar/events?from=2026-03-01&to=2026-03-31",
        None,
    );
    assert_eq!(off.status, 403, "{}", off.text());
    assert_eq!(off.error_code(), "calendar_disabled");
    let message = off.json()["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        message.contains("calendarEnabled") && message.contains("pmCalendarOverlayEnabled"),
        "{message}"
    );

    server.set_setting("calendarEnabled", json!(true));
    assert_eq!(events(&server, MARCH), Vec::<Value>::new());

    // The overlay alone opens the events, not the accounts' routes.
    server.set_setting("calendarEnabled", json!(false));
    server.set_setting("pmCalendarOverlayEnabled", json!(true));
    assert_eq!(events(&server, MARCH).len(), 5);
    let accounts = server.call("GET", "/calendars", None);
    assert_eq!(accounts.status, 403, "{}", accounts.text());
    assert_eq!(accounts.error_code(), "calendar_disabled");
}

#[test]
fn another_accounts_items_never_appear() {
    let server = TestServer::start();
    let b = boards(&server);
    let other = server.call("POST", "/accounts", Some(&json!({"name": "intruder"})));
    assert_eq!(other.status, 201, "{}", other.text());
    let token = other.json()["token"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let theirs = board(
        &server,
        &token,
        "Theirs",
        json!([{"id": "due", "title": "Due", "type": "date"},
               {"id": "sprint", "title": "Sprint", "type": "text"}]),
    );
    let secret = json!({"due": "2026-03-03", "sprint": "Sprint 1"});
    let secret = item(&server, &token, &theirs, "Secret plan", secret);

    let mine = events(&server, MARCH);
    assert_eq!(mine.len(), 5, "{mine:#?}");
    let text = serde_json::to_string(&mine).unwrap_or_default();
    assert!(
        !text.contains(&theirs) && !text.contains("Secret plan"),
        "{text}"
    );
    // The list is the installation's: naming only their board chooses none
    // of mine, so I see all of mine and still nothing of theirs.
    server.set_setting("pmCalendarBoardIds", json!([theirs]));
    assert_eq!(events(&server, MARCH), mine);
    // Naming one of mine as well narrows mine to it.
    server.set_setting("pmCalendarBoardIds", json!([theirs, b.platform]));
    let narrowed = events(&server, MARCH);
    assert!(
        !narrowed.is_empty()
            && narrowed
                .iter()
                .all(|e| e["source"]["boardId"] == b.platform.as_str()),
        "{narrowed:#?}"
    );
    server.set_setting("pmCalendarBoardIds", json!([]));

    // Theirs is their first board: the first color, and only their items.
    let seen = events_as(&server, &token, MARCH);
    let uids: Vec<&str> = seen.iter().filter_map(|e| e["uid"].as_str()).collect();
    assert_eq!(
        uids,
        [
            format!("item:{secret}:due"),
            format!("sprint:{theirs}:Sprint 1")
        ]
    );
    assert_eq!(seen[0]["source"]["color"], FIRST_COLOR);
    assert_eq!(seen[1]["source"]["color"], FIRST_COLOR);
    assert!(
        !serde_json::to_string(&seen)
            .unwrap_or_default()
            .contains(&b.platform)
    );
}

#[test]
fn moving_a_due_date_moves_its_entry_and_bad_days_change_nothing() {
    let server = TestServer::start();
    let b = boards(&server);
    let moved = server.call(
        "PATCH",
        &format!("/items/{}", b.spec),
        Some(&json!({"values": {"due": "2026-03-17"}})),
    );
    assert_eq!(moved.status, 200, "{}", moved.text());
    let march = events(&server, MARCH);
    let uid = format!("item:{}:due", b.spec);
    let entry = march.iter().find(|e| e["uid"] == uid.as_str());
    assert_eq!(
        entry.map(|e| (e["start"].clone(), e["end"].clone())),
        Some((
            json!("2026-03-17T00:00:00.000Z"),
            json!("2026-03-18T00:00:00.000Z")
        )),
        "{march:#?}"
    );
    // The sprint now runs from its next first date to the moved one.
    let sprint = march.iter().find(|e| e["source"]["kind"] == "sprint");
    assert_eq!(
        sprint.map(|e| (e["start"].clone(), e["end"].clone())),
        Some((
            json!("2026-03-10T00:00:00.000Z"),
            json!("2026-03-18T00:00:00.000Z")
        ))
    );
    assert!(events(&server, ("2026-03-03", "2026-03-03")).is_empty());

    common::calendar::refuses_bad_days(&server);
    assert_eq!(events(&server, MARCH), march);
    let full = server
        .call("GET", &format!("/boards/{}/full", b.platform), None)
        .json();
    let due: Vec<&Value> = full["items"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|i| &i["values"]["due"])
        .collect();
    assert_eq!(due.len(), 5);
    assert!(due.contains(&&json!("2026-03-17")));
}
