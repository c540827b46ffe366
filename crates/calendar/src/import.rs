//! Storing what a sync found without holding the database's one writer for
//! long, since every other write of the server (a board edit, a session's
//! output) waits for it: events are parsed and expanded before a
//! transaction opens, and written in transactions of about [`BATCH_ROWS`]
//! rows. A subscription's changed file writes only what changed in it: each
//! UID group's SHA-256 is stored as its object's ETag, and a group whose
//! hash is stored already keeps its rows.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use jiff::tz::TimeZone;
use sha2::Digest;
use store::Db;
use store::rusqlite::Transaction;

use crate::SyncReport;
use crate::book::{self, CollectionRow};
use crate::error::{CalendarError, Result};
use crate::expand::{Occ, Window, expand};
use crate::ics::{self, Component};
use crate::recur::Budget;
use crate::subscription::Split;
use crate::zone::Zones;

/// About the most rows (objects and occurrences) one transaction writes,
/// a few tens of milliseconds of the writer.
const BATCH_ROWS: usize = 5_000;

/// Which of an account's old warnings a sync made stale.
pub(crate) enum Stale {
    /// Everything was expanded again: the new warnings are all there is.
    All,
    /// Only these UIDs were written again or removed.
    Events(HashSet<String>),
}

impl Stale {
    pub(crate) fn nothing() -> Stale {
        Stale::Events(HashSet::new())
    }

    /// Whether an old warning still holds: one naming an event (`event
    /// <uid>: …`) written again is gone, or said again by its new expansion.
    pub(crate) fn keeps(&self, warning: &str) -> bool {
        match self {
            Stale::All => false,
            Stale::Events(uids) => warning
                .strip_prefix("event ")
                .and_then(|w| w.split_once(": "))
                .is_none_or(|(uid, _)| !uids.contains(uid)),
        }
    }
}

/// A subscription's changed file, as the server sent it.
pub(crate) struct Fetched<'a> {
    pub account: &'a str,
    pub url: &'a str,
    /// The calendar's name when the file does not name itself.
    pub name: &'a str,
    pub etag: Option<&'a str>,
    pub last_modified: Option<&'a str>,
    /// The whole file's SHA-256.
    pub hash: &'a str,
}

/// One event to store, expanded.
struct Put {
    href: String,
    hash: String,
    ics: String,
    occs: Vec<Occ>,
}

