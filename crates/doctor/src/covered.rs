//! The engine versions the conformance suite covers: the one list, which
//! docs/engines.md names and the suite's pinned npm packages must match.

use serde::Serialize;
use sessions::EngineKind;
use ts_rs::TS;
use utoipa::ToSchema;

/// One CLI release the conformance suite runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Covered {
    pub kind: EngineKind,
    /// The npm package it is installed from.
    pub package: &'static str,
    pub version: &'static str,
}

/// The releases the conformance suite was last run with, one per engine kind.
pub const COVERED: &[Covered] = &[
    Covered {
        kind: EngineKind::Claude,
        package: "@anthropic-ai/claude-code",
        version: "2.1.330",
    },
    Covered {
        kind: EngineKind::Codex,
        package: "@openai/codex",
        version: "0.169.0",
    },
];

/// The covered release of `kind`, if the suite runs one.
pub fn covered(kind: EngineKind) -> Option<&'static Covered> {
    COVERED.iter().find(|c| c.kind == kind)
}

/// Whether an engine's version is one the suite covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Coverage {
    /// The very release the suite runs.
    Covered,
    /// Another release: it may work, but nothing here has proven it.
    NotCovered,
    /// The version could not be read.
    Unknown,
    /// A `command` engine: any program, no version to cover.
    NotApplicable,
}

impl Coverage {
    pub fn of(kind: EngineKind, version: Option<&str>) -> Self {
        match (covered(kind), version) {
            (None, _) => Coverage::NotApplicable,
            (Some(_), None) => Coverage::Unknown,
            (Some(c), Some(v)) if c.version == v => Coverage::Covered,
            (Some(_), Some(_)) => Coverage::NotCovered,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_pinned_release_is_covered() {
        assert_eq!(
            Coverage::of(EngineKind::Claude, Some("2.1.330")),
            Coverage::Covered
        );
        assert_eq!(
            Coverage::of(EngineKind::Claude, Some("2.1.331")),
            Coverage::NotCovered
        );
        assert_eq!(
            Coverage::of(EngineKind::Codex, Some("0.169.0")),
            Coverage::Covered
        );
        assert_eq!(
            Coverage::of(EngineKind::Codex, Some("2.1.330")),
            Coverage::NotCovered
        );
        assert_eq!(Coverage::of(EngineKind::Codex, None), Coverage::Unknown);
        assert_eq!(
            Coverage::of(EngineKind::Command, Some("1.0")),
            Coverage::NotApplicable
        );
    }

    /// The suite installs its CLIs from `tools/engines/package.json`; the
    /// versions said to be covered are the ones it pins.
    #[test]
    fn the_list_is_what_the_suite_installs() {
        let manifest = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tools/engines/package.json"
        );
        let text = std::fs::read_to_string(manifest).unwrap();
        let manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
        for covered in COVERED {
            assert_eq!(
                manifest["dependencies"][covered.package], covered.version,
                "{} in {manifest}",
                covered.package
            );
        }
    }
}
