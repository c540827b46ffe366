//! The `drips` and `drip_items` tables: making a drip, its queue (a
//! folder's files or items added in the app), and releasing the next item
//! at each tick.
//!
//! A folder drip's waiting items follow its folder: each read of the drip
//! lists the folder again, a new file becomes a waiting item and a waiting
//! item whose file is gone is dropped. A released item keeps the content it
//! was released with, whatever happens to its file.
//!
//! [`Drips::release_due`] reads the folder and the next item's file
//! outside the write transaction (a slow disk never holds the database),
//! then claims the tick only if the drip still waits for it: the tick
//! moves on, the item is marked released and its delivery goes to the
//! outbox in one transaction.

use std::path::Path;

use jiff::Timestamp;
use store::rusqlite::{self, OptionalExtension, Row, Transaction, params};

use crate::deliveries::{Release, insert};
use crate::error::{DripError, gather};
use crate::folder::{self, natural_cmp};
use crate::item::{Item, ItemContent, ItemKind, NewItem, checked_name};
use crate::queue::{Drip, MAX_DRIP_NAME_CHARS, NewDrip};
use crate::service::Drips;
use crate::timed::{self, Move, Table, Timed};
use crate::timing::{read_timing, unreadable};
use automations::{Problems, stamp};

use crate::when::{self, Due, Fields};

const COLUMNS: &str = "id, account_id, name, folder, kind, spec, time_zone, state, next_at, \
                       last_released_at, skipped, created_at, updated_at";

/// An item's row: what orders it, and its content when stored.
struct ItemRow {
    item: Item,
    seq: i64,
    content: Option<String>,
}

