//! Table-driven validation: for every key, values derived from its kind that
//! must be accepted (with their normalised form) and refused (with a message
//! naming what the key accepts); then the contract's own cases by hand.

use serde_json::{Value, json};
use settings::{Kind, NumberRange, SettingDef, SettingsError, TextFormat, definitions, lookup};

/// Values of `kind` that must be accepted, each with the value it normalises to.
fn accepted(kind: &Kind) -> Vec<(Value, Value)> {
    let same = |v: Value| (v.clone(), v);
    match kind {
        Kind::Toggle => vec![same(json!(true)), same(json!(false))],
        Kind::Text {
            format: TextFormat::TimeOfDay,
            ..
        } => vec![
            same(json!("00:00")),
            same(json!("07:05")),
            same(json!("23:59")),
        ],
        Kind::Text {
            format: TextFormat::TimeZone,
            ..
        } => vec![
            same(json!("")),
            same(json!("Europe/Berlin")),
            same(json!("America/New_York")),
            same(json!("UTC")),
        ],
        Kind::Text {
            max_chars: None, ..
        } => vec![same(json!("")), same(json!("x".repeat(20_000)))],
        Kind::Text {
            max_chars: Some(max),
            ..
        } => vec![
            same(json!("")),
            same(json!("a".repeat(*max))),
            // Characters, not bytes: each of these is two bytes in UTF-8.
            same(json!("é".repeat(*max))),
        ],
        Kind::Number(range) => accepted_numbers(range),
        Kind::Select(options) => options.iter().map(|o| same(json!(o))).collect(),
        Kind::NumberChoice(options) => options
            .iter()
            .flat_map(|n| [same(json!(n)), (json!(*n as f64), json!(n))])
            .collect(),
        Kind::List(item) => {
            let mut cases = vec![same(json!([]))];
            for (value, normal) in accepted(item) {
                cases.push((json!([value]), json!([normal])));
            }
            if let Kind::Select(options) = item {
                cases.push(same(json!(options)));
            } else if let Some((value, normal)) = accepted(item).into_iter().next() {
                // Only enumerated strings refuse repeats.
                cases.push((json!([value, value]), json!([normal, normal])));
            }
            cases
        }
        Kind::Map(value_kind) => {
            let mut cases = vec![same(json!({}))];
            for (value, normal) in accepted(value_kind) {
                cases.push((
                    json!({"board-1": value, "b2": value}),
                    json!({"board-1": normal, "b2": normal}),
                ));
            }
            cases
        }
        Kind::Object(fields) => {
            let mut cases = vec![same(json!({}))];
            let (mut full, mut full_normal) = (json!({}), json!({}));
            for field in *fields {
                for (value, normal) in accepted(&field.kind) {
                    cases.push((json!({field.name: value}), json!({field.name: normal})));
                }
                let (value, normal) = accepted(&field.kind).swap_remove(0);
                full[field.name] = value;
                full_normal[field.name] = normal;
            }
            cases.push((full, full_normal));
            cases
        }
    }
}

fn accepted_numbers(range: &NumberRange) -> Vec<(Value, Value)> {
    let NumberRange {
        min,
        max,
        integer,
        step,
    } = *range;
    let top = max.unwrap_or(1e9);
    let mut cases = Vec::new();
    if integer {
        let (lo, hi) = (min as i64, top as i64);
        cases.push((json!(lo), json!(lo)));
        cases.push((json!(hi), json!(hi)));
        // A whole float is the integer it stands for.
        cases.push((json!(lo as f64), json!(lo)));
        cases.push((json!(hi as f64), json!(hi)));
        let next = lo + step.map_or(1, |s| s as i64);
        cases.push((json!(next), json!(next)));
    } else {
        for x in [min, top, (min + top) / 2.0] {
            cases.push((json!(x), json!(x)));
        }
        let whole = min.ceil() as i64;
        cases.push((json!(whole), json!(whole)));
    }
    cases
}

