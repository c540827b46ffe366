//! Operating-system confinement of engine processes: which paths an engine
//! may reach, and the Linux Landlock ruleset that holds it, and every process
//! it starts, to that.
//!
//! A [`Policy`] names the hierarchies an engine must never reach (Switchboard's
//! data directory always; the [`SENSITIVE`] files for external engines), the
//! exceptions inside them it may use (its own worktree), and whether it keeps
//! the network. [`Policy::prepare`] does every file-system step before the
//! engine is started: it walks the tree for the carve-out (`carve.rs`), opens
//! each granted hierarchy and builds the ruleset, so that what runs between
//! `fork` and `exec` ([`Prepared::into_pre_exec`]) is two system calls.
//! Where the kernel cannot enforce the policy, `prepare` fails
//! ([`SandboxError::Unsupported`]); the caller decides whether to refuse the
//! engine (the default) or run it unconfined.
//!
//! Knows nothing of sessions, engines' kinds or HTTP.

mod carve;
#[cfg(target_os = "linux")]
mod linux;
#[cfg(not(target_os = "linux"))]
mod other;

use std::path::{Path, PathBuf};

pub use carve::{normalize, plan, resolve};
#[cfg(target_os = "linux")]
pub use linux::{Prepared, kernel_abi};
#[cfg(not(target_os = "linux"))]
pub use other::{Prepared, kernel_abi};

/// The lowest Landlock ABI that enforces every file rule: 2 brings `REFER`
/// (no hard link or rename moves a hidden file into reach), 3 `TRUNCATE`
/// (without it `truncate(2)` on a hidden file is not governed).
pub const MIN_ABI: i32 = 3;
/// The lowest ABI that governs TCP `bind` and `connect`.
pub const NETWORK_ABI: i32 = 4;

/// The sensitive files and folders, `~` being the server's `$HOME`. External
/// engines never reach them; docs/security.md lists them for users.
pub const SENSITIVE: &[&str] = &[
    "~/.ssh",
    "~/.gnupg",
    "~/.aws",
    "~/.azure",
    "~/.config/gcloud",
    "~/.kube",
    "~/.docker/config.json",
    "~/.netrc",
    "~/.git-credentials",
    "~/.npmrc",
    "~/.pypirc",
    "/etc/shadow",
    "/etc/sudoers",
];

/// [`SENSITIVE`] as absolute paths under `home`; without a home only the
/// system files remain.
pub fn sensitive_paths(home: Option<&Path>) -> Vec<PathBuf> {
    SENSITIVE
        .iter()
        .filter_map(|entry| match entry.strip_prefix("~/") {
            Some(rest) => home.map(|home| home.join(rest)),
            None => Some(PathBuf::from(entry)),
        })
        .collect()
}

/// Whether the engine keeps the network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Network {
    Allowed,
    /// No TCP `bind`, and `connect` only to these ports (Switchboard's own
    /// control server, so the engine can still reach its API and the
    /// approval hook). Needs ABI [`NETWORK_ABI`].
    Denied {
        connect_ports: Vec<u16>,
    },
}

/// What one engine process may reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    /// Hierarchies the engine may neither read, write nor execute.
    pub hidden: Vec<PathBuf>,
    /// Hierarchies inside hidden ones that the engine may use all the same;
    /// one that holds a hidden path is ignored.
    pub exceptions: Vec<PathBuf>,
    pub network: Network,
}

impl Policy {
    /// Walks the file system for the carve-out and builds the ruleset; run it
    /// on a thread that may block. Fails when the kernel cannot enforce it.
    pub fn prepare(&self) -> Result<Prepared, SandboxError> {
        let abi = kernel_abi();
        if abi < MIN_ABI {
            return Err(SandboxError::Unsupported { abi });
        }
        if matches!(self.network, Network::Denied { .. }) && abi < NETWORK_ABI {
            return Err(SandboxError::NoNetworkControl { abi });
        }
        let hidden: Vec<PathBuf> = self.hidden.iter().map(|p| resolve(p)).collect();
        let exceptions: Vec<PathBuf> = self.exceptions.iter().map(|p| resolve(p)).collect();
        let grants = plan(Path::new("/"), &hidden, &exceptions);
        Prepared::build(abi, &grants, &self.network)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error(
        "this kernel has no usable Landlock (ABI {abi}; Switchboard needs ABI {MIN_ABI}, Linux 6.2 or later)"
    )]
    Unsupported { abi: i32 },
    #[error(
        "this kernel's Landlock cannot deny network access (ABI {abi}; that needs ABI {NETWORK_ABI}, Linux 6.7 or later)"
    )]
    NoNetworkControl { abi: i32 },
    #[error("the Landlock ruleset could not be built")]
    Ruleset(#[source] Box<dyn std::error::Error + Send + Sync>),
}
