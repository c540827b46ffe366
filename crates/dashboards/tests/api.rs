//! Behaviour of the dashboards module through its public API, on a temporary database.

use ::dashboards::*;
use boards::{NewBoard, NewColumn, NewItem, NewMember};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use store::Db;

const ACCOUNT: &str = "acct-a";
const OTHER: &str = "acct-b";
const RANDOM_ID: &str = "0198c0ffee0000000000000000000000";

fn db() -> (tempfile::TempDir, Db) {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("db.sqlite")).unwrap();
    db.migrate(boards::MIGRATIONS).unwrap();
    db.migrate(MIGRATIONS).unwrap();
    (dir, db)
}

fn column(id: &str, kind: &str, settings: Option<Value>) -> NewColumn {
    NewColumn {
        id: Some(id.into()),
        title: id.to_uppercase(),
        kind: kind.into(),
        settings,
    }
}

fn board(db: &Db, account: &str, workspace_id: &str, name: &str) -> String {
    boards::create_board(
        db,
        account,
        &NewBoard {
            workspace_id: workspace_id.into(),
            name: name.into(),
            columns: vec![
                column(
                    "status",
                    "status",
                    Some(json!({"labels": [{"name": "Working on it"}, {"name": "Done", "done": true}]})),
                ),
                column("budget", "number", Some(json!({"unit": "$"}))),
                column("owner", "people", None),
                column("reviewer", "people", None),
                column("notes", "text", None),
                column("done_on", "date", None),
            ],
            ..NewBoard::default()
        },
    )
    .unwrap()
    .id
}

/// Account A's workspace with two boards, account B's workspace with one.
struct Fixture {
    workspace: String,
    board: String,
    second_board: String,
    other_workspace: String,
    other_board: String,
}

fn fixture(db: &Db) -> Fixture {
    let workspace = boards::create_workspace(db, ACCOUNT, "Main").unwrap().id;
    let other_workspace = boards::create_workspace(db, OTHER, "Theirs").unwrap().id;
    Fixture {
        board: board(db, ACCOUNT, &workspace, "Roadmap"),
        second_board: board(db, ACCOUNT, &workspace, "Bugs"),
        other_board: board(db, OTHER, &other_workspace, "Secret"),
        workspace,
        other_workspace,
    }
}

fn widget(id: &str, kind: &str, layout: Value) -> Value {
    json!({"id": id, "type": kind, "layout": layout, "settings": {}})
}

fn layout(x: u64, y: u64, w: u64, h: u64) -> Value {
    json!({"x": x, "y": y, "w": w, "h": h})
}

fn new(workspace: &str, config: Value) -> NewDashboard {
    NewDashboard {
        workspace_id: workspace.into(),
        name: "Overview".into(),
        config,
    }
}

fn config_with(boards: &[&str], widgets: Vec<Value>) -> Value {
    json!({"boardIds": boards, "widgets": widgets, "filters": {}})
}

fn dashboard_count(db: &Db) -> i64 {
    db.read(|tx| tx.query_row("SELECT count(*) FROM dashboards", [], |r| r.get(0)))
        .unwrap()
}

fn config_patch(config: Value) -> DashboardPatch {
    DashboardPatch {
        name: None,
        config: Some(config),
    }
}

fn assert_not_found(result: Result<impl std::fmt::Debug>, what: &str) -> String {
    match result {
        Err(e @ DashboardsError::NotFound { what: w }) => {
            assert_eq!(w, what);
            e.to_string()
        }
        other => panic!("expected NotFound {what}, got {other:?}"),
    }
}

fn assert_invalid(result: Result<impl std::fmt::Debug>, needles: &[&str]) {
    match result {
        Err(DashboardsError::Invalid { message }) => {
            for needle in needles {
                assert!(message.contains(needle), "{message:?} lacks {needle:?}");
            }
        }
        other => panic!("expected Invalid, got {other:?}"),
    }
}

