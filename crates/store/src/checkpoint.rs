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
//! Writes that never pause with readers that never stop (a thousand busy
//! sessions and their listeners) give the WAL no moment to start over: each
//! passive checkpoint stops at the oldest reader's snapshot, and the file
//! grew by gigabytes a minute until the disk was full. Past [`WAL_CAP`] this
//! thread asks the writer for a `TRUNCATE` checkpoint
//! ([`Checkpointer::cut_if_too_long`]), which the writer runs before its next
//! transaction: from this thread it would wait for the write lock, which a
//! writer that never pauses never lets go of long enough. It waits for the
//! readers of the moment to finish; the writes queued behind it meanwhile
//! are absorbed by the callers' group commits.
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

/// The WAL a sustained load may grow before it is cut back while writes go on.
pub(crate) const WAL_CAP: u64 = 256 << 20;

/// How long a connection waits for a lock another holds.
pub(crate) const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a cut under load waits for the readers of the moment.
const CUT_WAIT: Duration = Duration::from_millis(250);

/// Stops and joins its thread when dropped, after a last checkpoint.
pub(crate) struct Checkpointer {
    written: Arc<AtomicBool>,
    too_long: Arc<AtomicBool>,
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Checkpointer {
    /// Starts checkpointing through `conn` (which it then owns) the
    /// database whose WAL is `wal`.
    pub(crate) fn start(conn: Connection, wal: PathBuf, cap: u64) -> std::io::Result<Checkpointer> {
        let written = Arc::new(AtomicBool::new(false));
        let (stop, stopped) = mpsc::channel::<()>();
        let too_long = Arc::new(AtomicBool::new(false));
        let pending = Arc::clone(&written);
        let over_cap = Arc::clone(&too_long);
        let thread = std::thread::Builder::new()
            .name("sqlite-checkpoint".into())
            .spawn(move || {
                let mut burst = false;
                loop {
                    let last = match stopped.recv_timeout(INTERVAL) {
                        Err(RecvTimeoutError::Timeout) => false,
                        Ok(()) | Err(RecvTimeoutError::Disconnected) => true,
                    };
                    if over_cap.load(Ordering::Acquire) {
                        // The writer's to cut; a checkpoint here would only
                        // make its one busy.
                    } else if pending.swap(false, Ordering::AcqRel) {
                        checkpoint(&conn, "PASSIVE");
                        if wal_longer_than(&wal, cap) {
                            over_cap.store(true, Ordering::Release);
                        }
                        burst = true;
                    } else if burst {
                        burst = false;
                        if wal_longer_than(&wal, LONG_WAL) {
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
            too_long,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// Notes a commit: its pages are checkpointed within [`INTERVAL`].
    pub(crate) fn wrote(&self) {
        self.written.store(true, Ordering::Release);
    }

    /// Cuts the WAL back to nothing on the writer's own connection, outside
    /// any transaction, when it has passed the cap: what passive checkpoints
    /// left behind is copied once the readers of the moment have finished.
    /// The writes behind it wait [`CUT_WAIT`] at most; a cut that could not
    /// finish is asked for again after this thread's next passive
    /// checkpoint, not at every write.
    pub(crate) fn cut_if_too_long(&self, writer: &Connection) {
        if !self.too_long.swap(false, Ordering::AcqRel) {
            return;
        }
        let _ = writer.busy_timeout(CUT_WAIT);
        checkpoint(writer, "TRUNCATE");
        let _ = writer.busy_timeout(BUSY_TIMEOUT);
    }
}

fn wal_longer_than(wal: &std::path::Path, bytes: u64) -> bool {
    std::fs::metadata(wal).is_ok_and(|m| m.len() > bytes)
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
