//! The three-way merge of a list: the base (the file as last written, which
//! both sides agreed on), the database's tasks now, and the file now. A pure
//! function of plain data; the mirror applies its result.
//!
//! The rules, task by task (a task is known by its id; a file line without
//! one is new):
//!
//! - changed on one side only: that side's version;
//! - changed on both sides in different fields: both changes, field by field;
//! - the same field changed on both sides to different values: a conflict.
//!   The task keeps the database's version whole, and the file's version
//!   whole becomes a second task right after it (same parent) with
//!   `conflict` set and its text as written (no prefix). The caller gets the
//!   list of conflicts;
//! - deleted on one side and unchanged on the other: deleted; deleted on
//!   one side and edited on the other: the edited version stays (from the
//!   file, as a new task with a fresh id);
//! - in both without a base (no base yet, or an id the base never had):
//!   equal is kept, different is a conflict, so nothing is lost;
//! - new in the file (no id, or an id this list does not know): a new task
//!   with a fresh id.
//!
//! Where a task sits: its parent merges like a field (a move on one side
//! wins; moves on both sides keep the database's). Sibling order follows the
//! file when only the file changed the order of the tasks all three know,
//! else the database; tasks the other side added or moved in are placed
//! after the sibling they follow there. A parent that does not survive
//! hands its children to its nearest surviving ancestor, and a loop two
//! sides' moves would make is broken at the top level.

use std::collections::{HashMap, HashSet};

use crate::markdown::Entry;
use crate::model::Fields;

/// A task of one side, by id, in depth-first order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub id: String,
    pub parent_id: Option<String>,
    pub fields: Fields,
}

/// One task of the merged list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergedItem {
    pub id: String,
    pub parent_id: Option<String>,
    pub fields: Fields,
    /// Not in the database yet: to insert.
    pub new: bool,
    /// For a conflict's copy, the task it copies.
    pub copy_of: Option<String>,
}

/// A task whose same field both sides changed differently.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// The task, which keeps the database's version.
    pub id: String,
    /// The new task holding the file's version.
    pub copy_id: String,
    /// The fields in conflict, by their wire names (`text`, `notes`,
    /// `state`, `due`, `snoozedUntil`).
    pub fields: Vec<&'static str>,
    pub text: String,
    pub file_text: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Merged {
    /// The list after the merge, in depth-first order.
    pub items: Vec<MergedItem>,
    pub conflicts: Vec<Conflict>,
}

impl Merged {
    /// The merged list as tasks.md entries, each one's depth from its parents.
    pub fn entries(&self) -> Vec<Entry> {
        let mut depth: HashMap<&str, usize> = HashMap::with_capacity(self.items.len());
        self.items
            .iter()
            .map(|item| {
                let d = item
                    .parent_id
                    .as_deref()
                    .and_then(|p| depth.get(p))
                    .map_or(0, |d| d + 1);
                depth.insert(&item.id, d);
                Entry {
                    id: Some(item.id.clone()),
                    depth: d,
                    fields: item.fields.clone(),
                }
            })
            .collect()
    }
}

/// The items of parsed entries that carry an id (a base has nothing else),
/// a line without one handing its children to its parent.
pub fn items_of(entries: &[Entry]) -> Vec<Item> {
    let mut stack: Vec<(usize, Option<String>)> = Vec::new();
    let mut items = Vec::with_capacity(entries.len());
    for e in entries {
        while stack.last().is_some_and(|(d, _)| *d >= e.depth) {
            stack.pop();
        }
        let parent = stack.iter().rev().find_map(|(_, id)| id.clone());
        if let Some(id) = &e.id {
            items.push(Item {
                id: id.clone(),
                parent_id: parent,
                fields: e.fields.clone(),
            });
        }
        stack.push((e.depth, e.id.clone()));
    }
    items
}

/// One side as maps by key: the order, each parent, each version, and
/// each parent's children in order.
#[derive(Default)]
struct Side {
    order: Vec<String>,
    parent: HashMap<String, Option<String>>,
    fields: HashMap<String, Fields>,
    children: HashMap<Option<String>, Vec<String>>,
}