#[test]
fn create_list_get_update_delete() {
    let (_dir, db) = db();
    let f = fixture(&db);
    // Key order, and keys the module does not know, survive the round trip.
    let config = json!({
        "widgets": [{"id": "n1", "type": "numbers", "title": "Budget",
                     "layout": {"x": 0, "y": 0, "w": 4, "h": 3, "static": false},
                     "settings": {"function": "sum", "column": "budget"}}],
        "zeta": 1,
        "boardIds": [f.board],
        "alpha": {"b": 2, "a": 1},
        "filters": {"people": [], "rules": [{"column": "status", "op": "is", "value": "Done"}]}
    });
    let created = create(&db, ACCOUNT, &new(&f.workspace, config.clone())).unwrap();
    assert_eq!(created.workspace_id, f.workspace);
    assert_eq!(created.name, "Overview");
    assert_eq!(created.config.to_string(), config.to_string());
    assert_eq!(created.created_at, created.updated_at);

    let wire = serde_json::to_value(&created).unwrap();
    let keys: Vec<&str> = wire
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "id",
            "workspaceId",
            "name",
            "config",
            "createdAt",
            "updatedAt"
        ]
    );

    let read = get(&db, ACCOUNT, &created.id).unwrap();
    assert_eq!(read, created);
    assert_eq!(read.config.to_string(), config.to_string());
    assert_eq!(read.etag(), format!("\"{}.1\"", created.id));

    let second = create(&db, ACCOUNT, &new(&f.workspace, json!({}))).unwrap();
    let listed = list(&db, ACCOUNT, &f.workspace).unwrap();
    assert_eq!(listed, vec![created.clone(), second.clone()]);

    let renamed = update(
        &db,
        ACCOUNT,
        &created.id,
        &DashboardPatch {
            name: Some("  Team overview ".into()),
            config: None,
        },
        None,
    )
    .unwrap();
    assert_eq!(renamed.name, "Team overview");
    assert_eq!(renamed.config, config);
    assert_ne!(renamed.etag(), created.etag());
    assert!(renamed.updated_at >= created.updated_at);
    assert_eq!(renamed.created_at, created.created_at);

    let new_config = config_with(
        &[&f.second_board, &f.board],
        vec![widget("t1", "table", layout(0, 0, 12, 8))],
    );
    let reconfigured = update(
        &db,
        ACCOUNT,
        &created.id,
        &config_patch(new_config.clone()),
        None,
    )
    .unwrap();
    assert_eq!(reconfigured.name, "Team overview");
    assert_eq!(get(&db, ACCOUNT, &created.id).unwrap().config, new_config);

    delete(&db, ACCOUNT, &created.id).unwrap();
    assert_not_found(get(&db, ACCOUNT, &created.id), "dashboard");
    assert_not_found(delete(&db, ACCOUNT, &created.id), "dashboard");
    assert_eq!(list(&db, ACCOUNT, &f.workspace).unwrap(), vec![second]);
}

#[test]
fn a_dashboard_without_config_starts_empty() {
    let (_dir, db) = db();
    let f = fixture(&db);
    let body = json!({"workspaceId": f.workspace, "name": "Empty"});
    let new: NewDashboard = serde_json::from_value(body).unwrap();
    let created = create(&db, ACCOUNT, &new).unwrap();
    assert_eq!(
        created.config,
        json!({"boardIds": [], "widgets": [], "filters": {}})
    );
}

#[test]
fn boards_of_other_workspaces_of_the_account_may_be_connected() {
    let (_dir, db) = db();
    let f = fixture(&db);
    let elsewhere = boards::create_workspace(&db, ACCOUNT, "Side").unwrap().id;
    let side_board = board(&db, ACCOUNT, &elsewhere, "Side board");
    let config = config_with(&[&f.board, &side_board], vec![]);
    assert!(create(&db, ACCOUNT, &new(&f.workspace, config)).is_ok());
}

#[test]
fn another_accounts_workspace_is_not_found_and_nothing_is_created() {
    let (_dir, db) = db();
    let f = fixture(&db);
    let theirs = assert_not_found(
        create(&db, ACCOUNT, &new(&f.other_workspace, json!({}))),
        "workspace",
    );
    let random = assert_not_found(
        create(&db, ACCOUNT, &new(RANDOM_ID, json!({}))),
        "workspace",
    );
    assert_eq!(theirs, random);
    assert_eq!(dashboard_count(&db), 0);

    let theirs = assert_not_found(list(&db, ACCOUNT, &f.other_workspace), "workspace");
    let random = assert_not_found(list(&db, ACCOUNT, RANDOM_ID), "workspace");
    assert_eq!(theirs, random);
}