/// Values of `kind` that must be refused.
fn refused(kind: &Kind) -> Vec<Value> {
    let mut cases: Vec<Value> = [
        json!(null),
        json!(true),
        json!(1),
        json!(1.5),
        json!("x"),
        json!([]),
        json!({}),
    ]
    .into_iter()
    .filter(|value| !same_json_type(kind, value))
    .collect();
    match kind {
        Kind::Toggle => cases.extend([json!("true"), json!("false"), json!(0)]),
        Kind::Text {
            format: TextFormat::TimeOfDay,
            ..
        } => cases.extend([
            json!(""),
            json!("24:00"),
            json!("7:05"),
            json!("07:60"),
            json!("07:05 "),
            json!("0705"),
        ]),
        Kind::Text {
            format: TextFormat::TimeZone,
            ..
        } => cases.extend([
            json!("Mars/Olympus_Mons"),
            json!("europe/berlin "),
            json!("+25:00"),
        ]),
        Kind::Text {
            max_chars: None, ..
        } => {}
        Kind::Text {
            max_chars: Some(max),
            ..
        } => {
            cases.push(json!("a".repeat(max + 1)));
            cases.push(json!("é".repeat(max + 1)));
        }
        Kind::Number(range) => cases.extend(refused_numbers(range)),
        Kind::Select(options) => {
            cases.push(json!(""));
            for option in *options {
                cases.push(json!(format!("{option} ")));
                if option.to_uppercase() != *option {
                    cases.push(json!(option.to_uppercase()));
                }
            }
        }
        Kind::NumberChoice(options) => {
            cases.extend(options.iter().map(|n| json!(n.to_string())));
            cases.extend(options.iter().map(|n| json!(n + 1)));
            cases.extend(options.iter().map(|n| json!(*n as f64 + 0.5)));
        }
        Kind::List(item) => {
            cases.extend(refused(item).into_iter().map(|value| json!([value])));
            if let Kind::Select(options) = item {
                cases.push(json!([options[0], options[0]]));
                cases.push(json!([options[0], options[options.len() - 1], options[0]]));
            }
            let (value, _) = accepted(item).swap_remove(0);
            cases.push(json!([value, null]));
        }
        Kind::Map(value_kind) => {
            cases.extend(
                refused(value_kind)
                    .into_iter()
                    .map(|value| json!({"board": value})),
            );
        }
        Kind::Object(fields) => {
            cases.push(json!({"notAField": true}));
            let first = &fields[0];
            let (value, _) = accepted(&first.kind).swap_remove(0);
            cases.push(json!({first.name: value, "notAField": 1}));
            for field in *fields {
                for value in refused(&field.kind) {
                    cases.push(json!({field.name: value}));
                }
            }
        }
    }
    cases
}

fn refused_numbers(range: &NumberRange) -> Vec<Value> {
    let NumberRange {
        min,
        max,
        integer,
        step,
    } = *range;
    let mut cases = Vec::new();
    if integer {
        cases.push(json!(min as i64 - 1));
        cases.push(json!(min + 0.5));
        cases.push(json!(min - 1.0));
        if let Some(max) = max {
            cases.push(json!(max as i64 + 1));
            cases.push(json!(max + 1.0));
        }
        if step.is_some() {
            cases.push(json!(min as i64 + 1));
            cases.push(json!(max.unwrap() as i64 - 1));
        }
    } else {
        cases.push(json!(min - 0.001));
        if let Some(max) = max {
            cases.push(json!(max + 0.001));
        }
    }
    cases
}

fn same_json_type(kind: &Kind, value: &Value) -> bool {
    match kind {
        Kind::Toggle => value.is_boolean(),
        Kind::Text { .. } | Kind::Select(_) => value.is_string(),
        Kind::Number(_) | Kind::NumberChoice(_) => value.is_number(),
        Kind::List(_) => value.is_array(),
        Kind::Map(_) | Kind::Object(_) => value.is_object(),
    }
}

fn refusal_message(def: &SettingDef, value: &Value) -> String {
    match def.validate(value) {
        Err(SettingsError::InvalidValue { key, message }) => {
            assert_eq!(key, def.key);
            message
        }
        other => panic!("{}: {value} should be refused, got {other:?}", def.key),
    }
}

#[test]
fn every_key_accepts_what_its_kind_accepts() {
    let mut checked = 0;
    for def in definitions() {
        for (value, normal) in accepted(&def.kind) {
            let got = def
                .validate(&value)
                .unwrap_or_else(|e| panic!("{}: {value} refused: {e}", def.key));
            assert_eq!(got, normal, "{}: {value} normalised", def.key);
            assert_eq!(
                def.validate(&got).unwrap(),
                got,
                "{}: normalising twice",
                def.key
            );
            checked += 1;
        }
    }
    assert!(checked > 247 * 2, "{checked}");
}

