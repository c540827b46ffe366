//! The tasks.md mirrors of a list: one in the data directory, and one in a
//! project folder when the user names one. Each mirror path keeps its own
//! base (the text last written there, which the file and the database both
//! agreed on) in `tasks_mirror_state`.
//!
//! A sync reads the file only when its size or modification time moved and
//! its hash differs from the base's; merges it with the database three ways
//! (`merge.rs`); writes the database's side in one transaction; and writes
//! the file (a temporary file, flushed, then renamed over it) when its text
//! differs from the merged list. The temporary file is written before the
//! transaction, so no disk flush holds up other writers; inside it, the
//! sync checks that neither the list nor the file changed since it read
//! them, and starts over when one did. A missing or blank file is written
//! afresh from the database, never read as "delete everything".

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::PoisonError;

use sha2::{Digest, Sha256};
use store::rusqlite::{OptionalExtension, Transaction, params};

use crate::markdown::{Warning, parse, render, render_tasks};
use crate::merge::{Conflict, Item, Merged, items_of, merge};
use crate::model::{Mirror, Task, TaskError, check_workspace_id, invalid, list_key};
use crate::rows;
use crate::service::{Tasks, set_fields};

/// The file name of every mirror.
pub const FILE_NAME: &str = "tasks.md";

/// How often a sync starts over when the list or the file changes under it.
const ATTEMPTS: usize = 5;

/// What one sync did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SyncReport {
    pub path: PathBuf,
    /// The file had changed since the base and was merged.
    pub read_file: bool,
    pub wrote_file: bool,
    /// Tasks the merge added, changed (or moved) and deleted in the database.
    pub created: usize,
    pub updated: usize,
    pub deleted: usize,
    /// For the inbox: each task both sides changed differently.
    pub conflicts: Vec<Conflict>,
    /// Lines of the file that were left out or changed when it was read.
    pub warnings: Vec<Warning>,
}

impl SyncReport {
    /// Adds a later sync of the same file to this one.
    fn absorb(&mut self, later: SyncReport) {
        self.read_file |= later.read_file;
        self.wrote_file |= later.wrote_file;
        self.created += later.created;
        self.updated += later.updated;
        self.deleted += later.deleted;
        self.conflicts.extend(later.conflicts);
        self.warnings.extend(later.warnings);
    }
}

/// One mirror's sync, among a list's.
#[derive(Debug)]
pub struct MirrorSync {
    pub path: PathBuf,
    pub result: Result<SyncReport, TaskError>,
}

/// `DIR/tasks/<account>/tasks.md` for the personal list,
/// `DIR/tasks/<account>/<workspace>/tasks.md` for a workspace's. Ids are
/// written with anything but letters, digits, `-` and `_` as `%XX`, so no id
/// can climb out of the folder or land on another list's file.
pub fn default_mirror_path(
    data_dir: &Path,
    account_id: &str,
    workspace_id: Option<&str>,
) -> PathBuf {
    let mut path = data_dir.join("tasks").join(path_part(account_id));
    if let Some(ws) = workspace_id {
        path.push(path_part(ws));
    }
    path.join(FILE_NAME)
}

fn path_part(id: &str) -> String {
    if id.is_empty() {
        return "%".to_owned();
    }
    id.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn hash(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> TaskError + '_ {
    move |source| TaskError::Io {
        path: path.to_owned(),
        source,
    }
}

/// A mirror's stored base.
#[derive(Debug, Clone)]
struct Base {
    text: String,
    hash: String,
    mtime_ns: Option<i64>,
    size: Option<i64>,
}

/// The size and modification time a file had, to tell "unchanged" without reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    mtime_ns: Option<i64>,
    size: Option<i64>,
}

fn stamp(meta: &std::fs::Metadata) -> Stamp {
    let mtime_ns = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .and_then(|d| i64::try_from(d.as_nanos()).ok());
    Stamp {
        mtime_ns,
        size: i64::try_from(meta.len()).ok(),
    }
}

