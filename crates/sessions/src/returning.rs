//! Starts of sessions that return together (a restore after a crash, a
//! refill batch, a recovery) and of burst spawns, which may be held while
//! memory is short.
//!
//! The pacer is a chain: each returning session waits for the one before it
//! to start, and only then takes its own slot from the spacing in force at
//! that moment, so a changed spacing setting applies to the very next start.
//! A batch is the starts that follow each other within [`BATCH_GAP`]; its
//! warm-up counts from its first start.

use clock::Clock;
use time::OffsetDateTime;

/// Longer than the longest spacing the settings allow (30 s): a start this
/// long after the previous one begins a new batch.
const BATCH_GAP: time::Duration = time::Duration::seconds(60);

/// What the server's settings say about keeping sessions alive, asked at
/// the moment each matters, so a changed setting applies at once.
pub trait Governance: Send + Sync {
    /// The spacing of sessions returning together (a restore after a crash,
    /// a refill batch, a recovery).
    fn spacing(&self) -> resilience::Spacing;
    /// Why a burst start must wait now (memory is short), or `None`.
    fn memory_hold(&self) -> Option<String>;
    /// `relentlessSessionRelaunch`: retry turns failed by a transient overload.
    fn relaunch_overloads(&self) -> bool;
    /// `autoRestartUnresponsiveSessions`: restart a turn that went silent and idle.
    fn restart_unresponsive(&self) -> bool;
    /// `readLoopBreakerEnabled`: stop a turn that repeats itself.
    fn break_loops(&self) -> bool;
    /// `sessionTreeBelowNormalPriority`: run engines at a lower priority.
    fn below_normal_priority(&self) -> bool;
    /// `contextWarning75Enabled` / `contextWarning90Enabled`.
    fn context_warning(&self, threshold: resilience::Threshold) -> bool;
    /// `contextStallAutoRecoverEnabled`: compact a full context and go on.
    fn recover_full_context(&self) -> bool;
    /// `cloudHardenedSessionEnabled`: a session on a runner host reaches
    /// only its model API and the control tunnel, in a home of its own
    /// that goes when the session ends.
    fn hardened_remote_sessions(&self) -> bool {
        false
    }
    /// The memory guard on a runner host's memory (as its helper last
    /// reported it, `used_percent` of it in use) rather than this machine's.
    fn memory_hold_at(&self, _runner: &str, _used_percent: f64) -> Option<String> {
        None
    }
    /// This machine's memory, as `auto` placement weighs it against the
    /// runners'.
    fn local_memory(&self) -> Option<runners::Memory> {
        runners::helper::memory()
    }
}

#[derive(Default)]
pub(crate) struct Pacer {
    chain: tokio::sync::Mutex<Chain>,
}

#[derive(Default)]
struct Chain {
    batch_started: Option<OffsetDateTime>,
    last_slot: Option<OffsetDateTime>,
}

impl Pacer {
    /// Waits until this start's slot. Holding the chain while it sleeps is
    /// what makes the next start wait for this one.
    pub(crate) async fn wait_turn(
        &self,
        clock: &dyn Clock,
        gate: &dyn Governance,
    ) -> OffsetDateTime {
        let mut chain = self.chain.lock().await;
        let now = clock.now();
        let batch_started = match (chain.batch_started, chain.last_slot) {
            (Some(started), Some(last)) if now - last <= BATCH_GAP => started,
            _ => {
                chain.last_slot = None;
                now
            }
        };
        chain.batch_started = Some(batch_started);
        let slot = gate
            .spacing()
            .next_slot(batch_started, chain.last_slot, now);
        chain.last_slot = Some(slot);
        clock.sleep_until(slot).await;
        slot
    }
}