#[test]
fn every_key_refuses_what_its_kind_refuses_and_says_what_it_takes() {
    for def in definitions() {
        let cases = refused(&def.kind);
        assert!(cases.len() >= 4, "{}: too few refusals derived", def.key);
        for value in cases {
            if def.nullable && value.is_null() {
                continue;
            }
            let message = refusal_message(def, &value);
            let expected = format!("{} takes {}", def.key, def.accepted());
            assert!(
                message.starts_with(&expected),
                "{}: {value} gave {message:?}",
                def.key
            );
        }
    }
}

fn check(key: &str, value: Value) -> Result<Value, String> {
    lookup(key)
        .unwrap()
        .validate(&value)
        .map_err(|e| e.to_string())
}

#[test]
fn the_contracts_cases() {
    let accepted: &[(&str, Value, Value)] = &[
        ("agentDrivenSessionsEnabled", json!(true), json!(true)),
        ("sessionCpuCapPercent", json!(25), json!(25)),
        ("sessionCpuCapPercent", json!(55), json!(55)),
        ("sessionCpuCapPercent", json!(90), json!(90)),
        ("sessionCpuCapPercent", json!(50.0), json!(50)),
        ("sessionMemoryGuardPercent", json!(95), json!(95)),
        ("alarmsDefaultSnoozeMinutes", json!(5), json!(5)),
        ("alarmsDefaultSnoozeMinutes", json!(9.0), json!(9)),
        ("alarmsDefaultSnoozeMinutes", json!(30), json!(30)),
        ("alarmsDefaultMaxSnoozes", json!(-1), json!(-1)),
        ("agentDrivenMaxDollarsPerSession", json!(12.5), json!(12.5)),
        (
            "frictionTriageCostCapUsd",
            json!(1_000_000),
            json!(1_000_000),
        ),
        ("heardAboutUs", json!("ü".repeat(64)), json!("ü".repeat(64))),
        ("initialTitleModel", json!(null), json!(null)),
        (
            "initialTitleModel",
            json!("small-model"),
            json!("small-model"),
        ),
        (
            "postSendNavigation",
            json!(["stay", "next_in_inbox"]),
            json!(["stay", "next_in_inbox"]),
        ),
        ("pmCalendarBoardIds", json!(["a", "a"]), json!(["a", "a"])),
        (
            "pmInboxBoardPreferences",
            json!({"b1": "assigned-only"}),
            json!({"b1": "assigned-only"}),
        ),
        (
            "dailyDigestSources",
            json!({"calendar": false, "pm-events": true}),
            json!({"calendar": false, "pm-events": true}),
        ),
        (
            "trustedSheets",
            json!([{"spreadsheetId": "s1", "label": "Tasks", "editableColumns": [0, 3.0, 702],
                    "taskView": {"urlCol": 4, "sheetTitle": "Sheet1", "categoriesTab": "Cats"}}]),
            json!([{"spreadsheetId": "s1", "label": "Tasks", "editableColumns": [0, 3, 702],
                    "taskView": {"urlCol": 4, "sheetTitle": "Sheet1", "categoriesTab": "Cats"}}]),
        ),
    ];
    for (key, value, normal) in accepted {
        assert_eq!(
            check(key, value.clone()).as_ref(),
            Ok(normal),
            "{key}: {value}"
        );
    }

    let refused: &[(&str, Value, &str)] = &[
        (
            "agentDrivenSessionsEnabled",
            json!("true"),
            "agentDrivenSessionsEnabled takes true or false",
        ),
        (
            "agentDrivenSessionsEnabled",
            json!(1),
            "agentDrivenSessionsEnabled takes true or false",
        ),
        (
            "agentDrivenSessionsEnabled",
            json!(null),
            "agentDrivenSessionsEnabled takes true or false",
        ),
        (
            "sessionCpuCapPercent",
            json!(57),
            "sessionCpuCapPercent takes an integer from 25 to 90 in steps of 5",
        ),
        (
            "sessionCpuCapPercent",
            json!(20),
            "sessionCpuCapPercent takes an integer from 25 to 90 in steps of 5",
        ),
        (
            "sessionCpuCapPercent",
            json!(95),
            "sessionCpuCapPercent takes an integer from 25 to 90 in steps of 5",
        ),
        (
            "sessionCpuCapPercent",
            json!(55.5),
            "sessionCpuCapPercent takes an integer from 25 to 90 in steps of 5",
        ),
        (
            "sessionCpuCapPercent",
            json!("55"),
            "sessionCpuCapPercent takes an integer from 25 to 90 in steps of 5",
        ),
        (
            "sessionMemoryGuardPercent",
            json!(97),
            "sessionMemoryGuardPercent takes an integer from 50 to 95 in steps of 5",
        ),
        (
            "agentDrivenMaxConcurrent",
            json!(3.5),
            "agentDrivenMaxConcurrent takes an integer from 0 to 10",
        ),
        (
            "agentDrivenMaxDollarsPerSession",
            json!(20.01),
            "agentDrivenMaxDollarsPerSession takes a number from 0 to 20",
        ),
        (
            "frictionTriageCostCapUsd",
            json!(-0.5),
            "frictionTriageCostCapUsd takes a number of at least 0",
        ),
        (
            "sessionForensicsDailyCostCapUsd",
            json!(0.04),
            "sessionForensicsDailyCostCapUsd takes a number from 0.05 to 20",
        ),
        (
            "alarmsDefaultSnoozeMinutes",
            json!(10),
            "alarmsDefaultSnoozeMinutes takes one of the numbers 5, 9, 15, 30",
        ),
        (
            "alarmsDefaultSnoozeMinutes",
            json!("9"),
            "alarmsDefaultSnoozeMinutes takes one of the numbers 5, 9, 15, 30",
        ),
        (
            "alarmsDefaultMaxSnoozes",
            json!(-2),
            "alarmsDefaultMaxSnoozes takes an integer from -1 to 20",
        ),
        (
            "heardAboutUs",
            json!("ü".repeat(65)),
            "heardAboutUs takes a string of at most 64 characters",
        ),
        (
            "heardAboutUs",
            json!(null),
            "heardAboutUs takes a string of at most 64 characters",
        ),
        (
            "refreshTitleModel",
            json!(null),
            "refreshTitleModel takes a string of at most 100 characters",
        ),
        (
            "initialTitleModel",
            json!(7),
            "initialTitleModel takes a string of at most 100 characters, or null",
        ),
        (
            "agentPermissionLevel",
            json!("root"),
            r#"agentPermissionLevel takes one of "read_only", "guarded", "autonomous", "full""#,
        ),
        (
            "postSendNavigation",
            json!(["stay", "stay"]),
            r#"postSendNavigation takes a list without repeats, each item one of "stay", "next_in_project", "next_in_inbox", "waiting_room"; postSendNavigation[1] repeats "stay""#,
        ),
        (
            "pmInboxBoardPreferences",
            json!({"b1": "some"}),
            r#"pmInboxBoardPreferences takes an object whose every value is one of "all", "assigned-only", "none"; pmInboxBoardPreferences["b1"] must be one of "all", "assigned-only", "none""#,
        ),
        (
            "dailyDigestSources",
            json!({"fax": true}),
            "dailyDigestSources.fax is not an accepted field",
        ),
        (
            "dailyDigestSources",
            json!({"calendar": "yes"}),
            "dailyDigestSources.calendar must be true or false",
        ),
        (
            "trustedSheets",
            json!({"label": "x"}),
            "trustedSheets takes a list, each item an object with only the fields editableColumns (a list, each item an integer from 0 to 702), label (a string of at most 100 characters), spreadsheetId (a string of at most 256 characters), taskView (an object with only the fields categoriesCol, completionCol, dueDateCol, sectionCol, subjectCol, urlCol (each an integer from 0 to 702), categoriesTab, sheetTitle (each a string of at most 100 characters))",
        ),
        (
            "trustedSheets",
            json!([{"label": "x", "owner": "me"}]),
            "trustedSheets[0].owner is not an accepted field",
        ),
        (
            "trustedSheets",
            json!([{}, {"taskView": {"urlCol": 703}}]),
            "trustedSheets[1].taskView.urlCol must be an integer from 0 to 702",
        ),
        (
            "trustedSheets",
            json!([{"taskView": {"sheetTitle": 5}}]),
            "trustedSheets[0].taskView.sheetTitle must be a string of at most 100 characters",
        ),
        (
            "trustedSheets",
            json!([{"taskView": {"tab": "x"}}]),
            "trustedSheets[0].taskView.tab is not an accepted field",
        ),
        (
            "trustedSheets",
            json!([{"editableColumns": [1, 2.5]}]),
            "trustedSheets[0].editableColumns[1] must be an integer from 0 to 702",
        ),
        (
            "trustedSheets",
            json!([{"label": null}]),
            "trustedSheets[0].label must be a string of at most 100 characters",
        ),
    ];
    for (key, value, needle) in refused {
        let message = check(key, value.clone()).expect_err(&format!("{key}: {value} accepted"));
        assert!(
            message.contains(needle),
            "{key}: {value}: {message:?} lacks {needle:?}"
        );
    }
}
