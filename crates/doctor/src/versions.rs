//! Where [`examine`](crate::examine) reads each engine's version: through
//! the sessions crate's reader (`<program> --version` in the sandbox a
//! session of the engine gets, bounded in time and output), kept per binary
//! by a running server's supervisor or read afresh without one.

use std::path::Path;

use sessions::EngineSpec;

/// How versions are read.
pub enum Versions<'a> {
    /// Through the running server's supervisor, which reads each binary's
    /// once and keeps it (as its sessions record it); `runtime` is that
    /// server's, and the caller is on a thread that may block on it.
    Kept {
        supervisor: &'a sessions::Supervisor,
        runtime: tokio::runtime::Handle,
    },
    /// Read now and kept nowhere (`switchboard doctor`, with no server).
    Fresh,
}

impl Versions<'_> {
    /// Whatever reading a version needs for a whole report.
    pub(crate) fn reader(&self, data_dir: &Path) -> Reader<'_> {
        let fresh = match self {
            Versions::Kept { .. } => None,
            // A runtime that cannot be made (no thread left) reads no version.
            Versions::Fresh => tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .ok(),
        };
        Reader {
            versions: self,
            fresh,
            data_dir: data_dir.to_owned(),
        }
    }
}

pub(crate) struct Reader<'a> {
    versions: &'a Versions<'a>,
    fresh: Option<tokio::runtime::Runtime>,
    data_dir: std::path::PathBuf,
}

impl Reader<'_> {
    /// The version engine `name` reports, run from `cwd`.
    pub(crate) fn read(&self, name: &str, spec: &EngineSpec, cwd: &Path) -> Option<String> {
        let cwd = cwd.to_str()?;
        match (self.versions, &self.fresh) {
            (
                Versions::Kept {
                    supervisor,
                    runtime,
                },
                _,
            ) => runtime.block_on(supervisor.engine_version(name, spec, cwd)),
            (Versions::Fresh, Some(runtime)) => {
                runtime.block_on(sessions::engine_version(&self.data_dir, name, spec, cwd))
            }
            (Versions::Fresh, None) => None,
        }
    }
}
