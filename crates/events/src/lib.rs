//! The live event hub: what changed, for whom, in one order.
//!
//! [`Hub::publish`] gives each event the next id, keeps it in a bounded ring
//! of recent events (for resumes after a reconnect) and offers it to every
//! subscriber of its audience without waiting: each subscriber has a bounded
//! buffer, and one whose buffer is full is dropped with a final `reset`
//! event naming the last event it did not get (its resume point), so a
//! stalled reader never slows the publisher or anyone else.
//! [`Hub::publish_all`] publishes many events at once (a burst of output):
//! they take consecutive ids and reach each subscriber as one entry of its
//! buffer, shared, not copied, and [`Subscription::batches`] hands a writer
//! everything ready at once. The buffer is bounded by the bytes of the events
//! waiting in it (as the ring is) and, far above, by the publishes: with
//! thousands of busy sessions most publishes are small, and a bound of a few
//! hundred of them cut off a reader that was a fraction of a second behind.
//! [`Hub::subscribe`] with the last id a client saw replays what it missed,
//! or starts with a `reset` when that is no longer held.
//!
//! Ids are `<epoch>-<seq>`: the epoch is chosen per server start, so an id
//! from before a restart is recognised as unknown (a `reset`) rather than
//! mistaken for a recent one. Clients treat ids as opaque.
//!
//! Knows nothing of HTTP or of what the events mean: `data` is whatever
//! JSON object the publisher hands over, serialised once here.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::task::{Context, Poll};

use tokio::sync::mpsc;
use tokio_stream::Stream;

/// The event names of the contract's event stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Name {
    Session,
    Output,
    Inbox,
    Settings,
    Board,
    /// An alarm changed (began ringing, was snoozed, dismissed, missed or deleted).
    Alarm,
    /// A tool call asks for the user's approval, or its approval was answered or expired.
    Approval,
    /// An agent asks the web app to show a view (a toast, or at once).
    Navigate,
    /// A task list or the caught follow-ups changed (an agent's task, a
    /// tasks.md edit merged, follow-ups staged).
    Tasks,
    /// An agent asks the web app, behind other windows, to come forward.
    Foreground,
    /// Focus mode went on or off (off: what it held, to release as one summary).
    Focus,
    /// A pomodoro run started, changed phase or ended.
    Pomodoro,
    /// A calendar event is about to start (a reminder delivered as a toast).
    Calendar,
    /// The Running apps changed (one started, stopped, was found or failed).
    Apps,
    /// Refetch: what was missed is no longer held.
    Reset,
}

impl Name {
    pub fn as_str(self) -> &'static str {
        match self {
            Name::Session => "session",
            Name::Output => "output",
            Name::Inbox => "inbox",
            Name::Settings => "settings",
            Name::Board => "board",
            Name::Alarm => "alarm",
            Name::Approval => "approval",
            Name::Navigate => "navigate",
            Name::Tasks => "tasks",
            Name::Foreground => "foreground",
            Name::Focus => "focus",
            Name::Pomodoro => "pomodoro",
            Name::Calendar => "calendar",
            Name::Apps => "apps",
            Name::Reset => "reset",
        }
    }
}

/// Who receives an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Audience {
    Account(String),
    /// Every account (installation-wide changes, such as settings).
    Everyone,
}

impl Audience {
    fn includes(&self, account_id: &str) -> bool {
        match self {
            Audience::Account(id) => id == account_id,
            Audience::Everyone => true,
        }
    }
}

/// One published event. `data` is one line of JSON.
#[derive(Debug, PartialEq)]
pub struct Event {
    pub id: String,
    pub name: Name,
    pub audience: Audience,
    pub data: String,
    seq: u64,
}

/// An event to publish among others ([`Hub::publish_all`]).
#[derive(Debug)]
pub struct Draft {
    pub audience: Audience,
    pub name: Name,
    /// One line of JSON: one object, serialised without line breaks.
    pub data: String,
}

/// The events of one publish that one subscriber receives, shared by every
/// subscriber that receives them all.
type Chunk = Arc<[Arc<Event>]>;

