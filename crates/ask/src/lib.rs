//! The Ask tutor (docs/ask.md): a session on the primary engine that knows
//! Switchboard from its docs, bundled in the binary and laid out where the
//! session may read them ([`bundle`]), and from a short live fact sheet made
//! for each question ([`facts`]), with `unknown` wherever a fact could not
//! be read. [`prompt`] words what the tutor is told; [`log_ring`] keeps the
//! last WARN and ERROR lines the sheet quotes. The application gathers
//! the facts and spawns the session; this crate decides what they say.

pub mod bundle;
mod error;
pub mod facts;
pub mod log_ring;
pub mod prompt;

pub use bundle::{DOCS_FOLDER, doc_names, prepare_docs};
pub use error::AskError;
pub use facts::{EngineFact, Facts, RunnerFact, SessionFact};
pub use prompt::{first_turn, follow_up};