impl Drips {
    /// Makes a drip, active at once: its first release is at the rule's
    /// first tick after now.
    pub fn create_drip(&self, account_id: &str, fields: &NewDrip) -> Result<Drip, DripError> {
        let now = self.now();
        let mut problems = Problems::new();
        let name = match checked_name(&fields.name, "name", MAX_DRIP_NAME_CHARS) {
            Ok(name) => Some(name),
            Err(_) if fields.name.trim().is_empty() => {
                problems.add("name", "Name the drip.");
                None
            }
            Err(error) => {
                gather(&mut problems, error)?;
                None
            }
        };
        let folder = match fields.folder.as_deref().filter(|f| !f.trim().is_empty()) {
            Some(given) => match folder::check(given, &self.protected) {
                Ok(folder) => Some(Some(folder)),
                Err(error) => {
                    gather(&mut problems, error)?;
                    None
                }
            },
            None => Some(None),
        };
        let timing = when::check_into(
            Fields {
                at: None,
                cron: fields.cron.as_deref(),
                rrule: fields.rrule.as_deref(),
                time_zone: Some(&fields.time_zone),
            },
            now,
            false,
            &mut problems,
        )?;
        let (Some(name), Some(folder), Some(timing)) = (name, folder, timing) else {
            return Err(problems.into());
        };
        if !problems.is_empty() {
            return Err(problems.into());
        }
        let id = store::new_id();
        self.db.write(|tx| {
            tx.execute(
                &format!(
                    "INSERT INTO drips ({COLUMNS})
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'active', ?8, NULL, 0, ?9, ?9)"
                ),
                params![
                    id,
                    account_id,
                    name,
                    folder.map(|f| f.display().to_string()),
                    timing.kind.as_str(),
                    timing.spec,
                    timing.time_zone,
                    stamp(timing.first),
                    stamp(now),
                ],
            )?;
            Ok::<_, DripError>(())
        })?;
        self.drip(account_id, &id)
    }

    /// The account's drips, oldest first, each with its queue counted (a
    /// folder's read again).
    pub fn list_drips(&self, account_id: &str) -> Result<Vec<Drip>, DripError> {
        let drips = self.db.read(|tx| {
            let mut stmt = tx.prepare(&format!(
                "SELECT {COLUMNS} FROM drips WHERE account_id = ?1 ORDER BY seq"
            ))?;
            let rows = stmt.query_map([account_id], read_row)?;
            Ok::<_, DripError>(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })?;
        drips.into_iter().map(|drip| self.complete(drip)).collect()
    }

    pub fn drip(&self, account_id: &str, id: &str) -> Result<Drip, DripError> {
        let drip = self.db.read(|tx| find_drip(tx, account_id, id))?;
        self.complete(drip)
    }

    /// Stops a drip: no tick until it is resumed, none caught up then.
    pub fn pause_drip(&self, account_id: &str, id: &str) -> Result<Drip, DripError> {
        let drip = self.change(Table::Drips, Move::Pause, account_id, id, find_drip)?;
        self.complete(drip)
    }

    /// Starts a paused drip again at its next tick.
    pub fn resume_drip(&self, account_id: &str, id: &str) -> Result<Drip, DripError> {
        let drip = self.change(Table::Drips, Move::Resume, account_id, id, find_drip)?;
        self.complete(drip)
    }

    /// Deletes a drip and its items' records (never a folder's files).
    pub fn delete_drip(&self, account_id: &str, id: &str) -> Result<(), DripError> {
        self.db
            .write(|tx| timed::delete(tx, Table::Drips, account_id, id))
    }

    /// Adds an item at the end of an app drip's queue.
    pub fn add_item(
        &self,
        account_id: &str,
        drip_id: &str,
        fields: &NewItem,
    ) -> Result<Item, DripError> {
        let (name, kind) = fields.checked()?;
        let id = store::new_id();
        let now = stamp(self.now());
        self.db.write(|tx| {
            let drip = find_drip(tx, account_id, drip_id)?;
            if let Some(folder) = drip.folder {
                return Err(DripError::FolderDrip(folder));
            }
            tx.execute(
                "INSERT INTO drip_items (id, drip_id, name, kind, content, released_at, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, NULL, ?6)",
                params![id, drip_id, name, kind.as_str(), fields.content, now],
            )?;
            Ok(())
        })?;
        self.items(account_id, drip_id)?
            .into_iter()
            .find(|item| item.id == id)
            .ok_or(DripError::ItemNotFound)
    }

    /// Removes a waiting item of an app drip.
    pub fn delete_item(
        &self,
        account_id: &str,
        drip_id: &str,
        item_id: &str,
    ) -> Result<(), DripError> {
        self.db.write(|tx| {
            let drip = find_drip(tx, account_id, drip_id)?;
            if let Some(folder) = drip.folder {
                return Err(DripError::FolderDrip(folder));
            }
            let released: Option<Option<String>> = tx
                .query_row(
                    "SELECT released_at FROM drip_items WHERE drip_id = ?1 AND id = ?2",
                    params![drip_id, item_id],
                    |row| row.get(0),
                )
                .optional()?;
            match released {
                None => Err(DripError::ItemNotFound),
                Some(Some(_)) => Err(DripError::WrongState {
                    state: "released",
                    message: "a released item stays on the record",
                }),
                Some(None) => {
                    tx.execute("DELETE FROM drip_items WHERE id = ?1", [item_id])?;
                    Ok(())
                }
            }
        })
    }

    /// A drip's items: the released ones in the order they went, then the
    /// waiting ones in the order they will go (`position` 1 next).
    pub fn items(&self, account_id: &str, drip_id: &str) -> Result<Vec<Item>, DripError> {
        let drip = self.drip(account_id, drip_id)?;
        let rows = self.db.read(|tx| item_rows(tx, &drip))?;
        Ok(rows.into_iter().map(|row| row.item).collect())
    }

    /// One item with its content: as released, or (a folder item still
    /// waiting) as its file reads now.
    pub fn item(
        &self,
        account_id: &str,
        drip_id: &str,
        item_id: &str,
    ) -> Result<ItemContent, DripError> {
        let drip = self.drip(account_id, drip_id)?;
        let row = self
            .db
            .read(|tx| item_rows(tx, &drip))?
            .into_iter()
            .find(|row| row.item.id == item_id)
            .ok_or(DripError::ItemNotFound)?;
        let content = self.content(&drip, &row).map_err(DripError::Unreadable)?;
        Ok(ItemContent {
            item: row.item,
            content,
        })
    }

    /// Claims every active drip due at `now`: each moves to its first tick
    /// after now and releases its next item (one, however many ticks
    /// passed unseen). With `paused` (`dripGlobalPause`) a due tick is
    /// consumed and releases nothing. A tick that finds the queue empty, or
    /// its folder unreadable, says so once until an item is released again.
    /// How many items it released.
    pub fn release_due(&self, now: Timestamp, paused: bool) -> Result<usize, DripError> {
        let due = self.db.read(|tx| timed::due(tx, Table::Drips, now))?;
        let mut released = 0;
        for timed in due {
            let decision = timed.decide(now)?;
            match decision.due {
                Some(tick) if !paused => {
                    if self.release(&timed, decision.next_at, tick, now)? {
                        released += 1;
                    }
                }
                skipped => {
                    self.db.write(|tx| {
                        if timed::advance(tx, Table::Drips, &timed, decision.next_at, now)?
                            && skipped.is_some()
                        {
                            tx.execute(
                                "UPDATE drips SET skipped = skipped + 1 WHERE id = ?1",
                                [&timed.id],
                            )?;
                        }
                        Ok::<_, DripError>(())
                    })?;
                }
            }
        }
        Ok(released)
    }

    /// Releases the drip's next item now, by hand, whatever its state: the
    /// same delivery a tick makes, and its ticks go on as they were (the
    /// next one releases the item after). [`DripError::NothingWaiting`]
    /// when no item waits (or its folder's cannot be read).
    pub fn release_next_now(&self, account_id: &str, id: &str) -> Result<Drip, DripError> {
        let now = self.now();
        let drip = self.drip(account_id, id)?;
        let first = self
            .db
            .read(|tx| item_rows(tx, &drip))?
            .into_iter()
            .find(|row| row.item.released_at.is_none());
        let Some(row) = first else {
            return Err(DripError::NothingWaiting(drip.name));
        };
        let content = self.content(&drip, &row).map_err(DripError::Unreadable)?;
        let stamped = stamp(now);
        let tick = Due {
            tick: now,
            late: false,
            passed_over: 0,
        };
        let delivered = self
            .db
            .write(|tx| deliver(tx, &drip, row, content, &tick, &stamped))?;
        if !delivered {
            return Err(DripError::NothingWaiting(drip.name));
        }
        self.drip(account_id, id)
    }

    /// One drip's due tick: its next item, read outside the writer, then
    /// the claim. True when an item went out.
    fn release(
        &self,
        timed: &Timed,
        next: Option<Timestamp>,
        tick: Due,
        now: Timestamp,
    ) -> Result<bool, DripError> {
        let drip = match self.drip(&timed.account_id, &timed.id) {
            Ok(drip) => drip,
            // Deleted since it was found due: nothing to release.
            Err(DripError::DripNotFound) => return Ok(false),
            Err(error) => return Err(error),
        };
        let first = self
            .db
            .read(|tx| item_rows(tx, &drip))?
            .into_iter()
            .find(|row| row.item.released_at.is_none());
        let content = first.as_ref().map(|row| self.content(&drip, row));
        let stamped = stamp(now);
        self.db.write(|tx| {
            if !timed::advance(tx, Table::Drips, timed, next, now)? {
                return Ok(false);
            }
            let (row, content) = match (first, content) {
                (Some(row), Some(Ok(content))) => (row, content),
                (_, Some(Err(reason))) => {
                    return say_exhausted(tx, &drip, Some(reason), &tick, &stamped);
                }
                _ => return say_exhausted(tx, &drip, drip.problem.clone(), &tick, &stamped),
            };
            deliver(tx, &drip, row, content, &tick, &stamped)
        })
    }

    /// An item's content: as stored (released, or added in the app), or as
    /// its file in the drip's folder reads now; why not, when it cannot be
    /// read.
    fn content(&self, drip: &Drip, row: &ItemRow) -> Result<String, String> {
        match (&row.content, &drip.folder) {
            (Some(content), _) => Ok(content.clone()),
            (None, Some(folder)) => folder::read_item(
                Path::new(folder),
                &row.item.name,
                row.item.kind,
                &self.protected,
            ),
            (None, None) => Ok(String::new()),
        }
    }

    /// Counts a drip's queue, after reading its folder again.
    fn complete(&self, mut drip: Drip) -> Result<Drip, DripError> {
        if let Some(folder) = drip.folder.clone() {
            drip.problem = self.sync(&drip.id, Path::new(&folder))?.err();
        }
        let (released, remaining) = self.db.read(|tx| {
            tx.query_row(
                "SELECT count(released_at), count(*) - count(released_at)
                 FROM drip_items WHERE drip_id = ?1",
                [&drip.id],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
        })?;
        drip.released = released;
        drip.remaining = remaining;
        drip.exhausted = remaining == 0;
        Ok(drip)
    }

    /// Brings a folder drip's waiting items in line with its folder; why
    /// the folder cannot be read, when it cannot (the items stay then).
    fn sync(&self, drip_id: &str, folder: &Path) -> Result<Result<(), String>, DripError> {
        let entries = match folder::scan(folder, &self.protected) {
            Ok(entries) => entries,
            Err(reason) => return Ok(Err(reason)),
        };
        let known: Vec<(String, bool)> = self.db.read(|tx| {
            let mut stmt = tx.prepare(
                "SELECT name, released_at IS NOT NULL FROM drip_items WHERE drip_id = ?1",
            )?;
            let rows = stmt.query_map([drip_id], |row| Ok((row.get(0)?, row.get(1)?)))?;
            rows.collect::<rusqlite::Result<Vec<_>>>()
        })?;
        let new: Vec<_> = entries
            .iter()
            .filter(|entry| known.iter().all(|(name, _)| *name != entry.name))
            .collect();
        let gone: Vec<&String> = known
            .iter()
            .filter(|(name, released)| !released && entries.iter().all(|e| e.name != *name))
            .map(|(name, _)| name)
            .collect();
        if new.is_empty() && gone.is_empty() {
            return Ok(Ok(()));
        }
        let now = stamp(self.now());
        self.db.write(|tx| {
            for entry in new {
                tx.execute(
                    "INSERT INTO drip_items (id, drip_id, name, kind, content, released_at, created_at)
                     SELECT ?1, ?2, ?3, ?4, NULL, NULL, ?5
                     WHERE NOT EXISTS (SELECT 1 FROM drip_items WHERE drip_id = ?2 AND name = ?3)",
                    params![store::new_id(), drip_id, entry.name, entry.kind.as_str(), now],
                )?;
            }
            for name in gone {
                tx.execute(
                    "DELETE FROM drip_items WHERE drip_id = ?1 AND name = ?2 AND released_at IS NULL",
                    params![drip_id, name],
                )?;
            }
            Ok::<_, DripError>(())
        })?;
        Ok(Ok(()))
    }
}

/// Marks `row`'s item released with `content` and records its release for
/// `tick`; false when another release claimed the item first.
fn deliver(
    tx: &Transaction<'_>,
    drip: &Drip,
    row: ItemRow,
    content: String,
    tick: &Due,
    stamped: &str,
) -> Result<bool, DripError> {
    let marked = tx.execute(
        "UPDATE drip_items SET released_at = ?2, content = ?3
         WHERE id = ?1 AND released_at IS NULL",
        params![row.item.id, stamped, content],
    )?;
    if marked == 0 {
        return Ok(false);
    }
    tx.execute(
        "UPDATE drips SET last_released_at = ?2, exhausted_at = NULL WHERE id = ?1",
        params![drip.id, stamped],
    )?;
    let release = Release::Item {
        drip_id: drip.id.clone(),
        drip_name: drip.name.clone(),
        item_id: row.item.id,
        item_name: row.item.name,
        item_kind: row.item.kind,
        content,
    };
    insert(tx, &drip.account_id, &release, tick, stamped)?;
    Ok(true)
}

/// A tick found nothing to release: the first such tick since the last
/// release puts one delivery in the outbox that says so.
fn say_exhausted(
    tx: &Transaction<'_>,
    drip: &Drip,
    reason: Option<String>,
    tick: &Due,
    now: &str,
) -> Result<bool, DripError> {
    let first = tx.execute(
        "UPDATE drips SET exhausted_at = ?2 WHERE id = ?1 AND exhausted_at IS NULL",
        params![drip.id, now],
    )?;
    if first == 1 {
        let release = Release::Exhausted {
            drip_id: drip.id.clone(),
            drip_name: drip.name.clone(),
            reason,
        };
        insert(tx, &drip.account_id, &release, tick, now)?;
    }
    Ok(false)
}

/// A drip's items in order: released first (as they went), then waiting
/// (a folder's by name, numbers as numbers; the app's as added).
fn item_rows(tx: &Transaction<'_>, drip: &Drip) -> Result<Vec<ItemRow>, DripError> {
    let mut stmt = tx.prepare(
        "SELECT id, name, kind, released_at, created_at, seq, content
         FROM drip_items WHERE drip_id = ?1",
    )?;
    let rows = stmt.query_map([&drip.id], |row| {
        let kind: String = row.get(2)?;
        Ok(ItemRow {
            item: Item {
                id: row.get(0)?,
                name: row.get(1)?,
                kind: ItemKind::parse(&kind).ok_or_else(|| unreadable(2, "item kind"))?,
                released_at: row.get(3)?,
                position: None,
                created_at: row.get(4)?,
            },
            seq: row.get(5)?,
            content: row.get(6)?,
        })
    })?;
    let mut rows = rows.collect::<rusqlite::Result<Vec<_>>>()?;
    let by_folder = drip.folder.is_some();
    rows.sort_by(|a, b| match (&a.item.released_at, &b.item.released_at) {
        (Some(x), Some(y)) => x.cmp(y).then(a.seq.cmp(&b.seq)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) if by_folder => natural_cmp(&a.item.name, &b.item.name),
        (None, None) => a.seq.cmp(&b.seq),
    });
    let mut position = 0;
    for row in rows.iter_mut().filter(|r| r.item.released_at.is_none()) {
        position += 1;
        row.item.position = Some(position);
    }
    Ok(rows)
}

fn find_drip(tx: &Transaction<'_>, account_id: &str, id: &str) -> Result<Drip, DripError> {
    tx.query_row(
        &format!("SELECT {COLUMNS} FROM drips WHERE account_id = ?1 AND id = ?2"),
        params![account_id, id],
        read_row,
    )
    .optional()?
    .ok_or(DripError::DripNotFound)
}

/// A drip row, its queue not counted yet.
fn read_row(row: &Row<'_>) -> rusqlite::Result<Drip> {
    Ok(Drip {
        id: row.get(0)?,
        account_id: row.get(1)?,
        name: row.get(2)?,
        folder: row.get(3)?,
        timing: read_timing(row, 4)?,
        last_released_at: row.get(9)?,
        released: 0,
        remaining: 0,
        exhausted: false,
        skipped: row.get(10)?,
        problem: None,
        created_at: row.get(11)?,
        updated_at: row.get(12)?,
    })
}