/// The file as a sync found it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Found {
    Missing,
    /// Empty or only blank space: written afresh, like a missing file.
    Blank(Stamp),
    /// The base's text, known by its stamp or its hash.
    Unchanged(Stamp),
    Changed {
        text: String,
        stamp: Stamp,
    },
}

fn look(path: &Path, base: Option<&Base>) -> Result<Found, TaskError> {
    let meta = match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Found::Missing),
        other => other.map_err(io_error(path))?,
    };
    let now = stamp(&meta);
    if let Some(b) = base
        && now.mtime_ns.is_some()
        && b.mtime_ns == now.mtime_ns
        && b.size == now.size
    {
        return Ok(Found::Unchanged(now));
    }
    let bytes = std::fs::read(path).map_err(io_error(path))?;
    // A file that is not UTF-8 is still read: the parser takes any text.
    let text = String::from_utf8_lossy(&bytes).into_owned();
    if base.is_some_and(|b| b.hash == hash(&text)) {
        Ok(Found::Unchanged(now))
    } else if text.trim().is_empty() {
        Ok(Found::Blank(now))
    } else {
        Ok(Found::Changed { text, stamp: now })
    }
}

/// A file with lines but not one task line is taken for a file that is not
/// a task list (a wrong save, a broken copy), not for "delete every task":
/// that is a file with its tasks' lines gone and nothing unreadable.
fn unreadable(text: &str) -> bool {
    let parsed = parse(text);
    parsed.tasks.is_empty() && !parsed.warnings.is_empty()
}

/// Why one attempt did not finish.
enum Fail {
    Retry,
    Error(TaskError),
}

impl From<TaskError> for Fail {
    fn from(e: TaskError) -> Self {
        Fail::Error(e)
    }
}

impl From<store::rusqlite::Error> for Fail {
    fn from(e: store::rusqlite::Error) -> Self {
        Fail::Error(e.into())
    }
}

/// A temporary file beside the target, removed unless it was renamed.
struct Temp {
    path: PathBuf,
    kept: bool,
}

impl Drop for Temp {
    fn drop(&mut self) {
        if !self.kept {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Writes `text` to a flushed temporary file in `target`'s folder, with
/// `target`'s permissions when it exists.
fn write_temp(target: &Path, text: &str) -> Result<Temp, TaskError> {
    let dir = target.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io_error(dir))?;
    let name = target
        .file_name()
        .map_or_else(|| FILE_NAME.into(), |n| n.to_string_lossy());
    let temp = Temp {
        path: dir.join(format!(".{name}.{}.tmp", store::new_id())),
        kept: false,
    };
    let mut file = std::fs::File::create_new(&temp.path).map_err(io_error(&temp.path))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(io_error(&temp.path))?;
    if let Ok(meta) = std::fs::metadata(target) {
        let _ = std::fs::set_permissions(&temp.path, meta.permissions());
    }
    Ok(temp)
}

/// A mirror written through a link writes the file the link names, and the
/// link stays.
fn resolve(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned())
        }
        _ => path.to_owned(),
    }
}

fn db_items(tasks: &[Task]) -> Vec<Item> {
    tasks
        .iter()
        .map(|t| Item {
            id: t.id.clone(),
            parent_id: t.parent_id.clone(),
            fields: t.fields(),
        })
        .collect()
}

