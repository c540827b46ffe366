//! Where an input request's value goes: `NAME=value` in a dotenv file inside
//! the session's folder, owner-only. The server writes it, not the engine,
//! so the path is checked here: an agent must not aim the write at a file
//! outside its folder, directly or through a symbolic link.

use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::error::SecretsError;

/// The file a request names (`.env` by default), made absolute against the
/// session's folder and checked to stay inside it once links are followed.
pub fn confine(folder: &Path, requested: Option<&str>) -> Result<PathBuf, SecretsError> {
    let requested = requested.map(str::trim).filter(|r| !r.is_empty());
    let raw = requested.unwrap_or(".env");
    let folder = sandbox::resolve(folder);
    let path = sandbox::resolve(&sandbox::normalize(&folder.join(raw)));
    let inside = path.starts_with(&folder) && path != folder;
    if !inside {
        return Err(SecretsError::FileOutsideFolder {
            file: raw.to_owned(),
            folder,
        });
    }
    Ok(path)
}

/// Sets `name` in the dotenv file at `path` (replacing its line, or adding
/// one), keeping the other lines, and leaves the file mode 0600. The new
/// contents go to a fresh file that is renamed over the old one, so a link
/// planted at `path` is replaced, never followed, and no reader ever sees a
/// half-written file.
pub fn set(folder: &Path, path: &Path, name: &str, value: &str) -> Result<(), SecretsError> {
    let failed = |source: std::io::Error| SecretsError::FileWrite {
        path: path.to_owned(),
        source,
    };
    // Checked again at the moment of writing: the folder's links may have
    // changed since the request was made.
    let parent = path
        .parent()
        .ok_or_else(|| failed(std::io::Error::other("the file has no folder")))?;
    let real_parent = parent.canonicalize().map_err(failed)?;
    let real_folder = sandbox::resolve(folder);
    if !real_parent.starts_with(&real_folder) {
        return Err(SecretsError::FileOutsideFolder {
            file: path.display().to_string(),
            folder: real_folder,
        });
    }
    let file_name = path
        .file_name()
        .ok_or_else(|| failed(std::io::Error::other("the path names no file")))?;
    let target = real_parent.join(file_name);
    let old = match std::fs::symlink_metadata(&target) {
        Ok(meta) if meta.file_type().is_file() => {
            std::fs::read_to_string(&target).map_err(failed)?
        }
        // A link or anything else is replaced, not read through.
        Ok(_) => String::new(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(failed(e)),
    };
    let contents = with_entry(&old, name, value);
    let scratch = real_parent.join(format!(
        ".{}.switchboard-{}",
        file_name.to_string_lossy(),
        store::new_id()
    ));
    let written = (|| {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&scratch)?;
        file.write_all(contents.as_bytes())?;
        file.sync_all()?;
        // `mode` is filtered by the umask; the file must end up 0600 exactly.
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        std::fs::rename(&scratch, &target)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&scratch);
        return Err(failed(e));
    }
    Ok(())
}

/// `old` with `name`'s line (`NAME=` or `export NAME=`) replaced by
/// `NAME=value`, or the line appended.
fn with_entry(old: &str, name: &str, value: &str) -> String {
    let entry = format!("{name}={value}");
    let names = |line: &str| {
        let line = line.trim_start();
        let line = line.strip_prefix("export ").unwrap_or(line).trim_start();
        line.strip_prefix(name)
            .is_some_and(|rest| rest.trim_start().starts_with('='))
    };
    let mut replaced = false;
    let mut lines: Vec<String> = Vec::new();
    for line in old.lines() {
        if names(line) {
            if !replaced {
                lines.push(entry.clone());
                replaced = true;
            }
        } else {
            lines.push(line.to_owned());
        }
    }
    if !replaced {
        lines.push(entry);
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_replaces_its_own_line_and_keeps_the_others() {
        let old = "# keys\nOTHER=1\nexport API_KEY=old\nAPI_KEY_2=x\n";
        assert_eq!(
            with_entry(old, "API_KEY", "new"),
            "# keys\nOTHER=1\nAPI_KEY=new\nAPI_KEY_2=x\n"
        );
        assert_eq!(with_entry("", "A", "1"), "A=1\n");
        assert_eq!(with_entry("B=2", "A", "1"), "B=2\nA=1\n");
    }

    #[test]
    fn the_file_stays_inside_the_sessions_folder() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("project");
        std::fs::create_dir_all(folder.join("config")).unwrap();
        let real = folder.canonicalize().unwrap();
        assert_eq!(confine(&folder, None).unwrap(), real.join(".env"));
        assert_eq!(
            confine(&folder, Some("config/.env.local")).unwrap(),
            real.join("config/.env.local")
        );
        for outside in ["../.env", "/etc/environment", "config/../../x", "."] {
            assert!(
                matches!(
                    confine(&folder, Some(outside)),
                    Err(SecretsError::FileOutsideFolder { .. })
                ),
                "{outside}"
            );
        }
        // A link out of the folder is judged by where it leads.
        std::os::unix::fs::symlink(dir.path(), folder.join("out")).unwrap();
        assert!(confine(&folder, Some("out/.env")).is_err());
    }

    #[test]
    fn a_write_is_owner_only_and_replaces_a_planted_link() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("project");
        std::fs::create_dir(&folder).unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "untouched\n").unwrap();
        let path = confine(&folder, None).unwrap();
        std::os::unix::fs::symlink(&victim, &path).unwrap();

        set(&folder, &path, "TOKEN", "s3cret").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "untouched\n");
        let meta = std::fs::symlink_metadata(&path).unwrap();
        assert!(meta.file_type().is_file());
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "TOKEN=s3cret\n");

        set(&folder, &path, "OTHER", "2").unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "TOKEN=s3cret\nOTHER=2\n"
        );
    }
}
