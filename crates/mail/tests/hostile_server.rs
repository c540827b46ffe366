//! The watcher against an IMAP server on loopback whose reply makes the
//! IMAP library panic (found by fuzzing, fuzz/artifacts/imap): the
//! connection fails with a protocol error and is made again, where the
//! panic used to end the watcher for good.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mail::{Config, Mailbook, Status, Trust, Watcher};
use tokio::sync::watch;

/// Greeting, LOGIN and CAPABILITY answered; SELECT's untagged reply has a
/// response code followed by a byte that is not ASCII instead of a space.
const TRANSCRIPT: &[u8] =
    b"* OK ready\r\nA0001 OK in\r\n* CAPABILITY IMAP4rev1\r\nA0002 OK done\r\n* OK [UIDVALIDITY 1]\xa0ok\r\n";

/// Serves the transcript to every connection; counts them.
fn hostile_server() -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let connections = Arc::new(AtomicUsize::new(0));
    let counted = connections.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            counted.fetch_add(1, Ordering::SeqCst);
            let _ = stream.write_all(TRANSCRIPT);
            // Held open until the client hangs up.
            let _ = stream.read_to_end(&mut Vec::new());
        }
    });
    (port, connections)
}

#[tokio::test]
async fn a_reply_that_panics_the_imap_library_fails_the_connection_not_the_watcher() {
    let (port, connections) = hostile_server();
    let config = Config::parse(&format!(
        r#"
[[accounts]]
address = "bot@example.com"
imap = {{ host = "127.0.0.1", port = {port}, tls = "none", username = "bot", password_key = "k" }}
smtp = {{ host = "127.0.0.1", port = 1, tls = "none" }}
"#
    ))
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let db = Arc::new(store::Db::open(&dir.path().join("db.sqlite")).unwrap());
    db.migrate(mail::MIGRATIONS).unwrap();
    let book = Arc::new(Mailbook::new(db, Arc::new(clock::SystemClock)));
    let watcher = Arc::new(Watcher::new(
        mail::resolve_inbox(&config, "").unwrap(),
        "password".to_owned(),
        Trust::load(&config).unwrap(),
        config.poll_interval(),
        book,
    ));
    let mut status = watcher.status();
    let (stop, stop_rx) = watch::channel(false);
    let running = watcher.clone();
    let task = tokio::spawn(async move { running.run(|_| async {}, stop_rx).await });

    let failed = tokio::time::timeout(
        Duration::from_secs(20),
        status.wait_for(|s| matches!(s, Status::Retrying { .. })),
    )
    .await
    .expect("the watcher reports the failed connection")
    .unwrap()
    .clone();
    let Status::Retrying { error } = failed else {
        unreachable!()
    };
    assert!(
        error.contains("the IMAP client failed on the server's reply"),
        "{error}"
    );
    // The watcher lives on: after its pause it connects again.
    tokio::time::timeout(Duration::from_secs(20), async {
        while connections.load(Ordering::SeqCst) < 2 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the watcher connects again");
    assert!(!task.is_finished());
    stop.send_replace(true);
    tokio::time::timeout(Duration::from_secs(20), task)
        .await
        .unwrap()
        .unwrap();
}
