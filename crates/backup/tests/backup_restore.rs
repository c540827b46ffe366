//! A backup taken while a writer keeps committing restores to the database
//! as it was at one moment, with the keys and config files beside it; a
//! restore refuses a non-empty directory, a newer schema and a damaged file,
//! leaving the directory untouched.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use backup::BackupError;
use store::{Db, Migration};

const SCHEMA: &[Migration] = &[Migration {
    feature: "ledger",
    sql: "CREATE TABLE entries (n INTEGER PRIMARY KEY, payload TEXT NOT NULL) STRICT;
          CREATE TABLE totals (id INTEGER PRIMARY KEY, count INTEGER NOT NULL) STRICT;
          INSERT INTO totals VALUES (1, 0);",
}];

const NEXT_SCHEMA: &[Migration] = &[
    SCHEMA[0],
    Migration {
        feature: "ledger",
        sql: "ALTER TABLE entries ADD COLUMN note TEXT;",
    },
];

fn count(db: &Db) -> i64 {
    db.read(|tx| tx.query_row("SELECT count(*) FROM entries", [], |r| r.get(0)))
        .unwrap()
}

/// Each commit adds one entry and bumps the total in the same transaction,
/// so a torn copy would show a total that disagrees with the entries.
fn write_one(db: &Db, n: i64) {
    db.write(|tx| {
        tx.execute(
            "INSERT INTO entries VALUES (?1, ?2)",
            rusqlite::params![n, format!("entry {n} {}", "x".repeat(200))],
        )?;
        tx.execute("UPDATE totals SET count = count + 1", [])
    })
    .unwrap();
}

fn data_dir_with_files(dir: &Path) -> Db {
    let db = Db::open(&dir.join("switchboard.db")).unwrap();
    db.migrate(SCHEMA).unwrap();
    std::fs::write(dir.join("secrets.key"), b"key bytes").unwrap();
    std::fs::write(dir.join("cli-token"), b"the-token\n").unwrap();
    std::fs::write(
        dir.join("engines.toml"),
        b"[engines.echo]\nkind = \"command\"\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("config")).unwrap();
    std::fs::write(dir.join("config/backup.toml"), b"daily = false\n").unwrap();
    std::fs::write(dir.join("server.json"), b"{}").unwrap();
    db
}

#[test]
fn a_backup_under_writes_restores_one_consistent_moment() {
    let source = tempfile::tempdir().unwrap();
    let db = Arc::new(data_dir_with_files(source.path()));
    for n in 1..=2000 {
        write_one(&db, n);
    }
    let done = Arc::new(AtomicBool::new(false));
    let writer = {
        let (db, done) = (Arc::clone(&db), Arc::clone(&done));
        std::thread::spawn(move || {
            let mut n = 2001;
            while !done.load(Ordering::Relaxed) {
                write_one(&db, n);
                n += 1;
            }
        })
    };
    while count(&db) < 2500 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let out = tempfile::tempdir().unwrap();
    let archive = out.path().join("backup.tar.zst");
    let before = count(&db);
    let manifest =
        backup::create(source.path(), &archive, time::OffsetDateTime::now_utc()).unwrap();
    let after = count(&db);
    done.store(true, Ordering::Relaxed);
    writer.join().unwrap();
    assert!(after > before, "the writer went on during the backup");
    assert_eq!(manifest.schema.get("ledger"), Some(&1));

    let target = tempfile::tempdir().unwrap();
    let restored_dir = target.path().join("restored");
    backup::restore(&archive, &restored_dir, SCHEMA).unwrap();
    let restored = Db::open(&restored_dir.join("switchboard.db")).unwrap();
    restored.migrate(SCHEMA).unwrap();
    let (entries, total, max): (i64, i64, i64) = restored
        .read(|tx| {
            tx.query_row(
                "SELECT (SELECT count(*) FROM entries), (SELECT count FROM totals), (SELECT max(n) FROM entries)",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
        })
        .unwrap();
    assert_eq!(entries, total, "the copy is one transaction's state");
    assert_eq!(entries, max, "no entry is missing below the last one");
    assert!(
        (before..=after).contains(&entries),
        "the copy is a moment inside the backup: {before} <= {entries} <= {after}"
    );
    let rows = |db: &Db| -> Vec<(i64, String)> {
        db.read(|tx| {
            let mut stmt = tx.prepare("SELECT n, payload FROM entries WHERE n <= ?1 ORDER BY n")?;
            stmt.query_map([entries], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<rusqlite::Result<Vec<_>>>()
        })
        .unwrap()
    };
    assert_eq!(rows(&restored), rows(&db), "every row as the source had it");

    for name in [
        "secrets.key",
        "cli-token",
        "engines.toml",
        "config/backup.toml",
    ] {
        assert_eq!(
            std::fs::read(restored_dir.join(name)).unwrap(),
            std::fs::read(source.path().join(name)).unwrap(),
            "{name}"
        );
        let mode = std::fs::metadata(restored_dir.join(name))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "{name} is private");
    }
    assert!(
        !restored_dir.join("server.json").exists(),
        "a running server's file is not state"
    );
    assert!(!restored_dir.join(".restoring").exists());
}

#[test]
fn a_restore_refuses_a_directory_that_is_not_empty() {
    let source = tempfile::tempdir().unwrap();
    let _db = data_dir_with_files(source.path());
    let archive = source.path().join("b.tar.zst");
    backup::create(source.path(), &archive, time::OffsetDateTime::now_utc()).unwrap();
    let target = tempfile::tempdir().unwrap();
    std::fs::write(target.path().join("notes.txt"), b"mine").unwrap();
    let refused = backup::restore(&archive, target.path(), SCHEMA).unwrap_err();
    assert!(matches!(refused, BackupError::NotEmpty(_)), "{refused}");
    let names: Vec<_> = std::fs::read_dir(target.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("notes.txt")]);
}

#[test]
fn a_backup_of_a_newer_schema_is_refused_with_nothing_written() {
    let source = tempfile::tempdir().unwrap();
    let db = data_dir_with_files(source.path());
    db.migrate(NEXT_SCHEMA).unwrap();
    let archive = source.path().join("b.tar.zst");
    backup::create(source.path(), &archive, time::OffsetDateTime::now_utc()).unwrap();
    let target = tempfile::tempdir().unwrap();
    let refused = backup::restore(&archive, target.path(), SCHEMA).unwrap_err();
    assert!(
        matches!(refused, BackupError::NewerSchema { .. }),
        "{refused}"
    );
    assert!(
        refused.to_string().contains("newer Switchboard"),
        "{refused}"
    );
    assert_eq!(std::fs::read_dir(target.path()).unwrap().count(), 0);
}

#[test]
fn a_file_that_is_not_a_backup_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let bogus = dir.path().join("bogus.tar.zst");
    std::fs::write(&bogus, b"certainly not zstd").unwrap();
    let target = dir.path().join("target");
    let refused = backup::restore(&bogus, &target, SCHEMA).unwrap_err();
    assert!(matches!(refused, BackupError::NotABackup(..)), "{refused}");
    assert_eq!(std::fs::read_dir(&target).unwrap().count(), 0);
}

#[test]
fn a_directory_without_a_database_is_not_backed_up() {
    let dir = tempfile::tempdir().unwrap();
    let refused = backup::create(
        dir.path(),
        &dir.path().join("b.tar.zst"),
        time::OffsetDateTime::now_utc(),
    )
    .unwrap_err();
    assert!(matches!(refused, BackupError::NoDatabase(_)), "{refused}");
    assert!(!dir.path().join("b.tar.zst").exists());
}
