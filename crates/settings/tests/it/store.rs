//! The store against a real SQLite file: durability across reopening, refused
//! writes, resets, the pre-serialised body and the typed getters.

use std::path::Path;
use std::sync::Arc;

use serde_json::{Value, json};
use settings::{
    AgentPermissionLevel, PmBoardDensity, PmSetupPreset, SettingsError, SettingsStore, definitions,
};
use store::Db;

fn open(path: &Path) -> SettingsStore {
    SettingsStore::load(Arc::new(Db::open(path).unwrap())).unwrap()
}

fn body(store: &SettingsStore) -> serde_json::Map<String, Value> {
    match serde_json::from_slice(&store.all_json()).unwrap() {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

#[test]
fn the_store_can_be_shared_across_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<SettingsStore>();
}

#[test]
fn a_fresh_store_serves_every_default_in_catalog_order() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir.path().join("db.sqlite"));
    let all = body(&store);
    assert_eq!(all.len(), 247);
    let keys: Vec<&str> = all.keys().map(String::as_str).collect();
    let catalog: Vec<&str> = definitions().iter().map(|def| def.key).collect();
    assert_eq!(keys, catalog);
    for def in definitions() {
        assert_eq!(&all[def.key], def.default_value(), "{}", def.key);
    }
    assert_eq!(store.all(), all);
}

#[test]
fn a_write_survives_reopening_and_shows_in_every_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    {
        let store = open(&path);
        assert_eq!(
            store.set("sessionCpuCapPercent", &json!(55.0)).unwrap(),
            json!(55)
        );
        assert_eq!(
            store.set("agentPermissionLevel", &json!("full")).unwrap(),
            json!("full")
        );
        store.set("initialTitleModel", &json!("tiny")).unwrap();
        store.set("initialTitleModel", &json!(null)).unwrap();
        store.set("cliServerEnabled", &json!(false)).unwrap();
        assert_eq!(body(&store)["sessionCpuCapPercent"], json!(55));
    }
    let store = open(&path);
    let view = store.get("sessionCpuCapPercent").unwrap();
    assert_eq!(
        (view.key, view.value, view.default, view.type_label),
        ("sessionCpuCapPercent", json!(55), json!(75), "number")
    );
    assert_eq!(store.agent_permission_level(), AgentPermissionLevel::Full);
    assert_eq!(store.initial_title_model(), None);
    assert!(!store.cli_server_enabled());
    assert_eq!(store.session_cpu_cap_percent(), 55);
    let all = body(&store);
    assert_eq!(all["agentPermissionLevel"], json!("full"));
    assert_eq!(all["cliServerEnabled"], json!(false));
}

#[test]
fn a_refused_write_leaves_the_stored_value() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    {
        let store = open(&path);
        store.set("sessionCpuCapPercent", &json!(60)).unwrap();
        let error = store.set("sessionCpuCapPercent", &json!(57)).unwrap_err();
        assert!(matches!(
            error,
            SettingsError::InvalidValue {
                key: "sessionCpuCapPercent",
                ..
            }
        ));
        assert_eq!(
            error.to_string(),
            "sessionCpuCapPercent takes an integer from 25 to 90 in steps of 5"
        );
        assert_eq!(store.get("sessionCpuCapPercent").unwrap().value, json!(60));
    }
    assert_eq!(
        open(&path).get("sessionCpuCapPercent").unwrap().value,
        json!(60)
    );
}

#[test]
fn reset_restores_the_default_durably() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    {
        let store = open(&path);
        store.set("heardAboutUs", &json!("a friend")).unwrap();
        let view = store.reset("heardAboutUs").unwrap();
        assert_eq!((view.value, view.default), (json!(""), json!("")));
        assert_eq!(body(&store)["heardAboutUs"], json!(""));
        store.set("pmBoardDensity", &json!("dense")).unwrap();
    }
    let store = open(&path);
    assert_eq!(store.get("heardAboutUs").unwrap().value, json!(""));
    assert_eq!(store.get("pmBoardDensity").unwrap().value, json!("dense"));
}

#[test]
fn keys_outside_the_catalog_are_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir.path().join("db.sqlite"));
    for result in [
        store.get("apiKey").map(|_| ()),
        store.set("apiKey", &json!("x")).map(|_| ()),
        store.reset("apiKey").map(|_| ()),
    ] {
        assert!(matches!(result, Err(SettingsError::UnknownSetting { key }) if key == "apiKey"));
    }
}

#[test]
fn stored_values_the_schema_no_longer_accepts_fall_back_to_the_default() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    {
        let db = Arc::new(Db::open(&path).unwrap());
        let store = SettingsStore::load(db.clone()).unwrap();
        store.set("toastDisplayDurationSeconds", &json!(7)).unwrap();
        db.write(|tx| {
            tx.execute_batch(
                "INSERT INTO settings VALUES ('sessionCpuCapPercent', '57', 'then');
                 INSERT INTO settings VALUES ('pmBoardDensity', 'not json', 'then');
                 INSERT INTO settings VALUES ('retiredSetting', 'true', 'then');",
            )
        })
        .unwrap();
    }
    let store = open(&path);
    assert_eq!(store.session_cpu_cap_percent(), 75);
    assert_eq!(store.pm_board_density(), PmBoardDensity::Comfortable);
    assert_eq!(store.toast_display_duration_seconds(), 7);
    assert_eq!(body(&store).len(), 247);
}

#[test]
fn typed_accessors_read_current_values() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir.path().join("db.sqlite"));
    assert!(store.cli_server_enabled());
    assert_eq!(store.session_forensics_daily_cost_cap_usd(), 1.0);
    store
        .set("sessionForensicsDailyCostCapUsd", &json!(2.5))
        .unwrap();
    assert_eq!(store.session_forensics_daily_cost_cap_usd(), 2.5);
    store.set("initialTitleModel", &json!("tiny")).unwrap();
    assert_eq!(store.initial_title_model().as_deref(), Some("tiny"));
    assert_eq!(
        store.agent_instructions_sync_canonical().as_str(),
        "PRIMARY.md"
    );
    store
        .set(
            "agentInstructionsSyncMirrors",
            &json!(["ALT1.md", ".altrules5"]),
        )
        .unwrap();
    assert_eq!(
        store.agent_instructions_sync_mirrors(),
        ["ALT1.md", ".altrules5"]
    );
    assert_eq!(store.alarms_default_snooze_minutes(), 9);
    assert_eq!(store.pm_inbox_board_preferences(), json!({}));
    assert_eq!(store.heard_about_us(), "");
    store.reset("sessionForensicsDailyCostCapUsd").unwrap();
    assert_eq!(store.session_forensics_daily_cost_cap_usd(), 1.0);
}

/// Every select's enum names exactly the catalog's values, in its order.
#[test]
fn select_enums_round_trip_their_values() {
    assert_eq!(
        PmSetupPreset::ALL.map(PmSetupPreset::as_str).to_vec(),
        match settings::lookup("pmSetupPreset").unwrap().kind {
            settings::Kind::Select(options) => options.to_vec(),
            _ => unreachable!(),
        }
    );
    for value in AgentPermissionLevel::ALL {
        assert_eq!(AgentPermissionLevel::from_name(value.as_str()), Some(value));
    }
    assert_eq!(AgentPermissionLevel::from_name("root"), None);
}
