//! Process groups and the search for engine processes a dead server left behind.
//!
//! Every engine process leads its own process group, so one `killpg` reaches
//! its children and grandchildren too (a process that calls `setsid` escapes,
//! but crash recovery still finds it by its environment).

use std::collections::HashSet;
use std::time::Duration;

/// Sends `signal` to every process of group `pgid`; false when none is left.
pub fn signal_group(pgid: u32, signal: libc::c_int) -> bool {
    let Ok(pgid) = libc::pid_t::try_from(pgid) else {
        return false;
    };
    if pgid <= 1 {
        return false;
    }
    // SAFETY: killpg only reads its two integer arguments.
    unsafe { libc::killpg(pgid, signal) == 0 }
}

/// Ends the processes whose environment names one of `session_ids` as
/// `APP_SESSION_ID`: those are ours, whatever their group, and nothing else is.
/// Returns the pids it killed, once they are gone (or after a few seconds).
pub async fn kill_leftovers(session_ids: &HashSet<String>) -> Vec<u32> {
    if session_ids.is_empty() {
        return Vec::new();
    }
    let wanted: HashSet<Vec<u8>> = session_ids
        .iter()
        .map(|id| format!("APP_SESSION_ID={id}").into_bytes())
        .collect();
    // Reading every process's environment is blocking file I/O: off the
    // async threads, since a stopped turn runs this too.
    let killed =
        tokio::task::spawn_blocking(move || runners::helper::kill_environ_matching(&wanted))
            .await
            .unwrap_or_default();
    for _ in 0..100 {
        if killed.iter().all(|pid| !is_running(*pid)) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    killed
}

/// True while `pid` exists and is not a zombie.
pub fn is_running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state letter follows the parenthesised command name.
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.trim_start().chars().next())
            .is_some_and(|state| state != 'Z' && state != 'X'),
        Err(_) => false,
    }
}
