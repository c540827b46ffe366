//! Syncing lists with real tasks.md files: edits made in the file (text,
//! a checked box, a nested addition, a deletion, a new order) reach the
//! database, the database's reach the file, ids hold, a conflict keeps both
//! versions and is reported, garbage and a lost file do no harm, and the
//! project-folder mirrors keep bases of their own.

use std::path::{Path, PathBuf};

use time::Duration;

use super::support::{Setup, assert_dense, new, outline, setup, under};
use crate::{NewTask, TaskError, TaskPatch, TaskState, default_mirror_path, render_tasks};

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// Writes a file the way an editor would, with a modification time that
/// surely differs from the last sync's.
fn write(path: &Path, text: &str) {
    write_bytes(path, text.as_bytes());
}

fn write_bytes(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap();
    let file = std::fs::File::options().write(true).open(path).unwrap();
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
    file.set_modified(later).unwrap();
}

/// A personal list `A (A1, A2), B, C`, synced once to the data directory.
fn synced() -> (Setup, PathBuf) {
    let s = setup();
    let t = &s.tasks;
    let a = t.create("acc", new("A"), None).unwrap();
    t.create("acc", under("A1", &a), None).unwrap();
    t.create("acc", under("A2", &a), None).unwrap();
    let due = NewTask {
        due: Some("2026-04-01".into()),
        notes: Some("first line\nsecond line".into()),
        ..new("B")
    };
    t.create("acc", due, None).unwrap();
    t.create("acc", new("C"), None).unwrap();
    let path = default_mirror_path(s.dir.path(), "acc", None);
    let report = t.sync_list("acc", None, &path).unwrap();
    assert!(report.wrote_file && !report.read_file);
    (s, path)
}

fn ids(s: &Setup) -> Vec<String> {
    s.tasks
        .list("acc", None)
        .unwrap()
        .into_iter()
        .map(|t| t.id)
        .collect()
}

/// The file always ends as the list rendered, and the list stays dense.
fn settled(s: &Setup, path: &Path) {
    let list = s.tasks.list("acc", None).unwrap();
    assert_eq!(read(path), render_tasks(&list));
    assert_dense(&list);
}

#[test]
fn the_first_sync_writes_the_file_and_the_next_does_nothing() {
    let (s, path) = synced();
    assert!(path.ends_with("tasks/acc/tasks.md"));
    let text = read(&path);
    let id = &ids(&s)[3];
    assert!(text.starts_with("# Tasks\n\n- [ ] A <!-- id:"));
    assert!(text.contains(&format!(
        "- [ ] B due:2026-04-01 <!-- id:{id} -->\n  > first line\n  > second line\n"
    )));
    let again = s.tasks.sync_list("acc", None, &path).unwrap();
    assert!(!again.wrote_file && !again.read_file);
    assert_eq!((again.created, again.updated, again.deleted), (0, 0, 0));
    settled(&s, &path);
}

#[test]
fn edits_in_the_file_reach_the_database_and_ids_hold() {
    let (s, path) = synced();
    let before = ids(&s);
    s.clock.advance(Duration::minutes(3));
    let text = read(&path)
        .replacen("- [ ] A <", "- [ ] A, rewritten <", 1)
        .replacen("- [ ] C <", "- [x] C <", 1);
    let text = insert_after(
        &text,
        "A2 <",
        "    - [ ] New under A2 due:2026-05-01\n    - [ ] And another",
    );
    write(&path, &text);
    let report = s.tasks.sync_list("acc", None, &path).unwrap();
    assert!(report.read_file && report.wrote_file);
    assert_eq!((report.created, report.updated, report.deleted), (2, 2, 0));
    assert!(report.conflicts.is_empty() && report.warnings.is_empty());
    let list = s.tasks.list("acc", None).unwrap();
    assert_eq!(
        outline(&list),
        [
            "A, rewritten",
            "  A1",
            "  A2",
            "    New under A2",
            "    And another",
            "B",
            "C"
        ]
    );
    assert_eq!(list[0].id, before[0]);
    assert_eq!(list[0].updated_at, "2026-03-02T09:03:00.000Z");
    assert_eq!(list[6].state, TaskState::Done);
    assert_eq!(list[6].done_at.as_deref(), Some("2026-03-02T09:03:00.000Z"));
    assert_eq!(list[3].due.as_deref(), Some("2026-05-01"));
    assert_eq!(list[3].parent_id.as_ref(), Some(&before[2]));
    // The new lines got their ids written into the file.
    assert!(read(&path).contains(&format!("    - [ ] And another <!-- id:{} -->", list[4].id)));
    settled(&s, &path);
}

