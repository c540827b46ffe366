//! The output feed: each flush's stored entries, handed to every listener
//! without ever dropping one.
//!
//! A flush is one message ([`OutputAppended`], shared behind an `Arc`), not
//! one per entry, so a busy session costs the listeners one wake-up per flush.
//! Nothing is dropped for a listener that falls behind: its queue grows, and
//! once it holds more than [`ROOM`] bytes of entries the engines' pumps wait
//! ([`OutputFeed::room`]) before their next flush, so their pipes fill and the
//! engines slow down instead. Entries stored outside a pump (a turn's input,
//! a notice, an error) never wait. A listener must therefore keep reading
//! while it is subscribed; dropping it releases the pumps at once. The feed
//! also holds the pumps' shared writer ([`crate::pages::Flushes`]), which
//! stores the flushes that wait together, before they come here.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::{Notify, mpsc};

use crate::model::EntryBody;
use crate::pages::Flushes;

/// How many bytes of entries one listener may have waiting before the pumps
/// wait for it: a few seconds of the busiest load the scale bench measured.
pub(crate) const ROOM: usize = 16 << 20;

/// One stored entry of a flush.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEntry {
    /// The entry's place in the transcript: it grows within a session, and
    /// `GET /sessions/<id>/transcript?format=json` pages by it.
    pub seq: i64,
    pub entry: EntryBody,
}

/// The entries of one turn stored together (one flush of its output, or one
/// entry written beside the engine), broadcast once stored, for live views.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputAppended {
    pub session_id: String,
    pub account_id: String,
    pub turn: i64,
    /// When they were stored (the supervisor clock's timestamp), as each
    /// entry's `at` reads.
    pub at: String,
    /// In `seq` order.
    pub entries: Vec<StoredEntry>,
}

impl OutputAppended {
    /// What the batch weighs in a listener's queue.
    fn weight(&self) -> usize {
        const OVERHEAD: usize = 128;
        OVERHEAD
            + self
                .entries
                .iter()
                .map(|e| OVERHEAD + text_len(&e.entry))
                .sum::<usize>()
    }
}

/// About how much text an entry holds (the rest of it is small).
fn text_len(entry: &EntryBody) -> usize {
    match entry {
        EntryBody::Input { text, .. }
        | EntryBody::Stdout { text }
        | EntryBody::Stderr { text }
        | EntryBody::Text { text }
        | EntryBody::Thinking { text }
        | EntryBody::Final { text }
        | EntryBody::Notice { text, .. } => text.len(),
        EntryBody::ToolResult { output, .. } => output.len(),
        EntryBody::Error { message } => message.len(),
        EntryBody::ToolCall { .. } | EntryBody::Todo { .. } | EntryBody::Permission { .. } => {
            1 << 10
        }
    }
}

struct Listener {
    sender: mpsc::UnboundedSender<Arc<OutputAppended>>,
    waiting: Arc<AtomicUsize>,
}

/// The sending side, held by the supervisor's shared state.
pub(crate) struct OutputFeed {
    listeners: Mutex<Vec<Listener>>,
    /// Woken when a listener's queue drains below [`ROOM`] or it goes away.
    room: Arc<Notify>,
    /// Where the pumps store their flushes before they send them here.
    pub(crate) flushes: Arc<Flushes>,
}

impl OutputFeed {
    pub(crate) fn new() -> OutputFeed {
        OutputFeed {
            listeners: Mutex::new(Vec::new()),
            room: Arc::new(Notify::new()),
            flushes: Arc::default(),
        }
    }

    fn listeners(&self) -> MutexGuard<'_, Vec<Listener>> {
        // The list stays consistent between statements.
        self.listeners.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(crate) fn subscribe(&self) -> OutputReceiver {
        let (sender, receiver) = mpsc::unbounded_channel();
        let waiting = Arc::new(AtomicUsize::new(0));
        self.listeners().push(Listener {
            sender,
            waiting: Arc::clone(&waiting),
        });
        OutputReceiver {
            receiver,
            waiting,
            room: Arc::clone(&self.room),
        }
    }

