//! Runs the fleet governor every five minutes on the server's clock, with
//! the settings as they are at each check, and gives the sessions crate its
//! governance (the restart spacing, the memory guard and the recovery
//! switches, read when each matters).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use resilience::{MemorySource, ProcFs, Spacing};
use settings::SettingsStore;

use crate::error::AppResult;
use crate::services::App;

/// The refill rules as the settings say now.
pub fn rules(settings: &SettingsStore) -> governor::Rules {
    let minutes = |m: u32| time::Duration::minutes(i64::from(m));
    governor::Rules {
        target: settings.session_refill_target_count() as usize,
        batch: settings.session_refill_batch() as usize,
        cooldown: minutes(settings.session_refill_cooldown_minutes()),
        max_age: time::Duration::hours(i64::from(
            settings.session_refill_max_candidate_age_hours(),
        )),
        max_per_day: settings.session_refill_max_revives_per_session_per_day(),
        spend_cap_usd: settings.session_refill_daily_spend_cap_usd(),
        include_paused: settings.session_refill_include_paused(),
        reopen_closed: settings.session_refill_allow_reopen_user_closed(),
    }
}

/// One check now; `None` while another is running.
pub async fn check(state: &App) -> AppResult<Option<governor::Check>> {
    Ok(state.governor.check(&rules(&state.settings)).await?)
}

/// Starts the five-minute loop; it ends when the server is asked to stop.
pub(crate) fn start(state: &App) {
    let state = state.clone();
    let mut stop = state.stop.subscribe();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                // The watch's guard is not Send: drop it before any await below.
                () = async { drop(stop.wait_for(Option::is_some).await) } => return,
                () = state.clock.sleep(governor::CHECK_EVERY) => {}
            }
            if let Err(error) = check(&state).await {
                tracing::warn!(%error, "a governor check failed");
            }
        }
    });
}

/// What the sessions crate asks before a burst or returning start.
pub struct FleetGovernance {
    pub settings: Arc<SettingsStore>,
    pub memory: Box<dyn MemorySource + Send + Sync>,
}

impl sessions::Governance for FleetGovernance {
    fn spacing(&self) -> Spacing {
        Spacing::from_settings(
            self.settings.session_restart_spacing_seconds(),
            i64::from(self.settings.session_restart_spacing_warmup_minutes()),
            self.settings.session_restart_spacing_after_warmup_seconds(),
        )
    }

    fn relaunch_overloads(&self) -> bool {
        self.settings.relentless_session_relaunch()
    }

    fn restart_unresponsive(&self) -> bool {
        self.settings.auto_restart_unresponsive_sessions()
    }

    fn break_loops(&self) -> bool {
        self.settings.read_loop_breaker_enabled()
    }

    fn below_normal_priority(&self) -> bool {
        self.settings.session_tree_below_normal_priority()
    }

    fn context_warning(&self, threshold: resilience::Threshold) -> bool {
        match threshold {
            resilience::Threshold::Percent75 => self.settings.context_warning75_enabled(),
            resilience::Threshold::Percent90 => self.settings.context_warning90_enabled(),
        }
    }

    fn memory_hold_at(&self, runner: &str, used: f64) -> Option<String> {
        if !self.settings.session_memory_guard_enabled() {
            return None;
        }
        let limit = f64::from(self.settings.session_memory_guard_percent());
        (used >= limit).then(|| {
            format!(
                "held by the memory guard: {used:.0}% of runner {runner}'s memory in use, at or above sessionMemoryGuardPercent ({limit:.0}%)"
            )
        })
    }

    fn local_memory(&self) -> Option<runners::Memory> {
        let meminfo = self.memory.read(Path::new("/proc/meminfo")).ok()?;
        runners::helper::memory_of(&meminfo)
    }

    fn hardened_remote_sessions(&self) -> bool {
        self.settings.cloud_hardened_session_enabled()
    }

    fn recover_full_context(&self) -> bool {
        self.settings.context_stall_auto_recover_enabled()
    }

    fn memory_hold(&self) -> Option<String> {
        if !self.settings.session_memory_guard_enabled() {
            return None;
        }
        let limit = f64::from(self.settings.session_memory_guard_percent());
        let used = resilience::used_percent(self.memory.as_ref())?;
        (used >= limit).then(|| {
            format!(
                "held by the memory guard: {used:.0}% of memory in use, at or above sessionMemoryGuardPercent ({limit:.0}%)"
            )
        })
    }
}

/// Memory as the machine reports it, or (tests) a meminfo file standing in
/// for `/proc/meminfo`, with no cgroup limit.
pub fn memory_source(meminfo: Option<PathBuf>) -> Box<dyn MemorySource + Send + Sync> {
    match meminfo {
        Some(path) => Box::new(FakeMeminfo(path)),
        None => Box::new(ProcFs),
    }
}

struct FakeMeminfo(PathBuf);

impl MemorySource for FakeMeminfo {
    fn read(&self, path: &Path) -> std::io::Result<String> {
        if path == Path::new("/proc/meminfo") {
            std::fs::read_to_string(&self.0)
        } else {
            Err(std::io::Error::from(std::io::ErrorKind::NotFound))
        }
    }
}
