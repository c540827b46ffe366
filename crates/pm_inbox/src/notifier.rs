//! The notifier: item events in, inbox rows out. It reads the boards' events
//! by sequence number after the write that recorded them has committed (so
//! an item write never waits for it), applies the board preferences, holds
//! what quiet hours or the digest mode hold, releases it when their time
//! comes, scans due dates once a day, and says when the daily digest is due.
//!
//! What it has noticed is kept in `pm_notices` (held ones until released;
//! delivered ones for the daily digest's list), where it stopped reading in
//! `pm_inbox_state`, and which due dates it has announced in `pm_due_sent`,
//! so a restart neither repeats nor loses anything.

use std::collections::HashMap;
use std::sync::Arc;

use boards::{AccountEvent, Board, BoardsError, ColumnType, EventKind, Item};
use inbox::{Action, Added, Category, Inbox, MAX_BODY_CHARS, NewRow, Source};
use jiff::civil::Date;
use jiff::{SignedDuration, Timestamp};
use store::Db;
use store::rusqlite::{OptionalExtension, Transaction, params};

use crate::prefs::{BoardPreference, Prefs};
use crate::text::{self, Notice};
use crate::window::{self, plus};

#[derive(Debug, thiserror::Error)]
pub enum NotifierError {
    #[error("cannot read the boards")]
    Boards(#[from] BoardsError),
    #[error("cannot add an inbox row")]
    Inbox(#[from] inbox::InboxError),
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl From<store::rusqlite::Error> for NotifierError {
    fn from(e: store::rusqlite::Error) -> Self {
        NotifierError::Store(e.into())
    }
}

pub type Result<T, E = NotifierError> = std::result::Result<T, E>;

/// A row the notifier added or bumped, for the caller to announce.
#[derive(Debug, Clone)]
pub struct Delivered {
    pub account_id: String,
    pub added: Added,
}

/// A local day, as the absolute span it covered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DayRange {
    pub day: Date,
    pub from: Timestamp,
    pub to: Timestamp,
}

/// What a tick did, and the day that just ended when a daily digest is due
/// (the caller gathers the sessions' part, which this crate cannot see).
#[derive(Debug, Default)]
pub struct Tick {
    pub delivered: Vec<Delivered>,
    pub daily_digest: Option<DayRange>,
}

/// One account's sessions over a day.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SessionTally {
    pub started: u32,
    pub finished: u32,
    pub failed: u32,
    /// What the sessions active that day cost, where their engines said.
    pub cost_usd: f64,
}

/// Events read per query: large enough that a 10,000-item batch is ten reads.
const BATCH: u32 = 1000;
/// The longest sleep between ticks, so a settings change that nothing
/// announced is still seen within the hour.
const LONGEST_SLEEP: SignedDuration = SignedDuration::from_hours(1);

pub struct Notifier {
    db: Arc<Db>,
    inbox: Arc<Inbox>,
}

/// Reads shared by the events of one pass, each made once.
#[derive(Default)]
struct Lookup {
    boards: HashMap<String, Option<Board>>,
    members: HashMap<String, HashMap<String, String>>,
    me: HashMap<String, Option<String>>,
}

impl Lookup {
    fn board(&mut self, db: &Db, account: &str, id: &str) -> Result<Option<&Board>> {
        if !self.boards.contains_key(id) {
            let board = absent_if_missing(boards::get_board(db, account, id))?;
            self.boards.insert(id.to_owned(), board);
        }
        Ok(self.boards.get(id).and_then(Option::as_ref))
    }

    fn member_name(&mut self, db: &Db, account: &str, id: &str) -> Result<Option<String>> {
        if !self.members.contains_key(account) {
            let names = boards::list_members(db, account)?
                .into_iter()
                .map(|m| (m.id, m.name))
                .collect();
            self.members.insert(account.to_owned(), names);
        }
        Ok(self.members.get(account).and_then(|m| m.get(id)).cloned())
    }