/// Writes the merged list over `current` (the list as read): inserts, then
/// changes and moves (parents before children, so every parent exists), then
/// deletes, whose subtasks are gone or moved by then.
fn apply(
    tx: &Transaction<'_>,
    account_id: &str,
    workspace_id: Option<&str>,
    current: &[Task],
    merged: &Merged,
    now: &str,
    report: &mut SyncReport,
) -> Result<(), TaskError> {
    let by_id: HashMap<&str, &Task> = current.iter().map(|t| (t.id.as_str(), t)).collect();
    let mut next: HashMap<Option<&str>, i64> = HashMap::new();
    for item in &merged.items {
        let slot = next.entry(item.parent_id.as_deref()).or_insert(0);
        let position = *slot;
        *slot += 1;
        match by_id.get(item.id.as_str()).filter(|_| !item.new) {
            None => {
                let source = item
                    .copy_of
                    .as_deref()
                    .and_then(|of| by_id.get(of))
                    .and_then(|t| t.source_session_id.clone());
                let mut task = Task {
                    id: item.id.clone(),
                    workspace_id: workspace_id.map(str::to_owned),
                    parent_id: item.parent_id.clone(),
                    position,
                    text: String::new(),
                    notes: String::new(),
                    state: crate::model::TaskState::Open,
                    due: None,
                    snoozed_until: None,
                    source_session_id: source,
                    conflict: false,
                    created_at: now.to_owned(),
                    updated_at: now.to_owned(),
                    done_at: None,
                };
                set_fields(&mut task, item.fields.clone(), now);
                rows::insert(tx, account_id, &task)?;
                report.created += 1;
            }
            Some(old) => {
                let mut task = (*old).clone();
                let changed = task.fields() != item.fields;
                let moved = task.parent_id != item.parent_id || task.position != position;
                if changed {
                    set_fields(&mut task, item.fields.clone(), now);
                }
                if moved {
                    task.parent_id = item.parent_id.clone();
                    task.position = position;
                }
                if changed || moved {
                    rows::update(tx, &task)?;
                    report.updated += 1;
                }
            }
        }
    }
    let keep: std::collections::HashSet<&str> =
        merged.items.iter().map(|i| i.id.as_str()).collect();
    let mut delete = tx.prepare_cached("DELETE FROM tasks WHERE id = ?1 AND account_id = ?2")?;
    for task in current.iter().filter(|t| !keep.contains(t.id.as_str())) {
        delete.execute(params![task.id, account_id])?;
        report.deleted += 1;
    }
    Ok(())
}

fn read_base(tx: &Transaction<'_>, path: &str) -> Result<Option<Base>, TaskError> {
    Ok(tx
        .query_row(
            "SELECT base_text, base_hash, file_mtime_ns, file_size FROM tasks_mirror_state WHERE path = ?1",
            [path],
            |r| {
                Ok(Base {
                    text: r.get(0)?,
                    hash: r.get(1)?,
                    mtime_ns: r.get(2)?,
                    size: r.get(3)?,
                })
            },
        )
        .optional()?)
}

impl Tasks {
    /// Syncs one list with the tasks.md at `path` (see the module's notes).
    /// The app calls it after each write through the API and on a timer, for
    /// every mirror of the list (`sync_mirrors` does both paths).
    pub fn sync_list(
        &self,
        account_id: &str,
        workspace_id: Option<&str>,
        path: &Path,
    ) -> Result<SyncReport, TaskError> {
        let _one_at_a_time = self
            .sync_lock
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let target = resolve(path);
        for _ in 0..ATTEMPTS {
            match self.sync_once(account_id, workspace_id, path, &target) {
                Ok(report) => return Ok(report),
                Err(Fail::Retry) => continue,
                Err(Fail::Error(e)) => return Err(e),
            }
        }
        Err(invalid(format!(
            "{} or its list kept changing while it was synced; try again",
            path.display()
        )))
    }

