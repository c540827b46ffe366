//! Invariants of the catalog table that the spec check does not cover.

use std::collections::HashSet;

use settings::{Kind, definitions, lookup};

#[test]
fn keys_are_unique_plain_identifiers() {
    let mut seen = HashSet::new();
    for def in definitions() {
        assert!(seen.insert(def.key), "{} twice", def.key);
        assert!(
            def.key.chars().all(|c| c.is_ascii_alphanumeric()),
            "{} must need no JSON escaping",
            def.key
        );
        assert_eq!(lookup(def.key).map(|d| d.key), Some(def.key));
    }
    assert!(lookup("noSuchSetting").is_none());
}

#[test]
fn every_default_is_accepted_and_already_normalised() {
    for def in definitions() {
        let default = def.default_value();
        let validated = def
            .validate(default)
            .unwrap_or_else(|e| panic!("{}: default {default} refused: {e}", def.key));
        assert_eq!(&validated, default, "{}: default not normalised", def.key);
    }
}

#[test]
fn the_contracts_guarded_keys_are_guarded() {
    let contract = [
        "cliServerEnabled",
        "agentDrivenSessionsEnabled",
        "agentDrivenMaxConcurrent",
        "agentPermissionLevel",
        "allowAgentAppRestart",
        "allowAgentDirectNavigation",
        "allowAgentForegroundFromBackground",
        "allowAgentTokenSpawn",
        "allowAgentTokenTeamChat",
        "requireSpawnSourceSession",
        "cliSpawnSpacingSeconds",
        "aiCoachingCliEnabled",
        "bookmarksCliEnabled",
        "autoApproveConfigFiles",
        "autoApprovePlans",
        "sessionSelfArchiveWithoutApproval",
        "agentAlertsEnabled",
        "webhooksEnabled",
    ];
    for key in contract {
        assert!(lookup(key).unwrap().is_guarded(), "{key} must be guarded");
    }
    for key in [
        "heardAboutUs",
        "pmBoardDensity",
        "alarmsDefaultSnoozeMinutes",
    ] {
        assert!(!lookup(key).unwrap().is_guarded(), "{key} governs no agent");
    }
}

/// JSON Schema's `multipleOf` counts from zero, the catalog's steps from the
/// minimum; they agree only while each stepped minimum is on the step.
#[test]
fn stepped_ranges_start_on_their_step() {
    let mut stepped = 0;
    for def in definitions() {
        if let Kind::Number(range) = def.kind
            && let Some(step) = range.step
        {
            stepped += 1;
            assert_eq!(range.min % step, 0.0, "{}", def.key);
        }
    }
    assert_eq!(stepped, 2);
}

#[test]
fn only_initial_title_model_takes_null() {
    let nullable: Vec<&str> = definitions()
        .iter()
        .filter(|def| def.nullable)
        .map(|def| def.key)
        .collect();
    assert_eq!(nullable, ["initialTitleModel"]);
    assert_eq!(
        lookup("initialTitleModel").unwrap().default_value(),
        &serde_json::Value::Null
    );
}
