//! Drives against a real WebDAV server (WsgiDAV, started by
//! crates/test_servers with Basic authentication): a folder listed in
//! pages and not read again while unchanged; files up and down, folders
//! made, moved and deleted; a conditional write refused on a stale ETag; a
//! refused password, `../` and control characters as typed errors; a
//! 200 MB upload streamed from a generated reader; a server killed in the
//! middle of an upload leaving nothing under the real name; accounts in
//! drives.toml with their passwords only in the saved keys.

use std::io::Read;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use drives::{Drive, DriveError, DrivePath, Drives, NewDrive, Slot, Status, UPLOAD_MARKER};
use test_servers::Server;

const USER: &str = "ada";
const PASSWORD: &str = "dav-secret-4711";
const OWNER: &str = "owner";

struct Rig {
    dir: tempfile::TempDir,
    server: Option<Server>,
}

impl Rig {
    fn start() -> Option<Rig> {
        let dir = tempfile::tempdir().unwrap();
        let server = test_servers::serve_webdav(dir.path(), USER, PASSWORD)?;
        Some(Rig {
            dir,
            server: Some(server),
        })
    }

    fn url(&self) -> String {
        self.server.as_ref().unwrap().url("")
    }

    fn root(&self) -> std::path::PathBuf {
        self.dir.path().join("root")
    }

    fn drive(&self) -> Drive {
        Drive::connect(&self.url(), USER, PASSWORD).unwrap()
    }
}

fn path(text: &str) -> DrivePath {
    DrivePath::parse(text).unwrap()
}

/// Waits into the next second, so a folder's one-second modification
/// time is older than the listing that follows.
fn next_second() {
    std::thread::sleep(Duration::from_millis(1_100));
}

#[test]
fn a_folder_is_listed_in_pages_and_not_read_again_while_unchanged() {
    let Some(rig) = Rig::start() else { return };
    let folder = rig.root().join("Reports");
    std::fs::create_dir(&folder).unwrap();
    std::fs::create_dir(folder.join("zz archive")).unwrap();
    for i in 0..24 {
        std::fs::write(folder.join(format!("r{i:02}.txt")), vec![b'x'; i]).unwrap();
    }
    next_second();
    let drive = rig.drive();
    let first = drive.list(&path("/Reports"), 0, 10).unwrap();
    assert!(!first.reused);
    assert_eq!(first.total, 25);
    assert_eq!(first.next, Some(10));
    assert!(first.entries[0].folder, "folders come first");
    assert_eq!(first.entries[0].path, "/Reports/zz archive");
    assert_eq!(first.entries[1].name, "r00.txt");
    let file = &first.entries[5];
    assert_eq!((file.name.as_str(), file.size), ("r04.txt", 4));
    assert!(file.etag.as_deref().is_some_and(|e| e.starts_with('"')));
    assert!(
        file.modified_at
            .as_deref()
            .is_some_and(|m| m.ends_with('Z'))
    );

    let second = drive.list(&path("/Reports"), 10, 10).unwrap();
    assert!(second.reused, "an unchanged folder is not read again");
    assert_eq!(second.entries[0].name, "r09.txt");
    let last = drive.list(&path("/Reports/"), 20, 10).unwrap();
    assert_eq!((last.entries.len(), last.next), (5, None));

    std::fs::write(folder.join("new.txt"), b"new").unwrap();
    let changed = drive.list(&path("/Reports"), 0, 100).unwrap();
    assert!(!changed.reused, "a changed folder is read again");
    assert_eq!(changed.total, 26);
    assert!(changed.entries.iter().any(|e| e.name == "new.txt"));
    assert_ne!(
        changed.etag, first.etag,
        "the page's ETag follows its members"
    );
    assert_eq!(second.etag, first.etag);

    let written = drive
        .put_bytes(&path("/Reports/ours.txt"), b"ours")
        .unwrap();
    assert_eq!(written.size, 4);
    let after_write = drive.list(&path("/Reports"), 0, 100).unwrap();
    assert!(!after_write.reused, "our own write drops the listing");
    assert_eq!(after_write.total, 27);
}

