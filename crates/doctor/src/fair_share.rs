//! How session trees share this machine (docs/resources.md): the mode in
//! force (`cgroup-v2`, `cgroup-v1`, `nice`), why, and the controllers a
//! setting needs that this kernel does not give, and whether logind is
//! there to keep the machine awake while sessions run.

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
    /// Whether `keepAwakeWhileSessionsRunning` can hold this machine awake:
    /// a logind on the system bus to take a sleep inhibitor from.
    pub keep_awake: KeepAwake,
}

#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "DoctorKeepAwake")]
pub struct KeepAwake {
    pub available: bool,
    /// Where the inhibitor comes from, or why none can be taken.
    pub why: String,
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
        keep_awake: match awake::probe() {
            Ok(()) => KeepAwake {
                available: true,
                why: "logind is on the system bus".into(),
            },
            Err(e) => KeepAwake {
                available: false,
                why: e.to_string(),
            },
        },
    }
}

impl Resources {
    pub(crate) fn warnings(&self) -> Vec<String> {
        let mut warnings = self.tree_warnings();
        if !self.keep_awake.available {
            warnings.push(format!(
                "keepAwakeWhileSessionsRunning cannot keep this machine from sleeping while sessions run: {}",
                self.keep_awake.why
            ));
        }
        warnings
    }

    fn tree_warnings(&self) -> Vec<String> {
        match self.mode {
            resources::Mode::Nice => vec![format!(
                "sessions share this machine without cgroups ({}): engines run at nice 10, and a busy fleet can slow the server (docs/resources.md says how to give Switchboard a delegated cgroup)",
                self.why
            )],
            _ => Vec::new(),
        }
    }
}
