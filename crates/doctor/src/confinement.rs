//! Whether the sandbox can run here, and how: the mode `sandbox::support`
//! chose, the Landlock ABI, user namespaces, and a trial preparation of the
//! policy every engine runs under.

use std::path::Path;

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

/// How engines are confined here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SandboxMode {
    /// Mount namespace covers in an unprivileged user namespace.
    Namespaces,
    /// Landlock file rules alone.
    Landlock,
    /// Nothing can be enforced: engines start only where `engines.toml`
    /// allows them unconfined.
    Unavailable,
}

#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Sandbox {
    pub mode: SandboxMode,
    /// The kernel's Landlock ABI (0 or less: none).
    pub landlock_abi: i32,
    /// Whether an unprivileged user namespace with mounts could be made.
    pub user_namespaces: bool,
    /// What the kernel said when it refused one.
    pub user_namespaces_error: Option<String>,
    /// Whether locked-down (email-triggered) sessions can be kept off the
    /// network (Landlock ABI 4).
    pub network_control: bool,
    /// Why the policy that hides the data directory could not be prepared;
    /// `null` when it can, so engines run confined.
    pub error: Option<String>,
}

impl Sandbox {
    pub fn usable(&self) -> bool {
        self.error.is_none()
    }

    pub(crate) fn warnings(&self) -> Vec<String> {
        let mut warnings = Vec::new();
        if self.mode == SandboxMode::Landlock {
            warnings.push(format!(
                "The sandbox runs on Landlock file rules alone ({}): engines cannot create new \
                 entries in $HOME and their own sandboxes (Codex's bubblewrap) cannot start.",
                self.user_namespaces_error.as_deref().map_or_else(
                    || format!(
                        "Landlock ABI {} is below {}",
                        self.landlock_abi,
                        sandbox::SCOPE_ABI
                    ),
                    |e| format!("no user namespaces: {e}")
                )
            ));
        }
        if self.usable() && !self.network_control {
            warnings.push(format!(
                "Email-triggered sessions cannot start: Landlock ABI {} cannot deny network \
                 access (that needs ABI {}, Linux 6.7 or later).",
                self.landlock_abi,
                sandbox::NETWORK_ABI
            ));
        }
        warnings
    }
}

pub(crate) fn examine(data_dir: &Path) -> Sandbox {
    let support = sandbox::support();
    Sandbox {
        mode: match support.mode {
            sandbox::Mode::Namespaces => SandboxMode::Namespaces,
            sandbox::Mode::Landlock => SandboxMode::Landlock,
            sandbox::Mode::Unavailable => SandboxMode::Unavailable,
        },
        landlock_abi: support.landlock_abi,
        user_namespaces: support.user_namespaces.is_ok(),
        user_namespaces_error: support.user_namespaces.clone().err(),
        network_control: support.landlock_abi >= sandbox::NETWORK_ABI,
        error: prepare(data_dir).err(),
    }
}

/// The policy every engine runs under (the data directory hidden),
/// prepared in the mode this machine allows, or why it cannot be.
pub(crate) fn prepare(data_dir: &Path) -> Result<sandbox::Prepared, String> {
    let policy = sandbox::Policy {
        hidden: vec![data_dir.to_owned()],
        exceptions: Vec::new(),
        network: sandbox::Network::Allowed,
    };
    policy
        .prepare()
        .map_err(|e| match std::error::Error::source(&e) {
            Some(source) => format!("{e}: {source}"),
            None => e.to_string(),
        })
}