#[test]
fn another_accounts_board_is_not_found_and_nothing_is_created_or_changed() {
    let (_dir, db) = db();
    let f = fixture(&db);
    let theirs = assert_not_found(
        create(
            &db,
            ACCOUNT,
            &new(
                &f.workspace,
                config_with(&[&f.board, &f.other_board], vec![]),
            ),
        ),
        "board",
    );
    let random = assert_not_found(
        create(
            &db,
            ACCOUNT,
            &new(&f.workspace, config_with(&[&f.board, RANDOM_ID], vec![])),
        ),
        "board",
    );
    assert_eq!(theirs, random);
    assert_eq!(dashboard_count(&db), 0);

    let mine = create(
        &db,
        ACCOUNT,
        &new(&f.workspace, config_with(&[&f.board], vec![])),
    )
    .unwrap();
    let patch = DashboardPatch {
        name: Some("Renamed".into()),
        config: Some(config_with(&[&f.other_board], vec![])),
    };
    let theirs = assert_not_found(update(&db, ACCOUNT, &mine.id, &patch, None), "board");
    let patch = DashboardPatch {
        name: Some("Renamed".into()),
        config: Some(config_with(&[RANDOM_ID], vec![])),
    };
    let random = assert_not_found(update(&db, ACCOUNT, &mine.id, &patch, None), "board");
    assert_eq!(theirs, random);
    assert_eq!(get(&db, ACCOUNT, &mine.id).unwrap(), mine);

    // A board deleted since it was connected must leave the config to save.
    boards::delete_board(&db, ACCOUNT, &f.board).unwrap();
    let patch = config_patch(config_with(&[&f.board], vec![]));
    assert_not_found(update(&db, ACCOUNT, &mine.id, &patch, None), "board");
}

#[test]
fn another_accounts_dashboard_answers_like_a_random_id_and_stays_as_it_was() {
    let (_dir, db) = db();
    let f = fixture(&db);
    let mine = create(
        &db,
        ACCOUNT,
        &new(&f.workspace, config_with(&[&f.board], vec![])),
    )
    .unwrap();
    let link = publish(&db, ACCOUNT, &mine.id).unwrap();
    let patch = DashboardPatch {
        name: Some("Mine now".into()),
        config: Some(json!({})),
    };
    let mut messages = Vec::new();
    for id in [mine.id.as_str(), RANDOM_ID] {
        let answers = [
            assert_not_found(get(&db, OTHER, id), "dashboard"),
            assert_not_found(update(&db, OTHER, id, &patch, None), "dashboard"),
            assert_not_found(
                update(&db, OTHER, id, &patch, Some(&mine.etag())),
                "dashboard",
            ),
            assert_not_found(delete(&db, OTHER, id), "dashboard"),
            assert_not_found(publish(&db, OTHER, id), "dashboard"),
            assert_not_found(unpublish(&db, OTHER, id), "dashboard"),
            assert_not_found(publication(&db, OTHER, id), "dashboard"),
        ];
        messages.push(answers);
    }
    assert_eq!(messages[0], messages[1]);
    assert_eq!(get(&db, ACCOUNT, &mine.id).unwrap(), mine);
    assert!(public_view(&db, &link.token).is_ok());
    assert!(list(&db, OTHER, &f.other_workspace).unwrap().is_empty());
}