#[test]
fn files_go_up_and_down_and_folders_are_made_moved_and_deleted() {
    let Some(rig) = Rig::start() else { return };
    let drive = rig.drive();
    drive.check().unwrap();
    let made = drive.make_folder(&path("/Docs")).unwrap();
    assert!(made.folder);
    assert!(matches!(
        drive.make_folder(&path("/Docs")),
        Err(DriveError::Conflict(_))
    ));
    let body = "Grüße, a file with a space #1\n".repeat(1000);
    let name = path("/Docs/Q1 report #1.txt");
    let entry = drive.put_bytes(&name, body.as_bytes()).unwrap();
    assert_eq!(entry.size, body.len() as u64);
    assert_eq!(
        std::fs::read_to_string(rig.root().join("Docs/Q1 report #1.txt")).unwrap(),
        body
    );
    let mut down = Vec::new();
    assert_eq!(drive.get(&name, &mut down).unwrap(), body.len() as u64);
    assert_eq!(down, body.as_bytes());
    let names: Vec<String> = std::fs::read_dir(rig.root().join("Docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["Q1 report #1.txt"], "no temporary file is left");

    drive.make_folder(&path("/Archive")).unwrap();
    let moved = drive
        .rename(&name, &path("/Archive/q1.txt"), false)
        .unwrap();
    assert_eq!(moved.path, "/Archive/q1.txt");
    assert!(!rig.root().join("Docs/Q1 report #1.txt").exists());
    drive.put_bytes(&path("/Docs/other.txt"), b"other").unwrap();
    assert!(
        matches!(
            drive.rename(&path("/Docs/other.txt"), &path("/Archive/q1.txt"), false),
            Err(DriveError::Conflict(_))
        ),
        "a move does not replace a file unless told to"
    );
    let folder = drive
        .rename(&path("/Docs"), &path("/Archive/Docs"), false)
        .unwrap();
    assert!(folder.folder);
    assert!(rig.root().join("Archive/Docs/other.txt").is_file());

    drive.delete(&path("/Archive/Docs")).unwrap();
    assert!(!rig.root().join("Archive/Docs").exists());
    assert!(matches!(
        drive.delete(&path("/Archive/Docs")),
        Err(DriveError::NotFound(_))
    ));
    assert!(matches!(
        drive.get(&path("/nothing.txt"), &mut Vec::new()),
        Err(DriveError::NotFound(_))
    ));
}

#[test]
fn a_conditional_write_is_refused_when_the_file_changed() {
    let Some(rig) = Rig::start() else { return };
    let drive = rig.drive();
    let sheet = path("/launch.csv");
    let first = drive.put_bytes_if(&sheet, b"a,b\n", None).unwrap();
    assert!(
        matches!(
            drive.put_bytes_if(&sheet, b"again", None),
            Err(DriveError::Conflict(_))
        ),
        "no ETag means: only if there is no file yet"
    );
    let etag = first.etag.clone().unwrap();
    let second = drive
        .put_bytes_if(&sheet, b"a,b\n1,2\n", Some(&etag))
        .unwrap();
    assert_ne!(second.etag, first.etag);
    // Another client's write in between: the stale ETag loses.
    next_second();
    std::fs::write(rig.root().join("launch.csv"), b"theirs\n").unwrap();
    assert!(matches!(
        drive.put_bytes_if(&sheet, b"ours\n", second.etag.as_deref()),
        Err(DriveError::Conflict(_))
    ));
    assert_eq!(
        std::fs::read(rig.root().join("launch.csv")).unwrap(),
        b"theirs\n"
    );
}

#[test]
fn refused_credentials_and_bad_paths_are_typed_errors() {
    let Some(rig) = Rig::start() else { return };
    let wrong = Drive::connect(&rig.url(), USER, "not-the-password").unwrap();
    assert!(matches!(
        wrong.check(),
        Err(DriveError::Refused { status: 401, .. })
    ));
    assert!(matches!(
        wrong.list(&DrivePath::root(), 0, 10),
        Err(DriveError::Refused { .. })
    ));
    for bad in ["../outside.txt", "/a/../../b", "a\u{1b}[31m.txt", "a\r\nb"] {
        assert!(
            matches!(DrivePath::parse(bad), Err(DriveError::BadPath { .. })),
            "{bad:?}"
        );
    }
    assert!(matches!(
        DrivePath::root().child("../x"),
        Err(DriveError::BadPath { .. })
    ));
    assert!(matches!(
        Drive::connect("ftp://example.com/", USER, PASSWORD),
        Err(DriveError::Invalid { field: "url", .. })
    ));
    assert_eq!(std::fs::read_dir(rig.root()).unwrap().count(), 0);
}

/// Generated bytes, `len` of them, never held: a repeating pattern.
struct Generated {
    left: u64,
    offset: u64,
}

impl Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = (buf.len() as u64).min(self.left) as usize;
        for (i, byte) in buf[..n].iter_mut().enumerate() {
            *byte = ((self.offset + i as u64) % 251) as u8;
        }
        self.left -= n as u64;
        self.offset += n as u64;
        Ok(n)
    }
}

