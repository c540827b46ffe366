//! Moves the WAL's pages into the database file off the write path.
//!
//! SQLite's automatic checkpoint runs inside the commit that crosses its
//! threshold: that one write copies a thousand pages and waits for two
//! fsyncs, and every write queued behind the writer lock waits with it, which
//! is where a durable write's p99 went. The writer connection turns it off
//! (`wal_autocheckpoint = 0`) and this thread, with a connection of its own,
//! runs a `PASSIVE` checkpoint a few times a second after writes. A passive
//! checkpoint never takes the write lock: commits go on appending to the WAL
//! meanwhile, and once every frame is back in the database the next write
//! starts the WAL over from its beginning. A burst still leaves a long WAL
//! file behind: once writes pause, a `TRUNCATE` checkpoint cuts it to nothing
//! (it holds new writes back for as long as it runs, which on a quiet
//! database is a moment).
//!
//! Durability is unchanged: a commit is in the WAL, in the OS's hands, when
//! it returns; the checkpoint only decides when the pages also reach the
//! main file.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::Connection;

/// How often pending writes are checkpointed: often enough that a burst's
/// WAL stays tens of megabytes, seldom enough to cost nothing when idle.
const INTERVAL: Duration = Duration::from_millis(250);
/// A WAL file longer than this is truncated once writes pause.
const LONG_WAL: u64 = 4 << 20;

/// Stops and joins its thread when dropped, after a last checkpoint.
pub(crate) struct Checkpointer {
    written: Arc<AtomicBool>,
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Checkpointer {
    /// Starts checkpointing through `conn` (which it then owns) the
    /// database whose WAL is `wal`.
    pub(crate) fn start(conn: Connection, wal: PathBuf) -> std::io::Result<Checkpointer> {
        let written = Arc::new(AtomicBool::new(false));
        let (stop, stopped) = mpsc::channel::<()>();
        let pending = Arc::clone(&written);
        let thread = std::thread::Builder::new()
            .name("sqlite-checkpoint".into())
            .spawn(move || {
                let mut burst = false;
                loop {
                    let last = match stopped.recv_timeout(INTERVAL) {
                        Err(RecvTimeoutError::Timeout) => false,
                        Ok(()) | Err(RecvTimeoutError::Disconnected) => true,
                    };
                    if pending.swap(false, Ordering::AcqRel) {
                        checkpoint(&conn, "PASSIVE");
                        burst = true;
                    } else if burst {
                        burst = false;
                        if std::fs::metadata(&wal).is_ok_and(|m| m.len() > LONG_WAL) {
                            checkpoint(&conn, "TRUNCATE");
                        }
                    }
                    if last {
                        return;
                    }
                }
            })?;
        Ok(Checkpointer {
            written,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// Notes a commit: its pages are checkpointed within [`INTERVAL`].
    pub(crate) fn wrote(&self) {
        self.written.store(true, Ordering::Release);
    }
}

/// A checkpoint that fails (a full disk) is tried again after the next
/// write; until then the WAL keeps the data, so nothing is lost by ignoring it.
fn checkpoint(conn: &Connection, mode: &str) {
    let _ = conn.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |_| Ok(()));
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