#[test]
fn layouts_that_are_not_four_non_negative_integers_are_refused() {
    let (_dir, db) = db();
    let f = fixture(&db);
    let good = widget("a", "numbers", layout(0, 0, 4, 3));
    let existing = create(
        &db,
        ACCOUNT,
        &new(&f.workspace, config_with(&[], vec![good.clone()])),
    )
    .unwrap();
    let cases = [
        (json!({"x": -1, "y": 0, "w": 4, "h": 3}), "layout.x"),
        (json!({"x": 0, "y": -3, "w": 4, "h": 3}), "layout.y"),
        (json!({"x": 0, "y": 1.5, "w": 4, "h": 3}), "layout.y"),
        (json!({"x": 0, "y": 0, "w": 2.0, "h": 3}), "layout.w"),
        (json!({"x": 0, "y": 0, "w": 0, "h": 3}), "layout.w"),
        (json!({"x": 0, "y": 0, "w": 4, "h": 0}), "layout.h"),
        (json!({"x": 0, "y": 0, "w": 4}), "layout.h"),
        (json!({"x": "0", "y": 0, "w": 4, "h": 3}), "layout.x"),
        (json!({"x": null, "y": 0, "w": 4, "h": 3}), "layout.x"),
        (json!([0, 0, 4, 3]), "layout"),
        (json!("0,0,4,3"), "layout"),
        (Value::Null, "layout"),
    ];
    for (bad, field) in cases {
        let widgets = vec![good.clone(), widget("b", "chart", bad.clone())];
        let config = config_with(&[], widgets);
        assert_invalid(
            create(&db, ACCOUNT, &new(&f.workspace, config.clone())),
            &["widgets[1]", field],
        );
        assert_invalid(
            update(&db, ACCOUNT, &existing.id, &config_patch(config), None),
            &["widgets[1]", field],
        );
    }
    let mut missing = widget("b", "chart", Value::Null);
    missing.as_object_mut().unwrap().remove("layout");
    assert_invalid(
        create(
            &db,
            ACCOUNT,
            &new(&f.workspace, config_with(&[], vec![good.clone(), missing])),
        ),
        &["widgets[1].layout"],
    );
    assert_eq!(dashboard_count(&db), 1);
    assert_eq!(get(&db, ACCOUNT, &existing.id).unwrap(), existing);

    let big = widget("b", "chart", layout(0, 1_000_000, 24, 1));
    assert!(
        create(
            &db,
            ACCOUNT,
            &new(&f.workspace, config_with(&[], vec![good, big]))
        )
        .is_ok()
    );
}

#[test]
fn widget_types_and_ids_are_checked() {
    let (_dir, db) = db();
    let f = fixture(&db);
    let l = layout(0, 0, 1, 1);
    assert_eq!(config::WIDGET_TYPES.len(), 8);
    for kind in config::WIDGET_TYPES {
        let config = config_with(&[], vec![widget("w", kind, l.clone())]);
        assert!(
            create(&db, ACCOUNT, &new(&f.workspace, config)).is_ok(),
            "{kind}"
        );
    }
    let count = dashboard_count(&db);
    let refused = [
        (vec![widget("w", "gauge", l.clone())], "widgets[0].type"),
        (vec![widget("w", "Numbers", l.clone())], "widgets[0].type"),
        (vec![json!({"id": "w", "layout": l})], "widgets[0].type"),
        (
            vec![
                widget("w", "numbers", l.clone()),
                widget("w", "chart", l.clone()),
            ],
            "widgets[1].id",
        ),
        (
            vec![json!({"type": "numbers", "layout": l})],
            "widgets[0].id",
        ),
        (vec![widget("", "numbers", l.clone())], "widgets[0].id"),
        (
            vec![json!({"id": 7, "type": "numbers", "layout": l})],
            "widgets[0].id",
        ),
        (vec![json!("numbers")], "widgets[0]"),
    ];
    for (widgets, field) in refused {
        assert_invalid(
            create(&db, ACCOUNT, &new(&f.workspace, config_with(&[], widgets))),
            &[field],
        );
    }
    assert_eq!(dashboard_count(&db), count);
}

