//! `switchboard backup` and `switchboard restore`: local maintenance commands
//! on a data directory (the `backup` crate does the work; docs/backup.md).
//! A backup reads the database through SQLite while a running server keeps
//! writing, so it needs no server and does not stop one.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;

pub fn backup(data_dir: &Path, out: &Path, json: bool) -> anyhow::Result<ExitCode> {
    let manifest = backup::create(data_dir, out, time::OffsetDateTime::now_utc())
        .with_context(|| format!("cannot back up {}", data_dir.display()))?;
    if json {
        println!("{}", serde_json::to_string_pretty(&manifest)?);
    } else {
        println!(
            "Backed up {} ({} files, as of {}) to {}.",
            data_dir.display(),
            manifest.files.len(),
            manifest.created_at,
            out.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

pub fn restore(file: &Path, data_dir: &Path, json: bool) -> anyhow::Result<ExitCode> {
    let manifest = backup::restore(file, data_dir, &app::all_migrations())
        .with_context(|| format!("cannot restore {}", file.display()))?;
    if json {
        println!("{}", serde_json::to_string_pretty(&manifest)?);
    } else {
        println!(
            "Restored the backup of {} (Switchboard {}) into {}; start it with `switchboard serve --data-dir {}`.",
            manifest.created_at,
            manifest.app_version,
            data_dir.display(),
            data_dir.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
