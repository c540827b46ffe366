//! `boostAppProcessPriority`: the server's own threads at a higher
//! priority while a tab of the app is in front, and back at normal after.

use std::io;

/// The niceness of every server thread while boosted (Windows' Above
/// Normal sits about this far over normal).
pub const BOOSTED_NICE: libc::c_int = -5;

/// Sets every thread of this process to `nice` (each Linux thread has its
/// own; threads made later take their maker's). Raising priority needs
/// `CAP_SYS_NICE` or a raised `RLIMIT_NICE`: the error says so.
pub fn set_own_nice(nice: libc::c_int) -> io::Result<()> {
    let tasks = std::fs::read_dir("/proc/self/task")?;
    let mut failure = None;
    for task in tasks.flatten() {
        let Ok(tid) = task.file_name().to_string_lossy().parse::<libc::id_t>() else {
            continue;
        };
        // SAFETY: one system call on integers.
        if unsafe { libc::setpriority(libc::PRIO_PROCESS, tid, nice) } != 0 {
            failure = Some(io::Error::last_os_error());
        }
    }
    failure.map_or(Ok(()), Err)
}
