//! Writing a file whole: a temporary file beside it, then a rename, so a
//! tool reading it mid-sync sees the old content or the new, never half.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::SyncError;

/// Writes `content` to `path`, creating missing parent folders.
pub fn write(path: &Path, content: &[u8]) -> Result<(), SyncError> {
    let failed = |source| SyncError::Write {
        path: path.to_owned(),
        source,
    };
    let parent = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(parent).map_err(failed)?;
    let temp = temp_path(path);
    // A temp file left by a crash of an earlier process with the same id would
    // block `create_new`, which is there so a planted link is never followed.
    let _ = fs::remove_file(&temp);
    let written = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        .and_then(|mut file| {
            file.write_all(content)?;
            file.sync_all()
        })
        .and_then(|()| fs::rename(&temp, path));
    if let Err(e) = written {
        // Best effort: a leftover temp file is clutter, the write error is what matters.
        let _ = fs::remove_file(&temp);
        return Err(failed(e));
    }
    Ok(())
}

/// `dir/.name.<pid>.switchboard-tmp`: hidden, and unique per process so two
/// servers syncing the same folder do not share one.
fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.switchboard-tmp", std::process::id()))
}