impl Event {
    /// Roughly what the event costs to keep in the ring.
    fn weight(&self) -> usize {
        const OVERHEAD: usize = 96;
        let account = match &self.audience {
            Audience::Account(id) => id.len(),
            Audience::Everyone => 0,
        };
        OVERHEAD + self.id.len() + self.data.len() + account
    }
}

/// How much the hub keeps.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    /// Chosen per start (a random number or the start time) so ids of an
    /// earlier run are never taken for this run's.
    pub epoch: u64,
    /// The ring holds at most this many recent events...
    pub ring_events: usize,
    /// ...and at most about this many bytes of them.
    pub ring_bytes: usize,
    /// Publishes (single events or [`Hub::publish_all`]'s bursts) a
    /// subscriber may have waiting before it is dropped...
    pub buffer: usize,
    /// ...and about how many bytes of events (as the ring counts them); the
    /// first publish waiting always fits, however large.
    pub buffer_bytes: usize,
}

impl Config {
    /// The server's sizes: 10,000 events or 8 MiB for resumes, and 8 MiB of
    /// events (at most 16,384 publishes) waiting per subscriber. A live client
    /// drains them in milliseconds; one behind by as much as the ring holds is
    /// dropped, since its resume could not be served anyway. The events are
    /// shared with the ring, so a stalled one holds at most 8 MiB alive.
    pub fn with_epoch(epoch: u64) -> Config {
        Config {
            epoch,
            ring_events: 10_000,
            ring_bytes: 8 << 20,
            buffer: 16_384,
            buffer_bytes: 8 << 20,
        }
    }
}

struct Subscriber {
    account_id: String,
    sender: mpsc::Sender<Chunk>,
    /// The weight of the chunks in its buffer, shared with its subscription.
    queued: Arc<AtomicUsize>,
    /// The `reset` it gets after its buffered events when it is dropped.
    farewell: Arc<OnceLock<Arc<Event>>>,
}

struct State {
    /// The last seq handed out (0: none yet).
    last: u64,
    ring: VecDeque<Arc<Event>>,
    ring_bytes: usize,
    subscribers: Vec<Subscriber>,
    /// After [`Hub::close`]: new subscriptions end at once.
    closed: bool,
}

/// The hub. Share it behind an `Arc`; every method takes `&self`.
pub struct Hub {
    config: Config,
    state: Mutex<State>,
}