/// `text` with `lines` added after the line that contains `marker`.
fn insert_after(text: &str, marker: &str, lines: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        out.push_str(line);
        out.push('\n');
        if line.contains(marker) {
            out.push_str(lines);
            out.push('\n');
        }
    }
    out
}

#[test]
fn deleting_and_reordering_in_the_file() {
    let (s, path) = synced();
    let before = ids(&s);
    let lines: Vec<String> = read(&path).lines().map(str::to_owned).collect();
    // Header, blank, A, A1, A2, B, note, note, C: drop A (and its subtasks),
    // put C before B.
    let text = [
        lines[0].clone(),
        lines[1].clone(),
        lines[8].clone(),
        lines[5].clone(),
        lines[6].clone(),
        lines[7].clone(),
    ]
    .join("\n");
    write(&path, &text);
    let report = s.tasks.sync_list("acc", None, &path).unwrap();
    assert_eq!(report.deleted, 3);
    let list = s.tasks.list("acc", None).unwrap();
    assert_eq!(outline(&list), ["C", "B"]);
    assert_eq!(
        (list[0].id.as_str(), list[1].id.as_str()),
        (before[4].as_str(), before[3].as_str())
    );
    assert_eq!(list[1].notes, "first line\nsecond line");
    settled(&s, &path);
}

#[test]
fn changes_in_the_database_are_written_to_the_file() {
    let (s, path) = synced();
    let before = ids(&s);
    s.tasks
        .update(
            "acc",
            &before[4],
            TaskPatch {
                text: Some("C from the app".into()),
                snoozed_until: Some(Some("2026-03-09T08:00:00Z".into())),
                ..TaskPatch::default()
            },
        )
        .unwrap();
    s.tasks.delete("acc", &before[1]).unwrap();
    let report = s.tasks.sync_list("acc", None, &path).unwrap();
    assert!(report.wrote_file && !report.read_file);
    let text = read(&path);
    assert!(text.contains(&format!(
        "- [ ] C from the app snooze:2026-03-09T08:00Z <!-- id:{} -->",
        before[4]
    )));
    assert!(!text.contains("A1"));
    settled(&s, &path);
}

#[test]
fn a_conflict_keeps_both_versions_and_is_reported() {
    let (s, path) = synced();
    let b = ids(&s)[3].clone();
    s.tasks
        .update(
            "acc",
            &b,
            TaskPatch {
                text: Some("B from the app".into()),
                ..TaskPatch::default()
            },
        )
        .unwrap();
    write(
        &path,
        &read(&path).replacen("- [ ] B due", "- [ ] B from the file due", 1),
    );
    let report = s.tasks.sync_list("acc", None, &path).unwrap();
    assert_eq!(report.conflicts.len(), 1);
    let conflict = &report.conflicts[0];
    assert_eq!(conflict.id, b);
    assert_eq!(
        (conflict.text.as_str(), conflict.file_text.as_str()),
        ("B from the app", "B from the file")
    );
    let list = s.tasks.list("acc", None).unwrap();
    assert_eq!(
        outline(&list),
        [
            "A",
            "  A1",
            "  A2",
            "B from the app",
            "B from the file",
            "C"
        ]
    );
    let copy = &list[4];
    assert!(copy.conflict && !list[3].conflict);
    assert_eq!(copy.id, conflict.copy_id);
    assert_eq!(copy.due.as_deref(), Some("2026-04-01"));
    assert!(read(&path).contains(&format!(
        "- [ ] B from the file due:2026-04-01 <!-- id:{} conflict -->",
        copy.id
    )));
    settled(&s, &path);

    // Editing the copy through the API settles it.
    let edited = s
        .tasks
        .update("acc", &copy.id, TaskPatch::default())
        .unwrap();
    assert!(!edited.conflict);
}

