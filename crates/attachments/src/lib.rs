//! Images attached to a turn (`imageBridgeMode`, docs/attachments.md).
//!
//! The store (`store.rs`) keeps each upload once, under the data directory's
//! `attachments/` folder, named by its content's SHA-256, after checking its
//! declared type against its first bytes and its size against
//! [`MAX_BYTES`]. The table of which models see images (`vision.rs`) and
//! the decision for one turn, with the words the engine then receives
//! (`turn.rs`), are pure: the application makes the vision call, when one
//! is needed, on the utility model.

mod store;
mod turn;
mod vision;

pub use store::{Attachment, AttachmentError, AttachmentStore, MAX_BYTES, MediaType, check_size};
pub use turn::{
    BridgeMode, DESCRIBE_PROMPT, Plan, Refusal, bridged_line, direct_line, failed_line, plan,
    with_attachments,
};
pub use vision::{CODEX_VISION_MODEL, EngineFamily, sees_images, session_model, vision_model};
