//! The lookups over the catalog table: a key's position, its entry, and
//! every key's default as JSON, computed once.

use std::collections::HashMap;
use std::sync::LazyLock;

use serde_json::Value;

use crate::catalog::DEFINITIONS;
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
}
