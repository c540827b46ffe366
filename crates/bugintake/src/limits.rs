//! How large a report's fields may be: what a person is told when the form
//! or the generic shape is too large, and where a service's text is cut.

pub const MAX_TITLE_CHARS: usize = 300;
/// 64 KiB of UTF-8.
pub const MAX_BODY_BYTES: usize = 64 * 1024;
pub const MAX_LABELS: usize = 20;
pub const MAX_LABEL_CHARS: usize = 100;
/// The reporter, the link, the external id and the origin.
pub const MAX_FIELD_CHARS: usize = 500;
