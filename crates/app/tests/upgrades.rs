//! Upgrades (docs/backup.md): the repository keeps a database made with each
//! released schema in `tests/fixtures/schemas/`, a row in every table; each
//! is opened with this build, migrated, and every table read back. A
//! database from a newer Switchboard is refused and left as it was.
//!
//! `RECORD_SCHEMA_FIXTURES=1 cargo test -p app --test upgrades` writes the
//! fixtures of this version when they are missing; recorded ones are never
//! rewritten, since they stand for what older builds left on disk.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use store::rusqlite::types::Value;
use store::rusqlite::{self, Connection};
use store::{Db, Migration};

fn whole_schema() -> Vec<Migration> {
    let mut all = app::all_migrations();
    all.extend_from_slice(sessions::MIGRATIONS);
    all
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/schemas")
}

/// The tables that hold rows of their own: FTS shadow tables and SQLite's
/// are left to whoever writes them.
fn tables(conn: &Connection) -> Vec<String> {
    let mut stmt = conn
        .prepare("SELECT name, type FROM pragma_table_list WHERE schema = 'main' ORDER BY name")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .filter(|(name, kind)| kind == "table" && !name.starts_with("sqlite_"))
        .map(|(name, _)| name)
        .collect()
}

fn rows(conn: &Connection, table: &str) -> Vec<Vec<Value>> {
    let mut stmt = conn.prepare(&format!("SELECT * FROM \"{table}\"")).unwrap();
    let width = stmt.column_count();
    stmt.query_map([], |row| {
        (0..width).map(|i| row.get::<_, Value>(i)).collect()
    })
    .unwrap()
    .collect::<rusqlite::Result<_>>()
    .unwrap_or_else(|e| panic!("{table}: {e}"))
}

/// One row in `table` with a value of each column's type; a table whose
/// checks refuse every guess stays empty (the test still reads it).
fn insert_one(conn: &Connection, table: &str) -> bool {
    let mut stmt = conn
        .prepare(&format!(
            "SELECT name, type FROM pragma_table_info('{table}')"
        ))
        .unwrap();
    let columns: Vec<(String, String)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let names: Vec<String> = columns.iter().map(|(n, _)| format!("\"{n}\"")).collect();
    for text in [
        "x",
        "{}",
        "[]",
        "2026-01-05T09:00:00.000Z",
        "open",
        "pending",
    ] {
        let values: Vec<String> = columns
            .iter()
            .map(|(_, kind)| match kind.to_ascii_uppercase().as_str() {
                "INTEGER" | "INT" => "1".to_owned(),
                "REAL" => "1.5".to_owned(),
                "BLOB" => "x'00'".to_owned(),
                _ => format!("'{text}'"),
            })
            .collect();
        let sql = format!(
            "INSERT INTO \"{table}\" ({}) VALUES ({})",
            names.join(", "),
            values.join(", ")
        );
        if conn.execute(&sql, []).is_ok() {
            return true;
        }
    }
    false
}

fn record(path: &Path, migrations: &[Migration]) {
    let db = Db::open(path).unwrap();
    db.migrate(migrations).unwrap();
    drop(db);
    let conn = Connection::open(path).unwrap();
    conn.execute_batch("PRAGMA foreign_keys = OFF;").unwrap();
    for table in tables(&conn) {
        if table != "schema_migrations" {
            insert_one(&conn, &table);
        }
    }
    conn.query_row("PRAGMA journal_mode = DELETE", [], |r| {
        r.get::<_, String>(0)
    })
    .unwrap();
}

/// Each feature at its first migration: the oldest schema any feature had,
/// so every later step runs over rows.
fn first_steps(all: &[Migration]) -> Vec<Migration> {
    let mut seen = Vec::new();
    all.iter()
        .filter(|m| {
            let first = !seen.contains(&m.feature);
            seen.push(m.feature);
            first
        })
        .copied()
        .collect()
}

