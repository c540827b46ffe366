//! The runner protocol: length-prefixed frames on one byte stream (an SSH
//! channel's stdin and stdout).
//!
//! A frame is a big-endian `u32` length (of what follows), one kind byte
//! and the payload. The helper's output of a turn is the very bytes of the
//! turn's spool file on the runner host, so an offset into that stream is an
//! offset into the file: a reconnected server asks for the rest from there
//! and loses no line. A `Connect` channel carries frames only until its
//! reply; after it, the raw bytes of a TCP connection.

use std::io;

use serde::{Deserialize, Serialize};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// A frame larger than this is a broken peer, not a big message: the stream
/// is closed rather than the memory spent.
pub const MAX_FRAME: usize = 4 << 20;
/// The protocol both ends speak; a helper of another version is installed
/// anew (its file name is its content hash), so they always agree.
pub const PROTOCOL: u32 = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// Server to helper: what to do, JSON ([`Request`]).
    Request = 0x01,
    /// Server to helper: a signal for the turn's process group (one byte).
    Signal = 0x02,
    /// Server to helper: the turn's end was received and stored; its spool
    /// may go.
    Release = 0x03,
    /// Helper to server: the answer to the request, JSON.
    Reply = 0x10,
    Stdout = 0x11,
    Stderr = 0x12,
    /// Helper to server: how the engine ended, JSON ([`Exit`]).
    Exit = 0x13,
    /// Helper to server: the request could not be done; UTF-8 text.
    Error = 0x14,
}

impl Kind {
    fn from_byte(byte: u8) -> Option<Kind> {
        Some(match byte {
            0x01 => Kind::Request,
            0x02 => Kind::Signal,
            0x03 => Kind::Release,
            0x10 => Kind::Reply,
            0x11 => Kind::Stdout,
            0x12 => Kind::Stderr,
            0x13 => Kind::Exit,
            0x14 => Kind::Error,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub kind: Kind,
    pub payload: Vec<u8>,
}

impl Frame {
    pub fn new(kind: Kind, payload: impl Into<Vec<u8>>) -> Frame {
        Frame {
            kind,
            payload: payload.into(),
        }
    }

    pub fn json(kind: Kind, value: &impl Serialize) -> io::Result<Frame> {
        Ok(Frame::new(kind, serde_json::to_vec(value)?))
    }

    pub fn parse<T: for<'de> Deserialize<'de>>(&self) -> io::Result<T> {
        serde_json::from_slice(&self.payload).map_err(io::Error::other)
    }

    /// The frame as it goes on the wire.
    pub fn encode(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(5 + self.payload.len());
        let len = u32::try_from(self.payload.len() + 1).unwrap_or(u32::MAX);
        bytes.extend_from_slice(&len.to_be_bytes());
        bytes.push(self.kind as u8);
        bytes.extend_from_slice(&self.payload);
        bytes
    }

    /// Its size on the wire: what an offset advances by.
    pub fn wire_len(&self) -> u64 {
        5 + self.payload.len() as u64
    }
}

pub async fn write_frame(out: &mut (impl AsyncWrite + Unpin), frame: &Frame) -> io::Result<()> {
    out.write_all(&frame.encode()).await?;
    out.flush().await
}

/// The next frame, `None` at a clean end of the stream.
pub async fn read_frame(input: &mut (impl AsyncRead + Unpin)) -> io::Result<Option<Frame>> {
    let mut len = [0u8; 4];
    match input.read_exact(&mut len).await {
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    let len = u32::from_be_bytes(len) as usize;
    if len == 0 || len > MAX_FRAME + 1 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("a frame of {len} bytes is not part of the runner protocol"),
        ));
    }
    let byte = input.read_u8().await?;
    let kind = Kind::from_byte(byte).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("unknown frame kind {byte:#04x}"),
        )
    })?;
    let mut payload = vec![0u8; len - 1];
    input.read_exact(&mut payload).await?;
    Ok(Some(Frame { kind, payload }))
}

