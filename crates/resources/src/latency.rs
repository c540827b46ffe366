//! A short scheduler slice for the server's own threads. On kernels with
//! the EEVDF scheduler (Linux 6.6 and later; a slice request for normal
//! tasks since 6.12), a task that asks for a shorter slice gets an earlier
//! virtual deadline, so when it wakes (a request arrives) it preempts a
//! busy engine instead of waiting out that engine's slice: weights decide
//! how much CPU each side gets, the slice how soon the server gets it.
//! Older kernels ignore the request.

use std::io;

/// The slice the server's threads ask for: below the kernel's default
/// (0.75 ms times 1 + log2 of the cores), above its floor of 0.1 ms.
pub const SERVER_SLICE_NS: u64 = 300_000;

/// `struct sched_attr` of `sched_setattr(2)`, first version (48 bytes).
#[repr(C)]
struct SchedAttr {
    size: u32,
    policy: u32,
    flags: u64,
    nice: i32,
    priority: u32,
    runtime: u64,
    deadline: u64,
    period: u64,
}

/// Asks for [`SERVER_SLICE_NS`] for the calling thread, keeping its
/// policy (normal) and its niceness.
pub fn short_slice_for_this_thread() -> io::Result<()> {
    // SAFETY: gettid takes nothing and cannot fail.
    let tid = unsafe { libc::gettid() };
    // getpriority may return -1 as a value: errno tells a failure apart.
    // SAFETY: errno is this thread's; the calls read integers only.
    let nice = unsafe {
        *libc::__errno_location() = 0;
        let nice = libc::getpriority(libc::PRIO_PROCESS, tid as libc::id_t);
        if nice == -1 && *libc::__errno_location() != 0 {
            return Err(io::Error::last_os_error());
        }
        nice
    };
    let attr = SchedAttr {
        size: std::mem::size_of::<SchedAttr>() as u32,
        policy: libc::SCHED_OTHER as u32,
        flags: 0,
        nice,
        priority: 0,
        runtime: SERVER_SLICE_NS,
        deadline: 0,
        period: 0,
    };
    // SAFETY: the attribute is a valid, fully initialised sched_attr of the
    // size it states, alive for the call.
    let done = unsafe { libc::syscall(libc::SYS_sched_setattr, 0, &attr as *const SchedAttr, 0) };
    if done == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slice_is_asked_for_and_the_niceness_kept() {
        let asked = std::thread::spawn(|| {
            // SAFETY: one system call on integers.
            unsafe { libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, 3) };
            short_slice_for_this_thread().map(|()| {
                let mut read = SchedAttr {
                    size: 0,
                    policy: 0,
                    flags: 0,
                    nice: 0,
                    priority: 0,
                    runtime: 0,
                    deadline: 0,
                    period: 0,
                };
                let size = std::mem::size_of::<SchedAttr>() as u32;
                // SAFETY: `read` is a writable sched_attr of `size` bytes.
                let got = unsafe {
                    libc::syscall(
                        libc::SYS_sched_getattr,
                        0,
                        &mut read as *mut SchedAttr,
                        size,
                        0,
                    )
                };
                assert_eq!(got, 0, "{}", io::Error::last_os_error());
                (read.nice, read.runtime)
            })
        })
        .join()
        .unwrap();
        // The kernel reports the slice a normal task asked for (6.12 and later).
        assert_eq!(asked.unwrap(), (3, SERVER_SLICE_NS));
    }
}
