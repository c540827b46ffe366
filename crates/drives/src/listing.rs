//! Remembered folder listings: what a folder held when it was last read,
//! and the fingerprint that says whether it may have changed since (its
//! ETag, else its ctag, else its modification time), so an unchanged
//! folder costs one small Depth 0 PROPFIND instead of a full read.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use time::OffsetDateTime;

use crate::Entry;
use crate::path::DrivePath;
use crate::xml::Found;

/// How many folders one drive remembers; the least recently used goes.
const REMEMBERED_FOLDERS: usize = 64;

/// What says a folder changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fingerprint {
    /// The folder's ETag or ctag: servers that give one (Nextcloud,
    /// ownCloud, Apache's mod_dav for ETags) change it with any change
    /// inside.
    Tag(String),
    /// Only a modification time, with a resolution of a second (WsgiDAV,
    /// rclone): a file added, removed or renamed changes it, a file
    /// rewritten in place by another client does not.
    Modified(OffsetDateTime),
    /// Nothing: the folder is read every time.
    None,
}

impl Fingerprint {
    pub fn of(found: &Found) -> Fingerprint {
        if let Some(tag) = found.etag.clone().or_else(|| found.ctag.clone()) {
            Fingerprint::Tag(tag)
        } else if let Some(modified) = found.modified {
            Fingerprint::Modified(modified)
        } else {
            Fingerprint::None
        }
    }
}

/// A folder's members as read, sorted.
pub(crate) struct Folder {
    pub fingerprint: Fingerprint,
    /// A hash of the members as read: the page's ETag, which changes with
    /// them even when the folder's own fingerprint cannot (a modification
    /// time within the same second).
    pub version: String,
    /// The server's `Date` when it answered the read.
    pub listed_at: Option<OffsetDateTime>,
    pub entries: Vec<Entry>,
}

impl Folder {
    pub fn new(
        fingerprint: Fingerprint,
        listed_at: Option<OffsetDateTime>,
        entries: Vec<Entry>,
    ) -> Folder {
        let mut hasher = std::hash::DefaultHasher::new();
        entries.hash(&mut hasher);
        Folder {
            fingerprint,
            version: format!("\"{:016x}\"", hasher.finish()),
            listed_at,
            entries,
        }
    }

    /// Whether `now` (the folder's fingerprint just asked for) proves the
    /// listing current. A modification time proves it only when the
    /// listing was made in a later second than it: a change in the same
    /// second as the read would otherwise keep the same time.
    pub fn still_valid(&self, now: &Fingerprint) -> bool {
        match (&self.fingerprint, now) {
            (Fingerprint::Tag(then), Fingerprint::Tag(now)) => then == now,
            (Fingerprint::Modified(then), Fingerprint::Modified(now)) => {
                then == now && self.listed_at.is_some_and(|listed| listed > *then)
            }
            _ => false,
        }
    }
}

#[derive(Default)]
pub(crate) struct Cache {
    folders: HashMap<DrivePath, (u64, Arc<Folder>)>,
    uses: u64,
}

impl Cache {
    pub fn get(&mut self, path: &DrivePath) -> Option<Arc<Folder>> {
        self.uses += 1;
        let uses = self.uses;
        self.folders.get_mut(path).map(|(used, folder)| {
            *used = uses;
            folder.clone()
        })
    }

    pub fn put(&mut self, path: DrivePath, folder: Folder) -> Arc<Folder> {
        if self.folders.len() >= REMEMBERED_FOLDERS
            && !self.folders.contains_key(&path)
            && let Some(oldest) = self
                .folders
                .iter()
                .min_by_key(|(_, (used, _))| *used)
                .map(|(p, _)| p.clone())
        {
            self.folders.remove(&oldest);
        }
        self.uses += 1;
        let folder = Arc::new(folder);
        self.folders.insert(path, (self.uses, folder.clone()));
        folder
    }

    /// Forgets the listing of `path`'s folder and of `path` and everything
    /// below it.
    pub fn forget(&mut self, path: &DrivePath) {
        let parent = path.parent();
        let below = path.to_string();
        self.folders.retain(|p, _| {
            let text = p.to_string();
            *p != parent && text != below && !text.starts_with(&format!("{below}/"))
        });
    }
}
