//! Spam invitations, the user's side (docs/calendar.md, "Spam
//! invitations"): marking an invitation's sender spam (their invitations
//! are hidden from then on, `screen.rs`), deleting a marked sender's
//! invitations on the CalDAV server (DELETE with If-Match) into a trash
//! kept [`TRASH_KEEP_DAYS`] days on the clock, restoring one (PUT back on
//! the server), and the entries the user adds to their organization.
//! Whether the filter or the deletion is on is the caller's to check.

use serde::Serialize;
use time::OffsetDateTime;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::book;
use crate::error::{CalendarError, Result};
use crate::import::{ZonesOf, occurrences_of};
use crate::recur::Budget;
use crate::screen::{self, Screen};
use crate::spam_book::{self, Stored, TrashRow};
use crate::{Calendars, Kind};

/// How long a deleted invitation stays in the trash.
pub const TRASH_KEEP_DAYS: i64 = 30;
/// The most entries a user adds to their organization.
pub const MAX_ORGANIZATION_ENTRIES: usize = 200;

/// What marking a sender spam did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "CalendarSpamMarked")]
#[schema(as = CalendarSpamMarked)]
pub struct Marked {
    /// The organizer's address, now on the spam list.
    pub sender: String,
    /// Their invitations deleted on the server and put in the trash.
    pub trashed: usize,
    /// Why one could not be deleted (it is tried again after each sync).
    pub failure: Option<String>,
}

/// A sender marked spam.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "CalendarSpamSender")]
#[schema(as = CalendarSpamSender)]
pub struct SpamSender {
    pub address: String,
    pub marked_at: String,
}

/// An invitation deleted on the server, kept to be restored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "CalendarTrashedInvite")]
#[schema(as = CalendarTrashedInvite)]
pub struct TrashedInvite {
    pub id: String,
    pub account_id: String,
    pub account: String,
    pub uid: String,
    pub title: String,
    /// Its first start the calendar had, RFC 3339 UTC.
    pub start: Option<String>,
    pub organizer: String,
    pub deleted_at: String,
    /// When it is forgotten for good.
    pub purge_at: String,
}

/// A domain of the user's organization and the address it comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "CalendarOwnDomain")]
#[schema(as = CalendarOwnDomain)]
pub struct OwnDomain {
    pub domain: String,
    pub address: String,
}

/// The user's organization, as the filter reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "CalendarOrganization")]
#[schema(as = CalendarOrganization)]
pub struct Organization {
    /// The domains of the user's own addresses (free mail's left out).
    pub domains: Vec<OwnDomain>,
    /// The user's own addresses at free-mail domains: each only itself.
    pub free_mail: Vec<String>,
    /// The domains and addresses the user added.
    pub added: Vec<String>,
}

impl Calendars {
    /// Marks the organizer of the event `uid` of the CalDAV account
    /// `account` spam: their invitations are hidden from then on and, with
    /// `delete`, deleted on the server into the trash.
    pub fn mark_spam(&self, owner: &str, account: &str, uid: &str, delete: bool) -> Result<Marked> {
        let found = self
            .db
            .read(|tx| spam_book::object_of_event(tx, owner, account, uid))?;
        let Some((kind, object)) = found else {
            return Err(CalendarError::NotFound("event with that account and UID"));
        };
        if Kind::parse(&kind) != Kind::Caldav {
            return Err(CalendarError::invalid(
                "accountId",
                "a subscription's events are not invitations",
            ));
        }
        let mine = self.full_screen(owner)?;
        if !mine.invitation(Some(&object.organizer)) {
            return Err(CalendarError::invalid(
                "uid",
                "this event is not an invitation from someone else: it has no organizer, or you organize it",
            ));
        }
        let now = self.clock.timestamp();
        self.db
            .write(|tx| spam_book::mark_spam(tx, owner, &object.organizer, &now))?;
        let (trashed, failure) = if delete {
            self.trash_spam(owner)?
        } else {
            (0, None)
        };
        Ok(Marked {
            sender: object.organizer,
            trashed,
            failure,
        })
    }

