//! Rebuilds the server when the web app's build (`web/dist`) changes. The
//! embedded web app (rust-embed) is read at compile time in a release build;
//! in a debug build its folder is read at run time, but through a canonical
//! path fixed at compile time, so a binary compiled before `web/dist`
//! existed (as `make test` on a fresh clone compiles it, for the Rust tests,
//! before building the web app) would never serve the web app.

fn main() {
    println!("cargo:rerun-if-changed=../../web/dist");
}
