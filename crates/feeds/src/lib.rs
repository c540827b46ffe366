//! Feeds (issue 68, docs/briefings.md "Feeds"): RSS 0.9x/1.0/2.0, Atom and
//! JSON Feed subscriptions, each account's own, and their entries for the
//! reader in the sidebar.
//!
//! - [`discover`]: a site's feed from one of its pages (`<link
//!   rel="alternate">`, then the usual paths).
//! - [`fetch`]: one conditional GET with a size, time and redirect limit.
//! - [`parse`]: a body read as a feed (feed-rs), or described as what it is.
//! - [`sanitize`]: an entry's HTML without scripts or frames, remote images
//!   blocked until the reader asks (`data-blocked-src`), as mail's.
//! - [`policy`]: when a feed is polled next: its publishing rate, its `ttl`
//!   and cache headers, `Retry-After`, backoff, jitter; pure functions.
//! - [`opml`]: OPML in and out.
//! - [`Feeds`] (`service.rs`, `poll.rs`, `book.rs`): subscribing, the poll
//!   round (the due feeds, fetched with bounded concurrency so a slow one
//!   blocks none of the others), entries paged newest first.
//!
//! This crate knows nothing of HTTP servers or settings: the application
//! runs the poll round while `rssEnabled` is on and the server maps calls to
//! routes.

mod book;
pub mod discover;
mod error;
pub mod fetch;
pub mod opml;
pub mod parse;
pub mod policy;
mod poll;
pub mod sanitize;
mod service;

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

pub use error::FeedError;
pub use fetch::Limits;
pub use poll::PollReport;
pub use service::Feeds;

pub const MAX_URL_CHARS: usize = 2_048;
/// The most entries one page holds.
pub const MAX_PAGE: usize = 200;
/// A page's size when the caller names none.
pub const DEFAULT_PAGE: usize = 50;

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[store::Migration {
    feature: "feeds",
    sql: "CREATE TABLE feeds (
            id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            url TEXT NOT NULL,
            title TEXT,
            site_url TEXT,
            etag TEXT,
            last_modified TEXT,
            ttl_minutes INTEGER,
            next_poll_at TEXT NOT NULL,
            interval_secs INTEGER NOT NULL,
            status TEXT NOT NULL,
            failure TEXT,
            failures INTEGER NOT NULL DEFAULT 0,
            last_fetched_at TEXT,
            created_at TEXT NOT NULL,
            UNIQUE (account_id, url)
          ) STRICT;
          CREATE INDEX feeds_due ON feeds (next_poll_at);
          CREATE TABLE feed_entries (
            id INTEGER PRIMARY KEY,
            feed_id TEXT NOT NULL,
            account_id TEXT NOT NULL,
            key TEXT NOT NULL,
            title TEXT NOT NULL,
            link TEXT,
            author TEXT,
            published_at TEXT,
            sort_ms INTEGER NOT NULL,
            summary TEXT NOT NULL,
            content TEXT NOT NULL,
            remote_images INTEGER NOT NULL,
            read INTEGER NOT NULL DEFAULT 0,
            starred INTEGER NOT NULL DEFAULT 0,
            fetched_at TEXT NOT NULL,
            UNIQUE (feed_id, key)
          ) STRICT;
          CREATE INDEX feed_entries_page ON feed_entries (account_id, sort_ms DESC, id DESC);
          CREATE INDEX feed_entries_unread ON feed_entries (account_id, read, sort_ms DESC, id DESC);
          CREATE INDEX feed_entries_feed ON feed_entries (feed_id, sort_ms DESC, id DESC);",
}];

/// Where a feed stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "FeedStatus")]
#[schema(as = FeedStatus)]
pub enum Status {
    /// Not fetched yet (imported from OPML).
    Pending,
    Ok,
    /// The last poll failed; `failure` says why.
    Failing,
}

impl Status {
    pub(crate) fn parse(text: &str) -> Status {
        match text {
            "ok" => Status::Ok,
            "failing" => Status::Failing,
            _ => Status::Pending,
        }
    }
}

/// A subscription.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Feed {
    pub id: String,
    /// The feed's own title, else its URL.
    pub title: String,
    pub url: String,
    pub site_url: Option<String>,
    pub status: Status,
    /// Why the last poll failed, while it is failing.
    pub failure: Option<String>,
    /// When the feed last answered (200 or 304).
    pub last_fetched_at: Option<String>,
    /// When it is polled next.
    pub next_poll_at: String,
    pub unread: i64,
}

/// An entry as the reader shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "FeedEntry")]
#[schema(as = FeedEntry)]
pub struct Entry {
    pub id: i64,
    pub feed_id: String,
    pub feed_title: String,
    pub title: String,
    /// The original article.
    pub link: Option<String>,
    pub author: Option<String>,
    pub published_at: Option<String>,
    /// Plain text, at most 280 characters.
    pub summary: String,
    /// Sanitized HTML: no script, frame or form; each remote image's URL in
    /// `data-blocked-src`/`data-blocked-srcset`, to rename when the reader
    /// asks to load images.
    pub content: String,
    pub remote_images: i64,
    pub read: bool,
    pub starred: bool,
    pub fetched_at: String,
}

/// One page of entries, newest first; `next` is the cursor of the page
/// after it, absent on the last.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FeedEntryPage {
    pub entries: Vec<Entry>,
    pub next: Option<String>,
}

/// Which entries a page reads.
#[derive(Debug, Clone, Default)]
pub struct EntryQuery {
    pub feed_id: Option<String>,
    pub unread_only: bool,
    pub starred_only: bool,
    pub cursor: Option<String>,
    pub limit: Option<usize>,
}

/// A subscription to add: a feed's URL or a site's.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewFeed {
    pub url: String,
}

/// An OPML file to import, as text.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct OpmlImport {
    pub opml: String,
}

/// What an OPML import did: feeds added (polled by the next round) and
/// outlines skipped (already subscribed, or not an http(s) URL).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OpmlImported {
    pub added: i64,
    pub skipped: i64,
}

/// How many entries a "mark all read" marked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarkedRead {
    pub marked: i64,
}