/// Imports a subscription's split file: new and changed UIDs written,
/// removed ones deleted, the others left as they are. The file's zones and
/// validators are written last, so an import cut short is done again (its
/// written UIDs then compare equal) at the next sync.
pub(crate) fn subscription(
    db: &Db,
    file: &Fetched<'_>,
    split: &Split<'_>,
    floating: &TimeZone,
    window: Window,
    warnings: &mut Vec<String>,
) -> Result<(SyncReport, Stale)> {
    let tz_roots = ics::parse(&split.timezones).unwrap_or_else(|e| {
        warnings.push(format!("the file's time zones cannot be read: {e}"));
        Vec::new()
    });
    let defs: Vec<&Component> = tz_roots.iter().filter(|c| c.name == "VTIMEZONE").collect();
    let mut zones = Zones::new(&defs, floating, &Budget::per_read());
    let (known, stored) = db.read(|tx| {
        let known = book::collections(tx, file.account)?
            .into_iter()
            .find(|c| c.url == file.url);
        Ok::<_, CalendarError>((known, book::etags(tx, file.account, file.url)?))
    })?;
    let stored: HashMap<String, Option<String>> = stored.into_iter().collect();
    // Every event is expanded with the file's zones: when they changed,
    // every event is written again.
    let full = known
        .as_ref()
        .is_none_or(|k| k.timezones != split.timezones);
    let meta = CollectionRow {
        url: file.url.to_owned(),
        name: split.name.clone().unwrap_or_else(|| file.name.to_owned()),
        timezones: split.timezones.clone(),
        ..CollectionRow::default()
    };
    if known.is_none() {
        // The objects need their collection; without its zones until the
        // end, an import cut short compares as changed zones next time.
        let first = CollectionRow {
            timezones: String::new(),
            ..meta.clone()
        };
        db.write(|tx| book::put_collection(tx, file.account, &first))?;
    }
    let mut touched = HashSet::new();
    let changed = split.events.iter().filter_map(|(uid, blocks)| {
        let href = href_of(uid);
        let hash = digest_of(blocks);
        if !full && stored.get(&href).is_some_and(|h| h.as_ref() == Some(&hash)) {
            return None;
        }
        if !full {
            touched.insert(uid.clone());
        }
        let ics = blocks.concat();
        let occs = occurrences_of(
            &ics,
            ZonesOf::Shared(&mut zones),
            floating,
            window,
            warnings,
        );
        Some(Put {
            href,
            hash,
            ics,
            occs,
        })
    });
    in_batches(
        db,
        changed,
        |p| 1 + p.occs.len(),
        |tx, p| {
            book::put_object(
                tx,
                file.account,
                file.url,
                &p.href,
                Some(&p.hash),
                &p.ics,
                &p.occs,
            )
        },
    )?;
    let removed: Vec<&String> = stored
        .keys()
        .filter(|href| {
            href.strip_prefix("uid:").is_none_or(|uid| {
                split
                    .events
                    .binary_search_by(|(u, _)| u.as_str().cmp(uid))
                    .is_err()
            })
        })
        .collect();
    if !full {
        touched.extend(
            removed
                .iter()
                .map(|h| h.strip_prefix("uid:").unwrap_or(h).to_owned()),
        );
    }
    // A removed event's occurrences go with it: count it as a few rows.
    in_batches(
        db,
        &removed,
        |_| 4,
        |tx, href| book::delete_object(tx, file.account, file.url, href).map(drop),
    )?;
    db.write(|tx| {
        book::put_collection(tx, file.account, &meta)?;
        book::set_validators(tx, file.account, file.etag, file.last_modified, file.hash)
    })?;
    warnings.append(&mut zones.warnings);
    let report = SyncReport {
        calendars: 1,
        fetched: split.events.len(),
        removed: removed.len(),
        not_modified: false,
    };
    Ok((
        report,
        if full {
            Stale::All
        } else {
            Stale::Events(touched)
        },
    ))
}

/// Expands every stored object of the account again for `window`: no
/// download, the stored text is read. Each calendar has a read's step
/// budget, as its file or its sync's downloads had.
pub(crate) fn expand_again(
    db: &Db,
    account: &str,
    floating: &TimeZone,
    window: Window,
    warnings: &mut Vec<String>,
) -> Result<()> {
    let (collections, objects) = db.read(|tx| {
        Ok::<_, CalendarError>((book::collections(tx, account)?, book::objects(tx, account)?))
    })?;
    let parsed: Vec<(String, Vec<Component>)> = collections
        .iter()
        .map(|c| (c.url.clone(), ics::parse(&c.timezones).unwrap_or_default()))
        .collect();
    let mut budgets: HashMap<&str, Budget> = HashMap::new();
    let mut shared: HashMap<&str, Zones<'_>> = HashMap::new();
    for (url, roots) in parsed.iter().filter(|(_, roots)| !roots.is_empty()) {
        let defs: Vec<&Component> = roots.iter().filter(|c| c.name == "VTIMEZONE").collect();
        let budget = budgets.entry(url).or_insert_with(Budget::per_read);
        shared.insert(url, Zones::new(&defs, floating, budget));
    }
    let expanded = objects.iter().map(|(collection, href, ics)| {
        let zones = match shared.get_mut(collection.as_str()) {
            Some(zones) => ZonesOf::Shared(zones),
            None => ZonesOf::Own(
                budgets
                    .entry(collection.as_str())
                    .or_insert_with(Budget::per_read),
            ),
        };
        let occs = occurrences_of(ics, zones, floating, window, warnings);
        (collection, href, occs)
    });
    in_batches(
        db,
        expanded,
        |(_, _, occs)| 1 + occs.len(),
        |tx, (collection, href, occs)| book::put_occurrences(tx, account, collection, href, occs),
    )?;
    for zones in shared.values_mut() {
        warnings.append(&mut zones.warnings);
    }
    Ok(())
}

