//! The daily backup on a manual clock: one at once, the next a day later and
//! not before, the oldest deleted past `keep`; `backup.toml` is read, off by
//! default and checked.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use backup::daily::{self, DailyConfig};
use clock::{Clock, ManualClock};

fn data_dir(dir: &Path) -> store::Db {
    let db = store::Db::open(&dir.join("switchboard.db")).unwrap();
    db.migrate(&[store::Migration {
        feature: "notes",
        sql: "CREATE TABLE notes (text TEXT NOT NULL) STRICT;",
    }])
    .unwrap();
    db
}

async fn wait_for_archives(folder: &Path, wanted: usize) -> Vec<String> {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let names: Vec<String> = daily::archives(folder)
            .into_iter()
            .map(|(_, path)| path.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        if names.len() == wanted {
            return names;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "wanted {wanted} archives, have {names:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn one_backup_a_day_on_the_clock_keeping_the_newest() {
    let dir = tempfile::tempdir().unwrap();
    let _db = data_dir(dir.path());
    let manual = Arc::new(ManualClock::new(
        time::macros::datetime!(2026-01-05 09:00 UTC),
    ));
    let clock: Arc<dyn Clock> = manual.clone();
    let config = DailyConfig {
        daily: true,
        keep: 2,
        dir: Some("saved".into()),
    };
    let folder = config.folder(dir.path());
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(daily::run(dir.path().to_owned(), config, clock, async {
        let _ = stop_rx.await;
    }));
    assert_eq!(
        wait_for_archives(&folder, 1).await,
        ["switchboard-20260105T090000Z.tar.zst"]
    );
    manual.advance(time::Duration::hours(23));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        daily::archives(&folder).len(),
        1,
        "not due before a day has passed"
    );
    manual.advance(time::Duration::hours(1));
    wait_for_archives(&folder, 2).await;
    manual.advance(time::Duration::days(1));
    let kept = loop {
        let names = wait_for_archives(&folder, 2).await;
        if names.contains(&"switchboard-20260107T090000Z.tar.zst".to_owned()) {
            break names;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(
        kept,
        [
            "switchboard-20260106T090000Z.tar.zst",
            "switchboard-20260107T090000Z.tar.zst"
        ],
        "keep = 2 deletes the oldest"
    );
    stop_tx.send(()).unwrap();
    task.await.unwrap();
}

#[test]
fn the_config_is_off_by_default_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        DailyConfig::load(dir.path()).unwrap(),
        DailyConfig::default()
    );
    assert!(!DailyConfig::default().daily);
    std::fs::write(dir.path().join("backup.toml"), "daily = true\nkeep = 3\n").unwrap();
    let config = DailyConfig::load(dir.path()).unwrap();
    assert!(config.daily);
    assert_eq!(config.keep, 3);
    assert_eq!(config.folder(dir.path()), dir.path().join("backups"));
    std::fs::write(dir.path().join("backup.toml"), "daily = true\nkeep = 0\n").unwrap();
    assert!(
        DailyConfig::load(dir.path())
            .unwrap_err()
            .to_string()
            .contains("keep")
    );
    std::fs::write(dir.path().join("backup.toml"), "dialy = true\n").unwrap();
    assert!(
        DailyConfig::load(dir.path()).is_err(),
        "a misspelt key is refused"
    );
}
