//! The one rule of every generated file's test: write the file when its
//! contents changed and fail then, so one run both catches and fixes the
//! drift (commit the rewritten file).

use std::path::Path;

/// Writes `contents` to `path` when it differs and fails the test then.
pub fn ensure_file_contents(path: &Path, contents: &str) {
    if std::fs::read_to_string(path).ok().as_deref() == Some(contents) {
        return;
    }
    std::fs::write(path, contents).unwrap();
    panic!(
        "{} was stale and has been regenerated; commit it and run the tests again",
        path.display()
    );
}
