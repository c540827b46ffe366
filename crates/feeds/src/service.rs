//! [`Feeds`]: subscribing (a feed's URL, or a site's, whose feed is
//! discovered), the account's feeds and their entries, read and starred
//! marks, OPML in and out. The poll round is `poll.rs`'s.

use std::sync::Arc;

use clock::Clock;
use store::Db;

use crate::book::{self, Flag, unix_ms};
use crate::fetch::{self, Answer, Limits, Validators};
use crate::parse::{self, Parsed};
use crate::{
    DEFAULT_PAGE, EntryQuery, Feed, FeedEntryPage, FeedError, MAX_PAGE, MAX_URL_CHARS, MarkedRead,
    OpmlImported, opml,
};

/// The feeds of every account, over one store and one HTTP client.
pub struct Feeds {
    pub(crate) db: Arc<Db>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) agent: ureq::Agent,
    pub(crate) limits: Limits,
}

/// A feed found for a URL: where, and its first answer.
struct Found {
    url: String,
    parsed: Parsed,
    validators: Validators,
    hints: crate::policy::Hints,
}

impl Feeds {
    pub fn new(db: Arc<Db>, clock: Arc<dyn Clock>) -> Self {
        Self::with_limits(db, clock, Limits::default())
    }

    pub fn with_limits(db: Arc<Db>, clock: Arc<dyn Clock>, limits: Limits) -> Self {
        Self {
            db,
            clock,
            agent: fetch::agent(limits),
            limits,
        }
    }

    pub fn feeds(&self, account: &str) -> Result<Vec<Feed>, FeedError> {
        self.db.read(|tx| book::feeds(tx, account))
    }

    pub fn feed(&self, account: &str, id: &str) -> Result<Feed, FeedError> {
        self.db.read(|tx| book::feed_of(tx, account, id))
    }

    /// Subscribes to `url`, a feed's or a site's (blocking: it fetches).
    /// The first answer's entries are stored at once. A URL with no feed is
    /// [`FeedError::Invalid`] naming what was found there.
    pub fn subscribe(&self, account: &str, url: &str) -> Result<Feed, FeedError> {
        let url = checked_url(url)?;
        if self.db.read(|tx| book::exists(tx, account, &url))? {
            return Err(FeedError::Exists(url));
        }
        let found = self.find(&url)?;
        let id = uuid::Uuid::now_v7().to_string();
        let now = self.clock.now();
        let stamp = clock::timestamp(now);
        self.db.write(|tx| {
            if book::exists(tx, account, &found.url)? {
                return Err(FeedError::Exists(found.url.clone()));
            }
            book::insert_feed(tx, &id, account, &found.url, None, None, &stamp)
        })?;
        let row = self.db.read(|tx| book::feed_row(tx, account, &id))?;
        self.db.write(|tx| {
            book::insert_entries(tx, &row, &found.parsed.entries, &stamp, unix_ms(now))
        })?;
        let parsed = &found.parsed;
        let hints = crate::policy::Hints {
            ttl_minutes: parsed.ttl_minutes,
            ..found.hints
        };
        let fields = (&parsed.title, &parsed.site_url, parsed.ttl_minutes);
        self.record(&row, &found.validators, Some(fields), hints, now)?;
        self.feed(account, &id)
    }

    /// The feed at `url`, or the one its page links, or one at a usual path.
    fn find(&self, url: &str) -> Result<Found, FeedError> {
        let now = self.clock.now();
        let none = Validators::default();
        let answer = fetch::get(&self.agent, url, &none, self.limits, now)
            .map_err(|reason| FeedError::Invalid(format!("{url} could not be read: {reason}.")))?;
        let (page_url, content_type, body, validators, hints) = match answer {
            Answer::Body {
                url: page_url,
                content_type,
                body,
                validators,
                hints,
            } => (page_url, content_type, body, validators, hints),
            Answer::Refused { status, .. } => {
                return Err(FeedError::Invalid(format!("{url} answered HTTP {status}.")));
            }
            Answer::NotModified { .. } => {
                return Err(FeedError::Invalid(format!(
                    "{url} answered 304 to a plain GET."
                )));
            }
        };
        let what = match parse::parse(&body, url, content_type.as_deref()) {
            Ok(parsed) => {
                return Ok(Found {
                    url: url.to_owned(),
                    parsed,
                    validators,
                    hints,
                });
            }
            Err(what) => what,
        };
        if !parse::is_html(&body, content_type.as_deref()) {
            return Err(FeedError::Invalid(format!("No feed at {url}: {what}.")));
        }
        let page = String::from_utf8_lossy(&body);
        let linked = crate::discover::alternate_links(&page, &page_url);
        let candidates = linked
            .iter()
            .cloned()
            .chain(crate::discover::common_candidates(&page_url));
        for candidate in candidates {
            let Ok(Answer::Body {
                content_type,
                body,
                validators,
                hints,
                ..
            }) = fetch::get(&self.agent, &candidate, &none, self.limits, now)
            else {
                continue;
            };
            if let Ok(parsed) = parse::parse(&body, &candidate, content_type.as_deref()) {
                return Ok(Found {
                    url: candidate,
                    parsed,
                    validators,
                    hints,
                });
            }
        }
        let linked = match linked.len() {
            0 => "links no feed".to_owned(),
            n => format!("links {n} feed(s) that could not be read"),
        };
        Err(FeedError::Invalid(format!(
            "No feed at {url}: {what}, which {linked}, and none of {} answers with a feed.",
            crate::discover::COMMON_PATHS.join(", ")
        )))
    }

