//! The Running apps proxy: one loopback port in front of the dev servers that
//! agent sessions run, each reached at its own `*.localhost` name.
//!
//! [`serve`] accepts HTTP/1.1 and HTTP/2 with prior knowledge (h2c) on a
//! listener from [`bind`], reads the app's name from the Host (or
//! `:authority`), asks [`Routes`] which [`Target`] that is, and forwards the
//! request to it as HTTP/1.1 over a connection [`Routes::connect`] opens (TCP
//! to loopback through [`connect_local`], or a runner's channel). Bodies
//! stream both ways, WebSocket upgrades are spliced, and a name that is not
//! running gets a small page listing what is.
//!
//! The crate knows nothing of sessions, settings or the API: whoever wires it
//! up implements [`Routes`]. It is never an open proxy: names outside
//! `.localhost`, absolute URIs to other hosts and CONNECT are refused.

mod body;
mod headers;
mod host;
mod pages;
mod pool;
mod proxy;
mod routes;
mod server;
mod splice;

pub use proxy::Options;
pub use routes::{ConnectError, Connecting, Io, Listed, Lookup, Routes, Target, connect_local};
pub use server::{bind, serve};
