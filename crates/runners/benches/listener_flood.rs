//! What a flood of the runner listener costs a legitimate runner: the p50
//! and p99 of its channel round trips alone, then during each flood (10,000
//! connections from one address, 100,000 token guesses, 500 slowloris
//! sockets), and the process's resident memory after each. The listener,
//! the legitimate runner and the attacker share this one process, so the
//! memory is an upper bound for the listener's. Run:
//! `cargo bench -p runners --bench listener_flood` (docs/security.md,
//! "The runner listener").

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use runners::Runners;
use runners::config::{Listener, ListenerTls};
use runners::pool::listener::{self, Admission};
use runners::pool::runner::{ConnectOptions, run};
use runners::pool::tls::{self, Trust};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpSocket;
use tokio::task::JoinSet;
use tokio_rustls::TlsConnector;
use tokio_rustls::rustls::pki_types::ServerName;

const TOKEN: &str = "the-one-good-runner-token";
const VERSION: &str = "flood-bench";
const ROUND_TRIPS: usize = 400;

#[derive(Default)]
struct Counting {
    refused: Mutex<HashMap<&'static str, u64>>,
}

impl Admission for Counting {
    fn admit(&self, token: &str) -> Option<String> {
        (token == TOKEN).then(|| "token-1".to_owned())
    }

    fn refused(&self, reason: &'static str) {
        *self.refused.lock().unwrap().entry(reason).or_insert(0) += 1;
    }
}