#[test]
fn a_large_upload_is_streamed_and_the_limit_holds() {
    let Some(rig) = Rig::start() else { return };
    let drive = rig.drive();
    const SIZE: u64 = 200 * 1024 * 1024;
    let mut source = Generated {
        left: SIZE,
        offset: 0,
    };
    // No length: sent chunked, as a browser's upload of unknown size is.
    let entry = drive.put(&path("/big.bin"), &mut source, None).unwrap();
    assert_eq!(entry.size, SIZE);
    let on_disk = rig.root().join("big.bin");
    assert_eq!(std::fs::metadata(&on_disk).unwrap().len(), SIZE);
    let mut expected = Generated {
        left: SIZE,
        offset: 0,
    };
    let mut stored = std::io::BufReader::new(std::fs::File::open(&on_disk).unwrap());
    let (mut a, mut b) = (vec![0u8; 1 << 20], vec![0u8; 1 << 20]);
    loop {
        let n = stored.read(&mut a).unwrap();
        if n == 0 {
            break;
        }
        expected.read_exact(&mut b[..n]).unwrap();
        assert!(a[..n] == b[..n], "the stored bytes are the ones sent");
    }

    let small = rig.drive().with_max_upload(1024 * 1024);
    let mut two_mib = Generated {
        left: 2 * 1024 * 1024,
        offset: 0,
    };
    assert!(matches!(
        small.put(&path("/too big.bin"), &mut two_mib, None),
        Err(DriveError::TooLarge { .. })
    ));
    assert!(matches!(
        small.put(&path("/too big.bin"), &mut std::io::empty(), Some(2 << 20)),
        Err(DriveError::TooLarge { .. })
    ));
    assert!(!rig.root().join("too big.bin").exists());
    assert_eq!(leftovers(&rig.root()), Vec::<String>::new());
}

fn leftovers(folder: &Path) -> Vec<String> {
    std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.contains(UPLOAD_MARKER))
        .collect()
}

/// Generated bytes that kill the server once `kill_after` of them are
/// read, and go on.
struct KillingSource {
    inner: Generated,
    kill_after: u64,
    server: Option<Server>,
}

impl Read for KillingSource {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.inner.offset >= self.kill_after {
            self.server.take();
        }
        self.inner.read(buf)
    }
}