    /// Deletes on the server every stored invitation of the owner's from a
    /// sender marked spam, into the trash: how many, and why one could not
    /// be (the others are still tried).
    pub fn trash_spam(&self, owner: &str) -> Result<(usize, Option<String>)> {
        let objects = self.db.read(|tx| spam_book::spam_objects(tx, owner))?;
        let mut trashed = 0;
        let mut failure = None;
        for object in objects {
            match self.trash_object(owner, &object) {
                Ok(()) => trashed += 1,
                Err(CalendarError::Remote(why)) => failure = Some(why),
                Err(other) => return Err(other),
            }
        }
        Ok((trashed, failure))
    }

    fn trash_object(&self, owner: &str, object: &Stored) -> Result<()> {
        let lock = self.account_lock(&object.account_id);
        let _no_sync_meanwhile = lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let row = self.row(owner, &object.account_id)?;
        let dav = self.client(owner, &row)?;
        let mut headers = Vec::new();
        if let Some(etag) = &object.etag {
            headers.push(("If-Match", etag.as_str()));
        }
        let reply = dav
            .send("DELETE", &object.href, None, None, &headers)
            .map_err(CalendarError::Remote)?;
        match reply.status {
            // Gone already is as good as deleted.
            200..=299 | 404 => {}
            412 => {
                return Err(CalendarError::Remote(format!(
                    "{} changed on the server since the last sync: it is deleted after the next one",
                    object.href
                )));
            }
            _ => return Err(CalendarError::Remote(crate::dav::refusal(&reply))),
        }
        let deleted_at = self.clock.timestamp();
        self.db.write(|tx| {
            let (summary, start_at, uid) = spam_book::first_occurrence(tx, object)?;
            let trash = TrashRow {
                id: store::new_id(),
                object: object.clone(),
                account_name: row.name.clone(),
                uid,
                summary,
                start_at,
                deleted_at: deleted_at.clone(),
            };
            spam_book::put_trash(tx, owner, &trash)?;
            book::delete_object(tx, &object.account_id, &object.collection, &object.href)?;
            Ok::<_, CalendarError>(())
        })
    }

    /// The owner's trash, the latest deleted first; what was deleted more
    /// than [`TRASH_KEEP_DAYS`] days ago is gone already, though the sweep
    /// after the next sync round is what forgets it.
    pub fn trash(&self, owner: &str) -> Result<Vec<TrashedInvite>> {
        let since = self.kept_since();
        let rows = self.db.read(|tx| spam_book::trash(tx, owner, &since))?;
        Ok(rows.into_iter().map(shown).collect())
    }

    /// Forgets the invitations deleted more than [`TRASH_KEEP_DAYS`] days
    /// ago, of every owner: how many.
    pub fn purge_trash(&self) -> Result<usize> {
        let before = self.kept_since();
        self.db.write(|tx| spam_book::purge(tx, &before))
    }

    /// The oldest deletion the trash still keeps.
    fn kept_since(&self) -> String {
        clock::timestamp(self.clock.now() - keep())
    }

    /// Puts a trashed invitation back on the server (PUT with
    /// If-None-Match) and in the calendar. Restoring says the sender is no
    /// spammer: they leave the spam list and their address joins the
    /// user's organization, so the invitation shows again.
    pub fn restore(&self, owner: &str, id: &str) -> Result<()> {
        let since = self.kept_since();
        let found = self
            .db
            .read(|tx| spam_book::trashed(tx, owner, id, &since))?;
        let Some(trashed) = found else {
            return Err(CalendarError::NotFound("invitation in the trash"));
        };
        let object = &trashed.object;
        let lock = self.account_lock(&object.account_id);
        let _no_sync_meanwhile = lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let row = self.row(owner, &object.account_id)?;
        let dav = self.client(owner, &row)?;
        let headers = [
            ("If-None-Match", "*"),
            ("Content-Type", "text/calendar; charset=utf-8"),
        ];
        let reply = dav
            .send("PUT", &object.href, None, Some(&object.ics), &headers)
            .map_err(CalendarError::Remote)?;
        match reply.status {
            200..=299 => {}
            412 => {
                return Err(CalendarError::Remote(format!(
                    "the server has another event at {} now: the invitation was not restored",
                    object.href
                )));
            }
            _ => return Err(CalendarError::Remote(crate::dav::refusal(&reply))),
        }
        let etag = reply.header("ETag").map(str::to_owned);
        let mut warnings = Vec::new();
        let budget = Budget::per_read();
        let occs = occurrences_of(
            &object.ics,
            ZonesOf::Own(&budget),
            &self.options.floating_zone,
            self.window(),
            &mut warnings,
        );
        let now = self.clock.timestamp();
        self.db.write(|tx| {
            let known = book::collections(tx, &object.account_id)?
                .iter()
                .any(|c| c.url == object.collection);
            // A calendar deleted since comes back, if it does, with a sync.
            if known {
                book::put_object(
                    tx,
                    &object.account_id,
                    &object.collection,
                    &object.href,
                    etag.as_deref(),
                    &object.ics,
                    &occs,
                )?;
            }
            spam_book::delete_trashed(tx, id)?;
            spam_book::unmark_spam(tx, owner, &object.organizer)?;
            spam_book::add_to_organization(tx, owner, &object.organizer, &now)?;
            Ok::<_, CalendarError>(())
        })
    }