/// What the server asks of a helper, one per channel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    /// The host's facts: versions, load, memory, sandbox, engines.
    Probe { engines: Vec<ProbeEngine> },
    /// Start a turn and stream it.
    Run(Box<TurnHeader>),
    /// Stream a turn already started, from `offset` bytes into its output.
    Attach { key: String, offset: u64 },
    /// Kill whatever runs for these sessions (a server that restarted).
    KillLeftovers { sessions: Vec<String> },
    /// Make session `session_id`'s worktree of the repository `cwd` is in,
    /// under the runner folder, as `isolation: worktree` does locally.
    AddWorktree { session_id: String, cwd: String },
    /// Remove a session's worktree unless it has uncommitted changes.
    RemoveWorktree { repository: String, path: String },
    /// The session ended: its apps stop, and its own home, if it had one,
    /// goes.
    EndSession { session_id: String },
    /// Open TCP to this port on the host's loopback; after the reply (`{}`)
    /// the channel carries that connection's raw bytes both ways, no frames.
    Connect { port: u16 },
    /// What these sessions' processes listen on here ([`Listening`]).
    Listeners { session_ids: Vec<String> },
    /// Start one of a session's apps, detached: it outlives the channel.
    StartApp(Box<AppStart>),
    /// Stop an app: SIGTERM to its group, SIGKILL when it lingers.
    StopApp { session_id: String, name: String },
    /// Whether an app runs, how it ended, and the last of its output.
    AppState { session_id: String, name: String },
    /// What an engine offers on `/` in a folder here (docs/skills.md).
    Skills(Box<SkillsAsk>),
    /// What git says here of a piece of work (docs/work.md): the reply is
    /// [`work::facts::Facts`], read as this machine reads its own.
    WorkFacts(Box<work::facts::Piece>),
    /// A piece of work's diff since its base, for its reviewers: the reply
    /// is [`WorkDiff`].
    WorkDiff(Box<work::facts::Piece>),
}

/// The helper's answer to [`Request::WorkDiff`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkDiff {
    /// The commit the diff ends at.
    pub head: String,
    pub diff: String,
    /// The diff was longer than a reviewer is shown, and was cut.
    pub cut: bool,
}

/// The requests a helper of this build answers; an older helper refuses
/// the others as an unknown op, and the server says it needs updating.
pub const UNKNOWN_OP: &str = "unknown op";

/// How a refused [`Request::StartApp`] begins when something already
/// listens on the app's `PORT` there: the server hands out another.
pub const PORT_TAKEN: &str = "the port is taken on the runner host";

/// How a refused [`Request::Connect`] begins: the runner answered, the app
/// did not.
pub const NOTHING_LISTENS: &str = "nothing listens on port";

/// An app to start on a runner host: `sh -c command` in `cwd`, in the
/// sandbox the session's turns get there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AppStart {
    pub session_id: String,
    /// The app's name, unique within its session.
    pub name: String,
    /// A path on the runner host; `~` (or empty) is the remote user's home,
    /// or the session's own, and `~/…` is under it.
    pub cwd: String,
    pub command: String,
    pub env: std::collections::BTreeMap<String, String>,
    pub confine: Confine,
    /// The session has its own home on this host ([`TurnHeader::own_home`]).
    #[serde(default)]
    pub own_home: bool,
}

/// The helper's answer to [`Request::StartApp`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AppStarted {
    /// The app's process group (its shell's pid) on the runner host.
    pub pid: u32,
}

/// The helper's answer to [`Request::AppState`] and [`Request::StopApp`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AppState {
    pub pid: u32,
    pub running: bool,
    /// How it ended: its code, or 128 and the signal that ended it.
    pub exit_status: Option<i32>,
    /// The last lines of its output, stdout and stderr as they came.
    pub lines: Vec<String>,
}

/// An engine's `/` list asked on the runner host ([`Request::Skills`]):
/// its program with the listing arguments, run in the sandbox a turn gets
/// there; the reply is `[skills::Skill]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkillsAsk {
    pub engine: String,
    /// `claude` or `codex`.
    pub kind: String,
    pub argv: Vec<String>,
    pub env: Vec<(String, String)>,
    /// A path on the runner host; `None` (or `~`) is the remote user's home.
    pub cwd: Option<String>,
    pub confine: Confine,
}

