//! Prints what a drive costs against a real WebDAV server (WsgiDAV on
//! loopback): the peak resident memory of a 1 GB upload streamed from a
//! generated reader, beside the memory before it (the goal: flat, the
//! peak no more than a few MB above), and the wall time of listing a
//! 10,000-file folder the first time (a full PROPFIND) and again while it
//! is unchanged (one Depth 0 PROPFIND). The upload runs first, so the
//! listing's memory does not hide in its peak.
//!
//! Run with `cargo bench -p drives --bench webdav`.

use std::io::Read;
use std::time::{Duration, Instant};

use drives::{Drive, DrivePath};

const USER: &str = "bench";
const PASSWORD: &str = "bench-secret";
const UPLOAD_BYTES: u64 = 1024 * 1024 * 1024;
const FILES: usize = 10_000;

/// `VmRSS` and `VmHWM` of this process, in KiB.
fn memory() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

struct Generated {
    left: u64,
}

impl Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = (buf.len() as u64).min(self.left) as usize;
        buf[..n].fill(0x5a);
        self.left -= n as u64;
        Ok(n)
    }
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let Some(server) = test_servers::serve_webdav(dir.path(), USER, PASSWORD) else {
        return;
    };
    let drive = Drive::connect(&server.url(""), USER, PASSWORD).unwrap();
    drive.check().unwrap();

    let (before, _) = memory();
    let started = Instant::now();
    let mut source = Generated { left: UPLOAD_BYTES };
    let entry = drive
        .put(&DrivePath::parse("/1GB.bin").unwrap(), &mut source, None)
        .unwrap();
    let took = started.elapsed();
    let (_, peak) = memory();
    assert_eq!(entry.size, UPLOAD_BYTES);
    println!(
        "1 GB upload (chunked, temporary name then MOVE): {:.1} s, {:.0} MB/s; \
         resident before {} MiB, peak {} MiB (+{} MiB)",
        took.as_secs_f64(),
        UPLOAD_BYTES as f64 / 1e6 / took.as_secs_f64(),
        before / 1024,
        peak / 1024,
        peak.saturating_sub(before) / 1024,
    );
    std::fs::remove_file(dir.path().join("root/1GB.bin")).unwrap();

    let folder = dir.path().join("root/many");
    std::fs::create_dir(&folder).unwrap();
    for i in 0..FILES {
        std::fs::write(folder.join(format!("file-{i:05}.txt")), b"x").unwrap();
    }
    // A modification time proves a listing current from the next second on.
    std::thread::sleep(Duration::from_millis(1_100));
    let path = DrivePath::parse("/many").unwrap();
    let started = Instant::now();
    let first = drive.list(&path, 0, 1_000).unwrap();
    let first_took = started.elapsed();
    let started = Instant::now();
    let second = drive.list(&path, 1_000, 1_000).unwrap();
    let second_took = started.elapsed();
    assert_eq!(
        (first.total, first.reused, second.reused),
        (FILES, false, true)
    );
    println!(
        "listing {FILES} files: first page {:.0} ms (the whole folder read), \
         next page {:.1} ms (unchanged: not read again); resident now {} MiB",
        first_took.as_secs_f64() * 1e3,
        second_took.as_secs_f64() * 1e3,
        memory().0 / 1024,
    );
}
