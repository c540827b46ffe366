//! The lookups over the catalog table: a key's position, its entry, its
//! label, and every key's default as JSON, computed once.

use std::collections::HashMap;
use std::sync::LazyLock;

use serde_json::Value;

use crate::catalog::DEFINITIONS;
use crate::labels::LABELS;
use crate::schema::SettingDef;

static INDEX: LazyLock<HashMap<&'static str, usize>> = LazyLock::new(|| {
    DEFINITIONS
        .iter()
        .enumerate()
        .map(|(index, def)| (def.key, index))
        .collect()
});

/// Every key's default, in catalog order.
pub(crate) static DEFAULTS: LazyLock<Box<[Value]>> = LazyLock::new(|| {
    DEFINITIONS
        .iter()
        .map(|def| def.default.to_value())
        .collect()
});

/// Where `key` sits in the catalog.
pub(crate) fn position(key: &str) -> Option<usize> {
    INDEX.get(key).copied()
}

/// The catalog entry of `key`, if the catalog has one.
pub fn lookup(key: &str) -> Option<&'static SettingDef> {
    position(key).map(|index| &DEFINITIONS[index])
}

/// Every setting, in catalog (spec) order.
pub fn definitions() -> &'static [SettingDef] {
    DEFINITIONS
}

impl SettingDef {
    pub fn default_value(&self) -> &'static Value {
        &DEFAULTS[position(self.key).unwrap_or_default()]
    }

    /// The name people read for this key, e.g. "Control server" for
    /// `cliServerEnabled`. The label table is in catalog order (a test says
    /// so), so the key's position finds it; the key itself stands in should
    /// that ever be wrong, rather than another key's label.
    pub fn label(&self) -> &'static str {
        position(self.key)
            .and_then(|index| LABELS.get(index))
            .filter(|(key, _)| *key == self.key)
            .map_or(self.key, |(_, label)| label)
    }
}
