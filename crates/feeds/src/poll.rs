//! Polling: one feed fetched with its validators and its answer recorded
//! (entries added, validators kept even when the body had not changed, the
//! next poll from [`crate::policy`]), and the round that polls every due
//! feed on a few worker threads, so a feed that never answers holds one
//! worker for its timeout and the others go on.

use std::sync::atomic::{AtomicUsize, Ordering};

use time::{Duration, OffsetDateTime};

use crate::book::{self, Answered, FeedRow, unix_ms};
use crate::fetch::{self, Answer};
use crate::policy::{self, Hints};
use crate::{FeedError, Feeds};

/// What a round did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PollReport {
    pub polled: usize,
    pub failed: usize,
    pub added: usize,
}

/// One feed's poll: entries added, or why it failed.
pub(crate) type Outcome = Result<usize, String>;

impl Feeds {
    /// Polls every feed due now, at most `concurrency` at once (blocking:
    /// call it off the async runtime).
    pub fn poll_due(&self, concurrency: usize) -> Result<PollReport, FeedError> {
        let now = clock::timestamp(self.clock.now());
        let due = self.db.read(|tx| book::due(tx, &now))?;
        let next = AtomicUsize::new(0);
        let (failed, added, polled) = (
            AtomicUsize::new(0),
            AtomicUsize::new(0),
            AtomicUsize::new(0),
        );
        std::thread::scope(|scope| {
            for _ in 0..concurrency.clamp(1, due.len().max(1)) {
                scope.spawn(|| {
                    while let Some(feed) = due.get(next.fetch_add(1, Ordering::Relaxed)) {
                        polled.fetch_add(1, Ordering::Relaxed);
                        match self.poll_one(feed) {
                            Ok(Ok(n)) => {
                                added.fetch_add(n, Ordering::Relaxed);
                            }
                            Ok(Err(_)) => {
                                failed.fetch_add(1, Ordering::Relaxed);
                            }
                            Err(error) => {
                                failed.fetch_add(1, Ordering::Relaxed);
                                tracing::warn!(url = %feed.url, %error, "a feed's poll was not recorded; it stays due");
                            }
                        }
                    }
                });
            }
        });
        Ok(PollReport {
            polled: polled.into_inner(),
            failed: failed.into_inner(),
            added: added.into_inner(),
        })
    }

    /// When the next feed is due, if any feed exists.
    pub fn next_due(&self) -> Result<Option<OffsetDateTime>, FeedError> {
        let next = self.db.read(book::next_due)?;
        Ok(next.and_then(|text| {
            OffsetDateTime::parse(&text, &time::format_description::well_known::Rfc3339).ok()
        }))
    }

    /// Fetches one feed and records what came of it; the outer error is
    /// the store's, the inner one the feed's failure (already recorded).
    pub(crate) fn poll_one(&self, feed: &FeedRow) -> Result<Outcome, FeedError> {
        let now = self.clock.now();
        let answer = fetch::get(&self.agent, &feed.url, &feed.validators, self.limits, now);
        let outcome = match answer {
            Err(reason) => Err((reason, None)),
            Ok(Answer::Refused {
                status,
                retry_after,
            }) => Err((refusal(status, retry_after), retry_after)),
            Ok(Answer::NotModified { validators, hints }) => {
                // A 304 may omit the validators; the ones sent still hold.
                let validators = fetch::Validators {
                    etag: validators.etag.or_else(|| feed.validators.etag.clone()),
                    last_modified: validators
                        .last_modified
                        .or_else(|| feed.validators.last_modified.clone()),
                };
                let hints = Hints {
                    ttl_minutes: feed.ttl_minutes,
                    ..hints
                };
                self.record(feed, &validators, None, hints, now)
                    .map(|()| Ok(0))?
            }
            Ok(Answer::Body {
                content_type,
                body,
                validators,
                hints,
                ..
            }) => match crate::parse::parse(&body, &feed.url, content_type.as_deref()) {
                Err(reason) => Err((reason, None)),
                Ok(parsed) => {
                    let added = self.db.write(|tx| {
                        book::insert_entries(
                            tx,
                            feed,
                            &parsed.entries,
                            &clock::timestamp(now),
                            unix_ms(now),
                        )
                    })?;
                    let hints = Hints {
                        ttl_minutes: parsed.ttl_minutes,
                        ..hints
                    };
                    let fields = (&parsed.title, &parsed.site_url, parsed.ttl_minutes);
                    self.record(feed, &validators, Some(fields), hints, now)?;
                    Ok(added)
                }
            },
        };
        match outcome {
            Ok(added) => Ok(Ok(added)),
            Err((reason, retry_after)) => {
                let failures = feed.failures.saturating_add(1);
                let wait = policy::backoff(failures)
                    .max(retry_after.unwrap_or(Duration::ZERO))
                    .min(policy::MAX_INTERVAL);
                let next = now + wait + policy::jitter(&feed.id, wait);
                self.db.write(|tx| {
                    book::record_failure(tx, &feed.id, &reason, failures, &clock::timestamp(next))
                })?;
                Ok(Err(reason))
            }
        }
    }

    pub(crate) fn record(
        &self,
        feed: &FeedRow,
        validators: &fetch::Validators,
        parsed: Option<(&Option<String>, &Option<String>, Option<u32>)>,
        hints: Hints,
        now: OffsetDateTime,
    ) -> Result<(), FeedError> {
        self.db.write(|tx| {
            let week_ago = unix_ms(now - Duration::weeks(1));
            let published = book::published_since(tx, &feed.id, week_ago)?;
            let interval = policy::interval(published, hints, now);
            let next = now + interval + policy::jitter(&feed.id, interval);
            book::record_answer(
                tx,
                &feed.id,
                &Answered {
                    validators,
                    parsed,
                    next_poll_at: &clock::timestamp(next),
                    interval_secs: interval.whole_seconds(),
                    now: &clock::timestamp(now),
                },
            )
        })
    }
}

fn refusal(status: u16, retry_after: Option<Duration>) -> String {
    match retry_after {
        Some(wait) => format!(
            "HTTP {status}: the server asks to retry after {} s",
            wait.whole_seconds()
        ),
        None => format!("HTTP {status}"),
    }
}
