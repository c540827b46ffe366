//! The RSS morning digest (`rssDigestEnabled`, docs/briefings.md): at
//! `rssDigestTime` in the inbox's zone, on the application's clock, the
//! utility model picks the entries the feeds brought since the last digest
//! (a day at most the first time) that match `rssDigestInterests`, and
//! summarizes them with their links into one `digest` row per account, on
//! the ledger as `rss_digest`. A quiet night makes a short digest without a
//! model call; a model that cannot write makes a digest of the entries as
//! they came. Each account's digest is made once a day (kept across
//! restarts, so a server started after the hour makes the day's digest
//! once); the picks are kept for the daily briefing's `rss` section.

use std::sync::Arc;

use briefings::SummaryBook;
use briefings::morning::{self, Entry, MAX_ENTRIES};
use inbox::{Category, NewRow};
use settings::SettingsStore;
use utility::{Ask, Feature};

use crate::error::blocking;
use crate::services::App;
use crate::setting_watch::Watched;
use crate::utility_model;

/// How often the loop looks again without being woken.
const RECHECK: time::Duration = time::Duration::minutes(15);

/// How far back the first digest reads.
const FIRST_LOOK_BACK: time::Duration = time::Duration::days(1);

/// Entries read per page while gathering the night's.
const PAGE: usize = 100;

pub fn start(state: &App) {
    let state = state.clone();
    let mut stop = state.stop.subscribe();
    let reads = |s: &SettingsStore| {
        (
            s.rss_digest_enabled(),
            s.rss_digest_time(),
            s.pm_inbox_quiet_hours_time_zone(),
        )
    };
    let mut changes = Watched::new(&state, reads);
    tokio::spawn(async move {
        loop {
            let now = state.clock.now();
            look(&state, now).await;
            let zone = zone(&state);
            let at = morning::delivery_time(&state.settings.rss_digest_time());
            let next = morning::next_moment(&zone, at, pm_inbox::window::instant(now));
            let wake = time::OffsetDateTime::from_unix_timestamp_nanos(next.as_nanosecond())
                .unwrap_or(now + RECHECK)
                .min(now + RECHECK);
            tokio::select! {
                _ = stop.wait_for(Option::is_some) => return,
                () = state.clock.sleep_until(wake) => {}
                () = changes.changed(&state.settings) => {}
            }
        }
    });
}

fn zone(state: &App) -> jiff::tz::TimeZone {
    pm_inbox::window::zone(&state.settings.pm_inbox_quiet_hours_time_zone())
}

fn book(state: &App) -> Arc<SummaryBook> {
    Arc::new(SummaryBook::new(state.db.clone(), state.clock.clone()))
}

/// Makes each account's digest of today once its time has come.
async fn look(state: &App, now: time::OffsetDateTime) {
    if !state.settings.rss_digest_enabled() {
        return;
    }
    let at = morning::delivery_time(&state.settings.rss_digest_time());
    let Some(day) = morning::due_day(&zone(state), at, pm_inbox::window::instant(now)) else {
        return;
    };
    let accounts = match state.accounts.list() {
        Ok(accounts) => accounts,
        Err(error) => {
            tracing::warn!(%error, "morning digest: cannot list accounts");
            return;
        }
    };
    for account in accounts {
        let (book, key) = (book(state), format!("rss-digest:{}:{day}", account.id));
        if let Ok(true) = blocking(move || book.mark_once(&key, "")).await {
            run(state, &account.id, &day.to_string()).await;
        }
    }
}

/// Makes `account_id`'s digest for the local day `day` now; the row's id.
pub(crate) async fn run(state: &App, account_id: &str, day: &str) -> Option<String> {
    let last_key = format!("rss-digest-last:{account_id}");
    let (marks, key) = (book(state), last_key.clone());
    let now = state.clock.now();
    let since = blocking(move || marks.mark(&key))
        .await
        .ok()
        .flatten()
        .unwrap_or_else(|| clock::timestamp(now - FIRST_LOOK_BACK));
    let entries = night(state, account_id, &since).await;
    let picks = if entries.is_empty() {
        morning::quiet_night()
    } else {
        let prompt = morning::prompt(&state.settings.rss_digest_interests(), &entries);
        let ask = Ask {
            feature: Feature::RssDigest,
            model: None,
            prompt: &prompt,
            budget: utility_model::budget(state, Feature::RssDigest),
        };
        match state.utility.text(&ask).await {
            Ok(answer) => answer.text.trim().to_owned(),
            Err(error) => {
                utility_model::report(state, account_id, Feature::RssDigest, &error).await;
                morning::entries_alone(&entries)
            }
        }
    };
    let mut row = NewRow::new(Category::Digest, format!("Morning digest for {day}"));
    row.body = Some(inbox::clip(&picks, inbox::MAX_BODY_CHARS));
    let (inbox, account) = (state.inbox.clone(), account_id.to_owned());
    let added = match blocking(move || inbox.add(&account, row)).await {
        Ok(added) => added,
        Err(error) => {
            tracing::warn!(%error, "cannot post the morning digest");
            return None;
        }
    };
    let id = added.row.id.clone();
    crate::publish::inbox_added(state, account_id, added);
    let (book, picks_key, stamp) = (
        book(state),
        format!("rss-picks:{account_id}:{day}"),
        clock::timestamp(now),
    );
    let kept = blocking(move || {
        book.set_mark(&picks_key, &picks)?;
        book.set_mark(&last_key, &stamp)
    })
    .await;
    if let Err(error) = kept {
        tracing::warn!(%error, "cannot keep the morning digest's picks");
    }
    Some(id)
}

/// The picks of `account_id`'s digest of the local day `day`, if one was made.
pub(crate) async fn picks(state: &App, account_id: &str, day: &str) -> Option<String> {
    let (book, key) = (book(state), format!("rss-picks:{account_id}:{day}"));
    blocking(move || book.mark(&key)).await.ok().flatten()
}

/// The entries fetched since `since` (a stored timestamp), newest first,
/// at most [`MAX_ENTRIES`].
async fn night(state: &App, account_id: &str, since: &str) -> Vec<Entry> {
    let (feeds, account, since) = (state.feeds.clone(), account_id.to_owned(), since.to_owned());
    let read = tokio::task::spawn_blocking(move || {
        let mut found = Vec::new();
        let mut cursor = None;
        // Pages run newest published first; a few pages past the limit
        // cover entries fetched late but published earlier.
        for _ in 0..5 {
            let query = feeds::EntryQuery {
                cursor: cursor.take(),
                limit: Some(PAGE),
                ..feeds::EntryQuery::default()
            };
            let Ok(page) = feeds.entries(&account, &query) else {
                break;
            };
            found.extend(
                page.entries
                    .into_iter()
                    .filter(|e| e.fetched_at.as_str() >= since.as_str())
                    .map(|e| Entry {
                        feed: e.feed_title,
                        title: e.title,
                        link: e.link,
                        summary: e.summary,
                    }),
            );
            match page.next {
                Some(next) if found.len() < MAX_ENTRIES => cursor = Some(next),
                _ => break,
            }
        }
        found.truncate(MAX_ENTRIES);
        found
    })
    .await;
    read.unwrap_or_default()
}