#[test]
fn a_server_killed_mid_upload_leaves_nothing_under_the_real_name() {
    let Some(mut rig) = Rig::start() else { return };
    let drive = rig.drive();
    drive.put_bytes(&path("/keep.txt"), b"old").unwrap();
    let mut source = KillingSource {
        inner: Generated {
            left: 100 * 1024 * 1024,
            offset: 0,
        },
        kill_after: 8 * 1024 * 1024,
        server: rig.server.take(),
    };
    let outcome = drive.put(&path("/keep.txt"), &mut source, Some(100 * 1024 * 1024));
    assert!(
        matches!(outcome, Err(DriveError::Remote(_) | DriveError::Io(_))),
        "{outcome:?}"
    );
    assert_eq!(
        std::fs::read(rig.root().join("keep.txt")).unwrap(),
        b"old",
        "the real name still holds the old file"
    );
    let mut fresh = Generated {
        left: 100 * 1024 * 1024,
        offset: 0,
    };
    let new_file = drive.put(&path("/new.bin"), &mut fresh, None);
    assert!(new_file.is_err());
    assert!(!rig.root().join("new.bin").exists());
}

fn drives_in(dir: &Path) -> Drives {
    let db = Arc::new(store::Db::open(&dir.join("db.sqlite")).unwrap());
    db.migrate(secrets::MIGRATIONS).unwrap();
    let clock = Arc::new(clock::ManualClock::starting_now());
    let cipher = secrets::Cipher::load_or_create(&dir.join("secrets.key")).unwrap();
    let secrets = Arc::new(secrets::Secrets::new(db, clock, cipher));
    Drives::new(dir, secrets)
}

fn new_drive(url: String, password: &str) -> NewDrive {
    NewDrive {
        kind: "webdav".to_owned(),
        url,
        username: USER.to_owned(),
        password: password.to_owned(),
        name: None,
        slot: None,
    }
}

#[test]
fn accounts_live_in_drives_toml_with_their_passwords_in_the_saved_keys() {
    let Some(rig) = Rig::start() else { return };
    let data = tempfile::tempdir().unwrap();
    std::fs::write(
        data.path().join("drives.toml"),
        "# The user's own comment stays.\n",
    )
    .unwrap();
    let drives = drives_in(data.path());
    let main = drives.add(OWNER, new_drive(rig.url(), PASSWORD)).unwrap();
    assert_eq!((main.id.as_str(), main.slot), ("main", Slot::Main));
    assert_eq!(main.status, Status::Ok, "{:?}", main.failure);
    let refused = drives
        .add(OWNER, new_drive(rig.url(), "wrong-password"))
        .unwrap();
    assert_eq!(refused.id, "filesync-a");
    assert_eq!(refused.status, Status::Failing);
    assert!(refused.failure.as_deref().unwrap().contains("refused"));
    let mut explicit = new_drive(rig.url(), PASSWORD);
    explicit.slot = Some(Slot::Main);
    assert!(matches!(
        drives.add(OWNER, explicit),
        Err(DriveError::SlotTaken(_))
    ));
    drives.add(OWNER, new_drive(rig.url(), PASSWORD)).unwrap();
    assert!(matches!(
        drives.add(OWNER, new_drive(rig.url(), PASSWORD)),
        Err(DriveError::SlotTaken(_))
    ));

    let file = std::fs::read_to_string(data.path().join("drives.toml")).unwrap();
    assert!(file.starts_with("# The user's own comment stays.\n"));
    assert!(file.contains("[drives.filesync-b]"));
    assert!(!file.contains(PASSWORD) && !file.contains("wrong-password"));
    let listed = serde_json::to_string(&drives.accounts().unwrap()).unwrap();
    assert!(!listed.contains(PASSWORD) && !listed.contains("wrong-password"));

    let again = drives_in(data.path());
    let drive = again.drive(OWNER, "main").unwrap();
    drive.put_bytes(&path("/hello.txt"), b"hi").unwrap();
    assert!(rig.root().join("hello.txt").is_file());
    assert!(matches!(
        again.drive(OWNER, "elsewhere"),
        Err(DriveError::NoSuchDrive)
    ));
    let unusable = again
        .add(
            OWNER,
            NewDrive {
                kind: "ftp".to_owned(),
                ..new_drive(rig.url(), PASSWORD)
            },
        )
        .unwrap_err();
    assert!(matches!(
        unusable,
        DriveError::Invalid { field: "kind", .. }
    ));
}
