//! What a session needs on this machine, gathered as plain facts with a
//! verdict: `switchboard doctor` prints them, `GET /doctor` returns them,
//! and the web app's New session dialog shows them.
//!
//! [`examine`] looks at the engines in force (`DIR/engines.toml`, else the
//! PATH defaults): whether each one's program is found and executable, its
//! version (read as sessions read it, [`Versions`]) and whether the
//! conformance suite covers it ([`COVERED`]); at
//! whether the sandbox can run here and how; at the control and UI ports;
//! at the data directory's permissions; and, when `DIR/runners.toml` declares
//! any, at each runner, reached over ssh as a session's turn reaches it
//! (`runners::Runners`). Nothing it finds is an error:
//! each fact goes into the [`Report`], and [`Report::can_start`] says
//! whether a session could start, with the blockers when not.
//!
//! ```no_run
//! let report = doctor::examine(
//!     std::path::Path::new("/home/me/.local/share/switchboard"),
//!     doctor::Listeners::Expected { control: 19519, ui: 19520 },
//!     doctor::Versions::Fresh,
//! );
//! assert_eq!(report.can_start, report.blockers.is_empty());
//! ```
//!
//! Knows nothing of HTTP or of the command line. The versions come from the
//! sessions crate's reader, the one every session's turn uses ([`Versions`]).

mod confinement;
mod covered;
mod data_dir;
mod engines;
mod fair_share;
mod ports;
mod remote;
mod versions;

use std::path::Path;

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

pub use confinement::{Sandbox, SandboxMode};
pub use covered::{COVERED, Coverage, Covered};
pub use data_dir::{DataDir, DataFile};
pub use engines::{Engine, EnginesFile};
pub use fair_share::{KeepAwake, Resources};
pub use ports::{Listeners, Port, PortState, Ports};
pub use versions::Versions;

/// Everything [`examine`] found.
#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "DoctorReport")]
#[schema(as = DoctorReport)]
pub struct Report {
    /// Whether a session could start: an engine is found, and the sandbox
    /// can confine it or the engine may run unconfined.
    pub can_start: bool,
    /// Why no session could start; empty when one can.
    pub blockers: Vec<String>,
    /// What works but deserves a look (an uncovered version, loose
    /// permissions, a port another program holds).
    pub warnings: Vec<String>,
    pub engines_file: EnginesFile,
    /// The engines in force, by name.
    pub engines: Vec<Engine>,
    pub sandbox: Sandbox,
    pub ports: Ports,
    pub data_dir: DataDir,
    /// The runners `runners.toml` declares (not `local`: the rest of the
    /// report is this machine's), each as reached just now: `connected`
    /// with its engines, their versions and its sandbox there, else
    /// `unreachable` (ssh's own message) or `invalid` (the file's line and
    /// column). A runner that cannot be used is a warning, never a blocker.
    /// Empty, and nothing reached, without the file.
    pub runners: Vec<runners::RunnerInfo>,
    /// How session trees share this machine: the mode and why.
    pub resources: Resources,
}

/// Looks at everything a session needs for the data directory `data_dir`,
/// whose server's ports `listeners` says where to find, reading engines'
/// versions as `versions` says. It blocks (it runs each engine's
/// `--version`, and reaches each runner of `runners.toml` on a runtime of
/// its own, up to a minute): call it where that is fine, never on an async
/// worker.
pub fn examine(data_dir: &Path, listeners: Listeners<'_>, versions: Versions<'_>) -> Report {
    let sandbox = confinement::examine(data_dir);
    let (engines_file, engines) = engines::examine(data_dir, &sandbox, &versions);
    let ports = ports::examine(data_dir, listeners);
    let runners = remote::examine(data_dir, ports.control.port);
    let resources = fair_share::examine();
    let data_dir = data_dir::examine(data_dir);
    let blockers = blockers(&engines_file, &engines);
    let warnings = [
        sandbox.warnings(),
        ports.warnings(),
        data_dir.warnings(),
        remote::warnings(&runners),
        resources.warnings(),
    ]
    .concat();
    Report {
        can_start: blockers.is_empty(),
        blockers,
        warnings,
        engines_file,
        engines,
        resources,
        sandbox,
        ports,
        data_dir,
        runners,
    }
}

/// The engines part of [`examine`] alone, for a caller that must not wait
/// on runners (the Ask tutor, before each question).
#[derive(Debug, Clone, PartialEq)]
pub struct EnginesInForce {
    pub file: EnginesFile,
    pub engines: Vec<Engine>,
    /// Why no session could start at all, in [`Report::blockers`]' words.
    pub blockers: Vec<String>,
}

/// The engines in force and what each needs, as [`examine`] reports them,
/// without the ports, runners or data directory. It blocks (each engine's
/// `--version`, once per binary when kept).
pub fn examine_engines(data_dir: &Path, versions: Versions<'_>) -> EnginesInForce {
    let sandbox = confinement::examine(data_dir);
    let (file, engines) = engines::examine(data_dir, &sandbox, &versions);
    let blockers = blockers(&file, &engines);
    EnginesInForce {
        file,
        engines,
        blockers,
    }
}

/// Why no session could start: no engine, or none that can run here (each
/// engine's own reasons, named).
fn blockers(file: &EnginesFile, engines: &[Engine]) -> Vec<String> {
    if let Some(error) = &file.error {
        return vec![format!("{} cannot be used: {error}", file.path)];
    }
    if engines.is_empty() {
        return vec![if file.present {
            format!("{} names no engine.", file.path)
        } else {
            format!(
                "No engine: there is no {}, and neither `claude` nor `codex` is on PATH.",
                file.path
            )
        }];
    }
    if engines.iter().any(Engine::can_run) {
        return Vec::new();
    }
    // One line per reason, naming every engine it stops (the sandbox's
    // stops them all alike).
    let mut reasons: Vec<(&str, Vec<&str>)> = Vec::new();
    for engine in engines {
        for reason in &engine.blockers {
            match reasons.iter_mut().find(|(r, _)| r == reason) {
                Some((_, names)) => names.push(&engine.name),
                None => reasons.push((reason, vec![&engine.name])),
            }
        }
    }
    reasons
        .into_iter()
        .map(|(reason, names)| {
            let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            let label = if names.len() == 1 {
                "Engine"
            } else {
                "Engines"
            };
            format!("{label} {}: {reason}", names.join(", "))
        })
        .collect()
}
