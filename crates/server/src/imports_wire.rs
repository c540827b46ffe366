//! URL import's request and reply bodies (docs/api-guide.md, "Composer"),
//! beside `wire.rs`, which re-exports them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

/// `POST /imports/url`: the URL pasted into the composer.
#[derive(Debug, Clone, Deserialize, ToSchema, TS)]
pub struct ImportUrl {
    /// An http:// or https:// address: a web page, a Markdown or text file,
    /// a PDF, a Google Docs or Slides link, a GitHub file or issue.
    pub url: String,
}

/// The document as Markdown for the composer.
#[derive(Debug, Clone, Serialize, ToSchema, TS)]
pub struct ImportedDocument {
    /// The document's text as Markdown; the composer heads it with `source`.
    pub markdown: String,
    /// The page's title, the first heading, or the file's name.
    pub title: String,
    /// The URL as it was pasted.
    pub source: String,
}
