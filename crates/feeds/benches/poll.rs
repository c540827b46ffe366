//! The feeds bench (issue 68): 1,000 feeds polled in one round against a
//! local HTTP server on loopback, first with bodies (100 entries each, so
//! 100,000 entries stored) and then, a day later on the manual clock, as
//! conditional GETs answered 304: each round's wall time, the process's
//! CPU time (the server's share is small: it writes canned answers) and
//! its resident memory; then the first page of the 100,000 entries
//! (goal: under 50 ms). Prints the figures.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clock::{Clock, ManualClock};
use feeds::{EntryQuery, Feeds};

const FEEDS: usize = 1_000;
const ENTRIES_PER_FEED: usize = 100;

fn body(feed: usize) -> String {
    let items: String = (0..ENTRIES_PER_FEED)
        .map(|i| {
            format!(
                "<item><title>Feed {feed} post {i}</title><link>http://bench.test/{feed}/{i}</link>\
                 <guid>{feed}-{i}</guid><pubDate>Mon, 09 Mar 2026 {:02}:{:02}:00 GMT</pubDate>\
                 <description>&lt;p&gt;Post {i} of feed {feed} &lt;img src=\"/a.png\"&gt;&lt;/p&gt;</description></item>",
                i % 24,
                feed % 60
            )
        })
        .collect();
    format!(
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Feed {feed}</title>{items}</channel></rss>"
    )
}

fn serve() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(&stream);
                loop {
                    let mut first = String::new();
                    if reader.read_line(&mut first).unwrap_or(0) == 0 {
                        return;
                    }
                    let path = first.split_whitespace().nth(1).unwrap_or("/").to_owned();
                    let mut conditional = false;
                    loop {
                        let mut line = String::new();
                        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                            break;
                        }
                        conditional |= line.to_ascii_lowercase().starts_with("if-none-match:");
                    }
                    let feed: usize = path.trim_start_matches("/f/").parse().unwrap_or(0);
                    let reply = if conditional {
                        "HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\nContent-Length: 0\r\n\r\n"
                            .to_owned()
                    } else {
                        let body = body(feed);
                        format!(
                            "HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\nETag: \"v1\"\r\nContent-Length: {}\r\n\r\n{body}",
                            body.len()
                        )
                    };
                    if (&stream).write_all(reply.as_bytes()).is_err() {
                        return;
                    }
                }
            });
        }
    });
    base
}

fn cpu() -> Duration {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes the struct it is given.
    let usage = unsafe {
        libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr());
        usage.assume_init()
    };
    let time = |t: libc::timeval| {
        Duration::from_secs(u64::try_from(t.tv_sec).unwrap_or(0))
            + Duration::from_micros(u64::try_from(t.tv_usec).unwrap_or(0))
    };
    time(usage.ru_utime) + time(usage.ru_stime)
}

fn rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn round(label: &str, feeds: &Feeds) {
    let (wall, cpu_before) = (Instant::now(), cpu());
    let report = feeds.poll_due(8).unwrap();
    println!(
        "{label}: {} feeds polled ({} failed, {} entries added) in {:.0} ms wall, {:.0} ms CPU; RSS {:.0} MiB",
        report.polled,
        report.failed,
        report.added,
        wall.elapsed().as_secs_f64() * 1e3,
        (cpu() - cpu_before).as_secs_f64() * 1e3,
        rss_mib()
    );
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let db = Arc::new(store::Db::open(&dir.path().join("bench.db")).unwrap());
    db.migrate(feeds::MIGRATIONS).unwrap();
    let manual = Arc::new(ManualClock::new(
        time::macros::datetime!(2026-03-10 12:00 UTC),
    ));
    let clock: Arc<dyn Clock> = manual.clone();
    let feeds = Feeds::new(db, clock);
    let base = serve();
    let outlines: String = (0..FEEDS)
        .map(|i| format!("<outline xmlUrl=\"{base}/f/{i}\"/>"))
        .collect();
    let imported = feeds
        .import_opml("bench", &format!("<opml><body>{outlines}</body></opml>"))
        .unwrap();
    assert_eq!(imported.added, FEEDS as i64);
    round("first round (200, bodies)", &feeds);
    manual.advance(time::Duration::days(1));
    round("second round (304, conditional)", &feeds);

    let mut times = Vec::new();
    for _ in 0..20 {
        let started = Instant::now();
        let page = feeds.entries("bench", &EntryQuery::default()).unwrap();
        times.push(started.elapsed());
        assert_eq!(page.entries.len(), feeds::DEFAULT_PAGE);
    }
    let unread = Instant::now();
    feeds
        .entries(
            "bench",
            &EntryQuery {
                unread_only: true,
                ..EntryQuery::default()
            },
        )
        .unwrap();
    let unread = unread.elapsed();
    times.sort();
    println!(
        "first page of {} entries: median {:.2} ms, max {:.2} ms (goal < 50 ms); unread-only {:.2} ms",
        FEEDS * ENTRIES_PER_FEED,
        times[times.len() / 2].as_secs_f64() * 1e3,
        times[times.len() - 1].as_secs_f64() * 1e3,
        unread.as_secs_f64() * 1e3
    );
}