impl Hub {
    pub fn new(config: Config) -> Hub {
        Hub {
            config,
            state: Mutex::new(State {
                last: 0,
                ring: VecDeque::new(),
                ring_bytes: 0,
                subscribers: Vec::new(),
                closed: false,
            }),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // The state stays consistent between statements, so a panic elsewhere
        // while holding the lock leaves nothing half-done to protect.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn id(&self, seq: u64) -> String {
        format!("{:x}-{seq}", self.config.epoch)
    }

    fn reset(&self, last: u64, audience: Audience) -> Arc<Event> {
        Arc::new(Event {
            id: self.id(last),
            name: Name::Reset,
            audience,
            data: "{}".to_owned(),
            seq: last,
        })
    }

    /// Records the event and offers it to its audience's subscribers. Never
    /// waits: a subscriber with a full buffer is dropped (it receives its
    /// buffered events, then `reset`). Returns the event's id.
    pub fn publish(&self, audience: Audience, name: Name, data: &serde_json::Value) -> String {
        let draft = Draft {
            audience,
            name,
            data: data.to_string(),
        };
        self.publish_all([draft]).unwrap_or_default()
    }

    /// Records the events, with consecutive ids in their order, and offers
    /// each subscriber those of its audience as one entry of its buffer.
    /// Never waits, like [`Hub::publish`]. Returns the last event's id
    /// (`None` for no events).
    pub fn publish_all(&self, drafts: impl IntoIterator<Item = Draft>) -> Option<String> {
        let mut state = self.state();
        let events: Vec<Arc<Event>> = drafts
            .into_iter()
            .map(|draft| {
                state.last += 1;
                Arc::new(Event {
                    id: self.id(state.last),
                    name: draft.name,
                    audience: draft.audience,
                    data: draft.data,
                    seq: state.last,
                })
            })
            .collect();
        let last = events.last()?.id.clone();
        for event in &events {
            state.ring_bytes += event.weight();
            state.ring.push_back(Arc::clone(event));
        }
        while state.ring.len() > self.config.ring_events
            || (state.ring_bytes > self.config.ring_bytes && state.ring.len() > 1)
        {
            if let Some(old) = state.ring.pop_front() {
                state.ring_bytes -= old.weight();
            }
        }
        // Built once, for every subscriber that receives all of them.
        let mut all: Option<(Chunk, usize)> = None;
        let buffer_bytes = self.config.buffer_bytes;
        state.subscribers.retain(|subscriber| {
            let account = subscriber.account_id.as_str();
            let (chunk, weight): (Chunk, usize) =
                if events.iter().all(|e| e.audience.includes(account)) {
                    let (chunk, weight) = all.get_or_insert_with(|| {
                        let chunk: Chunk = events.iter().cloned().collect();
                        let weight = chunk_weight(&chunk);
                        (chunk, weight)
                    });
                    (Arc::clone(chunk), *weight)
                } else {
                    let mine: Vec<Arc<Event>> = events
                        .iter()
                        .filter(|e| e.audience.includes(account))
                        .cloned()
                        .collect();
                    if mine.is_empty() {
                        return !subscriber.sender.is_closed();
                    }
                    let chunk: Chunk = mine.into();
                    let weight = chunk_weight(&chunk);
                    (chunk, weight)
                };
            let newest = chunk.last().map_or(0, |e| e.seq);
            // Counted before the send, so the subscription's count down on
            // receiving it never passes below zero.
            let queued = subscriber.queued.fetch_add(weight, Ordering::AcqRel);
            let sent = if queued > 0 && queued + weight > buffer_bytes {
                Err(mpsc::error::TrySendError::Full(chunk))
            } else {
                subscriber.sender.try_send(chunk)
            };
            match sent {
                Ok(()) => true,
                Err(mpsc::error::TrySendError::Closed(_)) => false,
                Err(mpsc::error::TrySendError::Full(_)) => {
                    // Dropping the sender closes its channel; the farewell
                    // follows whatever it still has buffered. It names the
                    // newest event it missed: a client that refetches and
                    // resumes from it misses nothing.
                    let _ = subscriber
                        .farewell
                        .set(self.reset(newest, Audience::Account(account.to_owned())));
                    false
                }
            }
        });
        Some(last)
    }

    /// Starts receiving `account_id`'s events. With `last_event_id`, first
    /// the account's events after it, or one `reset` when they are no longer
    /// all held (or the id is unknown, or from an earlier run).
    pub fn subscribe(&self, account_id: &str, last_event_id: Option<&str>) -> Subscription {
        let (sender, receiver) = mpsc::channel(self.config.buffer.max(1));
        let farewell = Arc::new(OnceLock::new());
        let queued = Arc::new(AtomicUsize::new(0));
        let mut state = self.state();
        let replay = match last_event_id {
            None => VecDeque::new(),
            Some(id) => match self.missed(&state, account_id, id) {
                Some(events) => events,
                None => VecDeque::from([
                    self.reset(state.last, Audience::Account(account_id.to_owned()))
                ]),
            },
        };
        state.subscribers.retain(|s| !s.sender.is_closed());
        if state.closed {
            // The receiver ends as soon as its replay is read.
            drop(sender);
            return Subscription {
                replay,
                live: receiver,
                queued,
                current: Arc::new([]),
                next: 0,
                farewell,
                done: false,
            };
        }
        state.subscribers.push(Subscriber {
            account_id: account_id.to_owned(),
            sender,
            queued: Arc::clone(&queued),
            farewell: Arc::clone(&farewell),
        });
        Subscription {
            replay,
            live: receiver,
            queued,
            current: Arc::new([]),
            next: 0,
            farewell,
            done: false,
        }
    }

    /// The account's events after `id`, or `None` when some that followed it
    /// are gone from the ring or `id` is not one of this run's.
    fn missed(&self, state: &State, account_id: &str, id: &str) -> Option<VecDeque<Arc<Event>>> {
        let (epoch, seq) = id.trim().split_once('-')?;
        if u64::from_str_radix(epoch, 16).ok()? != self.config.epoch {
            return None;
        }
        let seq: u64 = seq.parse().ok()?;
        if seq > state.last {
            return None;
        }
        if seq < state.last {
            let oldest = state.ring.front()?.seq;
            if oldest > seq + 1 {
                return None;
            }
        }
        Some(
            state
                .ring
                .iter()
                .filter(|e| e.seq > seq && e.audience.includes(account_id))
                .cloned()
                .collect(),
        )
    }

    /// Ends every subscription, now and to come (the server is going down,
    /// and a stream that never ends would hold its shutdown up).
    pub fn close(&self) {
        let mut state = self.state();
        state.closed = true;
        state.subscribers.clear();
    }

    /// Subscribers still connected to the hub (a dropped or gone one is not).
    #[cfg(test)]
    fn subscriber_count(&self) -> usize {
        let mut state = self.state();
        state.subscribers.retain(|s| !s.sender.is_closed());
        state.subscribers.len()
    }
}

/// One subscriber's events: the replay, then live ones as they come; after a
/// drop for a full buffer, a final `reset`, then the end.
pub struct Subscription {
    replay: VecDeque<Arc<Event>>,
    live: mpsc::Receiver<Chunk>,
    /// The weight of the chunks waiting in `live`.
    queued: Arc<AtomicUsize>,
    /// The publish being handed out, from `next` on.
    current: Chunk,
    next: usize,
    farewell: Arc<OnceLock<Arc<Event>>>,
    done: bool,
}

impl Subscription {
    /// The same events, each batch holding every one that is ready when it
    /// is read (at least one, at most `max`), so a writer can send them at once.
    pub fn batches(self, max: usize) -> Batches {
        Batches {
            events: self,
            max: max.max(1),
        }
    }
}

impl Stream for Subscription {
    type Item = Arc<Event>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Arc<Event>>> {
        if let Some(event) = self.replay.pop_front() {
            return Poll::Ready(Some(event));
        }
        loop {
            if let Some(event) = self.current.get(self.next).cloned() {
                self.next += 1;
                return Poll::Ready(Some(event));
            }
            if self.done {
                return Poll::Ready(None);
            }
            match self.live.poll_recv(cx) {
                Poll::Ready(Some(chunk)) => {
                    self.queued
                        .fetch_sub(chunk_weight(&chunk), Ordering::AcqRel);
                    self.current = chunk;
                    self.next = 0;
                }
                Poll::Ready(None) => {
                    self.done = true;
                    return Poll::Ready(self.farewell.get().cloned());
                }
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

/// What a chunk's events weigh in a subscriber's buffer.
fn chunk_weight(chunk: &[Arc<Event>]) -> usize {
    chunk.iter().map(|event| event.weight()).sum()
}

/// [`Subscription::batches`].
pub struct Batches {
    events: Subscription,
    max: usize,
}

impl Stream for Batches {
    type Item = Vec<Arc<Event>>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Vec<Arc<Event>>>> {
        let first = match Pin::new(&mut self.events).poll_next(cx) {
            Poll::Ready(Some(event)) => event,
            Poll::Ready(None) => return Poll::Ready(None),
            Poll::Pending => return Poll::Pending,
        };
        let mut batch = vec![first];
        while batch.len() < self.max {
            match Pin::new(&mut self.events).poll_next(cx) {
                Poll::Ready(Some(event)) => batch.push(event),
                // The end (or nothing more yet) comes at the next read.
                Poll::Ready(None) | Poll::Pending => break,
            }
        }
        Poll::Ready(Some(batch))
    }
}

#[cfg(test)]
mod tests;
