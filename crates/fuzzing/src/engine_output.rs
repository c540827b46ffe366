//! What the engines print and how they are declared: Claude Code's
//! stream-json and Codex's JSONL on a turn's stdout, and `engines.toml`.

use std::path::Path;

use sessions::{Decoder, EngineKind};

use crate::input::{choice, text};

/// Claude Code's stdout, arriving in pieces.
pub fn claude_stream(data: &[u8]) {
    decode(EngineKind::Claude, data);
}

/// Codex's stdout, arriving in pieces.
pub fn codex_stream(data: &[u8]) {
    decode(EngineKind::Codex, data);
}

/// The first byte sets the size of the pieces stdout arrives in (1 to 256
/// bytes), so a line cut anywhere is joined again. The decoder hands back
/// entries that can be stored (they serialise).
fn decode(kind: EngineKind, data: &[u8]) {
    let (piece, stdout) = choice(data, 256);
    let mut decoder = Decoder::new(kind);
    let mut reply = String::new();
    let mut entries = Vec::new();
    for chunk in stdout.chunks(piece + 1) {
        decoder.feed(chunk, &mut reply);
        entries.extend(decoder.take_entries());
        assert_eq!(
            decoder.waiting_bytes(),
            0,
            "entries taken, bytes still counted"
        );
    }
    decoder.finish(&mut reply);
    entries.extend(decoder.take_entries());
    assert!(
        serde_json::to_vec(&entries).is_ok(),
        "an entry that cannot be stored"
    );
}

/// `engines.toml`'s text: the engines it declares, each with a command,
/// or the file's error.
pub fn engines_toml(data: &[u8]) {
    if let Ok(engines) = sessions::engines::parse(Path::new("engines.toml"), &text(data)) {
        for (name, spec) in &engines {
            assert!(
                spec.program().first().is_some_and(|p| !p.is_empty()),
                "engine {name} without a program"
            );
        }
    }
}
