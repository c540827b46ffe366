//! `switchboard doctor`: what a session needs on this machine, read without
//! a running server (the `doctor` crate gathers it), printed for people or
//! as JSON; exit 1 when no session could start.

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use doctor::{Coverage, Engine, Listeners, Port, PortState, Report, SandboxMode, Versions};
use runners::{RunnerInfo, RunnerState};

pub fn run(data_dir: &Path, listeners: Listeners, json: bool) -> anyhow::Result<ExitCode> {
    let report = doctor::examine(data_dir, listeners, Versions::Fresh);
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", text(&report));
    }
    Ok(if report.can_start {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The report for a terminal: each fact on a line, the verdict last.
fn text(report: &Report) -> String {
    let mut out = String::new();
    let file = &report.engines_file;
    let source = match (&file.error, file.present) {
        (Some(_), _) => format!("{} (cannot be used)", file.path),
        (None, true) => file.path.clone(),
        (None, false) => format!("no {}: claude and codex from PATH", file.path),
    };
    let _ = writeln!(out, "Engines ({source})");
    if report.engines.is_empty() {
        let _ = writeln!(out, "  none");
    }
    for engine in &report.engines {
        let _ = writeln!(out, "  {}", engine_line(engine));
        for note in engine.blockers.iter().chain(&engine.warnings) {
            let _ = writeln!(out, "      {note}");
        }
    }

    let sandbox = &report.sandbox;
    let mode = match sandbox.mode {
        SandboxMode::Namespaces => "namespaces (mount covers in a user namespace)",
        SandboxMode::Landlock => "landlock (file rules only)",
        SandboxMode::Unavailable => "unavailable",
    };
    let namespaces = match &sandbox.user_namespaces_error {
        None => "yes".to_owned(),
        Some(error) => format!("no ({error})"),
    };
    let _ = writeln!(out, "\nSandbox");
    let _ = writeln!(out, "  mode:            {mode}");
    let _ = writeln!(out, "  Landlock ABI:    {}", sandbox.landlock_abi);
    let _ = writeln!(out, "  user namespaces: {namespaces}");
    if let Some(error) = &sandbox.error {
        let _ = writeln!(out, "  cannot run:      {error}");
    }

    let resources = &report.resources;
    let _ = writeln!(out, "\nSession trees (docs/resources.md)");
    let _ = writeln!(out, "  mode:        {}", resources.mode.as_str());
    let _ = writeln!(out, "  found:       {}", resources.why);
    if !resources.unavailable.is_empty() {
        let _ = writeln!(out, "  unavailable: {}", resources.unavailable.join(", "));
    }
    let keep_awake = if resources.keep_awake.available {
        format!("yes ({})", resources.keep_awake.why)
    } else {
        format!("no ({})", resources.keep_awake.why)
    };
    let _ = writeln!(out, "  keep awake:  {keep_awake}");

    let ports = &report.ports;
    let _ = writeln!(out, "\nPorts");
    let _ = writeln!(out, "  control: {}", port_line(&ports.control));
    let _ = writeln!(out, "  UI:      {}", port_line(&ports.ui));
    if let Some(pid) = ports.server_pid {
        let _ = writeln!(out, "  served by process {pid}");
    }

    let dir = &report.data_dir;
    let _ = writeln!(out, "\nData directory {}", dir.path);
    if dir.exists {
        let _ = writeln!(
            out,
            "  folder:      {}",
            mode_line(dir.mode.as_deref(), dir.owner_only)
        );
        for file in &dir.files {
            let state = if file.present {
                mode_line(file.mode.as_deref(), file.owner_only)
            } else {
                "not yet created".to_owned()
            };
            let _ = writeln!(out, "  {:<12} {state}", format!("{}:", file.name));
        }
    } else {
        let _ = writeln!(
            out,
            "  not yet created (the first `switchboard serve` makes it, 0700)"
        );
    }

    if !report.runners.is_empty() {
        let _ = writeln!(out, "\nRunners ({}/runners.toml)", dir.path);
        for runner in &report.runners {
            runner_lines(&mut out, runner);
        }
    }

    if !report.warnings.is_empty() {
        let _ = writeln!(out, "\nWarnings");
        for warning in &report.warnings {
            let _ = writeln!(out, "  - {warning}");
        }
    }
    if report.can_start {
        let _ = writeln!(out, "\nA session can start.");
    } else {
        let _ = writeln!(out, "\nNo session can start:");
        for blocker in &report.blockers {
            let _ = writeln!(out, "  - {blocker}");
        }
    }
    out
}

/// `ok   primary (claude) /usr/bin/claude 2.1.330, covered`.
fn engine_line(engine: &Engine) -> String {
    let mark = if !engine.can_run() {
        "FAIL"
    } else if engine.warnings.is_empty() {
        "ok  "
    } else {
        "warn"
    };
    let place = engine.path.as_deref().unwrap_or("not found");
    let version = match (&engine.version, engine.coverage) {
        (_, Coverage::NotApplicable) => String::new(),
        (None, _) if !engine.executable => String::new(),
        (Some(version), Coverage::Covered) => format!(", {version} (covered by the suite)"),
        (Some(version), _) => format!(
            ", {version} (not covered; the suite runs {})",
            engine.covered_version.as_deref().unwrap_or("another")
        ),
        (None, _) => ", version unknown".to_owned(),
    };
    format!("{mark} {} ({}) {place}{version}", engine.name, engine.kind)
}

/// `ok   devbox (alice@devbox:22) connected, sandbox namespaces, helper 0.1.0`,
/// then its engines there, or why it cannot be used.
fn runner_lines(out: &mut String, runner: &RunnerInfo) {
    let connected = runner.state == RunnerState::Connected;
    let mark = if connected && runner.sandbox.as_deref() != Some("unavailable") {
        "ok  "
    } else {
        "warn"
    };
    let place = runner
        .destination
        .as_deref()
        .map_or_else(String::new, |d| format!(" ({d})"));
    let mut line = format!("{mark} {}{place} {}", runner.name, runner.state.as_str());
    if connected {
        let _ = write!(
            line,
            ", sandbox {}",
            runner.sandbox.as_deref().unwrap_or("unknown")
        );
        if let Some(version) = &runner.switchboard_version {
            let _ = write!(line, ", helper {version}");
        }
    }
    let _ = writeln!(out, "  {line}");
    if connected {
        let engines: Vec<String> = runner
            .engines
            .iter()
            .map(|e| match &e.version {
                Some(version) => format!("{} {version}", e.name),
                None => format!("{} (not found, or no version)", e.name),
            })
            .collect();
        let engines = if engines.is_empty() {
            "none".to_owned()
        } else {
            engines.join(", ")
        };
        let _ = writeln!(out, "      engines there: {engines}");
    } else if let Some(reason) = &runner.reason {
        let _ = writeln!(out, "      {reason}");
    }
}

fn port_line(port: &Port) -> String {
    let number = port.port.map_or_else(|| "-".to_owned(), |p| p.to_string());
    let state = match port.state {
        PortState::Switchboard => "served by Switchboard",
        PortState::Free => "free",
        PortState::InUse => "in use by another program",
        PortState::Off => "off (setting cliServerEnabled)",
    };
    format!("{number} {state}")
}

fn mode_line(mode: Option<&str>, owner_only: Option<bool>) -> String {
    let verdict = match owner_only {
        Some(true) => "owner only",
        Some(false) => "open to others",
        None => "unknown",
    };
    format!("{} ({verdict})", mode.unwrap_or("?"))
}