    fn me(&mut self, db: &Db, account: &str) -> Result<Option<String>> {
        if !self.me.contains_key(account) {
            let id = boards::self_member_id(db, account)?;
            self.me.insert(account.to_owned(), id);
        }
        Ok(self.me.get(account).cloned().flatten())
    }
}

fn absent_if_missing<T>(found: boards::Result<T>) -> Result<Option<T>> {
    match found {
        Ok(value) => Ok(Some(value)),
        Err(BoardsError::NotFound { .. }) => Ok(None),
        Err(error) => Err(error.into()),
    }
}

/// The member ids in an item's people columns.
fn people(board: &Board, item: &Item) -> Vec<String> {
    board
        .columns
        .iter()
        .filter(|c| c.kind == ColumnType::People)
        .filter_map(|c| item.values.get(&c.id).and_then(|v| v.as_array()))
        .flatten()
        .filter_map(|m| m.as_str().map(str::to_owned))
        .collect()
}

/// Why a notice waits, and until when (Unix seconds).
fn hold(prefs: &Prefs, now: Timestamp) -> Option<(&'static str, i64)> {
    if let Some(quiet) = prefs.quiet
        && quiet.contains(&prefs.zone, now)
    {
        return Some(("quiet", quiet.end_after(&prefs.zone, now).as_second()));
    }
    if prefs.digest {
        return Some((
            "digest",
            window::next_hour_top(&prefs.zone, now).as_second(),
        ));
    }
    None
}

fn insert_notice(
    tx: &Transaction<'_>,
    notice: &Notice,
    day: &str,
    held: Option<(&str, i64)>,
) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO pm_notices (account_id, day, board_id, board_name, item_id, summary,
             actor, session_id, reason, held, release_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?
    .execute(params![
        notice.account_id,
        day,
        notice.board_id,
        notice.board_name,
        notice.item_id,
        notice.summary,
        notice.actor,
        notice.session_id,
        notice.reason,
        held.map(|h| h.0),
        held.map(|h| h.1),
    ])?;
    Ok(())
}

fn set_state(tx: &Transaction<'_>, key: &str, value: &str) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO pm_inbox_state (key, value) VALUES (?1, ?2)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    )?
    .execute([key, value])?;
    Ok(())
}

fn read_notice(r: &store::rusqlite::Row<'_>) -> store::rusqlite::Result<Notice> {
    read_notice_at(r, 0)
}

const NOTICE_COLUMNS: &str =
    "account_id, board_id, board_name, item_id, summary, actor, session_id, reason";

/// A project event's own row.
fn event_row(notice: &Notice) -> NewRow {
    let mut row = NewRow::new(Category::PmEvent, notice.title());
    row.body = Some(notice.body());
    row.source = Source {
        board_id: Some(notice.board_id.clone()),
        item_id: Some(notice.item_id.clone()),
        session_id: notice.session_id.clone(),
        ..Source::default()
    };
    row.actions.push(Action::OpenItem {
        board_id: notice.board_id.clone(),
        item_id: notice.item_id.clone(),
    });
    if let Some(session_id) = &notice.session_id {
        row.actions.push(Action::OpenSession {
            session_id: session_id.clone(),
        });
    }
    row.dedup(&notice.reason)
}

/// One digest row for an account's released notices, listed by board.
fn digest_row(notices: &[&Notice]) -> NewRow {
    let title = format!(
        "Project digest: {} on {}",
        text::plural(notices.len(), "event", "events"),
        text::plural(
            text::board_count(notices.iter().copied()),
            "board",
            "boards"
        )
    );
    let mut row = NewRow::new(Category::Digest, title);
    row.body = Some(text::by_board(notices.iter().copied()));
    row
}

impl Notifier {
    pub fn new(db: Arc<Db>, inbox: Arc<Inbox>) -> Self {
        Self { db, inbox }
    }

    fn state(&self, key: &str) -> Result<Option<String>> {
        self.db.read(|tx| {
            Ok(tx
                .prepare_cached("SELECT value FROM pm_inbox_state WHERE key = ?1")?
                .query_row([key], |r| r.get(0))
                .optional()?)
        })
    }

    fn deliver(&self, account_id: &str, row: NewRow) -> Result<Delivered> {
        Ok(Delivered {
            account_id: account_id.to_owned(),
            added: self.inbox.add(account_id, row)?,
        })
    }

