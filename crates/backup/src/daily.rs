//! The daily automatic backup, set in `DIR/backup.toml` and off by default:
//!
//! ```toml
//! daily = true
//! keep = 7            # newest archives kept; older ones are deleted
//! dir = "backups"     # relative to the data directory, or absolute
//! ```
//!
//! A backup is due a day after the newest archive in `dir` (at once when
//! there is none), measured on the injectable clock, so a restart neither
//! skips a day nor makes a second archive the same day.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;
use time::OffsetDateTime;

use crate::BackupError;

pub const CONFIG_FILE: &str = "backup.toml";
const DEFAULT_KEEP: usize = 7;
const DEFAULT_DIR: &str = "backups";
const PREFIX: &str = "switchboard-";
const SUFFIX: &str = ".tar.zst";
/// The name's stamp: sorts as text in time order.
const STAMP: &[time::format_description::FormatItem<'_>] =
    time::macros::format_description!("[year][month][day]T[hour][minute][second]Z");
/// After a failed backup (a full disk, say), the next try.
const RETRY_AFTER: time::Duration = time::Duration::hours(1);

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DailyConfig {
    #[serde(default)]
    pub daily: bool,
    #[serde(default = "default_keep")]
    pub keep: usize,
    pub dir: Option<PathBuf>,
}

fn default_keep() -> usize {
    DEFAULT_KEEP
}

impl Default for DailyConfig {
    fn default() -> Self {
        Self {
            daily: false,
            keep: DEFAULT_KEEP,
            dir: None,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not valid: {message}")]
    Invalid { path: PathBuf, message: String },
}

impl DailyConfig {
    /// Reads `DIR/backup.toml`; a missing file is the default (off).
    pub fn load(data_dir: &Path) -> Result<Self, ConfigError> {
        let path = data_dir.join(CONFIG_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Self::default()),
            Err(source) => return Err(ConfigError::Read { path, source }),
        };
        let config: Self = toml::from_str(&text).map_err(|e| ConfigError::Invalid {
            path: path.clone(),
            message: e.message().to_owned(),
        })?;
        if config.keep == 0 {
            return Err(ConfigError::Invalid {
                path,
                message: "keep must be at least 1".to_owned(),
            });
        }
        Ok(config)
    }

    /// Where the archives go.
    pub fn folder(&self, data_dir: &Path) -> PathBuf {
        data_dir.join(self.dir.as_deref().unwrap_or(Path::new(DEFAULT_DIR)))
    }
}

/// Runs until `stop` resolves: a backup whenever one is due, then the
/// oldest archives past `keep` are deleted.
pub async fn run(
    data_dir: PathBuf,
    config: DailyConfig,
    clock: Arc<dyn clock::Clock>,
    stop: impl std::future::Future<Output = ()>,
) {
    let folder = config.folder(&data_dir);
    tokio::pin!(stop);
    let mut retry_at: Option<OffsetDateTime> = None;
    loop {
        let due = retry_at.unwrap_or_else(|| next_due(&folder, clock.now()));
        tokio::select! {
            () = clock.sleep_until(due) => {}
            () = &mut stop => return,
        }
        let now = clock.now();
        let (dir, folder_now) = (data_dir.clone(), folder.clone());
        let made =
            tokio::task::spawn_blocking(move || backup_now(&dir, &folder_now, now, config.keep))
                .await;
        retry_at = match made {
            Ok(Ok(path)) => {
                tracing::info!(archive = %path.display(), "daily backup written");
                None
            }
            Ok(Err(error)) => {
                tracing::warn!(%error, "daily backup failed; trying again in an hour");
                Some(now + RETRY_AFTER)
            }
            Err(error) => {
                tracing::warn!(%error, "daily backup task failed; trying again in an hour");
                Some(now + RETRY_AFTER)
            }
        };
    }
}

/// Writes one archive named for `now` into `folder` and prunes to `keep`.
pub fn backup_now(
    data_dir: &Path,
    folder: &Path,
    now: OffsetDateTime,
    keep: usize,
) -> Result<PathBuf, BackupError> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(folder)
        .map_err(|source| BackupError::Write {
            path: folder.to_owned(),
            source,
        })?;
    let stamp = now
        .to_offset(time::UtcOffset::UTC)
        .format(STAMP)
        .map_err(|e| BackupError::Write {
            path: folder.to_owned(),
            source: std::io::Error::other(e),
        })?;
    let path = folder.join(format!("{PREFIX}{stamp}{SUFFIX}"));
    crate::create(data_dir, &path, now)?;
    for old in archives(folder).iter().rev().skip(keep) {
        let _ = std::fs::remove_file(&old.1);
    }
    Ok(path)
}

fn next_due(folder: &Path, now: OffsetDateTime) -> OffsetDateTime {
    archives(folder)
        .last()
        .map_or(now, |(at, _)| *at + time::Duration::days(1))
}

/// The automatic archives in `folder`, oldest first.
pub fn archives(folder: &Path) -> Vec<(OffsetDateTime, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut found: Vec<(OffsetDateTime, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let stamp = name.strip_prefix(PREFIX)?.strip_suffix(SUFFIX)?;
            let at = time::PrimitiveDateTime::parse(stamp, STAMP)
                .ok()?
                .assume_utc();
            Some((at, entry.path()))
        })
        .collect();
    found.sort();
    found
}
