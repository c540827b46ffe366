//! The tasks.md sync of a 1,000-task list (three levels deep, a third with
//! due dates, a quarter with notes) when, since the last sync, a person
//! edited 10% of the lines in the file and the app changed another 10% of
//! the tasks in the database: the time of `sync_list` (read and parse the
//! file, merge three ways, write the database's side in one transaction,
//! render, write the file through a flushed temporary file and a rename),
//! and of parse + merge alone. p50, p95 and max over 30 rounds, printed,
//! with the file's size. Each round also checks that the merge did what it
//! should: every edit from both sides present, nothing created or deleted,
//! no conflict, and the file equal to the list rendered.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tasks::{NewTask, TaskPatch, Tasks};

const TOP: usize = 40;
const CHILDREN: usize = 4;
const GRANDCHILDREN: usize = 5;
const ROUNDS: usize = 30;
const WARM_UP: usize = 2;

fn create(tasks: &Tasks, n: &mut usize, parent: Option<&str>) -> String {
    let i = *n;
    *n += 1;
    let new = NewTask {
        text: format!("Task {i:04} of the benchmark list"),
        parent_id: parent.map(str::to_owned),
        due: i
            .is_multiple_of(3)
            .then(|| format!("2026-{:02}-{:02}", i % 12 + 1, i % 28 + 1)),
        notes: i
            .is_multiple_of(4)
            .then(|| format!("Why task {i} matters.\nSecond line of its notes.")),
        ..NewTask::default()
    };
    tasks.create("acc", new, None).expect("a task").id
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at.min(sorted.len() - 1)]
}

fn show(what: &str, mut times: Vec<Duration>) {
    times.sort();
    println!(
        "{what}: p50 {:.2} ms, p95 {:.2} ms, max {:.2} ms",
        percentile(&times, 0.50).as_secs_f64() * 1e3,
        percentile(&times, 0.95).as_secs_f64() * 1e3,
        percentile(&times, 1.0).as_secs_f64() * 1e3,
    );
}

fn main() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = Arc::new(store::Db::open(&dir.path().join("bench.db")).expect("the database"));
    db.migrate(tasks::MIGRATIONS).expect("migrations");
    let tasks = Tasks::new(db, Arc::new(clock::SystemClock));
    let mut n = 0;
    for _ in 0..TOP {
        let top = create(&tasks, &mut n, None);
        for _ in 0..CHILDREN {
            let child = create(&tasks, &mut n, Some(&top));
            for _ in 0..GRANDCHILDREN {
                create(&tasks, &mut n, Some(&child));
            }
        }
    }
    let path = tasks::default_mirror_path(dir.path(), "acc", None);
    tasks.sync_list("acc", None, &path).expect("the first sync");
    let list = tasks.list("acc", None).expect("the list");
    assert_eq!(list.len(), 1_000);

    let mut syncs = Vec::new();
    let mut merges = Vec::new();
    for round in 0..WARM_UP + ROUNDS {
        let list = tasks.list("acc", None).expect("the list");
        let by_file: Vec<usize> = (0..list.len()).filter(|i| i % 10 == round % 10).collect();
        let by_db: Vec<usize> = (0..list.len())
            .filter(|i| i % 10 == (round + 5) % 10)
            .collect();

        // A person edits every tenth line's text in the file.
        let mut text = std::fs::read_to_string(&path).expect("the file");
        for &i in &by_file {
            let task = &list[i];
            let line = format!("] {} ", task.text);
            let edited = format!("] {} file r{round} ", task.text);
            text = text.replacen(&line, &edited, 1);
        }
        std::fs::write(&path, &text).expect("the edited file");
        // The app changes another tenth in the database.
        for &i in &by_db {
            let patch = TaskPatch {
                text: Some(format!("{} db r{round}", list[i].text)),
                ..TaskPatch::default()
            };
            tasks.update("acc", &list[i].id, patch).expect("an update");
        }

        // Parse and merge alone, on the same inputs.
        let base = tasks::markdown::parse(&tasks::render_tasks(&list));
        let base = tasks::merge::items_of(&base.tasks);
        let now = tasks.list("acc", None).expect("the list");
        let db_items: Vec<tasks::Item> = now
            .iter()
            .map(|t| tasks::Item {
                id: t.id.clone(),
                parent_id: t.parent_id.clone(),
                fields: t.fields(),
            })
            .collect();
        let started = Instant::now();
        let parsed = tasks::parse(&text);
        let merged = tasks::merge(&base, &db_items, &parsed.tasks, &mut store::new_id);
        let merge_time = started.elapsed();
        assert!(merged.conflicts.is_empty());

        let started = Instant::now();
        let report = tasks.sync_list("acc", None, &path).expect("the sync");
        let sync_time = started.elapsed();

        // What the merge had to do, and did.
        assert!(report.read_file && report.wrote_file, "{report:?}");
        assert!(report.conflicts.is_empty() && report.warnings.is_empty());
        assert_eq!((report.created, report.deleted), (0, 0));
        assert_eq!(report.updated, by_file.len());
        let after = tasks.list("acc", None).expect("the list");
        assert_eq!(after.len(), 1_000);
        for &i in &by_file {
            assert!(
                after[i].text.ends_with(&format!(" file r{round}")),
                "{}",
                after[i].text
            );
        }
        for &i in &by_db {
            assert!(
                after[i].text.ends_with(&format!(" db r{round}")),
                "{}",
                after[i].text
            );
        }
        let ids: Vec<&str> = after.iter().map(|t| t.id.as_str()).collect();
        let before: Vec<&str> = list.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, before, "ids and order hold");
        assert_eq!(
            std::fs::read_to_string(&path).expect("the file"),
            tasks::render_tasks(&after)
        );

        if round >= WARM_UP {
            syncs.push(sync_time);
            merges.push(merge_time);
        }
    }
    let size = std::fs::metadata(&path).expect("the file").len();
    println!(
        "tasks.md of 1,000 tasks ({TOP} top-level, 3 levels, due dates and notes): {:.1} KiB",
        size as f64 / 1024.0
    );
    println!("each round: 100 lines edited in the file, 100 tasks changed in the database");
    show("sync_list (parse, merge, transaction, file write)", syncs);
    show("parse + merge alone", merges);
}
