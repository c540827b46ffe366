//! The live event hub: what changed, for whom, in one order.
//!
//! [`Hub::publish`] gives each event the next id, keeps it in a bounded ring
//! of recent events (for resumes after a reconnect) and offers it to every
//! subscriber of its audience without waiting: each subscriber has a bounded
//! buffer, and one whose buffer is full is dropped with a final `reset`
//! event, so a stalled reader never slows the publisher or anyone else.
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
    /// Events a subscriber may have waiting before it is dropped.
    pub buffer: usize,
}

impl Config {
    /// The server's sizes: 10,000 events or 8 MiB for resumes, 256 events
    /// waiting per subscriber (a live client drains them in milliseconds; the
    /// events are shared, so a stalled one holds at most 256 of them alive).
    pub fn with_epoch(epoch: u64) -> Config {
        Config {
            epoch,
            ring_events: 10_000,
            ring_bytes: 8 << 20,
            buffer: 256,
        }
    }
}

struct Subscriber {
    account_id: String,
    sender: mpsc::Sender<Arc<Event>>,
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
        let data = data.to_string();
        let mut state = self.state();
        state.last += 1;
        let seq = state.last;
        let event = Arc::new(Event {
            id: self.id(seq),
            name,
            audience,
            data,
            seq,
        });
        state.ring_bytes += event.weight();
        state.ring.push_back(Arc::clone(&event));
        while state.ring.len() > self.config.ring_events
            || (state.ring_bytes > self.config.ring_bytes && state.ring.len() > 1)
        {
            if let Some(old) = state.ring.pop_front() {
                state.ring_bytes -= old.weight();
            }
        }
        state.subscribers.retain(|subscriber| {
            if !event.audience.includes(&subscriber.account_id) {
                return !subscriber.sender.is_closed();
            }
            match subscriber.sender.try_send(Arc::clone(&event)) {
                Ok(()) => true,
                Err(mpsc::error::TrySendError::Closed(_)) => false,
                Err(mpsc::error::TrySendError::Full(_)) => {
                    // Dropping the sender closes its channel; the farewell
                    // follows whatever it still has buffered.
                    let _ = subscriber
                        .farewell
                        .set(self.reset(seq, Audience::Account(subscriber.account_id.clone())));
                    false
                }
            }
        });
        event.id.clone()
    }

    /// Starts receiving `account_id`'s events. With `last_event_id`, first
    /// the account's events after it, or one `reset` when they are no longer
    /// all held (or the id is unknown, or from an earlier run).
    pub fn subscribe(&self, account_id: &str, last_event_id: Option<&str>) -> Subscription {
        let (sender, receiver) = mpsc::channel(self.config.buffer.max(1));
        let farewell = Arc::new(OnceLock::new());
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
                farewell,
                done: false,
            };
        }
        state.subscribers.push(Subscriber {
            account_id: account_id.to_owned(),
            sender,
            farewell: Arc::clone(&farewell),
        });
        Subscription {
            replay,
            live: receiver,
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
    live: mpsc::Receiver<Arc<Event>>,
    farewell: Arc<OnceLock<Arc<Event>>>,
    done: bool,
}

impl Stream for Subscription {
    type Item = Arc<Event>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Arc<Event>>> {
        if let Some(event) = self.replay.pop_front() {
            return Poll::Ready(Some(event));
        }
        if self.done {
            return Poll::Ready(None);
        }
        match self.live.poll_recv(cx) {
            Poll::Ready(Some(event)) => Poll::Ready(Some(event)),
            Poll::Ready(None) => {
                self.done = true;
                Poll::Ready(self.farewell.get().cloned())
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

#[cfg(test)]
mod tests;