/// Writes `items` in transactions of about [`BATCH_ROWS`] rows, `rows`
/// counting an item's; `items` is read (what it computes, computed) before
/// each transaction opens.
fn in_batches<T>(
    db: &Db,
    items: impl IntoIterator<Item = T>,
    rows: impl Fn(&T) -> usize,
    write: impl Fn(&Transaction<'_>, &T) -> Result<()>,
) -> Result<()> {
    let mut items = items.into_iter().peekable();
    while items.peek().is_some() {
        let mut batch = Vec::new();
        let mut count = 0;
        while count < BATCH_ROWS
            && let Some(item) = items.next()
        {
            count += rows(&item);
            batch.push(item);
        }
        db.write(|tx| batch.iter().try_for_each(|item| write(tx, item)))?;
    }
    Ok(())
}

/// A subscription's event's href: its UID.
fn href_of(uid: &str) -> String {
    format!("uid:{uid}")
}

/// SHA-256 of one UID group's text, in hex: what its stored object is
/// compared by.
fn digest_of(blocks: &[&str]) -> String {
    let mut hasher = sha2::Sha256::new();
    for block in blocks {
        hasher.update(block.as_bytes());
    }
    let mut hex = String::with_capacity(64);
    for b in hasher.finalize() {
        // Writing to a String cannot fail.
        let _ = write!(hex, "{b:02x}");
    }
    hex
}

/// The zones an object's times are read in.
pub(crate) enum ZonesOf<'r, 'a> {
    /// A subscription's, shared by its events, on the read's budget.
    Shared(&'r mut Zones<'a>),
    /// The object's own VTIMEZONEs (a CalDAV resource), on this budget,
    /// the read's it came in.
    Own(&'r Budget),
}

/// The occurrences of one stored object.
pub(crate) fn occurrences_of(
    ics: &str,
    zones: ZonesOf<'_, '_>,
    floating: &TimeZone,
    window: Window,
    warnings: &mut Vec<String>,
) -> Vec<Occ> {
    let roots = match ics::parse(ics) {
        Ok(roots) => roots,
        Err(e) => {
            warnings.push(format!("an event cannot be read: {e}"));
            return Vec::new();
        }
    };
    let mut events: Vec<&Component> = roots.iter().filter(|r| r.name == "VEVENT").collect();
    let mut defs = Vec::new();
    for root in &roots {
        root.find_all("VEVENT", &mut events);
        root.find_all("VTIMEZONE", &mut defs);
    }
    match zones {
        ZonesOf::Shared(zones) => expand(&events, zones, window),
        ZonesOf::Own(budget) => {
            let mut zones = Zones::new(&defs, floating, budget);
            let occs = expand(&events, &mut zones, window);
            warnings.append(&mut zones.warnings);
            occs
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_partial_import_drops_only_the_warnings_of_the_events_it_wrote() {
        let stale = Stale::Events(HashSet::from(["a@x".to_owned()]));
        assert!(!stale.keeps(
            "event a@x: its RRULE cannot be read (bad); only its first occurrence is shown"
        ));
        assert!(stale.keeps(
            "event b@x: its RRULE cannot be read (bad); only its first occurrence is shown"
        ));
        assert!(
            stale
                .keeps("unknown time zone \"Atlantis\": its times are read in the local time zone")
        );
        assert!(
            !Stale::All
                .keeps("unknown time zone \"Atlantis\": its times are read in the local time zone")
        );
    }

    #[test]
    fn a_groups_digest_is_that_of_its_text() {
        assert_eq!(
            digest_of(&["BEGIN:VEVENT\r\n", "END:VEVENT\r\n"]),
            crate::subscription::digest("BEGIN:VEVENT\r\nEND:VEVENT\r\n")
        );
    }
}