#[test]
fn the_rest_of_the_config_is_checked_where_it_has_a_meaning() {
    let (_dir, db) = db();
    let f = fixture(&db);
    let l = layout(0, 0, 1, 1);
    let refused = [
        (json!([]), "config"),
        (Value::Null, "config"),
        (json!({"boardIds": "b1"}), "boardIds"),
        (json!({"boardIds": [f.board, f.board]}), "boardIds[1]"),
        (json!({"boardIds": [1]}), "boardIds[0]"),
        (json!({"widgets": {}}), "widgets"),
        (json!({"filters": []}), "filters"),
        (json!({"filters": {"people": "m1"}}), "filters.people"),
        (json!({"filters": {"people": [1]}}), "filters.people[0]"),
        (json!({"filters": {"rules": {}}}), "filters.rules"),
        (
            json!({"filters": {"rules": [{"column": "status", "op": "equals", "value": 1}]}}),
            "filters.rules[0].op",
        ),
        (
            json!({"filters": {"rules": [{"op": "is_empty"}]}}),
            "filters.rules[0].column",
        ),
        (
            json!({"filters": {"rules": [{"column": {"b1": 3}, "op": "is_empty"}]}}),
            "filters.rules[0].column",
        ),
        (
            json!({"widgets": [{"id": "n", "type": "numbers", "layout": l, "settings": {"column": 5}}]}),
            "widgets[0].settings.column",
        ),
        (
            json!({"widgets": [{"id": "n", "type": "velocity", "layout": l, "settings": {"doneColumn": ""}}]}),
            "widgets[0].settings.doneColumn",
        ),
        (
            json!({"widgets": [{"id": "t", "type": "table", "layout": l, "settings": {"columns": ["a", 2]}}]}),
            "widgets[0].settings.columns[1]",
        ),
    ];
    for (config, field) in refused {
        assert_invalid(create(&db, ACCOUNT, &new(&f.workspace, config)), &[field]);
    }
    for name in ["", "   ", &"x".repeat(201)] {
        let mut bad = new(&f.workspace, json!({}));
        bad.name = name.to_owned();
        assert_invalid(create(&db, ACCOUNT, &bad), &["name"]);
    }
    assert_eq!(dashboard_count(&db), 0);

    let accepted = json!({
        "boardIds": [f.board, f.second_board],
        "widgets": [{"id": "c", "type": "chart", "layout": l,
                     "settings": {"groupBy": "group", "column": {(f.board.clone()): "budget"},
                                  "dateColumn": null, "columns": [{(f.second_board.clone()): "notes"}, "status"]}}],
        "filters": {"people": ["m1"], "rules": [{"column": "status", "op": "is_not_empty"}], "extra": true}
    });
    let mut named = new(&f.workspace, accepted.clone());
    named.name = "é".repeat(200);
    assert_eq!(create(&db, ACCOUNT, &named).unwrap().config, accepted);
}

#[test]
fn a_patch_with_config_null_is_refused() {
    let (_dir, db) = db();
    let f = fixture(&db);
    let d = create(&db, ACCOUNT, &new(&f.workspace, json!({}))).unwrap();
    let patch: DashboardPatch = serde_json::from_value(json!({"config": null})).unwrap();
    assert_invalid(update(&db, ACCOUNT, &d.id, &patch, None), &["config"]);
    let patch: DashboardPatch = serde_json::from_value(json!({"name": "Only name"})).unwrap();
    assert_eq!(patch.config, None);
}

#[test]
fn if_match_refuses_stale_saves_and_accepts_fresh_ones() {
    let (_dir, db) = db();
    let f = fixture(&db);
    let first = create(&db, ACCOUNT, &new(&f.workspace, json!({}))).unwrap();
    let rename = |name: &str| DashboardPatch {
        name: Some(name.into()),
        config: None,
    };

    let second = update(
        &db,
        ACCOUNT,
        &first.id,
        &rename("Tab one"),
        Some(&first.etag()),
    )
    .unwrap();
    assert_eq!(second.version, first.version + 1);

    // The other tab still holds the first ETag.
    assert!(matches!(
        update(
            &db,
            ACCOUNT,
            &first.id,
            &rename("Tab two"),
            Some(&first.etag())
        ),
        Err(DashboardsError::Stale)
    ));
    let weak = format!("W/{}", second.etag());
    assert!(matches!(
        update(&db, ACCOUNT, &first.id, &rename("Weak"), Some(&weak)),
        Err(DashboardsError::Stale)
    ));
    assert_eq!(get(&db, ACCOUNT, &first.id).unwrap(), second);

    let listed = format!("\"nope\", {}", second.etag());
    let third = update(&db, ACCOUNT, &first.id, &rename("Listed"), Some(&listed)).unwrap();
    let fourth = update(&db, ACCOUNT, &first.id, &rename("Any"), Some("*")).unwrap();
    let fifth = update(&db, ACCOUNT, &first.id, &rename("Last wins"), None).unwrap();
    assert_eq!([third.version, fourth.version, fifth.version], [3, 4, 5]);
    assert_eq!(get(&db, ACCOUNT, &first.id).unwrap().name, "Last wins");
    assert_eq!(get(&db, ACCOUNT, &first.id).unwrap().etag(), fifth.etag());
}

