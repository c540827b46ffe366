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

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use boards::{Board, BoardsError, ColumnType, EventKind, Item, ItemEvent};
use inbox::{Action, Added, Category, Inbox, NewRow, Source};
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

/// What one agent changed on one board during a pass: each item once, in
/// the order of its last change, with that change.
#[derive(Default)]
struct Changed {
    /// Each item's last change, an item once.
    last: Vec<ItemEvent>,
    /// Where each item's change is in `last`.
    at: HashMap<String, usize>,
}

impl Changed {
    fn add(&mut self, event: ItemEvent) {
        match self.at.get(&event.item_id) {
            Some(&at) => self.last[at] = event,
            None => {
                self.at.insert(event.item_id.clone(), self.last.len());
                self.last.push(event);
            }
        }
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
             actor, session_id, reason, held, release_at, count)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
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
        notice.count,
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
    "account_id, board_id, board_name, item_id, summary, actor, session_id, reason, count";

/// A notice's row. Its source is the board (and the agent's session), not
/// an item, so the notices of one fold meet in one unread row whatever items
/// they name.
fn event_row(notice: &Notice) -> NewRow {
    let mut row = NewRow::new(Category::PmEvent, notice.title());
    row.body = Some(notice.body());
    row.source = Source {
        board_id: Some(notice.board_id.clone()),
        session_id: notice.session_id.clone(),
        ..Source::default()
    };
    row.actions.push(Action::OpenBoard {
        board_id: notice.board_id.clone(),
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
        text::plural(
            notices.iter().map(|n| n.count as usize).sum(),
            "event",
            "events"
        ),
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

    /// A notice as its inbox row: added, or folded into its unread twin,
    /// which then counts both.
    fn deliver_notice(&self, notice: &Notice) -> Result<Delivered> {
        Ok(Delivered {
            account_id: notice.account_id.clone(),
            added: self.inbox.add_counted(
                &notice.account_id,
                event_row(notice),
                notice.count,
                &|total| Some(notice.title_for(total)),
            )?,
        })
    }

    /// Turns the item events recorded since the last call into notices:
    /// delivered now, or held for quiet hours or the digest. The first call
    /// ever starts at the newest event, so history is not replayed.
    ///
    /// A member's own changes are passed over without a read; an agent
    /// session's are gathered per board and session, and each group becomes
    /// one notice counting its items, so the work is a scan of the events
    /// plus a few reads per notice made, whatever the batch size.
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
        let start = cursor;
        // Per account, board and agent: the items changed, in order, each once.
        let mut changes: BTreeMap<(String, String, String), Changed> = BTreeMap::new();
        // The items whose dates the events set or changed.
        let mut dated = Vec::new();
        loop {
            let events = boards::events_after(&self.db, cursor, BATCH)?;
            let Some(last) = events.last().map(|e| e.event.seq) else {
                break;
            };
            cursor = last;
            if !prefs.enabled {
                continue;
            }
            for event in events {
                let e = &event.event;
                if matches!(e.kind, EventKind::DueDateSet | EventKind::DueDateChanged) {
                    dated.push(e.item_id.clone());
                }
                if !text::is_agent(&e.actor) || prefs.board(&e.board_id) == BoardPreference::None {
                    continue;
                }
                changes
                    .entry((event.account_id, e.board_id.clone(), e.actor.clone()))
                    .or_default()
                    .add(event.event);
            }
        }
        if cursor == start {
            return Ok(Vec::new());
        }
        let day = window::local_day(&prefs.zone, now).to_string();
        let held = hold(prefs, now);
        let mut lookup = Lookup::default();
        let mut notices = Vec::new();
        for ((account, board_id, _), changed) in changes {
            if let Some(notice) =
                self.fold_changes(&mut lookup, prefs, &account, &board_id, changed)?
            {
                notices.push(notice);
            }
        }
        self.db.write(|tx| {
            for notice in &notices {
                insert_notice(tx, notice, &day, held)?;
            }
            set_state(tx, "cursor", &cursor.to_string())
        })?;
        let mut delivered = Vec::new();
        if held.is_none() {
            for notice in &notices {
                delivered.push(self.deliver_notice(notice)?);
            }
        }
        // A date set to today or the past is due or overdue now, not tomorrow.
        if !dated.is_empty() {
            dated.sort_unstable();
            dated.dedup();
            delivered.extend(self.scan_due_among(prefs, now, Some(&dated))?);
        }
        Ok(delivered)
    }

    /// One notice for what an agent changed on a board in one pass, under
    /// the board's preference: its items still there (and, at
    /// assigned-only, assigned to the account's own member), counted; the
    /// last of them named.
    fn fold_changes(
        &self,
        lookup: &mut Lookup,
        prefs: &Prefs,
        account: &str,
        board_id: &str,
        changed: Changed,
    ) -> Result<Option<Notice>> {
        let Some(board) = lookup.board(&self.db, account, board_id)?.cloned() else {
            return Ok(None);
        };
        let assigned_only = prefs.board(board_id) == BoardPreference::AssignedOnly;
        let me = if assigned_only {
            lookup.me(&self.db, account)?
        } else {
            None
        };
        let mut count = 0u32;
        let mut last: Option<(Item, &ItemEvent)> = None;
        if assigned_only {
            for event in &changed.last {
                let item = absent_if_missing(boards::get_item(&self.db, account, &event.item_id))?;
                if let Some(item) = item
                    && me
                        .as_ref()
                        .is_some_and(|me| people(&board, &item).contains(me))
                {
                    count += 1;
                    last = Some((item, event));
                }
            }
        } else {
            count = u32::try_from(changed.last.len()).unwrap_or(u32::MAX);
            // Named by the last item still there; one read, not one per item.
            for event in changed.last.iter().rev() {
                let item = absent_if_missing(boards::get_item(&self.db, account, &event.item_id))?;
                if let Some(item) = item {
                    last = Some((item, event));
                    break;
                }
            }
        }
        let Some((item, event)) = last else {
            return Ok(None);
        };
        let member = match &event.member_id {
            Some(id) => lookup.member_name(&self.db, account, id)?,
            None => None,
        };
        let (actor, session_id) = text::actor(&event.actor);
        Ok(Some(Notice {
            account_id: account.to_owned(),
            board_id: board.id.clone(),
            board_name: board.name.clone(),
            item_id: item.id.clone(),
            summary: text::summary(event, &item.name, member.as_deref()),
            actor,
            reason: format!("changes:{}", session_id.as_deref().unwrap_or("agent")),
            session_id,
            count,
        }))
    }

    /// Due dates: the items due today and those past their date and not
    /// done, of each account whose own member they are assigned to, folded
    /// into one notice per board, kind and day. Due-today notices are held
    /// like any other; overdue ones go at once whatever quiet hours or the
    /// digest say. Each item counts at most once per column, kind and day.
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
            if prefs.board(&item.board_id) == BoardPreference::None || item.done {
                continue;
            }
            let me = lookup.me(&self.db, &item.account_id)?;
            if !me.is_some_and(|me| item.people.contains(&me)) {
                continue;
            }
            candidates.push(item);
        }
        if candidates.is_empty() {
            return Ok(Vec::new());
        }
        let notices = self.db.write(|tx| {
            let mut folds: BTreeMap<(String, String, &'static str), Notice> = BTreeMap::new();
            for item in candidates {
                let overdue = item.date < day;
                let kind = if overdue { "overdue" } else { "due_today" };
                let added = tx
                    .prepare_cached(
                        "INSERT OR IGNORE INTO pm_due_sent (item_id, column_id, day, kind)
                         VALUES (?1, ?2, ?3, ?4)",
                    )?
                    .execute(params![item.item_id, item.column_id, day, kind])?;
                if added == 0 {
                    continue;
                }
                let summary = if overdue {
                    format!("{} is overdue (due {})", item.item_name, item.date)
                } else {
                    format!("{} is due today", item.item_name)
                };
                let fold = folds
                    .entry((item.account_id.clone(), item.board_id.clone(), kind))
                    .or_insert_with(|| Notice {
                        account_id: item.account_id.clone(),
                        board_id: item.board_id.clone(),
                        board_name: item.board_name.clone(),
                        item_id: String::new(),
                        summary: String::new(),
                        actor: format!("its date in {}", item.column_title),
                        session_id: None,
                        reason: format!("{kind}:{day}"),
                        count: 0,
                    });
                fold.item_id = item.item_id;
                fold.summary = summary;
                fold.count += 1;
            }
            let mut fresh = Vec::new();
            for ((_, _, kind), notice) in folds {
                let waits = if kind == "overdue" { None } else { held };
                insert_notice(tx, &notice, &day, waits)?;
                if waits.is_none() {
                    fresh.push(notice);
                }
            }
            Ok::<_, NotifierError>(fresh)
        })?;
        notices.iter().map(|n| self.deliver_notice(n)).collect()
    }

    /// Deletes, in short transactions, what is past keeping at `now`: read
    /// inbox rows and released notices older than [`inbox::RETENTION_DAYS`],
    /// the item events the notifier has read that are as old, and the due
    /// records of earlier days (each only guards against a repeat within
    /// its day). Runs at the start of each local day.
    pub fn prune(&self, prefs: &Prefs, now: Timestamp) -> Result<()> {
        const CHUNK: u32 = 1000;
        let cutoff = plus(now, SignedDuration::from_hours(-24 * inbox::RETENTION_DAYS));
        let before = cutoff.strftime("%Y-%m-%dT%H:%M:%S.000Z").to_string();
        let today = window::local_day(&prefs.zone, now).to_string();
        let oldest_day = window::local_day(&prefs.zone, cutoff).to_string();
        while self.inbox.prune_read(&before, CHUNK)? == CHUNK as usize {}
        let read_up_to = self
            .state("cursor")?
            .and_then(|seq| seq.parse::<i64>().ok())
            .unwrap_or(0);
        while boards::prune_events(&self.db, read_up_to, &before, CHUNK)? == CHUNK as usize {}
        // At most a day's assigned dated items: one statement.
        self.db.write(|tx| {
            tx.execute("DELETE FROM pm_due_sent WHERE day < ?1", [&today])?;
            Ok::<_, NotifierError>(())
        })?;
        loop {
            let gone = self.db.write(|tx| {
                Ok::<_, NotifierError>(tx.execute(
                    "DELETE FROM pm_notices WHERE seq IN (
                       SELECT seq FROM pm_notices WHERE day < ?1 AND held IS NULL LIMIT ?2)",
                    params![oldest_day, CHUNK],
                )?)
            })?;
            if gone < CHUNK as usize {
                return Ok(());
            }
        }
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
            self.prune(prefs, now)?;
            tick.delivered.extend(self.scan_due(prefs, now)?);
            if prefs.daily
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
            return notices.iter().map(|n| self.deliver_notice(n)).collect();
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

    /// The project events noticed for `account_id` on the local day `day`
    /// (`YYYY-MM-DD`), for the daily briefing: how many, and listed by
    /// board (empty when none).
    pub fn day_events(&self, account_id: &str, day: &str) -> Result<(u32, String)> {
        let notices: Vec<Notice> = self.db.read(|tx| {
            Ok::<_, NotifierError>(
                tx.prepare_cached(&format!(
                    "SELECT {NOTICE_COLUMNS} FROM pm_notices
                     WHERE account_id = ?1 AND day = ?2 ORDER BY seq"
                ))?
                .query_map([account_id, day], read_notice)?
                .collect::<Result<_, _>>()?,
            )
        })?;
        let events: u32 = notices.iter().map(|n| n.count).sum();
        let listed = if notices.is_empty() {
            String::new()
        } else {
            text::by_board(&notices)
        };
        Ok((events, listed))
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
        count: r.get(from + 8)?,
    })
}