#[test]
fn garbage_in_the_file_is_reported_and_does_no_harm() {
    let (s, path) = synced();
    let before = ids(&s);
    let text = format!(
        "{}\nSome prose someone typed.\n\u{0}\u{7f} binary-ish\n- [ ] <!-- id:broken id -->\n",
        read(&path)
    );
    write(&path, &text);
    let report = s.tasks.sync_list("acc", None, &path).unwrap();
    // Two lines of prose, and the broken line twice: its id, then no text.
    assert_eq!(report.warnings.len(), 4);
    assert_eq!(ids(&s), before);
    settled(&s, &path);

    // A file with no task line at all is not read as "delete everything".
    write_bytes(&path, &[0xff, 0xfe, 0x00, b'\n', b'-', b' ', b'[', b'\n']);
    let report = s.tasks.sync_list("acc", None, &path).unwrap();
    assert!(report.wrote_file && report.deleted == 0);
    assert_eq!(report.warnings.len(), 3);
    assert_eq!(ids(&s), before);
    settled(&s, &path);

    // One whose task lines were all deleted is.
    write(&path, "# Tasks\n");
    let report = s.tasks.sync_list("acc", None, &path).unwrap();
    assert_eq!(report.deleted, 5);
    assert!(s.tasks.list("acc", None).unwrap().is_empty());
    settled(&s, &path);
}

#[test]
fn a_missing_or_blank_file_is_written_again_not_read_as_empty() {
    let (s, path) = synced();
    let before = ids(&s);
    std::fs::remove_file(&path).unwrap();
    let report = s.tasks.sync_list("acc", None, &path).unwrap();
    assert!(report.wrote_file && report.deleted == 0);
    write(&path, "  \n\n");
    let report = s.tasks.sync_list("acc", None, &path).unwrap();
    assert!(report.wrote_file && report.deleted == 0);
    assert_eq!(report.warnings.len(), 1);
    assert_eq!(ids(&s), before);
    settled(&s, &path);
    // No temporary files are left behind.
    let names: Vec<String> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["tasks.md"]);
}

#[test]
fn a_file_written_elsewhere_first_is_merged_without_losing_either_side() {
    let s = setup();
    s.tasks.create("acc", new("Already here"), None).unwrap();
    let path = s.dir.path().join("project").join("tasks.md");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    write(
        &path,
        "# Tasks\n\n- [ ] From the file\r\n  - [x] Its child <!-- id:elsewhere -->\r\n",
    );
    let report = s.tasks.sync_list("acc", None, &path).unwrap();
    assert_eq!(report.created, 2);
    let list = s.tasks.list("acc", None).unwrap();
    // The file's lines come first, as they stood before anything else there.
    assert_eq!(
        outline(&list),
        ["From the file", "  Its child", "Already here"]
    );
    assert_ne!(list[1].id, "elsewhere");
    settled(&s, &path);
}