    /// Turns the item events recorded since the last call into notices:
    /// delivered now, or held for quiet hours or the digest. The first call
    /// ever starts at the newest event, so history is not replayed.
    pub fn take_events(&self, prefs: &Prefs, now: Timestamp) -> Result<Vec<Delivered>> {
        let mut cursor = match self.state("cursor")? {
            Some(seq) => seq.parse::<i64>().unwrap_or(0),
            None => {
                let last = boards::last_event_seq(&self.db)?;
                self.db
                    .write(|tx| set_state(tx, "cursor", &last.to_string()))?;
                return Ok(Vec::new());
            }
        };
        let day = window::local_day(&prefs.zone, now).to_string();
        let held = hold(prefs, now);
        let mut lookup = Lookup::default();
        let mut delivered = Vec::new();
        // The items whose dates the events set or changed.
        let mut dated = Vec::new();
        loop {
            let events = boards::events_after(&self.db, cursor, BATCH)?;
            let Some(last) = events.last().map(|e| e.event.seq) else {
                break;
            };
            let mut notices = Vec::new();
            if prefs.enabled {
                for event in &events {
                    if matches!(
                        event.event.kind,
                        EventKind::DueDateSet | EventKind::DueDateChanged
                    ) {
                        dated.push(event.event.item_id.clone());
                    }
                    if let Some(notice) = self.notice_of(&mut lookup, prefs, event)? {
                        notices.push(notice);
                    }
                }
            }
            self.db.write(|tx| {
                for notice in &notices {
                    insert_notice(tx, notice, &day, held)?;
                }
                set_state(tx, "cursor", &last.to_string())
            })?;
            if held.is_none() {
                for notice in &notices {
                    delivered.push(self.deliver(&notice.account_id, event_row(notice))?);
                }
            }
            cursor = last;
        }
        // A date set to today or the past is due or overdue now, not tomorrow.
        if !dated.is_empty() {
            dated.sort_unstable();
            dated.dedup();
            delivered.extend(self.scan_due_among(prefs, now, Some(&dated))?);
        }
        Ok(delivered)
    }

    /// The notice an event makes under the board's preference, if any.
    fn notice_of(
        &self,
        lookup: &mut Lookup,
        prefs: &Prefs,
        event: &AccountEvent,
    ) -> Result<Option<Notice>> {
        let (account, e) = (&event.account_id, &event.event);
        let preference = prefs.board(&e.board_id);
        if preference == BoardPreference::None {
            return Ok(None);
        }
        let me = match preference {
            BoardPreference::AssignedOnly => lookup.me(&self.db, account)?,
            _ => None,
        };
        let member = match &e.member_id {
            Some(id) => lookup.member_name(&self.db, account, id)?,
            None => None,
        };
        let Some(board) = lookup.board(&self.db, account, &e.board_id)? else {
            return Ok(None);
        };
        // An item deleted since has nothing left to open.
        let Some(item) = absent_if_missing(boards::get_item(&self.db, account, &e.item_id))? else {
            return Ok(None);
        };
        if preference == BoardPreference::AssignedOnly
            && !me.is_some_and(|me| people(board, &item).contains(&me))
        {
            return Ok(None);
        }
        let (actor, session_id) = text::actor(&e.actor);
        Ok(Some(Notice {
            account_id: account.clone(),
            board_id: board.id.clone(),
            board_name: board.name.clone(),
            item_id: item.id.clone(),
            summary: text::summary(e, &item.name, member.as_deref()),
            actor,
            session_id,
            reason: format!(
                "{}:{}:{}",
                e.kind.as_str(),
                e.column_id,
                e.member_id.as_deref().unwrap_or("")
            ),
        }))
    }

    /// Due dates: an item due today gets a notice (held like any other), an
    /// item past its date and not done an overdue one, sent at once whatever
    /// quiet hours or the digest say; each at most once per item, column and
    /// day.
    pub fn scan_due(&self, prefs: &Prefs, now: Timestamp) -> Result<Vec<Delivered>> {
        self.scan_due_among(prefs, now, None)
    }