fn rss_mb() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
            .unwrap_or(0)
            / 1024
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// The p50 and p99 of `ROUND_TRIPS` channel round trips, in ms.
async fn round_trips(runners: &Runners) -> (f64, f64) {
    let mut took = Vec::with_capacity(ROUND_TRIPS);
    for _ in 0..ROUND_TRIPS {
        let start = Instant::now();
        runners
            .kill_leftovers("legit", Vec::new())
            .await
            .expect("the legitimate runner did not answer");
        took.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    took.sort_by(f64::total_cmp);
    (took[ROUND_TRIPS / 2], took[ROUND_TRIPS * 99 / 100])
}

fn from(address: Ipv4Addr) -> TcpSocket {
    let socket = TcpSocket::new_v4().unwrap();
    socket
        .bind(SocketAddr::new(IpAddr::V4(address), 0))
        .unwrap();
    socket
}

/// 10,000 connections from one address, 200 at a time, each writing a
/// line of garbage.
async fn connection_flood(target: SocketAddr) -> u64 {
    let mut set = JoinSet::new();
    let mut made = 0u64;
    for _ in 0..10_000 {
        while set.len() >= 200 {
            set.join_next().await;
        }
        set.spawn(async move {
            if let Ok(mut stream) = from(Ipv4Addr::new(127, 0, 5, 1)).connect(target).await {
                let _ = stream.write_all(b"garbage\r\n").await;
                let mut sink = [0u8; 64];
                let _ = stream.read(&mut sink).await;
            }
        });
        made += 1;
    }
    while set.join_next().await.is_some() {}
    made
}

/// 100,000 token guesses, each its own connection (the listener reads one
/// request per connection): 98,000 from one address and 2,000 spread over
/// 40 addresses, so both the rate limit and the token check are hit.
async fn token_guesses(target: SocketAddr, fingerprint: String) -> u64 {
    let config = tls::client(&Trust::Fingerprint(fingerprint)).unwrap();
    let connector = TlsConnector::from(config);
    let mut set = JoinSet::new();
    for guess in 0..100_000u32 {
        while set.len() >= 100 {
            set.join_next().await;
        }
        let address = if guess < 98_000 {
            Ipv4Addr::new(127, 0, 6, 1)
        } else {
            Ipv4Addr::new(127, 0, 7, (guess % 40) as u8 + 1)
        };
        let connector = connector.clone();
        set.spawn(async move {
            let Ok(tcp) = from(address).connect(target).await else {
                return;
            };
            let name = ServerName::try_from("listener").unwrap();
            let Ok(mut tls) = connector.connect(name, tcp).await else {
                return;
            };
            let request = format!(
                "GET /connect HTTP/1.1\r\nHost: l\r\nConnection: upgrade\r\nUpgrade: switchboard-runner\r\n\
                 Authorization: Bearer guess-{guess}\r\nswitchboard-protocol: {}\r\n\r\n",
                runners::wire::PROTOCOL
            );
            let _ = tls.write_all(request.as_bytes()).await;
            let mut sink = Vec::new();
            let _ = tls.read_to_end(&mut sink).await;
        });
    }
    while set.join_next().await.is_some() {}
    100_000
}

/// 500 sockets from 500 addresses, each sending one byte a second, held
/// until `stop`.
async fn slowloris(target: SocketAddr, stop: Arc<AtomicBool>) -> u64 {
    let mut set = JoinSet::new();
    for i in 0..500u32 {
        let stop = Arc::clone(&stop);
        let address = Ipv4Addr::new(127, 8, (i / 200) as u8, (i % 200) as u8 + 1);
        set.spawn(async move {
            let Ok(mut stream) = from(address).connect(target).await else {
                return;
            };
            let hello = [
                0x16u8, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03,
            ];
            for byte in hello.iter().cycle() {
                if stop.load(Ordering::Relaxed) || stream.write_all(&[*byte]).await.is_err() {
                    return;
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
    }
    while set.join_next().await.is_some() {}
    500
}

fn report(what: &str, (p50, p99): (f64, f64), counting: &Counting) {
    let (rss, peak) = rss_mb();
    let mut refused: Vec<_> = counting
        .refused
        .lock()
        .unwrap()
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    refused.sort();
    println!(
        "{what:<44} round trip p50 {p50:6.2} ms  p99 {p99:6.2} ms  RSS {rss} MB (peak {peak} MB)  refused so far: {}",
        refused.join(" ")
    );
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let runners = Runners::new(dir.path(), VERSION, Arc::new(clock::SystemClock));
    let counting = Arc::new(Counting::default());
    let config = Listener {
        address: IpAddr::from([127, 0, 0, 1]),
        port: 0,
        tls: ListenerTls::SelfSigned,
    };
    let bound = listener::listen(runners.clone(), &config, counting.clone())
        .await
        .unwrap();
    let target = bound.local_addr;
    let token_file = dir.path().join("token");
    std::fs::write(&token_file, TOKEN).unwrap();
    tokio::spawn(run(ConnectOptions {
        url: format!("https://{target}"),
        token_file,
        name: "legit".to_owned(),
        labels: Vec::new(),
        max_sessions: None,
        trust: Trust::Fingerprint(bound.fingerprint.clone()),
        pod_isolation: false,
        version: VERSION.to_owned(),
    }));
    while runners.home("legit").is_none() {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    round_trips(&runners).await;
    report("no flood", round_trips(&runners).await, &counting);

    let flood = tokio::spawn(connection_flood(target));
    let mut during = round_trips(&runners).await;
    while !flood.is_finished() {
        during = round_trips(&runners).await;
    }
    let made = flood.await.unwrap_or(0);
    report(
        &format!("10,000 connections from one address ({made})"),
        during,
        &counting,
    );

    let started = Instant::now();
    let guesses = tokio::spawn(token_guesses(target, bound.fingerprint.clone()));
    let mut during = round_trips(&runners).await;
    while !guesses.is_finished() {
        during = round_trips(&runners).await;
    }
    report(
        &format!(
            "100,000 token guesses ({:.0} s)",
            started.elapsed().as_secs_f64()
        ),
        during,
        &counting,
    );

    let stop = Arc::new(AtomicBool::new(false));
    let sockets = tokio::spawn(slowloris(target, Arc::clone(&stop)));
    tokio::time::sleep(Duration::from_secs(2)).await;
    let during = round_trips(&runners).await;
    report(
        "500 slowloris sockets from 500 addresses",
        during,
        &counting,
    );
    stop.store(true, Ordering::Relaxed);
    let _ = sockets.await;
}
