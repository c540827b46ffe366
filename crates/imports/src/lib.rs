//! URL import for the composer (docs/api-guide.md, "Composer"): a pasted
//! document URL becomes Markdown with its source noted.
//!
//! - [`locate`]: which URL to fetch for a link: a Google Docs or Slides
//!   link's export URL, a GitHub file's raw URL, a GitHub issue's API URL.
//! - [`fetch`]: one GET with a size and a time limit, no cookies, http and
//!   https only.
//! - [`convert`]: the answer's body to Markdown by its type (HTML, Markdown
//!   or plain text, PDF, a GitHub issue's JSON) and its title.
//!
//! This crate knows nothing of HTTP servers, settings or sessions: the
//! server asks it for one URL and answers with what it returns.

pub mod convert;
mod error;
pub mod fetch;
pub mod locate;

pub use error::ImportError;
pub use fetch::Limits;

/// A document ready for the composer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    pub markdown: String,
    pub title: String,
    /// The URL as the person pasted it.
    pub source: String,
}

/// Fetches `url` (blocking: call it off the async runtime) and returns its
/// text as Markdown; the composer heads it with `source`.
pub fn import_url(url: &str, limits: Limits) -> Result<Imported, ImportError> {
    let target = locate::locate(url)?;
    let fetched = fetch::get(&target.fetch_url, &target.accept, limits)?;
    let document = convert::to_markdown(&target, &fetched)?;
    let markdown = format!("{}\n", document.markdown.trim_end());
    Ok(Imported {
        markdown,
        title: document.title,
        source: url.trim().to_owned(),
    })
}