impl Side {
    fn of(items: impl IntoIterator<Item = Item>) -> Side {
        let mut side = Side::default();
        for item in items {
            if side.fields.contains_key(&item.id) {
                continue;
            }
            side.children
                .entry(item.parent_id.clone())
                .or_default()
                .push(item.id.clone());
            side.order.push(item.id.clone());
            side.parent.insert(item.id.clone(), item.parent_id);
            side.fields.insert(item.id, item.fields);
        }
        side
    }

    fn has(&self, key: &str) -> bool {
        self.fields.contains_key(key)
    }

    fn children(&self, parent: &Option<String>) -> &[String] {
        self.children.get(parent).map_or(&[], Vec::as_slice)
    }

    /// `(task, parent)` in order, for the tasks in `keys`.
    fn shape(&self, keys: &HashSet<&str>) -> Vec<(&str, Option<&str>)> {
        self.order
            .iter()
            .filter(|k| keys.contains(k.as_str()))
            .map(|k| (k.as_str(), self.parent.get(k).and_then(|p| p.as_deref())))
            .collect()
    }
}

/// The file's side. A line without an id gets the key `+<n>`, which no id
/// can be (ids are letters, digits, `-` and `_`). A line with no text keeps
/// the base's text, else the database's, else it is left out.
fn file_side(file: &[Entry], base: &Side, db: &Side) -> Side {
    let keyed: Vec<Entry> = file
        .iter()
        .enumerate()
        .map(|(n, e)| {
            let mut e = e.clone();
            let key = e.id.clone().unwrap_or_else(|| format!("+{n}"));
            if e.fields.text.is_empty() {
                let known = base.fields.get(&key).or_else(|| db.fields.get(&key));
                e.fields.text = known.map(|f| f.text.clone()).unwrap_or_default();
            }
            e.id = (!e.fields.text.is_empty()).then_some(key);
            e
        })
        .collect();
    Side::of(items_of(&keyed))
}

/// The wire names of the fields that differ.
fn differing(a: &Fields, b: &Fields) -> Vec<&'static str> {
    let mut names = Vec::new();
    if a.text != b.text {
        names.push("text");
    }
    if a.notes != b.notes {
        names.push("notes");
    }
    if a.state != b.state {
        names.push("state");
    }
    if a.due != b.due {
        names.push("due");
    }
    if a.snoozed_until != b.snoozed_until {
        names.push("snoozedUntil");
    }
    names
}

/// One value merged three ways; `None` when both sides changed it differently.
fn pick<T: PartialEq + Clone>(base: &T, db: &T, file: &T) -> Option<T> {
    if db == base || db == file {
        Some(file.clone())
    } else if file == base {
        Some(db.clone())
    } else {
        None
    }
}

/// Field by field; `Err` names the fields in conflict.
fn merge_fields(base: &Fields, db: &Fields, file: &Fields) -> Result<Fields, Vec<&'static str>> {
    let text = pick(&base.text, &db.text, &file.text);
    let notes = pick(&base.notes, &db.notes, &file.notes);
    let state = pick(&base.state, &db.state, &file.state);
    let due = pick(&base.due, &db.due, &file.due);
    let snoozed = pick(&base.snoozed_until, &db.snoozed_until, &file.snoozed_until);
    let clashes: Vec<&'static str> = [
        ("text", text.is_none()),
        ("notes", notes.is_none()),
        ("state", state.is_none()),
        ("due", due.is_none()),
        ("snoozedUntil", snoozed.is_none()),
    ]
    .into_iter()
    .filter_map(|(name, clash)| clash.then_some(name))
    .collect();
    match (text, notes, state, due, snoozed) {
        (Some(text), Some(notes), Some(state), Some(due), Some(snoozed_until)) => Ok(Fields {
            text,
            notes,
            state,
            due,
            snoozed_until,
            // A bool cannot clash: two changes from one value agree.
            conflict: pick(&base.conflict, &db.conflict, &file.conflict).unwrap_or(db.conflict),
        }),
        _ => Err(clashes),
    }
}

/// Which side a parent came from, to walk up its ancestors there.
#[derive(Clone, Copy)]
enum From {
    Db,
    File,
}

