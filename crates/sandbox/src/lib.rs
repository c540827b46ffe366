//! Operating-system confinement of engine processes: which paths an engine
//! may reach, and how Linux holds it, and every process it starts, to that.
//!
//! A [`Policy`] names the hierarchies an engine must never reach (Switchboard's
//! data directory always; the [`SENSITIVE`] files for external engines), the
//! exceptions inside them it may use (its own worktree), and whether it keeps
//! the network. [`Policy::prepare`] does every file-system step before the
//! engine is started, in one of two ways ([`support`] says which this
//! machine allows, [`Mode`]):
//!
//! - **namespaces** (`namespaces.rs`): a user and mount namespace of the
//!   engine's own with the hidden paths covered, plus a Landlock domain that
//!   only scopes. The engine may create anything anywhere its user may, and
//!   may use namespaces and mounts itself (Codex's bubblewrap);
//! - **landlock** (`carve.rs`): Landlock file rules granting everything but
//!   the hidden paths. It needs no user namespaces, but it forbids mounts
//!   (so an engine's own sandbox cannot start) and new entries in the
//!   folders on the way down to a hidden path (`$HOME` among them).
//!
//! What runs between `fork` and `exec` ([`Prepared::into_pre_exec`]) is only
//! system calls. Where the kernel can do neither, `prepare` fails
//! ([`SandboxError::Unsupported`]); the caller decides whether to refuse the
//! engine (the default) or run it unconfined.
//!
//! Knows nothing of sessions, engines' kinds or HTTP.

mod carve;
#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
mod namespaces;
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
/// The lowest ABI whose domain can be scoped without file rules (signals,
/// ABI 6): the namespace mode's domain, which must govern no file (a domain
/// that does forbids every mount) yet exist, since any domain is what keeps
/// an engine out of other processes' `/proc/<pid>/root`.
pub const SCOPE_ABI: i32 = 6;

/// How engines are confined on this machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Mount namespace covers in an unprivileged user namespace, and a
    /// Landlock domain that only scopes.
    Namespaces,
    /// Landlock file rules alone (no user namespaces here, or Landlock
    /// older than [`SCOPE_ABI`]).
    Landlock,
    /// Nothing can be enforced.
    Unavailable,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Namespaces => "namespaces",
            Mode::Landlock => "landlock",
            Mode::Unavailable => "unavailable",
        }
    }
}

/// What this machine offers, probed once per process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Support {
    pub mode: Mode,
    /// The kernel's Landlock ABI (0 or less: none).
    pub landlock_abi: i32,
    /// Whether an unprivileged user namespace with mounts could be made;
    /// when not, what the kernel said.
    pub user_namespaces: Result<(), String>,
}

/// The sandbox this machine allows. The first call forks a child that tries
/// the namespace steps (about a millisecond); later calls read the answer.
pub fn support() -> &'static Support {
    static SUPPORT: std::sync::OnceLock<Support> = std::sync::OnceLock::new();
    SUPPORT.get_or_init(|| {
        let landlock_abi = kernel_abi();
        #[cfg(target_os = "linux")]
        let user_namespaces = namespaces::probe().map_err(|e| e.to_string());
        #[cfg(not(target_os = "linux"))]
        let user_namespaces = Err("not Linux".to_owned());
        let mode = if landlock_abi >= SCOPE_ABI && user_namespaces.is_ok() {
            Mode::Namespaces
        } else if landlock_abi >= MIN_ABI {
            Mode::Landlock
        } else {
            Mode::Unavailable
        };
        Support {
            mode,
            landlock_abi,
            user_namespaces,
        }
    })
}

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
    /// Prepares the sandbox [`support`] chose; run it on a thread that may
    /// block. Fails when the kernel cannot enforce the policy.
    pub fn prepare(&self) -> Result<Prepared, SandboxError> {
        let support = support();
        self.prepare_as(support.mode, support.landlock_abi)
    }

    /// [`Policy::prepare`] in a given mode, for tests and benchmarks that
    /// compare the two on one machine.
    pub fn prepare_as(&self, mode: Mode, abi: i32) -> Result<Prepared, SandboxError> {
        if mode == Mode::Unavailable || abi < MIN_ABI {
            return Err(SandboxError::Unsupported { abi });
        }
        if matches!(self.network, Network::Denied { .. }) && abi < NETWORK_ABI {
            return Err(SandboxError::NoNetworkControl { abi });
        }
        let hidden: Vec<PathBuf> = self.hidden.iter().map(|p| resolve(p)).collect();
        let exceptions: Vec<PathBuf> = self.exceptions.iter().map(|p| resolve(p)).collect();
        #[cfg(target_os = "linux")]
        if mode == Mode::Namespaces {
            let covers = namespaces::Covers::build(&hidden, &exceptions);
            return Prepared::with_covers(abi, covers, &self.network);
        }
        let grants = plan(Path::new("/"), &hidden, &exceptions);
        Prepared::with_grants(abi, &grants, &self.network)
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
