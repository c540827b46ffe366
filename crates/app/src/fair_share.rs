//! Fair share on this machine (docs/resources.md): each local session's
//! tree in a cgroup of its own under this data directory's parent, the
//! leftovers of a killed server swept at start, and the resource settings
//! put in force on running trees within a second of a change, the CPU
//! cap that is not strict only while the machine is contended, and a
//! merge session put first for the CPU while it runs.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use resources::{CpuCap, Limits, Trees};
use settings::SettingsStore;

use crate::services::App;
use crate::setting_watch::Watched;

/// How often the machine's contention is measured.
const SAMPLE_EVERY: Duration = Duration::from_secs(1);
/// Busy above this share of every core is contended.
const CONTENDED: f64 = 0.9;
/// `sessionAdaptiveMemoryPaging`: busy trees are held to what they use
/// above this share of memory in use, and let go below the second.
const PAGE_ABOVE: f64 = 85.0;
const PAGE_BELOW: f64 = 70.0;

/// This data directory's trees: one parent per data directory, so a
/// server started again finds (and adopts) its own. What a killed server
/// left running there is killed and its trees removed before any session
/// starts again.
pub(crate) fn open(data_dir: &Path) -> Arc<Trees> {
    let trees = Trees::for_data_dir(data_dir);
    let swept = trees.sweep(&|_| false);
    if !swept.is_empty() {
        tracing::info!(
            count = swept.len(),
            "removed the session trees a previous server left"
        );
    }
    tracing::info!(
        mode = trees.mode().as_str(),
        "session trees: {}",
        trees.why()
    );
    Arc::new(trees)
}

/// The settings as limits, `contended` and `paging` as measured.
fn limits(app: &App, contended: bool, paging: bool) -> Limits {
    let settings = &app.settings;
    Limits {
        cpu_cap: settings.session_cpu_cap_enabled().then(|| CpuCap {
            percent: settings.session_cpu_cap_percent(),
            strict: settings.session_cpu_cap_strict(),
        }),
        max_processes: settings.session_max_processes_enabled(),
        low_io: settings.session_tree_low_io_priority(),
        reserve_core: settings.reserve_ui_core_enabled(),
        contended,
        page_busy: paging && settings.session_adaptive_memory_paging(),
    }
    .in_force()
}

/// Keeps the trees' limits as the settings and the machine say.
pub(crate) fn start(
    app: &App,
    trees: Arc<Trees>,
    memory: Box<dyn resilience::MemorySource + Send + Sync>,
) {
    let app = app.clone();
    let mut stop = app.stop.subscribe();
    let reads = |s: &SettingsStore| {
        (
            (
                s.session_cpu_cap_enabled(),
                s.session_cpu_cap_percent(),
                s.session_cpu_cap_strict(),
            ),
            (
                s.session_max_processes_enabled(),
                s.session_tree_low_io_priority(),
                s.reserve_ui_core_enabled(),
                s.session_adaptive_memory_paging(),
            ),
            s.boost_app_process_priority(),
            s.merge_priority_boost_enabled(),
        )
    };
    let mut changes = Watched::new(&app, reads);
    tokio::spawn(async move {
        let mut last: Option<(u64, u64)> = None;
        let mut contended = false;
        let mut paging = false;
        let mut applied = None;
        let mut boosted = false;
        let mut merge_boosted: Option<String> = None;
        loop {
            let merge = app.merge_to_boost().await;
            if merge != merge_boosted {
                merge_boosted.clone_from(&merge);
                let trees = Arc::clone(&trees);
                let _ = tokio::task::spawn_blocking(move || trees.boost(merge.as_deref())).await;
            }
            let boost = app.settings.boost_app_process_priority() && app.presence.any_visible();
            if boost != boosted {
                boosted = boost;
                let nice = if boost { resources::BOOSTED_NICE } else { 0 };
                if let Err(e) = resources::set_own_nice(nice) {
                    tracing::warn!("the server's priority could not be set to nice {nice}: {e}");
                }
            }
            let wanted = limits(&app, contended, paging);
            if applied != Some(wanted) {
                applied = Some(wanted);
                let trees = Arc::clone(&trees);
                let _ = tokio::task::spawn_blocking(move || trees.apply(wanted)).await;
            }
            let stopping = tokio::select! {
                _ = stop.wait_for(Option::is_some) => true,
                () = changes.changed(&app.settings) => false,
                () = app.clock.sleep(time::Duration::try_from(SAMPLE_EVERY).unwrap_or_default()) => {
                    let now = cpu_times();
                    if let (Some((busy0, total0)), Some((busy1, total1))) = (last, now)
                        && total1 > total0
                    {
                        contended = (busy1 - busy0) as f64 / (total1 - total0) as f64 >= CONTENDED;
                    }
                    last = now;
                    paging = match resilience::used_percent(memory.as_ref()) {
                        Some(used) if used > PAGE_ABOVE => true,
                        Some(used) if used < PAGE_BELOW => false,
                        _ => paging,
                    };
                    false
                }
            };
            if stopping {
                let _ = tokio::task::spawn_blocking(move || trees.close()).await;
                return;
            }
        }
    });
}

/// Busy and total jiffies of every core, from `/proc/stat`.
fn cpu_times() -> Option<(u64, u64)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    busy_and_total(stat.lines().next()?)
}

fn busy_and_total(line: &str) -> Option<(u64, u64)> {
    let fields: Vec<u64> = line
        .strip_prefix("cpu ")?
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    let total: u64 = fields.iter().take(8).sum();
    // idle and iowait are the fourth and fifth.
    let idle = fields.get(3)? + fields.get(4).unwrap_or(&0);
    Some((total.saturating_sub(idle), total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_time_leaves_out_idle_and_io_wait() {
        let line = "cpu  100 0 50 800 50 0 0 0 0 0";
        assert_eq!(busy_and_total(line), Some((150, 1000)));
        assert_eq!(busy_and_total("intr 1 2"), None);
    }
}
