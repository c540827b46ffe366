//! [`Calendars`]: accounts added, listed and removed (the password to the
//! secrets store), one account synchronised, and the occurrences of a time
//! range read back.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use clock::Clock;
use jiff::tz::TimeZone;
use store::Db;
use time::OffsetDateTime;

use crate::book::{self, AccountRow, CollectionRow};
use crate::caldav::{self, Remote};
use crate::dav::Dav;
use crate::error::{CalendarError, Result};
use crate::expand::Window;
use crate::import::{self, Fetched, Stale, ZonesOf, occurrences_of};
use crate::recur::Budget;
use crate::screen::{Screen, Screening};
use crate::subscription::{self, Fetch};
use crate::{
    Account, AccountSource, CalendarInfo, Kind, NewAccount, Occurrence, Source, Status, SyncReport,
};

/// A stored occurrence as the calendar shows it, told an invitation by
/// `screen` when the spam filter is on.
pub(crate) fn occurrence(r: book::OccurrenceRow, screen: Option<&Screen>) -> Occurrence {
    let kind = Kind::parse(&r.kind);
    let organizer = r.organizer.filter(|_| kind == Kind::Caldav);
    let from = AccountSource {
        account_id: r.account_id,
        account: r.account_name,
        calendar: r.calendar,
        color: r.color,
        invitation: screen.is_some_and(|s| s.invitation(organizer.as_deref())),
        organizer,
    };
    Occurrence {
        uid: r.occ.uid,
        title: r.occ.summary,
        location: r.occ.location,
        start: stamp(r.occ.start),
        end: stamp(r.occ.end),
        all_day: r.occ.all_day,
        recurring: r.occ.recurring,
        source: match kind {
            Kind::Caldav => Source::Caldav(from),
            Kind::Ics => Source::Ics(from),
        },
    }
}

/// The most warnings an account keeps.
/// What [`CalendarError::NotFound`] names for an account id not the owner's.
const ACCOUNT: &str = "calendar account";
const MAX_WARNINGS: usize = 20;
const MAX_URL_CHARS: usize = 2_048;
const MAX_NAME_CHARS: usize = 200;

/// How the calendars behave; [`Options::default`] is what the server uses.
#[derive(Debug, Clone)]
pub struct Options {
    /// The zone of floating times (no TZID, no `Z`) and of unknown zones.
    pub floating_zone: TimeZone,
    /// Occurrences are stored from this long before now…
    pub past: time::Duration,
    /// …to this long after it.
    pub future: time::Duration,
    /// The longest one request may take, answer included.
    pub timeout: std::time::Duration,
    /// The largest answer read (a subscription's whole file).
    pub max_body_bytes: u64,
    /// The most occurrences [`Calendars::events`] returns.
    pub max_events: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            floating_zone: TimeZone::system(),
            past: time::Duration::days(60),
            future: time::Duration::days(400),
            timeout: std::time::Duration::from_secs(60),
            max_body_bytes: 64 * 1024 * 1024,
            max_events: 10_000,
        }
    }
}

pub struct Calendars {
    pub(crate) db: Arc<Db>,
    pub(crate) clock: Arc<dyn Clock>,
    secrets: Arc<secrets::Secrets>,
    pub(crate) options: Options,
    /// One lock per account: an import spans several transactions, so two
    /// syncs of one account (the loop's and one asked for by hand) must run
    /// one after the other, or the older file's batches could land after
    /// the newer file's validators and never be repaired.
    syncing: Mutex<HashMap<String, Arc<Mutex<()>>>>,
    /// What the application says of the user's spam filter and addresses;
    /// unset, nothing is hidden.
    screening: OnceLock<Arc<dyn Screening>>,
}

impl Calendars {
    pub fn new(db: Arc<Db>, clock: Arc<dyn Clock>, secrets: Arc<secrets::Secrets>) -> Self {
        Self::with_options(db, clock, secrets, Options::default())
    }