    /// Hands the batch to every listener; never waits and never drops it.
    pub(crate) fn send(&self, batch: OutputAppended) {
        if batch.entries.is_empty() {
            return;
        }
        let weight = batch.weight();
        let batch = Arc::new(batch);
        self.listeners().retain(|listener| {
            listener.waiting.fetch_add(weight, Ordering::AcqRel);
            listener.sender.send(Arc::clone(&batch)).is_ok()
        });
    }

    /// Returns once every listener has room: a pump waits here before a
    /// flush while one of them is more than [`ROOM`] behind.
    pub(crate) async fn room(&self) {
        loop {
            let notified = self.room.notified();
            tokio::pin!(notified);
            // Registered before the check, so a drain between the check and
            // the wait still wakes it.
            notified.as_mut().enable();
            if !self.is_full() {
                return;
            }
            notified.await;
        }
    }

    /// Whether a listener is more than [`ROOM`] behind, so the pumps wait.
    pub(crate) fn is_full(&self) -> bool {
        self.listeners().iter().any(|listener| {
            !listener.sender.is_closed() && listener.waiting.load(Ordering::Acquire) > ROOM
        })
    }
}

/// One listener's batches, in the order they were stored.
pub struct OutputReceiver {
    receiver: mpsc::UnboundedReceiver<Arc<OutputAppended>>,
    waiting: Arc<AtomicUsize>,
    room: Arc<Notify>,
}

impl OutputReceiver {
    /// The next batch; `None` once the supervisor is gone.
    pub async fn recv(&mut self) -> Option<Arc<OutputAppended>> {
        let batch = self.receiver.recv().await?;
        self.taken(&batch);
        Some(batch)
    }

    /// The next batch if one is waiting.
    pub fn try_recv(&mut self) -> Option<Arc<OutputAppended>> {
        let batch = self.receiver.try_recv().ok()?;
        self.taken(&batch);
        Some(batch)
    }

    fn taken(&self, batch: &OutputAppended) {
        let weight = batch.weight();
        let before = self.waiting.fetch_sub(weight, Ordering::AcqRel);
        if before > ROOM && before - weight <= ROOM {
            self.room.notify_waiters();
        }
    }
}

impl Drop for OutputReceiver {
    fn drop(&mut self) {
        self.receiver.close();
        self.room.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn batch(seq: i64, text: &str) -> OutputAppended {
        OutputAppended {
            session_id: "s".into(),
            account_id: "a".into(),
            turn: 1,
            at: "t".into(),
            entries: vec![StoredEntry {
                seq,
                entry: EntryBody::Stdout { text: text.into() },
            }],
        }
    }

    #[tokio::test]
    async fn every_batch_reaches_every_listener_in_order_however_far_behind() {
        let feed = OutputFeed::new();
        let mut first = feed.subscribe();
        let mut second = feed.subscribe();
        for seq in 0..10_000 {
            feed.send(batch(seq, "line"));
        }
        for receiver in [&mut first, &mut second] {
            for seq in 0..10_000 {
                let got = receiver.try_recv().map(|b| b.entries[0].seq);
                assert_eq!(got, Some(seq));
            }
            assert!(receiver.try_recv().is_none());
        }
    }

    #[tokio::test]
    async fn a_pump_waits_while_a_listener_is_full_and_goes_on_once_it_reads() {
        let feed = Arc::new(OutputFeed::new());
        let mut slow = feed.subscribe();
        let big = "x".repeat(1 << 20);
        for seq in 0..=(ROOM >> 20) as i64 {
            feed.send(batch(seq, &big));
        }
        let waiting = {
            let feed = Arc::clone(&feed);
            tokio::spawn(async move { feed.room().await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished(), "a full listener holds the pump");
        while slow.try_recv().is_some() {}
        tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("the pump goes on once the listener read")
            .expect("the waiting task");
    }

    #[tokio::test]
    async fn a_listener_that_goes_away_holds_nothing_up() {
        let feed = OutputFeed::new();
        let slow = feed.subscribe();
        for seq in 0..=(ROOM >> 20) as i64 {
            feed.send(batch(seq, &"x".repeat(1 << 20)));
        }
        drop(slow);
        tokio::time::timeout(Duration::from_secs(5), feed.room())
            .await
            .expect("no listener left to wait for");
    }
}