/// Merges the three versions of a list. `new_id` names each task the
/// database does not have yet.
pub fn merge(
    base: &[Item],
    db: &[Item],
    file: &[Entry],
    new_id: &mut dyn FnMut() -> String,
) -> Merged {
    let base = Side::of(base.iter().cloned());
    let db = Side::of(db.iter().cloned());
    let file = file_side(file, &base, &db);

    // What survives, with which fields, and the conflicts' copies.
    let mut kept: HashMap<String, Fields> = HashMap::new();
    let mut copies: Vec<(String, Fields, Vec<&'static str>)> = Vec::new();
    for key in &db.order {
        let mine = &db.fields[key];
        match (file.fields.get(key), base.fields.get(key)) {
            (Some(theirs), Some(was)) => match merge_fields(was, mine, theirs) {
                Ok(fields) => {
                    kept.insert(key.clone(), fields);
                }
                Err(clashes) => {
                    kept.insert(key.clone(), mine.clone());
                    copies.push((key.clone(), theirs.clone(), clashes));
                }
            },
            (Some(theirs), None) => {
                kept.insert(key.clone(), mine.clone());
                let clashes = differing(mine, theirs);
                if !clashes.is_empty() {
                    copies.push((key.clone(), theirs.clone(), clashes));
                }
            }
            (None, Some(was)) if was == mine => {}
            (None, _) => {
                kept.insert(key.clone(), mine.clone());
            }
        }
    }
    for key in file.order.iter().filter(|k| !db.has(k)) {
        let theirs = &file.fields[key];
        if base.fields.get(key) != Some(theirs) {
            kept.insert(key.clone(), theirs.clone());
        }
    }

    let placed = place_parents(&base, &db, &file, &kept);
    let common: HashSet<&str> = base
        .order
        .iter()
        .filter(|k| db.has(k) && file.has(k))
        .map(String::as_str)
        .collect();
    let file_moved = file.shape(&common) != base.shape(&common);
    let db_moved = db.shape(&common) != base.shape(&common);
    let (primary, secondary) = if file_moved && !db_moved {
        (&file, &db)
    } else {
        (&db, &file)
    };
    let mut siblings = order_siblings(primary, secondary, &db, &file, &placed);
    // Copies go right after their task, under the same parent.
    let mut copy_keys = HashMap::new();
    for (n, (of, _, _)) in copies.iter().enumerate() {
        let copy_key = format!("~{n}");
        let list = siblings.entry(placed.parents[of].clone()).or_default();
        let at = list
            .iter()
            .position(|k| k == of)
            .map_or(list.len(), |i| i + 1);
        list.insert(at, copy_key.clone());
        copy_keys.insert(copy_key, n);
    }

    // Final ids: the database's stay, everything else is new.
    let mut ids: HashMap<String, String> = HashMap::new();
    let mut final_id = |key: &str| -> String {
        if db.has(key) {
            return key.to_owned();
        }
        ids.entry(key.to_owned())
            .or_insert_with(&mut *new_id)
            .clone()
    };
    let mut merged = Merged::default();
    let mut stack: Vec<(String, Option<String>)> = siblings
        .get(&None)
        .into_iter()
        .flatten()
        .rev()
        .map(|k| (k.clone(), None))
        .collect();
    let mut seen = HashSet::new();
    while let Some((key, parent_id)) = stack.pop() {
        if !seen.insert(key.clone()) {
            continue;
        }
        let id = final_id(&key);
        let (fields, copy_of) = match copy_keys.get(&key) {
            Some(&n) => {
                let (of, theirs, clashes) = &copies[n];
                let mut fields = theirs.clone();
                fields.conflict = true;
                merged.conflicts.push(Conflict {
                    id: of.clone(),
                    copy_id: id.clone(),
                    fields: clashes.clone(),
                    text: kept[of].text.clone(),
                    file_text: theirs.text.clone(),
                });
                (fields, Some(of.clone()))
            }
            None => (kept[&key].clone(), None),
        };
        merged.items.push(MergedItem {
            id: id.clone(),
            parent_id,
            fields,
            new: !db.has(&key),
            copy_of,
        });
        if let Some(kids) = siblings.get(&Some(key)) {
            stack.extend(kids.iter().rev().map(|k| (k.clone(), Some(id.clone()))));
        }
    }
    merged
}

/// Where the surviving tasks hang.
struct Placed {
    parents: HashMap<String, Option<String>>,
    /// A deleted task's surviving descendants, moved up to its parent: they
    /// take its place there.
    adopted: HashMap<String, Vec<String>>,
}

/// Each surviving task's parent: merged like a field, then moved up to the
/// nearest surviving ancestor, then any loop broken.
fn place_parents(base: &Side, db: &Side, file: &Side, kept: &HashMap<String, Fields>) -> Placed {
    let mut parents = HashMap::with_capacity(kept.len());
    let mut adopted: HashMap<String, Vec<String>> = HashMap::new();
    for key in kept.keys() {
        let (parent, from) = match (db.parent.get(key), file.parent.get(key)) {
            (Some(d), Some(f)) => match base.parent.get(key) {
                Some(b) if d == b => (f.clone(), From::File),
                _ => (d.clone(), From::Db),
            },
            (Some(d), None) => (d.clone(), From::Db),
            (None, Some(f)) => (f.clone(), From::File),
            (None, None) => (None, From::Db),
        };
        let side = match from {
            From::Db => db,
            From::File => file,
        };
        let mut at = parent;
        let mut gone = None;
        for _ in 0..=side.order.len() {
            match &at {
                Some(p) if !kept.contains_key(p) => {
                    gone = Some(p.clone());
                    at = side.parent.get(p).cloned().flatten();
                }
                _ => break,
            }
        }
        if let Some(gone) = gone {
            adopted.entry(gone).or_default().push(key.clone());
        }
        parents.insert(key.clone(), at.filter(|p| kept.contains_key(p)));
    }
    let mut rank: HashMap<&String, usize> = HashMap::new();
    for (i, key) in db.order.iter().chain(&file.order).enumerate() {
        rank.entry(key).or_insert(i);
    }
    for list in adopted.values_mut() {
        list.sort_by_key(|k| rank.get(k).copied().unwrap_or(usize::MAX));
    }
    let mut keys: Vec<&String> = kept.keys().collect();
    keys.sort();
    for key in keys {
        let mut walked = HashSet::new();
        let mut at = key.clone();
        while let Some(Some(up)) = parents.get(&at) {
            if !walked.insert(at.clone()) {
                parents.insert(at, None);
                break;
            }
            at = up.clone();
        }
    }
    Placed { parents, adopted }
}

/// The children of every parent in their final order: the primary side's
/// order, then what only the other side has there after the sibling it
/// follows there, then whatever neither side put there. Tasks a deleted
/// task's place passed to stand where it stood.
fn order_siblings(
    primary: &Side,
    secondary: &Side,
    db: &Side,
    file: &Side,
    placed: &Placed,
) -> HashMap<Option<String>, Vec<String>> {
    let mut members: HashMap<Option<String>, HashSet<&str>> = HashMap::new();
    for (key, parent) in &placed.parents {
        members.entry(parent.clone()).or_default().insert(key);
    }
    // Each parent's members in the sides' order, for the ones placed last.
    let mut in_order: HashMap<&Option<String>, Vec<&String>> = HashMap::new();
    for key in db.order.iter().chain(&file.order) {
        if let Some(parent) = placed.parents.get(key) {
            in_order.entry(parent).or_default().push(key);
        }
    }
    let mut siblings = HashMap::with_capacity(members.len());
    for (parent, here) in &members {
        // A side's child as the members it stands for here.
        let expand = |key: &String| -> Vec<String> {
            let own = here.contains(key.as_str()).then(|| key.clone());
            let heirs = placed.adopted.get(key).into_iter().flatten();
            own.into_iter()
                .chain(heirs.filter(|k| here.contains(k.as_str())).cloned())
                .collect()
        };
        let mut list: Vec<String> = Vec::new();
        let mut done: HashSet<String> = HashSet::new();
        for key in primary.children(parent).iter().flat_map(expand) {
            if done.insert(key.clone()) {
                list.push(key);
            }
        }
        let mut after: Option<String> = None;
        for key in secondary.children(parent).iter().flat_map(expand) {
            if done.insert(key.clone()) {
                let at = after
                    .as_ref()
                    .and_then(|a| list.iter().position(|k| k == a))
                    .map_or(0, |i| i + 1);
                list.insert(at, key.clone());
            }
            after = Some(key);
        }
        for key in in_order.get(parent).into_iter().flatten() {
            if done.insert((*key).clone()) {
                list.push((*key).clone());
            }
        }
        siblings.insert(parent.clone(), list);
    }
    siblings
}
