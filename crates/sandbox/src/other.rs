//! Systems without Landlock: nothing can be enforced, so every policy fails
//! to prepare and the caller refuses the engine (fail closed).

use std::path::PathBuf;

use crate::{Network, SandboxError};

/// Never made on these systems; the type exists so callers compile alike.
pub struct Prepared(());

/// No Landlock here.
pub fn kernel_abi() -> i32 {
    0
}

impl Prepared {
    pub(crate) fn with_grants(
        abi: i32,
        _grants: &[PathBuf],
        _network: &Network,
    ) -> Result<Prepared, SandboxError> {
        Err(SandboxError::Unsupported { abi })
    }

    /// Unreachable in practice (no `Prepared` exists); fails the spawn if called.
    pub fn into_pre_exec(
        self,
        _cwd: &std::path::Path,
    ) -> impl FnMut() -> std::io::Result<()> + Send + Sync + 'static {
        || Err(std::io::Error::from(std::io::ErrorKind::Unsupported))
    }
}
