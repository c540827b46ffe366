//! The engines in force and what each needs: its program found and
//! executable, its version, whether the suite covers that version, and
//! whether it can run under the sandbox this machine has.

use std::path::{Path, PathBuf};

use serde::Serialize;
use sessions::EngineSpec;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::confinement::Sandbox;
use crate::covered::{Coverage, covered};
use crate::versions::{Reader, Versions};

/// `DIR/engines.toml`.
#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnginesFile {
    pub path: String,
    /// Without it, the engines are `claude` (as `primary`) and `codex` (as
    /// `second`), each where it is found on PATH.
    pub present: bool,
    /// Why it cannot be read; then no engine is in force.
    pub error: Option<String>,
}

/// One engine in force.
#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Engine {
    pub name: String,
    /// `claude`, `codex` or `command`.
    pub kind: String,
    /// The program and the arguments every turn starts with.
    pub command: Vec<String>,
    /// Where the program is (searched on the engine's `PATH`, else the
    /// server's); `null` when it is not found.
    pub path: Option<String>,
    /// Whether that file may be executed.
    pub executable: bool,
    /// What `<program> --version` printed; `null` for `command` engines and
    /// when it could not be read.
    pub version: Option<String>,
    /// The version the conformance suite covers for this kind.
    pub covered_version: Option<String>,
    pub coverage: Coverage,
    pub unsafe_allow_unsandboxed: bool,
    /// Why a session on this engine could not start.
    pub blockers: Vec<String>,
    /// What deserves a look before starting one.
    pub warnings: Vec<String>,
}

impl Engine {
    pub fn can_run(&self) -> bool {
        self.blockers.is_empty()
    }
}

pub(crate) fn examine(
    data_dir: &Path,
    sandbox: &Sandbox,
    versions: &Versions<'_>,
) -> (EnginesFile, Vec<Engine>) {
    let path = sessions::engines::engines_path(data_dir);
    let mut file = EnginesFile {
        path: path.display().to_string(),
        present: path.exists(),
        error: None,
    };
    let specs = match sessions::engines::load(data_dir) {
        Ok(specs) => specs,
        Err(e) => {
            file.error = Some(e.to_string());
            return (file, Vec::new());
        }
    };
    let cwd = probe_dir();
    let reader = versions.reader(data_dir);
    let engines = specs
        .into_iter()
        .map(|(name, spec)| engine(name, &spec, sandbox, &reader, &cwd))
        .collect();
    (file, engines)
}

fn engine(
    name: String,
    spec: &EngineSpec,
    sandbox: &Sandbox,
    reader: &Reader<'_>,
    cwd: &Path,
) -> Engine {
    let command = spec.program();
    let program = command.first().map(String::as_str).unwrap_or_default();
    let path = sessions::engines::locate(program, spec.env.get("PATH").map(String::as_str));
    let executable = path
        .as_deref()
        .is_some_and(sessions::engines::is_executable);
    let mut blockers = Vec::new();
    let mut warnings = Vec::new();
    match &path {
        None if program.contains('/') => blockers.push(format!("{program} does not exist.")),
        None => blockers.push(format!("`{program}` is not on PATH.")),
        Some(path) if !executable => {
            blockers.push(format!("{} is not executable.", path.display()));
        }
        Some(_) => {}
    }
    if let Some(error) = &sandbox.error {
        if spec.unsafe_allow_unsandboxed {
            warnings.push(format!(
                "It runs unconfined, as `unsafe_allow_unsandboxed` allows, since the sandbox \
                 cannot run here: {error}."
            ));
        } else {
            blockers.push(format!(
                "The sandbox cannot run here: {error}. engines.toml does not let this engine \
                 run unconfined (`unsafe_allow_unsandboxed = true` would)."
            ));
        }
    }
    // The reader runs it as a session would: confined, or unconfined only
    // where the engine may run so; otherwise there is no version to read.
    let version = if executable {
        reader.read(&name, spec, cwd)
    } else {
        None
    };
    let coverage = Coverage::of(spec.kind, version.as_deref());
    let covered = covered(spec.kind);
    match (coverage, &version, covered) {
        (Coverage::NotCovered, Some(version), Some(covered)) => warnings.push(format!(
            "Version {version} is not the one the conformance suite covers ({} {}): it may \
             work, but nothing here has proven it.",
            covered.package, covered.version
        )),
        (Coverage::Unknown, _, _) if executable && blockers.is_empty() => warnings
            .push("Its version could not be read (`--version` failed or printed none).".to_owned()),
        _ => {}
    }
    Engine {
        name,
        kind: spec.kind.as_str().to_owned(),
        command,
        path: path.map(|p| p.display().to_string()),
        executable,
        version,
        covered_version: covered.map(|c| c.version.to_owned()),
        coverage,
        unsafe_allow_unsandboxed: spec.unsafe_allow_unsandboxed,
        blockers,
        warnings,
    }
}

/// Where the version probe runs: the home folder, where sessions start by
/// default.
fn probe_dir() -> PathBuf {
    std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|home| home.is_dir())
        .unwrap_or_else(|| PathBuf::from("/"))
}