    pub fn remove(&self, account: &str, id: &str) -> Result<(), FeedError> {
        self.db.write(|tx| book::remove(tx, account, id))
    }

    /// Polls one feed now (conditional as always); its failure, if any, is
    /// on the feed returned.
    pub fn refresh(&self, account: &str, id: &str) -> Result<Feed, FeedError> {
        let row = self.db.read(|tx| book::feed_row(tx, account, id))?;
        // A failure is recorded on the feed, which is what the caller reads.
        let _failure = self.poll_one(&row)?;
        self.feed(account, id)
    }

    /// A page of the account's entries, newest first.
    pub fn entries(&self, account: &str, query: &EntryQuery) -> Result<FeedEntryPage, FeedError> {
        let limit = query.limit.unwrap_or(DEFAULT_PAGE).clamp(1, MAX_PAGE);
        let (entries, next) = self
            .db
            .read(|tx| book::entries(tx, account, query, limit))?;
        Ok(FeedEntryPage { entries, next })
    }

    pub fn set_read(&self, account: &str, entry: i64, read: bool) -> Result<(), FeedError> {
        self.db
            .write(|tx| book::set_flag(tx, account, entry, Flag::Read, read))
    }

    pub fn set_starred(&self, account: &str, entry: i64, starred: bool) -> Result<(), FeedError> {
        self.db
            .write(|tx| book::set_flag(tx, account, entry, Flag::Starred, starred))
    }

    /// Marks every unread entry read: one feed's, or all the account's.
    pub fn read_all(&self, account: &str, feed: Option<&str>) -> Result<MarkedRead, FeedError> {
        if let Some(feed) = feed {
            self.feed(account, feed)?;
        }
        let marked = self.db.write(|tx| book::read_all(tx, account, feed))?;
        Ok(MarkedRead {
            marked: i64::try_from(marked).unwrap_or(i64::MAX),
        })
    }

    /// The account's subscriptions as OPML 2.0.
    pub fn export_opml(&self, account: &str) -> Result<String, FeedError> {
        let outlines: Vec<opml::Outline> = self
            .feeds(account)?
            .into_iter()
            .map(|f| opml::Outline {
                title: (f.title != f.url).then_some(f.title),
                url: f.url,
                site_url: f.site_url,
            })
            .collect();
        Ok(opml::write(&outlines, &self.clock.timestamp()))
    }

    /// Subscribes to every feed of an OPML file without fetching: each is
    /// pending, due at once, for the poll round.
    pub fn import_opml(&self, account: &str, text: &str) -> Result<OpmlImported, FeedError> {
        let outlines = opml::parse(text).map_err(FeedError::Invalid)?;
        let now = self.clock.timestamp();
        let (mut added, mut skipped) = (0, 0);
        self.db.write(|tx| {
            for outline in &outlines {
                let Ok(url) = checked_url(&outline.url) else {
                    skipped += 1;
                    continue;
                };
                if book::exists(tx, account, &url)? {
                    skipped += 1;
                    continue;
                }
                let id = uuid::Uuid::now_v7().to_string();
                book::insert_feed(
                    tx,
                    &id,
                    account,
                    &url,
                    outline.title.as_deref(),
                    outline.site_url.as_deref(),
                    &now,
                )?;
                added += 1;
            }
            Ok::<_, FeedError>(())
        })?;
        Ok(OpmlImported { added, skipped })
    }
}

/// A URL to subscribe to: trimmed, http(s), not too long.
fn checked_url(url: &str) -> Result<String, FeedError> {
    let url = url.trim();
    if url.chars().count() > MAX_URL_CHARS {
        return Err(FeedError::Invalid(format!(
            "A feed URL has at most {MAX_URL_CHARS} characters."
        )));
    }
    match url::Url::parse(url) {
        Ok(parsed) if matches!(parsed.scheme(), "http" | "https") => Ok(url.to_owned()),
        Ok(parsed) => Err(FeedError::Invalid(format!(
            "Only http:// and https:// feeds are read, not {}:.",
            parsed.scheme()
        ))),
        Err(_) => Err(FeedError::Invalid(format!(
            "{url} is not a URL: give a feed's or a site's http(s) address."
        ))),
    }
}
