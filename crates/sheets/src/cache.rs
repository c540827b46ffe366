//! A small in-memory cache of spreadsheet files keyed by where they live and
//! their ETag, so paging through a sheet (`/sheets/rows`) does not download
//! the whole file again for every page. The caller revalidates with the
//! drive's current ETag (a PROPFIND is a few hundred bytes; the file may be
//! 100 MB): a changed file has a new ETag, misses and is read again.
//!
//! The raw bytes are kept rather than a parsed workbook because a page is
//! streamed from the bytes (`read::rows`), so a 1,000,000-row sheet is never
//! held parsed; the bound is a number of files and a byte budget.

use std::sync::{Arc, Mutex, MutexGuard};

/// How many files the application keeps by default.
pub const DEFAULT_MAX_FILES: usize = 4;
/// The default byte budget over all kept files; a file larger than the
/// whole budget is never kept.
pub const DEFAULT_MAX_BYTES: usize = 64 * 1024 * 1024;

struct Kept {
    key: (String, String),
    etag: String,
    bytes: Arc<Vec<u8>>,
}

/// Files by `(scope, path)`, scope naming the account and drive; the most
/// recently used first.
pub struct FileCache {
    kept: Mutex<Vec<Kept>>,
    max_files: usize,
    max_bytes: usize,
}

impl Default for FileCache {
    fn default() -> Self {
        Self::new(DEFAULT_MAX_FILES, DEFAULT_MAX_BYTES)
    }
}

impl std::fmt::Debug for FileCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileCache")
            .field("files", &self.lock().len())
            .field("max_files", &self.max_files)
            .field("max_bytes", &self.max_bytes)
            .finish()
    }
}

impl FileCache {
    pub fn new(max_files: usize, max_bytes: usize) -> Self {
        Self {
            kept: Mutex::new(Vec::new()),
            max_files,
            max_bytes,
        }
    }

    // A panic while holding the lock leaves the list whole (every change is
    // a single push/remove), so a poisoned lock is still usable.
    fn lock(&self) -> MutexGuard<'_, Vec<Kept>> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The bytes kept for `scope`/`path` when they were read at `etag`
    /// (compared without quotes or a weak prefix).
    pub fn get(&self, scope: &str, path: &str, etag: &str) -> Option<Arc<Vec<u8>>> {
        let mut kept = self.lock();
        let at = kept
            .iter()
            .position(|k| k.key.0 == scope && k.key.1 == path)?;
        if kept[at].etag != bare(etag) {
            kept.remove(at);
            return None;
        }
        let hit = kept.remove(at);
        let bytes = hit.bytes.clone();
        kept.insert(0, hit);
        Some(bytes)
    }

    /// Keeps `bytes` as `scope`/`path` at `etag`, replacing an older copy and
    /// dropping the least recently used files past the bounds.
    pub fn put(&self, scope: &str, path: &str, etag: &str, bytes: Arc<Vec<u8>>) {
        let mut kept = self.lock();
        kept.retain(|k| !(k.key.0 == scope && k.key.1 == path));
        if bytes.len() > self.max_bytes || self.max_files == 0 {
            return;
        }
        kept.insert(
            0,
            Kept {
                key: (scope.to_owned(), path.to_owned()),
                etag: bare(etag).to_owned(),
                bytes,
            },
        );
        kept.truncate(self.max_files);
        while kept.iter().map(|k| k.bytes.len()).sum::<usize>() > self.max_bytes {
            kept.pop();
        }
    }

    /// Forgets `scope`/`path`, after the application wrote it.
    pub fn forget(&self, scope: &str, path: &str) {
        self.lock()
            .retain(|k| !(k.key.0 == scope && k.key.1 == path));
    }
}

/// An ETag without its weak prefix and quotes: servers quote differently in
/// a GET's header and a PROPFIND's `getetag`.
pub fn bare(etag: &str) -> &str {
    etag.trim().trim_start_matches("W/").trim_matches('"')
}
