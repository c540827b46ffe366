//! Files between a session's folder and the user's drives (docs/files.md):
//! a drive file attached to a session lands in the folder the session works
//! in, under its own name (a number added rather than a file overwritten),
//! and a file of that folder is saved to a drive path. Both stream, both
//! stay inside the folder: a name is made safe before it is written, and a
//! file to save is refused when it (or a link on its way) leads outside.

use std::fs::File;
use std::io;
use std::path::{Component, Path, PathBuf};

use drives::{DriveError, DrivePath, Entry};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::services::App;

/// How many numbered names are tried before giving up.
const MOST_NUMBERS: u32 = 999;

#[derive(Debug, thiserror::Error)]
pub enum SessionFileError {
    #[error(transparent)]
    Session(#[from] sessions::SessionError),
    #[error(transparent)]
    Drive(#[from] DriveError),
    /// A file path the session's folder does not hold: `field` says which.
    #[error("{field}: {message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    /// The session or its folder cannot take it (on a runner, gone, full).
    #[error("{0}")]
    Refused(String),
}

type Result<T> = std::result::Result<T, SessionFileError>;

/// Runs `work` on the blocking pool: the drive's client and the files are
/// blocking I/O.
async fn off_thread<T: Send + 'static>(
    work: impl FnOnce() -> Result<T> + Send + 'static,
) -> Result<T> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| SessionFileError::Refused(e.to_string()))?
}

/// `POST /sessions/{id}/attach-drive-file`: which drive file.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AttachDriveFile {
    /// The drive's id (`main`, `filesync-a`, `filesync-b`).
    pub drive: String,
    /// The file's path from the drive's root.
    pub path: String,
}

/// `POST /sessions/{id}/save-to-drive`: which file, and where.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SaveToDrive {
    /// A path inside the session's folder.
    pub file: String,
    pub drive: String,
    /// Where on the drive, from its root.
    pub path: String,
    /// Replace a file already there (else 409).
    #[serde(default)]
    pub overwrite: bool,
}

/// `POST /sessions/{id}/attach-drive-file`'s answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AttachedFile {
    /// The file's name in the session's folder (numbered when the drive
    /// file's own name was taken).
    pub path: String,
    #[ts(type = "number")]
    pub size: u64,
}

impl App {
    /// The folder session `id` works in, when it is on this machine.
    async fn session_folder(&self, account: &str, id: &str) -> Result<PathBuf> {
        let session = self.sessions.get(account, id).await?;
        if session.runner != runners::LOCAL {
            return Err(SessionFileError::Refused(format!(
                "the session runs on the runner `{}`: its folder is not on this machine",
                session.runner
            )));
        }
        let folder = PathBuf::from(&session.cwd);
        if !folder.is_dir() {
            return Err(SessionFileError::Refused(format!(
                "the session's folder {} is gone",
                folder.display()
            )));
        }
        Ok(folder)
    }

    /// Copies drive `drive`'s file `path` into session `id`'s folder.
    pub async fn attach_drive_file(
        &self,
        account: &str,
        is_owner: bool,
        id: &str,
        drive: &str,
        path: &str,
    ) -> Result<AttachedFile> {
        let folder = self.session_folder(account, id).await?;
        let path = DrivePath::parse(path)?;
        let (app, owner, drive_id) = (self.clone(), account.to_owned(), drive.to_owned());
        off_thread(move || {
            let drive = app.drive(&owner, is_owner, &drive_id)?;
            let entry = drive.stat(&path)?;
            if entry.folder {
                return Err(SessionFileError::Invalid {
                    field: "path",
                    message: format!("{path} is a folder, not a file"),
                });
            }
            let (name, mut file) = new_file(&folder, &safe_name(&entry.name))?;
            match drive.get(&path, &mut file) {
                Ok(size) => Ok(AttachedFile { path: name, size }),
                Err(error) => {
                    drop(file);
                    let _ = std::fs::remove_file(folder.join(&name));
                    Err(error.into())
                }
            }
        })
        .await
    }