/// One port a session's process listens on ([`Request::Listeners`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Listening {
    pub session_id: String,
    pub pid: u32,
    pub port: u16,
    pub command: String,
}

/// A worktree the helper made ([`Request::AddWorktree`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MadeWorktree {
    pub path: String,
    pub branch: String,
    pub base: String,
    pub repository: String,
    /// Where the session runs: the asked-for folder's place in the worktree.
    pub cwd: String,
}

/// What [`Request::RemoveWorktree`] did: `kept` counts the uncommitted
/// changes that kept the worktree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Removal {
    pub removed: bool,
    pub kept: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProbeEngine {
    pub name: String,
    pub program: String,
}

/// A turn, as the helper needs it. The token is here (the channel's stdin),
/// never in argv, where `ps` shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnHeader {
    /// The turn's name on the runner host: unique per session and turn.
    pub key: String,
    pub session_id: String,
    pub argv: Vec<String>,
    pub env: Vec<(String, String)>,
    /// A path on the runner host; `None` is the remote user's home.
    pub cwd: Option<String>,
    /// What the engine reads on stdin (a `command` engine's text).
    pub stdin: Option<String>,
    pub confine: Confine,
    pub nice: Option<i32>,
    /// A hardened session's own home on the runner host (made on its first
    /// turn, kept across its turns, removed by [`Request::EndSession`]), in
    /// place of the runner user's.
    #[serde(default)]
    pub own_home: bool,
}

/// The sandbox the helper builds on its own kernel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Confine {
    /// Hide the remote `$HOME`'s sensitive files too (external engines and
    /// locked-down sessions, as locally).
    pub hide_sensitive: bool,
    /// Deny TCP but to these ports (a locked-down session); `None` leaves the
    /// network alone.
    pub connect_ports: Option<Vec<u16>>,
    /// Where the kernel can confine nothing, run anyway.
    pub unsafe_allow_unsandboxed: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeReply {
    pub protocol: u32,
    pub version: String,
    pub os: String,
    pub arch: String,
    pub home: String,
    pub load: Option<f64>,
    pub total_mb: Option<u64>,
    pub available_mb: Option<u64>,
    pub sandbox: String,
    pub engines: Vec<crate::EngineVersion>,
}

/// The helper's answer to `Run` and `Attach`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Started {
    pub key: String,
    /// The engine's process group on the runner host.
    pub pgid: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exit {
    pub code: Option<i32>,
    pub signal: Option<i32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn frames_round_trip_and_their_wire_length_is_their_offset() {
        let frames = [
            Frame::new(Kind::Stdout, b"hello\n".to_vec()),
            Frame::json(
                Kind::Exit,
                &Exit {
                    code: Some(0),
                    signal: None,
                },
            )
            .unwrap(),
        ];
        let bytes: Vec<u8> = frames.iter().flat_map(Frame::encode).collect();
        assert_eq!(
            bytes.len() as u64,
            frames.iter().map(Frame::wire_len).sum::<u64>()
        );
        let mut reader = bytes.as_slice();
        for frame in &frames {
            assert_eq!(read_frame(&mut reader).await.unwrap().as_ref(), Some(frame));
        }
        assert_eq!(read_frame(&mut reader).await.unwrap(), None);
    }

    #[tokio::test]
    async fn garbage_and_oversized_frames_are_refused() {
        let mut unknown: &[u8] = &[0, 0, 0, 1, 0x7f];
        assert!(read_frame(&mut unknown).await.is_err());
        let huge = u32::try_from(MAX_FRAME + 2).unwrap().to_be_bytes();
        let mut oversized: &[u8] = &huge;
        assert!(read_frame(&mut oversized).await.is_err());
        let mut cut: &[u8] = &[0, 0, 0, 9, 0x11, b'a'];
        assert!(read_frame(&mut cut).await.is_err());
    }

    #[test]
    fn a_request_names_its_operation() {
        let json = serde_json::to_value(Request::Attach {
            key: "s-1".into(),
            offset: 7,
        })
        .unwrap();
        assert_eq!(json["op"], "attach");
    }
}
