//! What a person edits outside the app: tasks.md, and a setting's value as
//! a client sends it.

use serde_json::Value;

use crate::input::{choice, text};

/// tasks.md's text. Parsing never fails; what it reads, [`tasks::render`]
/// writes back so that parsing it again reads the same tasks (the merge
/// relies on it: a file nobody edited is no change).
pub fn tasks_md(data: &[u8]) {
    let parsed = tasks::parse(&text(data));
    let again = tasks::parse(&tasks::render(&parsed.tasks));
    assert_eq!(again.tasks, parsed.tasks, "tasks changed by a round trip");
}

/// A value for one setting: the first byte picks the setting, the rest is
/// the JSON a client sent. A value the setting takes is normalised once:
/// checking the stored value again gives it back unchanged.
pub fn setting_value(data: &[u8]) {
    let definitions = settings::definitions();
    let (index, json) = choice(data, definitions.len());
    let Some(definition) = definitions.get(index) else {
        return;
    };
    let Ok(value) = serde_json::from_slice::<Value>(json) else {
        return;
    };
    if let Ok(stored) = definition.validate(&value) {
        match definition.validate(&stored) {
            Ok(again) => assert_eq!(again, stored, "{} normalised twice", definition.key),
            Err(e) => panic!(
                "{}: its own stored value {stored} refused: {e}",
                definition.key
            ),
        }
    }
}
