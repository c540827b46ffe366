//! How session trees share this machine (docs/resources.md): the mode in
//! force (`cgroup-v2`, `cgroup-v1`, `nice`), why, and the controllers a
//! setting needs that this kernel does not give.

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "DoctorResources")]
pub struct Resources {
    pub mode: resources::Mode,
    /// What was found, or why no cgroup can be used.
    pub why: String,
    /// Controllers not available here: the settings that need them
    /// (`cpu`: the CPU cap; `pids`: the process ceiling; `io`: low disk
    /// priority; `cpuset`: the reserved core) do nothing.
    pub unavailable: Vec<String>,
}

pub(crate) fn examine() -> Resources {
    let (mode, why) = resources::Trees::probe();
    Resources {
        mode,
        why,
        unavailable: ["cpu", "memory", "pids", "io", "cpuset"]
            .into_iter()
            .filter(|c| !resources::Trees::offers(mode, c))
            .map(str::to_owned)
            .collect(),
    }
}

impl Resources {
    pub(crate) fn warnings(&self) -> Vec<String> {
        match self.mode {
            resources::Mode::Nice => vec![format!(
                "sessions share this machine without cgroups ({}): engines run at nice 10, and a busy fleet can slow the server (docs/resources.md says how to give Switchboard a delegated cgroup)",
                self.why
            )],
            _ => Vec::new(),
        }
    }
}