    fn sync_once(
        &self,
        account_id: &str,
        workspace_id: Option<&str>,
        path: &Path,
        target: &Path,
    ) -> Result<SyncReport, Fail> {
        let key = path.to_string_lossy().into_owned();
        let (tasks, base) = self.db.read(|tx| {
            Ok::<_, TaskError>((
                rows::list(tx, account_id, workspace_id)?,
                read_base(tx, &key)?,
            ))
        })?;
        let found = look(target, base.as_ref())?;
        let mut report = SyncReport {
            path: path.to_owned(),
            ..SyncReport::default()
        };
        let mut merged = None;
        let rendered = match &found {
            Found::Changed { text, .. } if unreadable(text) => {
                report.warnings = parse(text).warnings;
                report.warnings.push(Warning {
                    line: 0,
                    message: "no line was a task; the file was written again from the list"
                        .to_owned(),
                });
                render_tasks(&tasks)
            }
            Found::Changed { text, .. } => {
                let parsed = parse(text);
                let base_items = base
                    .as_ref()
                    .map(|b| items_of(&parse(&b.text).tasks))
                    .unwrap_or_default();
                let m = merge(
                    &base_items,
                    &db_items(&tasks),
                    &parsed.tasks,
                    &mut store::new_id,
                );
                report.read_file = true;
                report.warnings = parsed.warnings;
                report.conflicts = m.conflicts.clone();
                let rendered = render(&m.entries());
                merged = Some(m);
                rendered
            }
            Found::Blank(_) => {
                report.warnings.push(Warning {
                    line: 0,
                    message: "the file was blank; it was written again from the list".to_owned(),
                });
                render_tasks(&tasks)
            }
            Found::Missing | Found::Unchanged(_) => render_tasks(&tasks),
        };
        let on_disk = match &found {
            Found::Changed { text, .. } => Some(text.as_str()),
            Found::Unchanged(_) => base.as_ref().map(|b| b.text.as_str()),
            Found::Missing | Found::Blank(_) => None,
        };
        let write = on_disk != Some(rendered.as_str());
        let found_stamp = match &found {
            Found::Blank(s) | Found::Unchanged(s) | Found::Changed { stamp: s, .. } => Some(*s),
            Found::Missing => None,
        };
        let settled = base.as_ref().is_some_and(|b| {
            b.text == rendered
                && found_stamp
                    == Some(Stamp {
                        mtime_ns: b.mtime_ns,
                        size: b.size,
                    })
        });
        if !write && merged.is_none() && settled {
            return Ok(report);
        }
        let mut temp = if write {
            Some(write_temp(target, &rendered)?)
        } else {
            None
        };
        let now = self.clock.timestamp();
        self.db.write(|tx| {
            if rows::list(tx, account_id, workspace_id)? != tasks {
                return Err(Fail::Retry);
            }
            if look(target, base.as_ref())? != found {
                return Err(Fail::Retry);
            }
            if let Some(m) = &merged {
                apply(tx, account_id, workspace_id, &tasks, m, &now, &mut report)?;
            }
            if let Some(t) = temp.as_mut() {
                std::fs::rename(&t.path, target).map_err(io_error(target))?;
                t.kept = true;
                report.wrote_file = true;
            }
            let meta = std::fs::metadata(target).map_err(io_error(target))?;
            let written = stamp(&meta);
            tx.execute(
                "INSERT INTO tasks_mirror_state
                   (path, account_id, workspace_id, base_text, base_hash, file_mtime_ns, file_size, synced_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                 ON CONFLICT (path) DO UPDATE SET account_id = ?2, workspace_id = ?3, base_text = ?4,
                   base_hash = ?5, file_mtime_ns = ?6, file_size = ?7, synced_at = ?8",
                params![
                    key,
                    account_id,
                    list_key(workspace_id),
                    rendered,
                    hash(&rendered),
                    written.mtime_ns,
                    written.size,
                    now
                ],
            )?;
            Ok(())
        })?;
        Ok(report)
    }

    /// Syncs every mirror of a list: the data directory's, then the project
    /// folder's when one is set. When a later mirror's file changed the
    /// list, the earlier ones are synced again, so one round leaves every
    /// file with the same list. A project folder that is gone is that
    /// mirror's error; it is not made again.
    pub fn sync_mirrors(
        &self,
        account_id: &str,
        workspace_id: Option<&str>,
        data_dir: &Path,
    ) -> Result<Vec<MirrorSync>, TaskError> {
        let mut paths = vec![(
            default_mirror_path(data_dir, account_id, workspace_id),
            None,
        )];
        if let Some(folder) = self.mirror_folder(account_id, workspace_id)? {
            let folder = PathBuf::from(folder);
            paths.push((folder.join(FILE_NAME), Some(folder)));
        }
        let sync = |path: &Path, folder: &Option<PathBuf>| match folder {
            Some(folder) if !folder.is_dir() => Err(TaskError::Io {
                path: folder.clone(),
                source: std::io::ErrorKind::NotFound.into(),
            }),
            _ => self.sync_list(account_id, workspace_id, path),
        };
        let mut done: Vec<MirrorSync> = paths
            .iter()
            .map(|(path, folder)| MirrorSync {
                path: path.clone(),
                result: sync(path, folder),
            })
            .collect();
        let last_change = done.iter().rposition(|m| {
            m.result
                .as_ref()
                .is_ok_and(|r| r.created + r.updated + r.deleted > 0)
        });
        for (i, (path, folder)) in paths.iter().enumerate().take(last_change.unwrap_or(0)) {
            let again = sync(path, folder);
            match (&mut done[i].result, again) {
                (Ok(first), Ok(second)) => first.absorb(second),
                (slot, again) => *slot = again,
            }
        }
        Ok(done)
    }

    /// The project folder that mirrors a list, if any.
    pub fn mirror_folder(
        &self,
        account_id: &str,
        workspace_id: Option<&str>,
    ) -> Result<Option<String>, TaskError> {
        self.db.read(|tx| {
            Ok(tx
                .query_row(
                    "SELECT folder FROM tasks_mirrors WHERE account_id = ?1 AND workspace_id = ?2",
                    params![account_id, list_key(workspace_id)],
                    |r| r.get(0),
                )
                .optional()?)
        })
    }

    /// Sets (or, with none, stops) the project folder that mirrors a list.
    /// The folder must be an absolute path to an existing directory; its
    /// `tasks.md` is written at the next sync.
    pub fn set_mirror_folder(
        &self,
        account_id: &str,
        workspace_id: Option<&str>,
        folder: Option<&str>,
        data_dir: &Path,
    ) -> Result<Mirror, TaskError> {
        if let Some(ws) = workspace_id {
            check_workspace_id(ws)?;
        }
        if let Some(folder) = folder {
            let path = Path::new(folder);
            if !path.is_absolute() {
                return Err(invalid("folder must be an absolute path"));
            }
            if !path.is_dir() {
                return Err(invalid(format!(
                    "folder {folder} is not an existing directory"
                )));
            }
        }
        self.db.write(|tx| {
            match folder {
                Some(folder) => tx.execute(
                    "INSERT INTO tasks_mirrors (account_id, workspace_id, folder) VALUES (?1, ?2, ?3)
                     ON CONFLICT (account_id, workspace_id) DO UPDATE SET folder = ?3",
                    params![account_id, list_key(workspace_id), folder],
                )?,
                None => tx.execute(
                    "DELETE FROM tasks_mirrors WHERE account_id = ?1 AND workspace_id = ?2",
                    params![account_id, list_key(workspace_id)],
                )?,
            };
            Ok::<_, TaskError>(())
        })?;
        Ok(Mirror {
            workspace_id: workspace_id.map(str::to_owned),
            path: default_mirror_path(data_dir, account_id, workspace_id)
                .to_string_lossy()
                .into_owned(),
            folder: folder.map(str::to_owned),
        })
    }

    /// The account's lists and where each is mirrored: the personal list
    /// always, and every workspace list with tasks, a folder or a file.
    pub fn mirrors(&self, account_id: &str, data_dir: &Path) -> Result<Vec<Mirror>, TaskError> {
        let folders: HashMap<String, String> = self.db.read(|tx| {
            let mut stmt =
                tx.prepare("SELECT workspace_id, folder FROM tasks_mirrors WHERE account_id = ?1")?;
            let found = stmt.query_map([account_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
            Ok::<_, TaskError>(found.collect::<Result<_, _>>()?)
        })?;
        let mut lists: Vec<Option<String>> = vec![None];
        lists.extend(
            self.lists()?
                .into_iter()
                .filter(|l| l.account_id == account_id && l.workspace_id.is_some())
                .map(|l| l.workspace_id),
        );
        Ok(lists
            .into_iter()
            .map(|ws| Mirror {
                path: default_mirror_path(data_dir, account_id, ws.as_deref())
                    .to_string_lossy()
                    .into_owned(),
                folder: folders.get(list_key(ws.as_deref())).cloned(),
                workspace_id: ws,
            })
            .collect())
    }
}
