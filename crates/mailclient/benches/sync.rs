//! Prints what the mail client costs at 10,000 and 100,000 messages against
//! the real dovecot of `mail::rig`: the first sync of a folder's headers and
//! previews (the mail is written into the maildir beforehand, so only the
//! sync is timed), the peak resident memory during it (VmHWM, reset before
//! each sync), the thread list's first page from the local store (goal:
//! under 100 ms at 100,000) and a search (goal: under 150 ms), a rare word
//! and a word in every message.
//!
//! Run with `cargo bench -p mailclient --bench sync` (needs `make mail-deps
//! py-deps`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use mail::rig::{MailServers, Options, PASSWORD};
use mail::{Tls, Trust};
use mailclient::{Login, MailStore, Syncer};

const SIZES: [usize; 2] = [10_000, 100_000];
const ACCOUNT: &str = "bench";
const PAGE: usize = 50;
const RUNS: usize = 20;

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    for size in SIZES {
        runtime.block_on(bench(size));
    }
}

async fn bench(size: usize) {
    let Some(servers) = MailServers::start(Options::default()) else {
        eprintln!("mailclient sync bench skipped: no mail servers");
        return;
    };
    let config = servers.config(Tls::Implicit, true, 60);
    let login = Login {
        server: config.accounts[0].imap.clone(),
        password: PASSWORD.to_owned(),
        trust: Trust::load(&config).expect("the rig's CA"),
    };
    login
        .open()
        .await
        .expect("login")
        .logout()
        .await
        .expect("logout");
    let written = servers
        .seed("INBOX", (0..size).map(message))
        .expect("seeding the maildir");
    assert_eq!(written, size);

    let dir = tempfile::tempdir().expect("a temporary folder");
    let db = Arc::new(store::Db::open(&dir.path().join("db.sqlite")).expect("the database"));
    db.migrate(mailclient::MIGRATIONS).expect("migrations");
    let store = Arc::new(MailStore::new(db));
    let syncer = Syncer::new(store.clone());

    reset_peak_rss();
    let rss_before = status_kib("VmRSS");
    let started = Instant::now();
    let report = syncer.sync(ACCOUNT, &login).await.expect("the first sync");
    let took = started.elapsed();
    assert_eq!(report.fetched, size, "{report:?}");
    println!(
        "mailclient first sync of {size} headers: {:.2} s ({:.0} messages/s, {} FETCH commands); \
         RSS {} MiB before, peak {} MiB during",
        took.as_secs_f64(),
        size as f64 / took.as_secs_f64(),
        report.fetch_commands,
        rss_before / 1024,
        status_kib("VmHWM") / 1024,
    );

    let page = median(|| {
        let page = store
            .thread_page(ACCOUNT, "INBOX", None, None, PAGE)
            .expect("a page");
        assert_eq!(page.threads.len(), PAGE);
    });
    let cursor = store
        .thread_page(ACCOUNT, "INBOX", None, None, PAGE)
        .expect("a page")
        .next
        .expect("more pages");
    let next_page = median(|| {
        store
            .thread_page(ACCOUNT, "INBOX", None, Some(&cursor), PAGE)
            .expect("a page");
    });
    let rare_word = format!("needle{}", size / 3);
    let rare = median(|| {
        assert_eq!(store.search(ACCOUNT, &rare_word).expect("search").len(), 1);
    });
    let rare_page = median(|| {
        let page = store
            .thread_page(ACCOUNT, "INBOX", Some(&rare_word), None, PAGE)
            .expect("a page");
        assert_eq!(page.threads.len(), 1);
    });
    let common = median(|| {
        assert_eq!(
            store.search(ACCOUNT, "bulk").expect("search").len(),
            mailclient::MAX_HITS
        );
    });
    let common_page = median(|| {
        store
            .thread_page(ACCOUNT, "INBOX", Some("bulk"), None, PAGE)
            .expect("a page");
    });
    println!(
        "mailclient at {size}: thread list first page {} (goal < 100 ms at 100,000), next page {}; \
         search of a rare word {} (its thread page {}), of a word in every message {} \
         (its thread page {}) (goal < 150 ms); medians of {RUNS}",
        ms(page),
        ms(next_page),
        ms(rare),
        ms(rare_page),
        ms(common),
        ms(common_page),
    );
}

/// Message `n`: threads of five, a word of its own, a minute apart.
fn message(n: usize) -> Vec<u8> {
    let root = n - n % 5;
    let mut raw = format!(
        "Message-ID: <m{n}@bulk.test>\r\nFrom: Sender {s} <s{s}@bulk.test>\r\n\
To: agent@switchboard.test\r\nSubject: {re}topic {root}\r\n\
Date: Tue, 1 Jul 2025 10:00:00 +0000\r\n",
        s = n % 997,
        re = if n == root { "" } else { "Re: " },
    );
    if n != root {
        raw.push_str(&format!(
            "In-Reply-To: <m{}@bulk.test>\r\nReferences: <m{root}@bulk.test>\r\n",
            n - 1
        ));
    }
    raw.push_str(&format!(
        "Content-Type: text/plain; charset=utf-8\r\n\r\nnote needle{n} of the bulk run, \
         with a few more words to make a preview of ordinary length\r\n"
    ));
    raw.into_bytes()
}

fn median(mut work: impl FnMut()) -> Duration {
    let mut runs: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let started = Instant::now();
            work();
            started.elapsed()
        })
        .collect();
    runs.sort();
    runs[RUNS / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

/// Resets VmHWM to the current RSS (Linux 4.0 and later).
fn reset_peak_rss() {
    if let Err(e) = std::fs::write("/proc/self/clear_refs", "5") {
        eprintln!("cannot reset the peak RSS: {e}");
    }
}

/// A field of /proc/self/status, in KiB.
fn status_kib(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}