    /// Uploads `save.file` (a path inside session `id`'s folder) to drive
    /// `save.drive` at `save.path`; an existing file there is replaced only
    /// with `save.overwrite`.
    pub async fn save_to_drive(
        &self,
        account: &str,
        is_owner: bool,
        id: &str,
        save: SaveToDrive,
    ) -> Result<Entry> {
        let folder = self.session_folder(account, id).await?;
        let source = inside(&folder, &save.file)?;
        let path = DrivePath::parse(&save.path)?;
        let (drive, overwrite) = (save.drive, save.overwrite);
        let (app, owner, drive_id) = (self.clone(), account.to_owned(), drive);
        off_thread(move || {
            let drive = app.drive(&owner, is_owner, &drive_id)?;
            if !overwrite {
                match drive.stat(&path) {
                    Ok(_) => {
                        return Err(DriveError::Conflict(format!(
                            "{path} exists on the drive; save with overwrite to replace it"
                        ))
                        .into());
                    }
                    Err(DriveError::NotFound(_)) => {}
                    Err(error) => return Err(error.into()),
                }
            }
            let mut reader = File::open(&source).map_err(DriveError::from)?;
            let length = reader.metadata().map_err(DriveError::from)?.len();
            Ok(drive.put(&path, &mut reader, Some(length))?)
        })
        .await
    }
}

/// A drive file's name as a name in a folder: no separator, no control
/// character, not `.` or `..`.
fn safe_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c == '/' || c == '\\' || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    match cleaned.trim() {
        "" | "." | ".." => "file".to_owned(),
        kept => kept.to_owned(),
    }
}

/// `name`, else `stem (2).ext`, `stem (3).ext`…: the first that does not
/// exist in `folder`, created there at once (never one that exists, not
/// even a link).
fn new_file(folder: &Path, name: &str) -> Result<(String, File)> {
    let (stem, extension) = match name.rsplit_once('.') {
        Some((stem, extension)) if !stem.is_empty() => (stem, Some(extension)),
        _ => (name, None),
    };
    for number in 1..=MOST_NUMBERS {
        let candidate = match (number, extension) {
            (1, _) => name.to_owned(),
            (n, Some(extension)) => format!("{stem} ({n}).{extension}"),
            (n, None) => format!("{stem} ({n})"),
        };
        match File::create_new(folder.join(&candidate)) {
            Ok(file) => return Ok((candidate, file)),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
            Err(error) => return Err(DriveError::Io(error).into()),
        }
    }
    Err(SessionFileError::Refused(format!(
        "{MOST_NUMBERS} files named like {name} are in the session's folder already"
    )))
}

/// `file` inside `folder`: relative, no `..`, and once links are followed
/// still inside the folder, and a regular file.
fn inside(folder: &Path, file: &str) -> Result<PathBuf> {
    let invalid = |message: &str| SessionFileError::Invalid {
        field: "file",
        message: format!("{file:?} {message}"),
    };
    let relative = Path::new(file);
    if file.trim().is_empty()
        || relative.is_absolute()
        || relative
            .components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(invalid(
            "must be a path inside the session's folder, without `..`",
        ));
    }
    let root = folder
        .canonicalize()
        .map_err(|e| SessionFileError::Refused(format!("the session's folder: {e}")))?;
    let real = folder
        .join(relative)
        .canonicalize()
        .map_err(|_| invalid("is not in the session's folder"))?;
    if !real.starts_with(&root) {
        return Err(invalid("leads outside the session's folder"));
    }
    if !real.is_file() {
        return Err(invalid("is not a file"));
    }
    Ok(real)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_made_safe_and_numbered_when_taken() {
        assert_eq!(safe_name("a/b\\c\u{7}.csv"), "a_b_c_.csv");
        assert_eq!(safe_name(".."), "file");
        let dir = tempfile::tempdir().unwrap();
        let (first, _) = new_file(dir.path(), "plan.csv").unwrap();
        let (second, _) = new_file(dir.path(), "plan.csv").unwrap();
        let (bare, _) = new_file(dir.path(), "README").unwrap();
        let (bare_again, _) = new_file(dir.path(), "README").unwrap();
        assert_eq!(
            [first, second, bare, bare_again],
            ["plan.csv", "plan (2).csv", "README", "README (2)"]
        );
    }

    #[test]
    fn a_file_to_save_stays_inside_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("work");
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("notes.md"), "hi").unwrap();
        std::fs::write(dir.path().join("secret"), "no").unwrap();
        std::os::unix::fs::symlink(dir.path().join("secret"), folder.join("link")).unwrap();
        assert!(inside(&folder, "notes.md").is_ok());
        assert!(inside(&folder, "./notes.md").is_ok());
        for bad in ["../secret", "/etc/passwd", "link", "", "missing.md", "."] {
            assert!(
                matches!(inside(&folder, bad), Err(SessionFileError::Invalid { .. })),
                "{bad}"
            );
        }
    }
}
