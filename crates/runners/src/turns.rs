//! A turn on a runner, streamed back: started or attached, its output
//! passed on frame by frame, its signals passed down, and, when the
//! channel drops, attached again from the last offset passed on for as
//! long as the host's grace lasts.

use std::time::Duration;

use tokio::sync::mpsc;

use crate::channel::Channel;
use crate::hosts::Runners;
use crate::wire::{self, Exit, Frame, Kind, Request, Started, TurnHeader};

/// How long a turn whose host went away is waited for: the helper keeps
/// the engine running meanwhile, and a host back within it loses nothing.
pub const RECONNECT_GRACE: Duration = Duration::from_secs(120);

const RECONNECT_EVERY: Duration = Duration::from_secs(2);

impl Runners {
    /// Starts a turn on `name` and streams it back. The stream survives
    /// the connection dropping: it attaches again from the last frame it
    /// passed on, for up to [`RECONNECT_GRACE`].
    pub async fn start_turn(&self, name: &str, header: TurnHeader) -> Result<RemoteTurn, String> {
        let key = header.key.clone();
        let mut channel = self
            .open_channel(name, &Request::Run(Box::new(header)))
            .await?;
        let started: Started = channel.reply().await?;
        Ok(self.stream(name, key, started, channel))
    }

    /// The turn's output as a [`RemoteTurn`], driven by a task that attaches
    /// again when the channel drops.
    fn stream(&self, name: &str, key: String, started: Started, channel: Channel) -> RemoteTurn {
        let (output_tx, output) = mpsc::channel(32);
        let (signals, signals_rx) = mpsc::unbounded_channel();
        tokio::spawn(drive(
            self.clone(),
            name.to_owned(),
            key,
            channel,
            output_tx,
            signals_rx,
        ));
        RemoteTurn {
            pgid: started.pgid,
            output,
            signals,
        }
    }

    /// Streams turn `key` on `name` again from its start: a server that
    /// restarted while the turn ran there reads its whole output anew. A
    /// runner not reachable yet (a pool runner that has not connected to
    /// this server since it started) is tried again for up to
    /// [`RECONNECT_GRACE`], as a dropped connection would be.
    pub async fn attach_turn(&self, name: &str, key: &str) -> Result<RemoteTurn, String> {
        let request = Request::Attach {
            key: key.to_owned(),
            offset: 0,
        };
        let deadline = tokio::time::Instant::now() + RECONNECT_GRACE;
        let mut channel = loop {
            match self.open_channel(name, &request).await {
                Ok(channel) => break channel,
                Err(reason) if tokio::time::Instant::now() + RECONNECT_EVERY > deadline => {
                    return Err(reason);
                }
                Err(_) => tokio::time::sleep(RECONNECT_EVERY).await,
            }
        };
        let started: Started = channel.reply().await?;
        Ok(self.stream(name, key.to_owned(), started, channel))
    }
}

/// One turn on a runner, as the session's turn sees it.
pub struct RemoteTurn {
    /// The engine's process group on the runner host.
    pub pgid: u32,
    pub output: mpsc::Receiver<Output>,
    signals: mpsc::UnboundedSender<u8>,
}