#[test]
fn project_folders_mirror_a_list_with_a_base_of_their_own() {
    let s = setup();
    let t = &s.tasks;
    let ws = NewTask {
        workspace_id: Some("ws/1".into()),
        ..new("Team task")
    };
    let team = t.create("acc", ws, None).unwrap();
    let data = s.dir.path();
    let project = data.join("project");
    std::fs::create_dir_all(&project).unwrap();

    let refuse = |folder: &str| match t.set_mirror_folder("acc", Some("ws/1"), Some(folder), data) {
        Err(TaskError::Invalid(m)) => m,
        other => panic!("{other:?}"),
    };
    assert!(refuse("relative/path").contains("absolute"));
    assert!(refuse(&data.join("nowhere").to_string_lossy()).contains("existing directory"));
    let folder = project.to_string_lossy().into_owned();
    let mirror = t
        .set_mirror_folder("acc", Some("ws/1"), Some(&folder), data)
        .unwrap();
    assert_eq!(mirror.folder.as_deref(), Some(folder.as_str()));
    assert!(mirror.path.ends_with("tasks/acc/ws%2F1/tasks.md"));
    let listed = t.mirrors("acc", data).unwrap();
    assert_eq!(listed.len(), 2);
    assert_eq!(listed[0].workspace_id, None);
    assert_eq!(listed[1], mirror);

    let synced = t.sync_mirrors("acc", Some("ws/1"), data).unwrap();
    assert_eq!(synced.len(), 2);
    assert!(
        synced
            .iter()
            .all(|m| m.result.as_ref().is_ok_and(|r| r.wrote_file))
    );
    let in_project = project.join("tasks.md");
    assert!(read(&in_project).contains(&format!("- [ ] Team task <!-- id:{} -->", team.id)));

    // An edit in the project's file reaches the data directory's in the same round.
    write(
        &in_project,
        &read(&in_project).replace("- [ ] Team task", "- [x] Team task"),
    );
    t.sync_mirrors("acc", Some("ws/1"), data).unwrap();
    assert_eq!(t.get("acc", &team.id).unwrap().state, TaskState::Done);
    let own = default_mirror_path(data, "acc", Some("ws/1"));
    assert!(read(&own).contains("- [x] Team task"));
    let round = t.sync_mirrors("acc", Some("ws/1"), data).unwrap();
    assert!(
        round
            .iter()
            .all(|m| m.result.as_ref().is_ok_and(|r| !r.wrote_file))
    );

    // A project folder that is gone is that mirror's error alone.
    std::fs::remove_dir_all(&project).unwrap();
    let round = t.sync_mirrors("acc", Some("ws/1"), data).unwrap();
    assert!(round[0].result.is_ok());
    assert!(matches!(round[1].result, Err(TaskError::Io { .. })));
    assert!(!project.exists());
    t.set_mirror_folder("acc", Some("ws/1"), None, data)
        .unwrap();
    assert_eq!(t.sync_mirrors("acc", Some("ws/1"), data).unwrap().len(), 1);
}

#[test]
fn mirror_paths_cannot_leave_their_folder() {
    let dir = Path::new("/data");
    assert_eq!(
        default_mirror_path(dir, "acc", None),
        Path::new("/data/tasks/acc/tasks.md")
    );
    assert_eq!(
        default_mirror_path(dir, "../..", Some("tasks.md")),
        Path::new("/data/tasks/%2E%2E%2F%2E%2E/tasks%2Emd/tasks.md")
    );
}

/// The writer changes C's notes while each sync merges a change to C's
/// text from the file: a sync that wrote a version of C it read before the
/// writer's change would undo that change.
#[test]
fn syncs_racing_api_writes_lose_nothing() {
    let (s, path) = synced();
    let c = ids(&s)[4].clone();
    let tasks = std::sync::Arc::new(s.tasks);
    let writer = {
        let (tasks, c) = (tasks.clone(), c.clone());
        std::thread::spawn(move || {
            let mut undone = 0;
            for n in 0..60 {
                tasks
                    .create("acc", new(&format!("written {n}")), None)
                    .unwrap();
                let notes = TaskPatch {
                    notes: Some(format!("note {n}")),
                    ..TaskPatch::default()
                };
                tasks.update("acc", &c, notes).unwrap();
                std::thread::sleep(std::time::Duration::from_millis(3));
                if tasks.get("acc", &c).unwrap().notes != format!("note {n}") {
                    undone += 1;
                }
            }
            undone
        })
    };
    let mut synced = 0;
    for n in 0..40 {
        let text = read(&path).replacen("- [ ] C", &format!("- [ ] C{n}"), 1);
        write(&path, &text);
        match tasks.sync_list("acc", None, &path) {
            Ok(_) => synced += 1,
            Err(TaskError::Invalid(m)) if m.contains("kept changing") => {}
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(writer.join().unwrap(), 0, "a sync undid a write");
    tasks.sync_list("acc", None, &path).unwrap();
    let list = tasks.list("acc", None).unwrap();
    assert!(synced > 0);
    assert_eq!(list.len(), 65);
    assert_eq!(tasks.get("acc", &c).unwrap().notes, "note 59");
    assert_eq!(read(&path), render_tasks(&list));
    assert_dense(&list);
}