    /// [`Notifier::scan_due`] over every dated item, or over `items` only.
    fn scan_due_among(
        &self,
        prefs: &Prefs,
        now: Timestamp,
        items: Option<&[String]>,
    ) -> Result<Vec<Delivered>> {
        if !prefs.enabled {
            return Ok(Vec::new());
        }
        let day = window::local_day(&prefs.zone, now).to_string();
        let held = hold(prefs, now);
        let mut lookup = Lookup::default();
        let mut candidates = Vec::new();
        for item in boards::dated_items(&self.db, &day, items)? {
            let preference = prefs.board(&item.board_id);
            let overdue = item.date < day;
            if preference == BoardPreference::None || item.done {
                continue;
            }
            if preference == BoardPreference::AssignedOnly {
                let me = lookup.me(&self.db, &item.account_id)?;
                if !me.is_some_and(|me| item.people.contains(&me)) {
                    continue;
                }
            }
            let (kind, summary) = if overdue {
                (
                    "overdue",
                    format!("{} is overdue (due {})", item.item_name, item.date),
                )
            } else {
                ("due_today", format!("{} is due today", item.item_name))
            };
            let notice = Notice {
                account_id: item.account_id,
                board_id: item.board_id,
                board_name: item.board_name,
                item_id: item.item_id,
                summary,
                actor: format!("its date in {}", item.column_title),
                session_id: None,
                reason: format!("{kind}:{}", item.column_id),
            };
            candidates.push((notice, item.column_id, kind, overdue));
        }
        let fresh = self.db.write(|tx| {
            let mut fresh = Vec::new();
            for (notice, column, kind, overdue) in candidates {
                let added = tx
                    .prepare_cached(
                        "INSERT OR IGNORE INTO pm_due_sent (item_id, column_id, day, kind)
                         VALUES (?1, ?2, ?3, ?4)",
                    )?
                    .execute(params![notice.item_id, column, day, kind])?;
                if added == 0 {
                    continue;
                }
                let waits = if overdue { None } else { held };
                insert_notice(tx, &notice, &day, waits)?;
                if waits.is_none() {
                    fresh.push(notice);
                }
            }
            Ok::<_, NotifierError>(fresh)
        })?;
        fresh
            .iter()
            .map(|n| self.deliver(&n.account_id, event_row(n)))
            .collect()
    }

    /// Time-driven work at `now`: the start of a new local day (its due-date
    /// scan, and the daily digest of the day that ended), and the release of
    /// held notices whose time has come.
    pub fn tick(&self, prefs: &Prefs, now: Timestamp) -> Result<Tick> {
        let mut tick = Tick::default();
        let today = window::local_day(&prefs.zone, now);
        let last_day = self.state("day")?.and_then(|day| day.parse::<Date>().ok());
        if last_day != Some(today) {
            self.db
                .write(|tx| set_state(tx, "day", &today.to_string()))?;
            tick.delivered.extend(self.scan_due(prefs, now)?);
            if prefs.daily.is_some()
                && last_day.is_some_and(|last| last < today)
                && let Ok(day) = today.yesterday()
                && let (Some(from), Some(to)) = (
                    window::start_of_day(&prefs.zone, day),
                    window::start_of_day(&prefs.zone, today),
                )
            {
                tick.daily_digest = Some(DayRange { day, from, to });
            }
        }
        tick.delivered.extend(self.release(prefs, now)?);
        Ok(tick)
    }

    /// Releases held notices: nothing while quiet hours hold; else all that
    /// quiet hours held, and what the digest held once its hour has come
    /// (everything when the digest mode was turned off). In digest mode they
    /// go out as one digest row per account, else one row each.
    fn release(&self, prefs: &Prefs, now: Timestamp) -> Result<Vec<Delivered>> {
        if let Some(quiet) = prefs.quiet
            && quiet.contains(&prefs.zone, now)
        {
            return Ok(Vec::new());
        }
        let due = self.db.write(|tx| {
            let due: Vec<(i64, Notice)> = tx
                .prepare_cached(&format!(
                    "SELECT seq, {NOTICE_COLUMNS} FROM pm_notices
                     WHERE held IS NOT NULL AND (held = 'quiet' OR ?1 OR release_at <= ?2)
                     ORDER BY seq"
                ))?
                .query_map(params![!prefs.digest, now.as_second()], |r| {
                    Ok((r.get(0)?, read_notice_at(r, 1)?))
                })?
                .collect::<Result<_, _>>()?;
            for (seq, _) in &due {
                tx.prepare_cached("UPDATE pm_notices SET held = NULL WHERE seq = ?1")?
                    .execute([seq])?;
            }
            Ok::<_, NotifierError>(due)
        })?;
        let notices: Vec<Notice> = due.into_iter().map(|(_, n)| n).collect();
        if !prefs.digest {
            return notices
                .iter()
                .map(|n| self.deliver(&n.account_id, event_row(n)))
                .collect();
        }
        let mut accounts: Vec<&str> = notices.iter().map(|n| n.account_id.as_str()).collect();
        accounts.sort_unstable();
        accounts.dedup();
        accounts
            .into_iter()
            .map(|account| {
                let mine: Vec<&Notice> =
                    notices.iter().filter(|n| n.account_id == account).collect();
                self.deliver(account, digest_row(&mine))
            })
            .collect()
    }

