//! Integration tests of the settings crate, in one binary to keep link time down.

mod catalog;
mod generated;
mod spec;
mod store;
mod validation;