impl RemoteTurn {
    /// Signals the engine's process group on its host (queued while the
    /// connection is away).
    pub fn signal(&self, signal: libc::c_int) {
        if let Ok(signal) = u8::try_from(signal) {
            let _ = self.signals.send(signal);
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Output {
    Stdout(Vec<u8>),
    Stderr(Vec<u8>),
    Exit(Exit),
    /// The host stayed away past the grace period; the turn's end is unknown.
    Lost(String),
}

async fn drive(
    runners: Runners,
    name: String,
    key: String,
    mut channel: Channel,
    output: mpsc::Sender<Output>,
    mut signals: mpsc::UnboundedReceiver<u8>,
) {
    let mut offset: u64 = 0;
    loop {
        let outcome = pass_on(&mut channel, &output, &mut signals, &mut offset).await;
        match outcome {
            Passed::Exited => {
                let _ = channel.send(&Frame::new(Kind::Release, Vec::new())).await;
                channel.close().await;
                return;
            }
            Passed::Abandoned => return,
            Passed::Dropped(reason) => {
                runners.lost(&name, &reason);
                tracing::warn!(
                    runner = name,
                    turn = key,
                    "runner channel dropped: {reason}"
                );
                match reattach(&runners, &name, &key, offset).await {
                    Ok(next) => channel = next,
                    Err(reason) => {
                        let _ = output.send(Output::Lost(reason)).await;
                        return;
                    }
                }
            }
        }
    }
}

enum Passed {
    Exited,
    /// Nobody reads the turn any more.
    Abandoned,
    Dropped(String),
}

async fn pass_on(
    channel: &mut Channel,
    output: &mpsc::Sender<Output>,
    signals: &mut mpsc::UnboundedReceiver<u8>,
    offset: &mut u64,
) -> Passed {
    let mut signals_open = true;
    loop {
        tokio::select! {
            frame = wire::read_frame(&mut channel.reader) => {
                let frame = match frame {
                    Ok(Some(frame)) => frame,
                    Ok(None) => return Passed::Dropped(channel.failure().await),
                    Err(e) => return Passed::Dropped(e.to_string()),
                };
                let size = frame.wire_len();
                let item = match frame.kind {
                    Kind::Stdout => Output::Stdout(frame.payload),
                    Kind::Stderr => Output::Stderr(frame.payload),
                    Kind::Exit => match frame.parse() {
                        Ok(exit) => Output::Exit(exit),
                        Err(e) => return Passed::Dropped(format!("an unreadable exit: {e}")),
                    },
                    Kind::Error => {
                        return Passed::Dropped(String::from_utf8_lossy(&frame.payload).into_owned());
                    }
                    _ => continue,
                };
                let exited = matches!(item, Output::Exit(_));
                if output.send(item).await.is_err() {
                    return Passed::Abandoned;
                }
                *offset += size;
                if exited {
                    return Passed::Exited;
                }
            }
            signal = signals.recv(), if signals_open => match signal {
                Some(signal) => {
                    let frame = Frame::new(Kind::Signal, vec![signal]);
                    if let Err(e) = channel.send(&frame).await {
                        return Passed::Dropped(e.to_string());
                    }
                }
                None => signals_open = false,
            },
        }
    }
}

async fn reattach(
    runners: &Runners,
    name: &str,
    key: &str,
    offset: u64,
) -> Result<Channel, String> {
    // On the application's clock, so tests move time instead of waiting.
    let clock = &runners.inner.clock;
    let span = |d: Duration| time::Duration::try_from(d).unwrap_or(time::Duration::ZERO);
    let deadline = clock.now() + span(RECONNECT_GRACE);
    let mut last = String::new();
    while clock.now() < deadline {
        clock.sleep(span(RECONNECT_EVERY)).await;
        let ready = match runners.ensure(name).await {
            Ok(ready) => ready,
            Err(reason) => {
                last = reason;
                continue;
            }
        };
        let Some(host) = runners.host(name) else {
            return Err(format!("the runner `{name}` is no longer declared"));
        };
        let request = Request::Attach {
            key: key.to_owned(),
            offset,
        };
        let mut channel = match Channel::open(&host, &ready.remote_exe, &request).await {
            Ok(channel) => channel,
            Err(reason) => {
                last = reason;
                continue;
            }
        };
        match channel.next().await {
            Ok(Some(frame)) if frame.kind == Kind::Reply => return Ok(channel),
            Ok(Some(frame)) if frame.kind == Kind::Error => {
                return Err(String::from_utf8_lossy(&frame.payload).into_owned());
            }
            Ok(_) => last = channel.failure().await,
            Err(reason) => last = reason,
        }
    }
    Err(format!(
        "the runner `{name}` stayed unreachable for {} s: {last}",
        RECONNECT_GRACE.as_secs()
    ))
}
