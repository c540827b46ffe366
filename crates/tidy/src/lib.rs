//! Holds no code: its tests (`tests/tidy.rs`) read the source tree and check
//! the invariants ARCHITECTURE.md states, in the spirit of rust-analyzer's
//! tidy test, so a change that breaks one fails `cargo test`.
