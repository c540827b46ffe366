//! The runner protocol's frames as either end reads them, and
//! `runners.toml`.

use std::path::Path;

use runners::config::valid_name;
use runners::wire::{
    self, AppStarted, AppState, Exit, Kind, Listening, MAX_FRAME, MadeWorktree, ProbeReply,
    Removal, Request, Started,
};

use crate::input::text;

/// A byte stream of frames, read until its end or the first error; each
/// frame's payload is read as what its kind carries. A frame never holds
/// more than [`MAX_FRAME`] bytes, whatever its length prefix claims.
pub fn runner_frames(data: &[u8]) {
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread().build() else {
        return;
    };
    runtime.block_on(async {
        let mut stream = data;
        while let Ok(Some(frame)) = wire::read_frame(&mut stream).await {
            assert!(
                frame.payload.len() <= MAX_FRAME,
                "a frame of {} bytes",
                frame.payload.len()
            );
            assert_eq!(
                frame.encode().len() as u64,
                frame.wire_len(),
                "a frame's size on the wire"
            );
            match frame.kind {
                Kind::Request => {
                    let _ = frame.parse::<Request>();
                }
                Kind::Exit => {
                    let _ = frame.parse::<Exit>();
                }
                Kind::Reply => {
                    let _ = frame.parse::<ProbeReply>();
                    let _ = frame.parse::<Started>();
                    let _ = frame.parse::<AppStarted>();
                    let _ = frame.parse::<AppState>();
                    let _ = frame.parse::<Listening>();
                    let _ = frame.parse::<MadeWorktree>();
                    let _ = frame.parse::<Removal>();
                }
                Kind::Signal | Kind::Release | Kind::Stdout | Kind::Stderr | Kind::Error => {}
            }
        }
    });
}

/// `runners.toml`'s text: usable runners with valid names, or each
/// declaration that cannot be used with its reason.
pub fn runners_toml(data: &[u8]) {
    let file = runners::config::parse(Path::new("runners.toml"), &text(data));
    for runner in &file.runners {
        assert!(valid_name(&runner.name), "runner {:?} kept", runner.name);
        let _ = runner.ssh_destination();
    }
    for invalid in &file.invalid {
        assert!(
            !invalid.reason.is_empty(),
            "{} refused without a reason",
            invalid.name
        );
    }
}
