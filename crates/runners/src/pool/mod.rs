//! Pool runners: `switchboard runner --connect` processes that dial the
//! server's runner listener over TLS and take turns on the connection they
//! hold, where nothing can be reached by SSH (a cluster's pods). The same
//! helper and protocol as over SSH; only the transport differs.

pub mod listener;
pub(crate) mod mux;
pub(crate) mod registry;
pub mod runner;
pub mod tls;
