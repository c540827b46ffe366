//! Linux: the Landlock rulesets, built before the fork, and the hook that
//! applies them (with the mount-namespace covers when those are in use)
//! between `fork` and `exec`.

use std::os::fd::OwnedFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, NetPort, PathBeneath, Ruleset,
    RulesetAttr, RulesetCreated, RulesetCreatedAttr, RulesetStatus, Scope,
};

use crate::namespaces::Covers;
use crate::{Network, SandboxError};

/// What a child process gets: the covers (the namespace mode) and a Landlock
/// domain (file rules in the Landlock mode, only scopes and the network in
/// the namespace mode).
pub struct Prepared {
    covers: Option<Covers>,
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

/// Every right this kernel knows of `files` is handled, so whatever no rule
/// grants is denied; HardRequirement turns a right the kernel refuses into
/// an error instead of a silently weaker ruleset. Signals to processes
/// outside the domain (the server, other sessions' engines) are refused
/// where the kernel can (ABI 6), and so is the network when it is denied.
fn ruleset(abi: i32, files: bool, network: &Network) -> Result<RulesetCreated, SandboxError> {
    let version = ABI::from(abi);
    let mut ruleset = Ruleset::default().set_compatibility(CompatLevel::HardRequirement);
    if files {
        ruleset = ruleset
            .handle_access(AccessFs::from_all(version))
            .map_err(ruleset_error)?;
    }
    if abi >= 6 {
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
    if let Network::Denied { connect_ports } = network {
        for port in connect_ports {
            created = created
                .add_rule(NetPort::new(*port, AccessNet::ConnectTcp))
                .map_err(ruleset_error)?;
        }
    }
    Ok(created)
}

impl Prepared {
    /// The namespace mode: `covers` hide, and the domain only scopes (no
    /// file rule, since a Landlock domain that governs files forbids every
    /// mount, and with it the engines' own sandboxes). Any domain at all
    /// keeps the engine from reading other processes' `/proc/<pid>/root`,
    /// `cwd` or memory, which would reach past the covers.
    pub(crate) fn with_covers(
        abi: i32,
        covers: Covers,
        network: &Network,
    ) -> Result<Prepared, SandboxError> {
        Ok(Prepared {
            covers: Some(covers),
            ruleset: ruleset(abi, false, network)?,
        })
    }

    /// The Landlock mode: a file rule for each granted hierarchy of the
    /// carve-out walk.
    pub(crate) fn with_grants(
        abi: i32,
        grants: &[PathBuf],
        network: &Network,
    ) -> Result<Prepared, SandboxError> {
        let version = ABI::from(abi);
        let all = AccessFs::from_all(version);
        let mut created = ruleset(abi, true, network)?;
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
        Ok(Prepared {
            covers: None,
            ruleset: created,
        })
    }

    /// The hook for `CommandExt::pre_exec`, for a child that was put in
    /// `cwd`: makes the covers (entering `cwd` again through them), sets
    /// `no_new_privs` and restricts the child to the ruleset, which its own
    /// children inherit. It makes no allocation (the covers' strings were
    /// made before; the landlock crate's `restrict_self` is `prctl`,
    /// `landlock_restrict_self` and a `close`), so it is fit to run between
    /// `fork` and `exec`. A ruleset the kernel did not fully enforce fails
    /// the spawn rather than run the engine looser.
    pub fn into_pre_exec(
        mut self,
        cwd: &Path,
    ) -> impl FnMut() -> std::io::Result<()> + Send + Sync + 'static {
        if let Some(covers) = &mut self.covers {
            covers.set_cwd(cwd);
        }
        // Held by the closure, never dropped in the child: freeing memory
        // between `fork` and `exec` could wait forever on a lock another
        // thread of the server held when it forked.
        let Prepared {
            mut covers,
            ruleset,
        } = self;
        let mut ruleset = Some(ruleset);
        move || {
            if let Some(covers) = &mut covers {
                covers
                    .apply()
                    .map_err(|e| std::io::Error::from_raw_os_error(e.raw_os_error()))?;
            }
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
