//! The invariants ARCHITECTURE.md states about the whole tree, as checks
//! over the source files (in the spirit of rust-analyzer's tidy test): each
//! returns what breaks its rule, one line each, so `tests/tidy.rs` can fail
//! with the list on the real tree and `tests/catches.rs` can show, on small
//! trees written for the purpose, that each check does fail when it should.

pub mod cycles;
pub mod layers;
pub mod tree;