    pub fn with_options(
        db: Arc<Db>,
        clock: Arc<dyn Clock>,
        secrets: Arc<secrets::Secrets>,
        options: Options,
    ) -> Self {
        Calendars {
            db,
            clock,
            secrets,
            options,
            syncing: Mutex::default(),
            screening: OnceLock::new(),
        }
    }

    /// Hands the calendars what the application knows of the user's spam
    /// filter (`screen.rs`); the first call wins.
    pub fn set_screening(&self, screening: Arc<dyn Screening>) {
        let _ = self.screening.set(screening);
    }

    /// Whether the spam filter is on.
    pub fn filtering(&self) -> bool {
        self.screening.get().is_some_and(|s| s.filtering())
    }

    /// The owner's screen, `None` while the filter is off.
    pub(crate) fn screen(&self, owner: &str) -> Result<Option<Screen>> {
        if !self.filtering() {
            return Ok(None);
        }
        self.full_screen(owner).map(Some)
    }

    /// The owner's own addresses: those the application knows and the
    /// CalDAV user names that are addresses (`screen.rs` keeps those).
    pub(crate) fn own_addresses(&self, owner: &str) -> Result<Vec<String>> {
        let mut own = self
            .screening
            .get()
            .map(|s| s.addresses(owner))
            .unwrap_or_default();
        own.extend(
            self.db
                .read(|tx| crate::spam_book::caldav_usernames(tx, owner))?,
        );
        Ok(own)
    }

    /// The owner's screen, whether the filter is on or not.
    pub(crate) fn full_screen(&self, owner: &str) -> Result<Screen> {
        let own = self.own_addresses(owner)?;
        let (added, spam) = self.db.read(|tx| {
            Ok::<_, CalendarError>((
                crate::spam_book::organization(tx, owner)?,
                crate::spam_book::spam_senders(tx, owner)?
                    .into_iter()
                    .map(|(address, _)| address)
                    .collect::<Vec<_>>(),
            ))
        })?;
        Ok(Screen::new(own, added, spam))
    }

    /// The rows the screen lets through: every one while the filter is off,
    /// subscriptions' always.
    pub(crate) fn screened(
        &self,
        owner: &str,
        rows: Vec<book::OccurrenceRow>,
    ) -> Result<Vec<Occurrence>> {
        let screen = self.screen(owner)?;
        Ok(rows
            .into_iter()
            .filter(|r| {
                screen.as_ref().is_none_or(|s| {
                    Kind::parse(&r.kind) != Kind::Caldav || !s.hides(r.organizer.as_deref())
                })
            })
            .map(|r| occurrence(r, screen.as_ref()))
            .collect())
    }