/// The public payload, checked against its declared wire type on every read.
fn public(db: &Db, token: &str) -> Value {
    let bytes = public_view(db, token).unwrap();
    let typed: ::dashboards::PublicDashboardBody = serde_json::from_slice(&bytes).unwrap();
    let value: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(serde_json::to_value(&typed).unwrap(), value);
    value
}

#[test]
fn publish_withdraw_republish_and_delete() {
    let (_dir, db) = db();
    let f = fixture(&db);
    let d = create(
        &db,
        ACCOUNT,
        &new(&f.workspace, config_with(&[&f.board], vec![])),
    )
    .unwrap();
    assert_eq!(publication(&db, ACCOUNT, &d.id).unwrap(), None);

    let first = publish(&db, ACCOUNT, &d.id).unwrap();
    assert_eq!(first.token.len(), 43);
    assert!(
        first
            .token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    );
    assert_eq!(first.url_path, format!("/p/{}", first.token));
    assert_eq!(
        first.url("http://127.0.0.1:19520/"),
        format!("http://127.0.0.1:19520/p/{}", first.token)
    );
    assert_eq!(public(&db, &first.token)["dashboard"]["id"], json!(d.id));
    assert!(publication(&db, ACCOUNT, &d.id).unwrap().is_some());

    // Only the digest is stored.
    let stored: Vec<Vec<u8>> = db
        .read(|tx| {
            tx.prepare("SELECT token_sha256 FROM dashboard_publications")?
                .query_map([], |r| r.get(0))?
                .collect()
        })
        .unwrap();
    assert_eq!(
        stored,
        vec![Sha256::digest(first.token.as_bytes()).to_vec()]
    );

    unpublish(&db, ACCOUNT, &d.id).unwrap();
    let withdrawn = assert_not_found(public_view(&db, &first.token), "published dashboard");
    let unknown = assert_not_found(public_view(&db, "not-a-token"), "published dashboard");
    assert_eq!(withdrawn, unknown);
    assert_eq!(publication(&db, ACCOUNT, &d.id).unwrap(), None);
    unpublish(&db, ACCOUNT, &d.id).unwrap();

    let second = publish(&db, ACCOUNT, &d.id).unwrap();
    assert_ne!(second.token, first.token);
    assert!(public_view(&db, &second.token).is_ok());
    assert_not_found(public_view(&db, &first.token), "published dashboard");

    // Publishing again replaces the live link.
    let third = publish(&db, ACCOUNT, &d.id).unwrap();
    assert!(public_view(&db, &third.token).is_ok());
    assert_not_found(public_view(&db, &second.token), "published dashboard");

    delete(&db, ACCOUNT, &d.id).unwrap();
    assert_not_found(public_view(&db, &third.token), "published dashboard");
}

#[test]
fn deleting_the_workspace_takes_its_dashboards_and_links() {
    let (_dir, db) = db();
    let f = fixture(&db);
    let d = create(&db, ACCOUNT, &new(&f.workspace, json!({}))).unwrap();
    let link = publish(&db, ACCOUNT, &d.id).unwrap();
    boards::delete_workspace(&db, ACCOUNT, &f.workspace).unwrap();
    assert_not_found(get(&db, ACCOUNT, &d.id), "dashboard");
    assert_not_found(public_view(&db, &link.token), "published dashboard");
}

fn member(db: &Db, name: &str, email: &str) -> String {
    boards::create_member(
        db,
        ACCOUNT,
        &NewMember {
            name: name.into(),
            email: Some(email.into()),
        },
    )
    .unwrap()
    .id
}

fn item(db: &Db, board: &str, name: &str, values: Value) -> String {
    let values = values.as_object().unwrap().clone();
    boards::create_item(
        db,
        ACCOUNT,
        "tester",
        board,
        &NewItem {
            group_id: None,
            name: name.into(),
            values,
        },
    )
    .unwrap()
    .id
}

