//! Landlock: probing the kernel, building the ruleset before the fork, and
//! the hook that applies it between `fork` and `exec`.

use std::os::fd::OwnedFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;

use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, NetPort, PathBeneath, Ruleset,
    RulesetAttr, RulesetCreated, RulesetCreatedAttr, RulesetStatus, Scope,
};

use crate::{Network, SandboxError};

/// A ruleset ready to be applied in a child process.
pub struct Prepared {
    ruleset: RulesetCreated,
}

/// The kernel's Landlock ABI version; 0 or less when it has none (or it is
/// turned off at boot).
pub fn kernel_abi() -> i32 {
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
    // SAFETY: with the VERSION flag the call reads no memory (null attribute,
    // size 0) and only returns a number.
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    i32::try_from(abi).unwrap_or(0)
}

fn ruleset_error(e: impl std::error::Error + Send + Sync + 'static) -> SandboxError {
    SandboxError::Ruleset(Box::new(e))
}

impl Prepared {
    pub(crate) fn build(
        abi: i32,
        grants: &[PathBuf],
        network: &Network,
    ) -> Result<Prepared, SandboxError> {
        let version = ABI::from(abi);
        let all = AccessFs::from_all(version);
        // Every right this kernel knows is handled, so whatever no rule grants
        // is denied; HardRequirement turns a right the kernel refuses into an
        // error instead of a silently weaker ruleset.
        let mut ruleset = Ruleset::default()
            .set_compatibility(CompatLevel::HardRequirement)
            .handle_access(all)
            .map_err(ruleset_error)?;
        if abi >= 6 {
            // No signal to a process outside the sandbox (the server, other
            // sessions' engines).
            ruleset = ruleset.scope(Scope::Signal).map_err(ruleset_error)?;
        }
        if let Network::Denied { .. } = network {
            ruleset = ruleset
                .handle_access(AccessNet::from_all(version))
                .map_err(ruleset_error)?;
            if abi >= 6 {
                ruleset = ruleset
                    .scope(Scope::AbstractUnixSocket)
                    .map_err(ruleset_error)?;
            }
        }
        let mut created = ruleset.create().map_err(ruleset_error)?;
        for path in grants {
            // O_NOFOLLOW: a name swapped for a link since the walk grants
            // nothing beyond it. A name gone since the walk is simply skipped.
            let Ok(file) = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_PATH | libc::O_NOFOLLOW | libc::O_CLOEXEC)
                .open(path)
            else {
                continue;
            };
            let Ok(meta) = file.metadata() else {
                continue;
            };
            let access = if meta.is_dir() {
                all
            } else if meta.file_type().is_symlink() {
                continue;
            } else {
                AccessFs::from_file(version)
            };
            let fd = OwnedFd::from(file);
            created = created
                .add_rule(PathBeneath::new(fd, access))
                .map_err(ruleset_error)?;
        }
        if let Network::Denied { connect_ports } = network {
            for port in connect_ports {
                created = created
                    .add_rule(NetPort::new(*port, AccessNet::ConnectTcp))
                    .map_err(ruleset_error)?;
            }
        }
        Ok(Prepared { ruleset: created })
    }

    /// The hook for `CommandExt::pre_exec`: sets `no_new_privs` and restricts
    /// the child to the ruleset, which its own children inherit. It makes no
    /// allocation (the landlock crate's `restrict_self` is `prctl`,
    /// `landlock_restrict_self` and closing the ruleset's descriptor), so it
    /// is fit to run between `fork` and `exec`. A ruleset the kernel did not
    /// fully enforce fails the spawn rather than run the engine looser.
    pub fn into_pre_exec(self) -> impl FnMut() -> std::io::Result<()> + Send + Sync + 'static {
        let mut ruleset = Some(self.ruleset);
        move || {
            let Some(ruleset) = ruleset.take() else {
                return Err(std::io::Error::from_raw_os_error(libc::EINVAL));
            };
            match ruleset.restrict_self() {
                Ok(status) if status.ruleset == RulesetStatus::FullyEnforced => Ok(()),
                Ok(_) => Err(std::io::Error::from_raw_os_error(libc::EPERM)),
                Err(_) => Err(std::io::Error::last_os_error()),
            }
        }
    }
}
