//! Documents (issue 70, docs/files.md "Documents"): an agent's or a
//! project's Markdown published as files a colleague opens in an office
//! suite.
//!
//! - [`html`]: a standalone HTML page (pulldown-cmark, the workspace's
//!   Markdown crate), raw HTML in the Markdown shown as text.
//! - [`docx`]: a `.docx` written with docx-rs: headings, bullet and numbered
//!   lists (nested), tables, code blocks, inline code, emphasis and links.
//! - [`template`]: the same Markdown appended to an existing `.docx` as a new
//!   heading section (`docsTemplateId`), the rest of the template untouched.
//! - [`file_stem`]: a title as a safe file name.
//!
//! This crate knows nothing of HTTP or drives: the application writes the
//! bytes where `docsDestFolderId` says.

mod blocks;
pub mod docx;
mod error;
pub mod html;
pub mod template;

pub use error::DocumentError;

/// The largest Markdown accepted for one publish.
pub const MAX_MARKDOWN_BYTES: usize = 4 * 1024 * 1024;

/// A title as a file name: path separators, control characters and the
/// characters Windows refuses become `-`, dots at the ends are dropped (no
/// `..`, no hidden file), at most 100 characters; `document` when nothing is
/// left.
pub fn file_stem(title: &str) -> String {
    let cleaned: String = title
        .chars()
        .map(|c| {
            if c.is_control() || matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|') {
                '-'
            } else {
                c
            }
        })
        .take(100)
        .collect();
    let trimmed = cleaned.trim().trim_matches('.').trim();
    if trimmed.is_empty() {
        "document".into()
    } else {
        trimmed.to_owned()
    }
}

pub(crate) fn check_size(markdown: &str) -> Result<(), DocumentError> {
    if markdown.len() > MAX_MARKDOWN_BYTES {
        return Err(DocumentError::TooLarge {
            size: markdown.len() as u64,
            limit: MAX_MARKDOWN_BYTES as u64,
        });
    }
    Ok(())
}