fn record_missing() {
    let dir = fixtures();
    std::fs::create_dir_all(&dir).unwrap();
    let all = whole_schema();
    let version = env!("CARGO_PKG_VERSION");
    let current = dir.join(format!("schema-{version}.sqlite"));
    if !current.exists() {
        record(&current, &all);
    }
    let first = dir.join("schema-first-steps.sqlite");
    if !first.exists() {
        record(&first, &first_steps(&all));
    }
}

#[test]
fn every_kept_database_migrates_and_reads_back() {
    if std::env::var_os("RECORD_SCHEMA_FIXTURES").is_some() {
        record_missing();
    }
    let all = whole_schema();
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sqlite"))
        .collect();
    fixtures.sort();
    let current = format!("schema-{}.sqlite", env!("CARGO_PKG_VERSION"));
    assert!(
        fixtures.iter().any(|p| p.ends_with(&current)),
        "no fixture of this version's schema: RECORD_SCHEMA_FIXTURES=1 cargo test -p app --test upgrades"
    );
    for fixture in fixtures {
        let before: BTreeMap<String, usize> = {
            let conn = Connection::open(&fixture).unwrap();
            tables(&conn)
                .into_iter()
                .map(|t| (t.clone(), rows(&conn, &t).len()))
                .collect()
        };
        assert!(
            before.values().filter(|&&n| n > 0).count() * 2 > before.len(),
            "{}: most tables hold a row",
            fixture.display()
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("switchboard.db");
        std::fs::copy(&fixture, &path).unwrap();
        let db = Db::open(&path).unwrap();
        db.migrate(&all)
            .unwrap_or_else(|e| panic!("{}: {e}", fixture.display()));
        drop(db);
        let conn = Connection::open(&path).unwrap();
        let check: String = conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(check, "ok", "{}", fixture.display());
        let after = tables(&conn);
        for (table, count) in &before {
            assert!(
                after.contains(table),
                "{}: {table} is gone",
                fixture.display()
            );
            if table != "schema_migrations" {
                assert_eq!(
                    rows(&conn, table).len(),
                    *count,
                    "{}: {table}",
                    fixture.display()
                );
            }
        }
        for table in &after {
            rows(&conn, table);
        }
        let applied = store::applied_migrations(&conn).unwrap();
        for migration in &all {
            let known = all
                .iter()
                .filter(|m| m.feature == migration.feature)
                .count();
            assert_eq!(
                applied.get(migration.feature),
                Some(&known),
                "{}",
                migration.feature
            );
        }
    }
}

#[test]
fn a_database_from_a_newer_switchboard_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("switchboard.db");
    let all = whole_schema();
    let db = Db::open(&path).unwrap();
    db.migrate(&all).unwrap();
    db.write(|tx| {
        tx.execute(
            "INSERT INTO schema_migrations (feature, idx, checksum, applied_at)
             SELECT 'settings', max(idx) + 1, 'from-the-future', '2027-01-01T00:00:00.000Z'
             FROM schema_migrations WHERE feature = 'settings'",
            [],
        )
    })
    .unwrap();
    drop(db);
    let bytes = std::fs::read(&path).unwrap();
    let db = Db::open(&path).unwrap();
    let refused = db.migrate(&all).unwrap_err();
    assert!(
        refused.to_string().contains("newer Switchboard"),
        "{refused}"
    );
    drop(db);
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "not a byte changed");

    let options = app::Options {
        data_dir: dir.path().to_owned(),
        demo: false,
        manual_clock: false,
        manual_clock_start_ms: None,
        meminfo_file: None,
        without_session_trees: true,
        demo_projects: None,
    };
    let startup = app::Prepared::open(options)
        .err()
        .expect("the start is refused");
    let message = format!(
        "{startup}: {}",
        std::error::Error::source(&startup)
            .map(ToString::to_string)
            .unwrap_or_default()
    );
    assert!(message.contains("newer Switchboard"), "{message}");
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "not a byte changed");
}
