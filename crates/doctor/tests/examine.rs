//! `examine` on a data directory with engines that are found, missing, of a
//! covered version and of another, against the sandbox this machine has.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use doctor::{Coverage, Listeners, Report, SandboxMode, Versions};

const PORTS: Listeners = Listeners::Serving {
    control_url: None,
    ui_url: "http://127.0.0.1:1",
};

fn examine(data: &Path) -> Report {
    doctor::examine(data, PORTS, Versions::Fresh)
}

/// A fake CLI that answers `--version` as `output` says.
fn fake_cli(dir: &Path, name: &str, output: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\necho '{output}'\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

#[test]
fn found_missing_covered_and_uncovered_engines() {
    let data = tempfile::tempdir().unwrap();
    let bin = tempfile::tempdir().unwrap();
    let claude = fake_cli(bin.path(), "claude", "2.1.330 (Claude Code)");
    let codex = fake_cli(bin.path(), "codex", "codex-cli 0.170.1");
    let plain = bin.path().join("plain");
    std::fs::write(&plain, "not a program").unwrap();
    std::fs::write(
        data.path().join("engines.toml"),
        format!(
            r#"
            [engines.primary]
            kind = "claude"
            command = ["{claude}"]

            [engines.second]
            kind = "codex"
            env = {{ PATH = "{bin}" }}

            [engines.gone]
            kind = "claude"
            command = ["/nonexistent/claude"]

            [engines.echo]
            kind = "command"
            command = ["{plain}"]
            "#,
            bin = bin.path().display(),
            plain = plain.display(),
        ),
    )
    .unwrap();
    let report = examine(data.path());
    let engine = |name: &str| {
        report
            .engines
            .iter()
            .find(|e| e.name == name)
            .unwrap_or_else(|| panic!("no {name} in {report:#?}"))
    };
    assert!(report.engines_file.present);
    assert_eq!(report.engines.len(), 4);

    let confined = report.sandbox.mode != SandboxMode::Unavailable;
    let primary = engine("primary");
    assert_eq!(primary.path.as_deref(), Some(claude.as_str()));
    assert!(primary.executable);
    if confined {
        assert_eq!(primary.version.as_deref(), Some("2.1.330"));
        assert_eq!(primary.coverage, Coverage::Covered);
        assert!(primary.warnings.is_empty(), "{primary:#?}");
        assert!(primary.can_run());

        let second = engine("second");
        assert_eq!(
            second.path.as_deref(),
            Some(codex.as_str()),
            "found on its own PATH"
        );
        assert_eq!(second.version.as_deref(), Some("0.170.1"));
        assert_eq!(second.coverage, Coverage::NotCovered);
        assert_eq!(second.covered_version.as_deref(), Some("0.169.0"));
        assert!(
            second.warnings[0].contains("@openai/codex 0.169.0"),
            "{second:#?}"
        );
        assert!(
            second.can_run(),
            "an uncovered version does not stop a session"
        );
        assert!(report.can_start, "{report:#?}");
    } else {
        assert!(
            primary.blockers[0].contains("The sandbox cannot run here"),
            "{primary:#?}"
        );
        assert_eq!(primary.version, None, "never run unconfined unless allowed");
        assert!(!report.can_start, "{report:#?}");
    }

    let gone = engine("gone");
    assert_eq!(gone.path, None);
    assert!(!gone.executable);
    assert_eq!(gone.version, None);
    assert!(
        gone.blockers[0].contains("/nonexistent/claude does not exist"),
        "{gone:#?}"
    );

    let echo = engine("echo");
    assert_eq!(echo.coverage, Coverage::NotApplicable);
    assert!(!echo.executable);
    assert!(echo.blockers[0].contains("is not executable"), "{echo:#?}");
}

#[test]
fn without_an_engine_no_session_can_start() {
    let data = tempfile::tempdir().unwrap();
    std::fs::write(
        data.path().join("engines.toml"),
        "[engines.primary]\nkind = \"claude\"\ncommand = [\"/nonexistent/claude\"]\n",
    )
    .unwrap();
    let report = examine(data.path());
    assert!(!report.can_start);
    assert_eq!(report.blockers.len(), 1, "{report:#?}");
    assert!(
        report.blockers[0].starts_with("Engine `primary`: /nonexistent/claude does not exist"),
        "{report:#?}"
    );

    std::fs::write(
        data.path().join("engines.toml"),
        "[engines.x]\nkind = \"gemini\"\n",
    )
    .unwrap();
    let report = examine(data.path());
    assert!(!report.can_start);
    assert!(report.engines_file.error.is_some());
    assert!(
        report.blockers[0].contains("engines.toml cannot be used"),
        "{report:#?}"
    );

    std::fs::write(data.path().join("engines.toml"), "").unwrap();
    let report = examine(data.path());
    assert!(
        report.blockers[0].ends_with("names no engine."),
        "{report:#?}"
    );
}

#[test]
fn the_report_reads_as_camel_case_json() {
    let data = tempfile::tempdir().unwrap();
    let json = serde_json::to_value(examine(data.path())).unwrap();
    for key in [
        "canStart",
        "blockers",
        "warnings",
        "enginesFile",
        "engines",
        "sandbox",
        "ports",
        "dataDir",
        "runners",
    ] {
        assert!(json.get(key).is_some(), "no {key} in {json}");
    }
    assert!(json["sandbox"]["landlockAbi"].is_number());
    assert_eq!(json["ports"]["control"]["state"], "off");
    assert_eq!(json["ports"]["ui"]["state"], "switchboard");
    // Without runners.toml no runner is listed (and none reached).
    assert_eq!(json["runners"], serde_json::json!([]));
}