    /// When the next tick has something to do: the next local day, the end
    /// of quiet hours or the digest's hour when something is held, and at
    /// most an hour away.
    pub fn next_wake(&self, prefs: &Prefs, now: Timestamp) -> Result<Timestamp> {
        let mut wake = window::next_day_start(&prefs.zone, now).min(plus(now, LONGEST_SLEEP));
        let held: Vec<(String, Option<i64>)> = self.db.read(|tx| {
            Ok::<_, NotifierError>(
                tx.prepare_cached(
                    "SELECT held, min(release_at) FROM pm_notices
                     WHERE held IS NOT NULL GROUP BY held",
                )?
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?,
            )
        })?;
        if held.is_empty() {
            return Ok(wake);
        }
        if let Some(quiet) = prefs.quiet
            && quiet.contains(&prefs.zone, now)
        {
            return Ok(wake.min(quiet.end_after(&prefs.zone, now)));
        }
        for (reason, release_at) in held {
            let at = match (reason.as_str(), release_at) {
                ("digest", Some(at)) if prefs.digest => Timestamp::from_second(at).unwrap_or(now),
                _ => now,
            };
            wake = wake.min(at);
        }
        Ok(wake.max(now))
    }

    /// Posts the daily digest of `range.day` for each account: its sessions
    /// (as the caller counted them) and the project events noticed that day,
    /// by board, as the sources chosen.
    pub fn post_daily_digest(
        &self,
        prefs: &Prefs,
        range: &DayRange,
        accounts: &[(String, SessionTally)],
    ) -> Result<Vec<Delivered>> {
        let Some(sources) = prefs.daily else {
            return Ok(Vec::new());
        };
        let day = range.day.to_string();
        let mut delivered = Vec::new();
        for (account, tally) in accounts {
            let mut body = String::new();
            if sources.sessions {
                body.push_str(&format!(
                    "Sessions: {} started, {} finished, {} failed; cost ${:.2}.\n",
                    tally.started, tally.finished, tally.failed, tally.cost_usd
                ));
            }
            if sources.pm_events {
                let notices: Vec<Notice> = self.db.read(|tx| {
                    Ok::<_, NotifierError>(
                        tx.prepare_cached(&format!(
                            "SELECT {NOTICE_COLUMNS} FROM pm_notices
                             WHERE account_id = ?1 AND day = ?2 ORDER BY seq"
                        ))?
                        .query_map([account, &day], read_notice)?
                        .collect::<Result<_, _>>()?,
                    )
                })?;
                body.push_str(&format!("Project events: {}.\n", notices.len()));
                if !notices.is_empty() {
                    body.push('\n');
                    body.push_str(&text::by_board(&notices));
                }
            }
            let mut row = NewRow::new(Category::Digest, format!("Daily digest for {day}"));
            row.body = Some(inbox::clip(body.trim_end(), MAX_BODY_CHARS));
            delivered.push(self.deliver(account, row)?);
        }
        Ok(delivered)
    }
}

fn read_notice_at(r: &store::rusqlite::Row<'_>, from: usize) -> store::rusqlite::Result<Notice> {
    Ok(Notice {
        account_id: r.get(from)?,
        board_id: r.get(from + 1)?,
        board_name: r.get(from + 2)?,
        item_id: r.get(from + 3)?,
        summary: r.get(from + 4)?,
        actor: r.get(from + 5)?,
        session_id: r.get(from + 6)?,
        reason: r.get(from + 7)?,
    })
}