fn ids(list: &Value) -> Vec<&str> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect()
}

#[test]
fn the_public_view_holds_only_what_widgets_and_filters_use() {
    let (_dir, db) = db();
    let f = fixture(&db);
    let ada = member(&db, "Ada", "ada@example.com");
    let bob = member(&db, "Bob", "bob@example.com");
    let cy = member(&db, "Cy", "cy@example.com");
    let _dee = member(&db, "Dee", "dee@example.com");
    let first = item(
        &db,
        &f.board,
        "Launch",
        json!({"status": "Done", "budget": 1200, "owner": [ada], "reviewer": [bob],
               "notes": "confidential", "done_on": "2025-01-02"}),
    );
    let plan = item(&db, &f.board, "Plan", json!({"notes": "also hidden"}));
    item(&db, &f.second_board, "Bug", json!({"budget": 5}));

    let config = json!({
        "boardIds": [f.board, f.second_board, f.other_board],
        "widgets": [
            {"id": "n1", "type": "numbers", "title": "Budget", "layout": layout(0, 0, 4, 3),
             "settings": {"function": "sum", "column": "budget"}},
            {"id": "c1", "type": "chart", "layout": layout(4, 0, 8, 6),
             "settings": {"chartType": "pie", "groupBy": "status", "function": "count"}},
            {"id": "t1", "type": "table", "layout": layout(0, 6, 12, 6),
             "settings": {"columns": [{(f.board.clone()): "owner"}]}}
        ],
        "filters": {"people": [cy], "rules": [{"column": "done_on", "op": "is_not_empty"}]}
    });
    // The other account's board cannot be connected through the API; put it in
    // the stored config directly to check that the public read skips it too.
    let d = create(
        &db,
        ACCOUNT,
        &new(
            &f.workspace,
            config_with(&[&f.board, &f.second_board], vec![]),
        ),
    )
    .unwrap();
    db.write(|tx| {
        tx.execute(
            "UPDATE dashboards SET config = ?2 WHERE id = ?1",
            [&d.id, &config.to_string()],
        )
    })
    .unwrap();
    let link = publish(&db, ACCOUNT, &d.id).unwrap();
    boards::delete_board(&db, ACCOUNT, &f.second_board).unwrap();

    let bytes = public_view(&db, &link.token).unwrap();
    let text = String::from_utf8(bytes.clone()).unwrap();
    for hidden in [
        "@example.com",
        "confidential",
        "also hidden",
        "Secret",
        "Dee",
    ] {
        assert!(!text.contains(hidden), "{hidden} leaked: {text}");
    }
    let view: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(
        view["dashboard"],
        json!({"id": d.id, "name": "Overview", "config": config})
    );

    let boards = view["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 1, "deleted and foreign boards are skipped");
    let board = &boards[0]["board"];
    assert_eq!(board["id"], json!(f.board));
    assert_eq!(board["name"], json!("Roadmap"));
    assert!(board.get("workspaceId").is_none());
    // done_on is used only by a filter rule; notes and reviewer by nothing.
    assert_eq!(
        ids(&board["columns"]),
        ["status", "budget", "owner", "done_on"]
    );
    assert_eq!(
        board["columns"][0]["settings"]["labels"][1],
        json!({"name": "Done", "done": true})
    );

    let items = boards[0]["items"].as_array().unwrap();
    assert_eq!(ids(&boards[0]["items"]), [first.as_str(), plan.as_str()]);
    assert_eq!(
        items[0]["values"],
        json!({"status": "Done", "budget": 1200, "owner": [ada], "done_on": "2025-01-02"})
    );
    assert_eq!(items[1]["values"], json!({}));
    for key in ["groupId", "name", "createdAt", "updatedAt"] {
        assert!(items[0].get(key).is_some(), "{key}");
    }

    // Ada through a kept people value, Cy through the People filter; Bob is
    // only in the dropped reviewer column and Dee nowhere.
    assert_eq!(
        view["members"],
        json!([{"id": ada, "name": "Ada"}, {"id": cy, "name": "Cy"}])
    );
}