    /// Adds an account (not yet synchronised: [`Calendars::sync`] does that).
    pub fn add(&self, owner: &str, new: NewAccount) -> Result<Account> {
        let url = check_url(&new.url)?;
        let username = new
            .username
            .map(|u| u.trim().to_owned())
            .filter(|u| !u.is_empty());
        if username.as_ref().is_some_and(|u| {
            u.chars().count() > MAX_NAME_CHARS || u.contains(':') || u.chars().any(char::is_control)
        }) {
            return Err(CalendarError::invalid(
                "username",
                format!(
                    "must be at most {MAX_NAME_CHARS} characters, without `:` or control characters"
                ),
            ));
        }
        let name = new
            .name
            .map(|n| n.trim().to_owned())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| host_of(&url).to_owned());
        if name.chars().count() > MAX_NAME_CHARS {
            return Err(CalendarError::invalid(
                "name",
                format!("must be at most {MAX_NAME_CHARS} characters"),
            ));
        }
        let id = store::new_id();
        let password = new.password.filter(|p| !p.is_empty());
        let secret_key = match &password {
            Some(password) => {
                let key = format!("CALENDAR_{}", id.to_ascii_uppercase());
                self.secrets
                    .save_key(owner, &key, password)
                    .map_err(|e| match e {
                        secrets::SecretsError::InvalidValue => CalendarError::invalid(
                            "password",
                            "must be 1 to 16384 bytes on one line",
                        ),
                        other => other.into(),
                    })?;
                Some(key)
            }
            None => None,
        };
        let row = AccountRow {
            id: id.clone(),
            kind: new.kind.as_str().to_owned(),
            name,
            url,
            username,
            secret_key: secret_key.clone(),
            status: "pending".to_owned(),
            failure: None,
            warnings: String::new(),
            etag: None,
            last_modified: None,
            content_hash: None,
            window_from: None,
            last_sync_at: None,
            created_at: self.clock.timestamp(),
        };
        if let Err(e) = self.db.write(|tx| book::insert_account(tx, owner, &row)) {
            if let Some(key) = &secret_key {
                let _ = self.secrets.delete_key(owner, key);
            }
            return Err(e);
        }
        self.account(owner, &id)
    }

    pub fn accounts(&self, owner: &str) -> Result<Vec<Account>> {
        self.db.read(|tx| {
            book::accounts(tx, owner)?
                .into_iter()
                .map(|row| shown(tx, row))
                .collect()
        })
    }

    pub fn account(&self, owner: &str, id: &str) -> Result<Account> {
        self.db.read(|tx| match book::account(tx, owner, id)? {
            Some(row) => shown(tx, row),
            None => Err(CalendarError::NotFound(ACCOUNT)),
        })
    }

    /// The accounts of every owner, as (owner, id), not synchronised (nor
    /// tried) in the last `every`: what a sync loop walks, so waking it
    /// early syncs only the new ones.
    pub fn due_accounts(&self, every: time::Duration) -> Result<Vec<(String, String)>> {
        let before = clock::timestamp(self.clock.now() - every);
        self.db.read(|tx| {
            let mut stmt = tx.prepare_cached(
                "SELECT owner, id FROM calendar_accounts
                 WHERE last_sync_at IS NULL OR last_sync_at <= ?1 ORDER BY created_at, id",
            )?;
            let rows = stmt.query_map([before], |r| Ok((r.get(0)?, r.get(1)?)))?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    /// Removes the account, its events and its saved password.
    pub fn remove(&self, owner: &str, id: &str) -> Result<()> {
        let row = self.row(owner, id)?;
        if !self.db.write(|tx| book::delete_account(tx, owner, id))? {
            return Err(CalendarError::NotFound(ACCOUNT));
        }
        if let Some(key) = row.secret_key {
            match self.secrets.delete_key(owner, &key) {
                Ok(()) | Err(secrets::SecretsError::KeyNotFound(_)) => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }

    /// The owner's occurrences overlapping `[from, to)`, earliest first.
    pub fn events(
        &self,
        owner: &str,
        from: OffsetDateTime,
        to: OffsetDateTime,
    ) -> Result<Vec<Occurrence>> {
        if to <= from {
            return Err(CalendarError::invalid("to", "must be after `from`"));
        }
        let rows = self.db.read(|tx| {
            book::occurrences(
                tx,
                owner,
                from.unix_timestamp(),
                to.unix_timestamp(),
                self.options.max_events,
            )
        })?;
        self.screened(owner, rows)
    }

    /// Synchronises one account. A failure of the server or the network
    /// marks the account failing with the reason (and is returned as
    /// [`CalendarError::Remote`]); the events it had stay.
    pub fn sync(&self, owner: &str, id: &str) -> Result<SyncReport> {
        let lock = self.account_lock(id);
        let _one_at_a_time = lock.lock().unwrap_or_else(PoisonError::into_inner);
        let row = self.row(owner, id)?;
        crate::spam_book::read_organizers(&self.db, &row.id)?;
        let window = self.window();
        let mut warnings = Vec::new();
        let outcome = self
            .client(owner, &row)
            .and_then(|dav| match Kind::parse(&row.kind) {
                Kind::Caldav => self
                    .sync_caldav(&row, &dav, window, &mut warnings)
                    .map(|report| (report, Stale::nothing())),
                Kind::Ics => self.sync_ics(&row, &dav, window, &mut warnings),
            });
        let moved = row
            .window_from
            .is_some_and(|w| (window.from - w).abs() >= 86_400);
        let outcome = outcome.and_then(|(report, stale)| {
            if !moved {
                return Ok((report, stale));
            }
            warnings.clear();
            let floating = &self.options.floating_zone;
            import::expand_again(&self.db, &row.id, floating, window, &mut warnings)?;
            Ok((report, Stale::All))
        });
        let now = self.clock.timestamp();
        match outcome {
            Ok((report, stale)) => {
                let mut kept: Vec<String> = row
                    .warnings
                    .lines()
                    .filter(|w| stale.keeps(w))
                    .map(str::to_owned)
                    .collect();
                for w in warnings {
                    if !kept.contains(&w) {
                        kept.push(w);
                    }
                }
                kept.truncate(MAX_WARNINGS);
                let text = kept.join("\n");
                // The window's start is kept until it has moved a day, so a
                // later sync sees that it moved.
                let window_from = (row.window_from.is_none() || moved).then_some(window.from);
                self.db
                    .write(|tx| book::mark(tx, id, None, Some(&text), window_from, &now))?;
                Ok(report)
            }
            Err(CalendarError::Remote(reason)) => {
                self.db
                    .write(|tx| book::mark(tx, id, Some(&reason), None, None, &now))?;
                Err(CalendarError::Remote(reason))
            }
            Err(other) => Err(other),
        }
    }

    /// The lock a sync of the account holds, so what else writes its
    /// objects (the spam trash) waits for the sync to end.
    pub(crate) fn account_lock(&self, id: &str) -> Arc<Mutex<()>> {
        let mut locks = self.syncing.lock().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(locks.entry(id.to_owned()).or_default())
    }

    /// A client for the account, with its password.
    pub(crate) fn client(&self, owner: &str, row: &AccountRow) -> Result<Dav> {
        let password = self.password(owner, row)?;
        Ok(Dav::new(
            &row.url,
            row.username.as_deref(),
            password.as_deref(),
            self.options.timeout,
            self.options.max_body_bytes,
        ))
    }

    /// The account's password from the secrets store; one deleted there
    /// (by the user, in the saved keys) fails the sync like a refusal.
    fn password(&self, owner: &str, row: &AccountRow) -> Result<Option<String>> {
        let Some(key) = &row.secret_key else {
            return Ok(None);
        };
        match self.secrets.reveal(owner, key) {
            Ok(password) => Ok(Some(password)),
            Err(secrets::SecretsError::KeyNotFound(_)) => Err(CalendarError::Remote(format!(
                "the saved key {key} holding the password was deleted: remove the account and add it again"
            ))),
            Err(e) => Err(e.into()),
        }
    }

    pub(crate) fn row(&self, owner: &str, id: &str) -> Result<AccountRow> {
        self.db
            .read(|tx| book::account(tx, owner, id))?
            .ok_or(CalendarError::NotFound(ACCOUNT))
    }

    pub(crate) fn window(&self) -> Window {
        let now = self.clock.now();
        Window {
            from: (now - self.options.past).unix_timestamp(),
            to: (now + self.options.future).unix_timestamp(),
        }
    }

    fn sync_caldav(
        &self,
        row: &AccountRow,
        dav: &Dav,
        window: Window,
        warnings: &mut Vec<String>,
    ) -> Result<SyncReport> {
        let remotes = caldav::discover(dav, &row.url).map_err(CalendarError::Remote)?;
        let stored = self.db.read(|tx| book::collections(tx, &row.id))?;
        let mut report = SyncReport {
            calendars: remotes.len(),
            ..SyncReport::default()
        };
        for gone in stored
            .iter()
            .filter(|s| !remotes.iter().any(|r| r.url == s.url))
        {
            self.db
                .write(|tx| book::delete_collection(tx, &row.id, &gone.url))?;
        }
        for remote in &remotes {
            let known = stored.iter().find(|s| s.url == remote.url);
            self.sync_collection(&row.id, dav, remote, known, window, warnings, &mut report)?;
        }
        Ok(report)
    }

    #[allow(clippy::too_many_arguments)]
    fn sync_collection(
        &self,
        account: &str,
        dav: &Dav,
        remote: &Remote,
        known: Option<&CollectionRow>,
        window: Window,
        warnings: &mut Vec<String>,
        report: &mut SyncReport,
    ) -> Result<()> {
        let mut meta = CollectionRow {
            url: remote.url.clone(),
            name: remote.name.clone(),
            color: remote.color.clone(),
            ctag: remote.ctag.clone(),
            sync_token: remote.sync_token.clone(),
            timezones: String::new(),
        };
        if let Some(known) = known {
            let same_token = remote.sync_token.is_some() && known.sync_token == remote.sync_token;
            let same_ctag =
                remote.sync_token.is_none() && remote.ctag.is_some() && known.ctag == remote.ctag;
            if same_token || same_ctag {
                if known.name != remote.name || known.color != remote.color {
                    self.db
                        .write(|tx| book::put_collection(tx, account, &meta))?;
                }
                return Ok(());
            }
        }
        let remote_err = CalendarError::Remote;
        let delta = match known.and_then(|k| k.sync_token.as_deref()) {
            Some(token) => caldav::changes_since(dav, &remote.url, token).map_err(remote_err)?,
            None => None,
        };
        let (changed, mut removed, token) = match delta {
            Some(delta) => (delta.changed, delta.removed, delta.token),
            None => {
                let (members, token) =
                    caldav::members(dav, &remote.url, remote.sync_token.is_some())
                        .map_err(remote_err)?;
                let have: HashMap<String, Option<String>> = self
                    .db
                    .read(|tx| book::etags(tx, account, &remote.url))?
                    .into_iter()
                    .collect();
                let listed: HashSet<&str> = members.iter().map(|(u, _)| u.as_str()).collect();
                let removed = have
                    .keys()
                    .filter(|h| !listed.contains(h.as_str()))
                    .cloned()
                    .collect();
                let changed = members
                    .iter()
                    .filter(|(url, etag)| etag.is_none() || have.get(url) != Some(etag))
                    .map(|(url, _)| url.clone())
                    .collect();
                (changed, removed, token)
            }
        };
        meta.sync_token = token.or(meta.sync_token);
        let fetched = if changed.is_empty() {
            Vec::new()
        } else {
            caldav::multiget(dav, &remote.url, &changed).map_err(remote_err)?
        };
        let mut puts = Vec::new();
        let budget = Budget::per_read();
        for (url, etag, data) in fetched {
            match data {
                Some(ics) => {
                    let floating = &self.options.floating_zone;
                    let zones = ZonesOf::Own(&budget);
                    let occs = occurrences_of(&ics, zones, floating, window, warnings);
                    puts.push((url, etag, ics, occs));
                }
                None => removed.push(url),
            }
        }
        self.db.write(|tx| {
            book::put_collection(tx, account, &meta)?;
            for url in &removed {
                if book::delete_object(tx, account, &remote.url, url)? {
                    report.removed += 1;
                }
            }
            for (url, etag, ics, occs) in &puts {
                book::put_object(tx, account, &remote.url, url, etag.as_deref(), ics, occs)?;
            }
            Ok::<_, CalendarError>(())
        })?;
        report.fetched += puts.len();
        Ok(())
    }

    fn sync_ics(
        &self,
        row: &AccountRow,
        dav: &Dav,
        window: Window,
        warnings: &mut Vec<String>,
    ) -> Result<(SyncReport, Stale)> {
        let not_modified = SyncReport {
            calendars: 1,
            not_modified: true,
            ..SyncReport::default()
        };
        let fetch = subscription::fetch(
            dav,
            &row.url,
            row.etag.as_deref(),
            row.last_modified.as_deref(),
        )
        .map_err(CalendarError::Remote)?;
        let Fetch::Changed {
            text,
            etag,
            last_modified,
        } = fetch
        else {
            return Ok((not_modified, Stale::nothing()));
        };
        // A server without validators sends the whole file each time: an
        // identical file is not imported again.
        let hash = subscription::digest(&text);
        if row.content_hash.as_deref() == Some(hash.as_str()) {
            self.db.write(|tx| {
                book::set_validators(
                    tx,
                    &row.id,
                    etag.as_deref(),
                    last_modified.as_deref(),
                    &hash,
                )
            })?;
            return Ok((not_modified, Stale::nothing()));
        }
        let split = subscription::split(&text).map_err(|e| {
            CalendarError::Remote(format!("the subscription's file cannot be read: {e}"))
        })?;
        let file = Fetched {
            account: &row.id,
            url: &row.url,
            name: &row.name,
            etag: etag.as_deref(),
            last_modified: last_modified.as_deref(),
            hash: &hash,
        };
        let floating = &self.options.floating_zone;
        import::subscription(&self.db, &file, &split, floating, window, warnings)
    }
}

fn shown(tx: &store::rusqlite::Transaction<'_>, row: AccountRow) -> Result<Account> {
    let calendars = book::collections(tx, &row.id)?
        .into_iter()
        .map(|c| CalendarInfo {
            name: c.name,
            color: c.color,
        })
        .collect();
    Ok(Account {
        kind: Kind::parse(&row.kind),
        status: match row.status.as_str() {
            "ok" => Status::Ok,
            "failing" => Status::Failing,
            _ => Status::Pending,
        },
        has_password: row.secret_key.is_some(),
        warnings: row
            .warnings
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect(),
        id: row.id,
        name: row.name,
        url: row.url,
        username: row.username,
        failure: row.failure,
        last_sync_at: row.last_sync_at,
        created_at: row.created_at,
        calendars,
    })
}

fn stamp(secs: i64) -> String {
    OffsetDateTime::from_unix_timestamp(secs)
        .map(clock::timestamp)
        .unwrap_or_default()
}

/// An http(s) URL without credentials in it; `webcal://` is https.
fn check_url(url: &str) -> Result<String> {
    let url = url.trim();
    let url = match url.get(..9) {
        Some(scheme) if scheme.eq_ignore_ascii_case("webcal://") => {
            format!("https://{}", &url[9..])
        }
        _ => url.to_owned(),
    };
    let lower = url.to_ascii_lowercase();
    if !(lower.starts_with("http://") || lower.starts_with("https://")) {
        return Err(CalendarError::invalid(
            "url",
            "must start with http://, https:// or webcal://",
        ));
    }
    if url.chars().count() > MAX_URL_CHARS
        || url.chars().any(|c| c.is_whitespace() || c.is_control())
    {
        return Err(CalendarError::invalid(
            "url",
            format!("must be at most {MAX_URL_CHARS} characters without spaces"),
        ));
    }
    let authority = &crate::dav::origin(&url)[url.find("://").map_or(0, |i| i + 3)..];
    if authority.is_empty() {
        return Err(CalendarError::invalid("url", "has no host"));
    }
    if authority.contains('@') {
        return Err(CalendarError::invalid(
            "url",
            "put the user name and password in their own fields, not in the url",
        ));
    }
    Ok(url)
}

fn host_of(url: &str) -> &str {
    let origin = crate::dav::origin(url);
    let host = &origin[origin.find("://").map_or(0, |i| i + 3)..];
    match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_checked() {
        assert_eq!(
            check_url(" webcal://h.test/a.ics ").unwrap(),
            "https://h.test/a.ics"
        );
        assert!(check_url("ftp://h.test/").is_err());
        assert!(check_url("https://me:secret@h.test/").is_err());
        assert!(check_url("https:///x").is_err());
        assert_eq!(host_of("http://127.0.0.1:5232/a/"), "127.0.0.1");
    }
}
