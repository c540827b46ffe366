//! The crate's tests that span files: the routing rules on updates as the
//! Bot API sends them, and the bot's state on a real database file.

mod rules;
mod state;