    /// The senders the owner marked spam, oldest first.
    pub fn spam_senders(&self, owner: &str) -> Result<Vec<SpamSender>> {
        let rows = self.db.read(|tx| spam_book::spam_senders(tx, owner))?;
        Ok(rows
            .into_iter()
            .map(|(address, marked_at)| SpamSender { address, marked_at })
            .collect())
    }

    /// Takes a sender off the spam list.
    pub fn unmark_spam(&self, owner: &str, address: &str) -> Result<()> {
        let address = address.trim().to_ascii_lowercase();
        if self
            .db
            .write(|tx| spam_book::unmark_spam(tx, owner, &address))?
        {
            Ok(())
        } else {
            Err(CalendarError::NotFound("sender marked spam"))
        }
    }

    /// The owner's organization as the filter reads it.
    pub fn organization(&self, owner: &str) -> Result<Organization> {
        let screen = Screen::new(self.own_addresses(owner)?, Vec::new(), Vec::new());
        let mut own: Vec<String> = screen.own.into_iter().collect();
        own.sort();
        let mut domains = Vec::new();
        let mut free_mail = Vec::new();
        for address in own {
            let domain = screen::domain_of(&address).to_owned();
            if !screen.domains.contains(&domain) {
                free_mail.push(address);
            } else if !domains.iter().any(|d: &OwnDomain| d.domain == domain) {
                domains.push(OwnDomain { domain, address });
            }
        }
        let added = self.db.read(|tx| spam_book::organization(tx, owner))?;
        Ok(Organization {
            domains,
            free_mail,
            added,
        })
    }

    /// Replaces the domains and addresses the owner adds to their
    /// organization; each is checked and kept in lower case.
    pub fn set_organization(&self, owner: &str, entries: &[String]) -> Result<Organization> {
        if entries.len() > MAX_ORGANIZATION_ENTRIES {
            return Err(CalendarError::invalid(
                "added",
                format!("at most {MAX_ORGANIZATION_ENTRIES} entries"),
            ));
        }
        let mut checked = Vec::with_capacity(entries.len());
        for entry in entries.iter().filter(|e| !e.trim().is_empty()) {
            let read = if entry.contains('@') && !entry.trim().starts_with('@') {
                screen::address(entry)
            } else {
                screen::domain(entry)
            };
            let Some(read) = read else {
                return Err(CalendarError::invalid(
                    "added",
                    format!("{entry:?} is neither a domain (example.com) nor an address"),
                ));
            };
            checked.push(read);
        }
        let now = self.clock.timestamp();
        self.db
            .write(|tx| spam_book::set_organization(tx, owner, &checked, &now))?;
        self.organization(owner)
    }
}

fn keep() -> time::Duration {
    time::Duration::days(TRASH_KEEP_DAYS)
}

fn shown(row: TrashRow) -> TrashedInvite {
    let stamp = |secs: i64| {
        OffsetDateTime::from_unix_timestamp(secs)
            .map(clock::timestamp)
            .ok()
    };
    let purge_at = row
        .deleted_at
        .parse::<jiff::Timestamp>()
        .ok()
        .and_then(|t| stamp(t.as_second() + keep().whole_seconds()))
        .unwrap_or_default();
    TrashedInvite {
        id: row.id,
        account_id: row.object.account_id,
        account: row.account_name,
        uid: row.uid,
        title: row.summary,
        start: row.start_at.and_then(stamp),
        organizer: row.object.organizer,
        deleted_at: row.deleted_at,
        purge_at,
    }
}
