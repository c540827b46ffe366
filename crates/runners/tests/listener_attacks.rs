//! The runner listener under attack (docs/security.md, "The runner
//! listener"): garbage, half and old TLS handshakes, sockets that never
//! finish, token guesses, a token replayed from a second address and a
//! hostile runner's HTTP/2 frames, each on a real listener on 127.0.0.1
//! with a legitimate in-process runner connected alongside. Each test
//! proves the refusal is counted by its reason and the legitimate runner
//! still answers a channel round trip; the volume is the bench's
//! (`listener_flood`).

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use runners::Runners;
use runners::config::{Listener, ListenerTls};
use runners::pool::listener::{self, Admission, HANDSHAKES_PER_ADDRESS, RunnerListener};
use runners::pool::runner::{ConnectOptions, run};
use runners::pool::tls::{self, Trust};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_rustls::TlsConnector;
use tokio_rustls::rustls::pki_types::ServerName;

const TOKEN: &str = "the-one-good-runner-token";
const VERSION: &str = "attack-test";
/// A failsafe so a regression hangs no longer than this; never a measure.
const FAILSAFE: Duration = Duration::from_secs(60);

#[derive(Default)]
struct Counting {
    refused: Mutex<HashMap<&'static str, u32>>,
}

impl Admission for Counting {
    fn admit(&self, token: &str) -> Option<String> {
        (token == TOKEN).then(|| "token-1".to_owned())
    }

    fn refused(&self, reason: &'static str) {
        *self.refused.lock().unwrap().entry(reason).or_insert(0) += 1;
    }
}

impl Counting {
    fn count(&self, reason: &str) -> u32 {
        self.refused
            .lock()
            .unwrap()
            .get(reason)
            .copied()
            .unwrap_or(0)
    }

    async fn wait_for(&self, reason: &str, at_least: u32) {
        tokio::time::timeout(FAILSAFE, async {
            while self.count(reason) < at_least {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await
        .unwrap_or_else(|_| panic!("`{reason}` never reached {at_least}: {:?}", self.refused));
    }
}

/// A listener with the legitimate runner `legit` connected to it.
struct Setup {
    runners: Runners,
    admission: Arc<Counting>,
    listener: RunnerListener,
    fingerprint: String,
    _dir: tempfile::TempDir,
}

impl Setup {
    async fn start() -> Setup {
        let dir = tempfile::tempdir().unwrap();
        let runners = Runners::new(dir.path(), VERSION, Arc::new(clock::SystemClock));
        let admission = Arc::new(Counting::default());
        let config = Listener {
            address: IpAddr::from([127, 0, 0, 1]),
            port: 0,
            tls: ListenerTls::SelfSigned,
        };
        let listener = listener::listen(runners.clone(), &config, admission.clone())
            .await
            .unwrap();
        let token_file = dir.path().join("token");
        std::fs::write(&token_file, TOKEN).unwrap();
        let fingerprint = listener.fingerprint.clone();
        tokio::spawn(run(ConnectOptions {
            url: format!("https://{}", listener.local_addr),
            token_file,
            name: "legit".to_owned(),
            labels: Vec::new(),
            max_sessions: None,
            trust: Trust::Fingerprint(fingerprint.clone()),
            pod_isolation: false,
            version: VERSION.to_owned(),
        }));
        tokio::time::timeout(FAILSAFE, async {
            while runners.home("legit").is_none() {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await
        .expect("the legitimate runner never connected");
        Setup {
            runners,
            admission,
            listener,
            fingerprint,
            _dir: dir,
        }
    }

    fn address(&self) -> SocketAddr {
        self.listener.local_addr
    }

    /// One channel to the legitimate runner and its answer.
    async fn round_trip(&self) {
        self.runners
            .kill_leftovers("legit", Vec::new())
            .await
            .expect("the legitimate runner did not answer");
    }

    /// A real rustls client, from `from` (an address of 127/8).
    async fn tls_from(
        &self,
        from: IpAddr,
        sni: &str,
    ) -> tokio_rustls::client::TlsStream<TcpStream> {
        let socket = TcpSocket::new_v4().unwrap();
        socket.bind(SocketAddr::new(from, 0)).unwrap();
        let tcp = socket.connect(self.address()).await.unwrap();
        let config = tls::client(&Trust::Fingerprint(self.fingerprint.clone())).unwrap();
        TlsConnector::from(config)
            .connect(ServerName::try_from(sni.to_owned()).unwrap(), tcp)
            .await
            .unwrap()
    }
}

/// The upgrade request a runner sends.
fn connect_request(token: &str, name: &str) -> String {
    format!(
        "GET /connect HTTP/1.1\r\nHost: listener\r\nConnection: upgrade\r\n\
         Upgrade: switchboard-runner\r\nAuthorization: Bearer {token}\r\n\
         switchboard-protocol: {}\r\nswitchboard-runner: {name}\r\n\
         switchboard-tunnel-port: 9\r\nswitchboard-exe: /bin/true\r\n\r\n",
        runners::wire::PROTOCOL
    )
}

/// The response's head, read byte by byte so nothing after it is taken.
async fn read_head(stream: &mut (impl AsyncRead + Unpin)) -> String {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if stream.read(&mut byte).await.unwrap() == 0 {
            break;
        }
        head.push(byte[0]);
    }
    String::from_utf8_lossy(&head).into_owned()
}

/// Reads until the server closes; errors count as closed.
async fn until_closed(stream: &mut (impl AsyncRead + Unpin)) {
    let mut sink = vec![0u8; 64 << 10];
    tokio::time::timeout(FAILSAFE, async {
        while let Ok(n) = stream.read(&mut sink).await {
            if n == 0 {
                break;
            }
        }
    })
    .await
    .expect("the server never closed the connection");
}

/// An HTTP/2 frame: length, type, flags, stream, payload.
fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let mut bytes = (payload.len() as u32).to_be_bytes()[1..].to_vec();
    bytes.extend([kind, flags]);
    bytes.extend(stream.to_be_bytes());
    bytes.extend(payload);
    bytes
}

const DATA: u8 = 0;
const HEADERS: u8 = 1;
const RST_STREAM: u8 = 3;
const SETTINGS: u8 = 4;
const CONTINUATION: u8 = 9;

/// A TLS 1.0 ClientHello offering only a CBC suite, as an old client sends.
fn tls10_client_hello() -> Vec<u8> {
    let mut body = vec![0x03, 0x01];
    body.extend([7u8; 32]);
    body.push(0);
    body.extend([0x00, 0x02, 0x00, 0x2f]);
    body.extend([0x01, 0x00]);
    let mut handshake = vec![0x01, 0, 0, body.len() as u8];
    handshake.extend(body);
    let mut record = vec![0x16, 0x03, 0x01, 0, handshake.len() as u8];
    record.extend(handshake);
    record
}

#[tokio::test]
async fn garbage_half_and_old_handshakes_are_refused_as_tls() {
    let setup = Setup::start().await;

    let mut garbage = TcpStream::connect(setup.address()).await.unwrap();
    garbage
        .write_all(b"GET / HTTP/1.1\r\n\r\n\x00\xff garbage")
        .await
        .unwrap();
    until_closed(&mut garbage).await;

    let mut half = TcpStream::connect(setup.address()).await.unwrap();
    half.write_all(&tls10_client_hello()[..20]).await.unwrap();
    drop(half);

    let mut old = TcpStream::connect(setup.address()).await.unwrap();
    old.write_all(&tls10_client_hello()).await.unwrap();
    until_closed(&mut old).await;

    setup.admission.wait_for("tls", 3).await;
    setup.round_trip().await;
}

#[tokio::test]
async fn a_wrong_sni_gets_no_further_than_a_token_and_each_connection_one_guess() {
    let setup = Setup::start().await;
    let mut tls = setup
        .tls_from(IpAddr::from([127, 0, 0, 1]), "wrong.example")
        .await;
    let guesses = format!(
        "{}{}",
        connect_request("guess-1", "guesser"),
        connect_request("guess-2", "guesser")
    );
    tls.write_all(guesses.as_bytes()).await.unwrap();
    let head = read_head(&mut tls).await;
    assert!(head.starts_with("HTTP/1.1 401"), "{head}");
    until_closed(&mut tls).await;
    setup.admission.wait_for("bad_token", 1).await;
    assert_eq!(
        setup.admission.count("bad_token"),
        1,
        "the second guess on one connection was read"
    );
    setup.round_trip().await;
}

#[tokio::test]
async fn sockets_that_never_finish_take_only_their_address_share() {
    let setup = Setup::start().await;
    let mut idle = Vec::new();
    for _ in 0..HANDSHAKES_PER_ADDRESS + 4 {
        let socket = TcpSocket::new_v4().unwrap();
        socket.bind("127.0.0.3:0".parse().unwrap()).unwrap();
        idle.push(socket.connect(setup.address()).await.unwrap());
    }
    setup.admission.wait_for("too_many_pending", 4).await;

    // Another address still gets its handshake and its answer.
    let mut tls = setup
        .tls_from(IpAddr::from([127, 0, 0, 4]), "listener")
        .await;
    tls.write_all(connect_request("wrong", "other").as_bytes())
        .await
        .unwrap();
    let head = read_head(&mut tls).await;
    assert!(head.starts_with("HTTP/1.1 401"), "{head}");
    setup.round_trip().await;
    drop(idle);
}

#[tokio::test]
async fn a_token_replayed_from_another_address_does_not_displace_the_runner() {
    let setup = Setup::start().await;
    let mut tls = setup
        .tls_from(IpAddr::from([127, 0, 0, 2]), "listener")
        .await;
    tls.write_all(connect_request(TOKEN, "legit").as_bytes())
        .await
        .unwrap();
    let head = read_head(&mut tls).await;
    assert!(head.starts_with("HTTP/1.1 409"), "{head}");
    let mut body = Vec::new();
    let _ = tls.read_to_end(&mut body).await;
    let body = String::from_utf8_lossy(&body);
    assert!(body.contains("token_in_use"), "{body}");
    assert_eq!(setup.admission.count("token_in_use"), 1);
    setup.round_trip().await;
}

/// Upgrades as runner `name` and writes `attack` as its HTTP/2 server
/// would, then waits for the server to end the connection.
async fn hostile_runner(setup: &Setup, name: &str, attack: &[u8]) {
    let mut tls = setup
        .tls_from(IpAddr::from([127, 0, 0, 1]), "listener")
        .await;
    tls.write_all(connect_request(TOKEN, name).as_bytes())
        .await
        .unwrap();
    let head = read_head(&mut tls).await;
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    let mut stream = frame(SETTINGS, 0, 0, &[]);
    stream.extend(attack);
    // The server may close before it has read it all.
    let _ = write_all_lenient(&mut tls, &stream).await;
    until_closed(&mut tls).await;
}

async fn write_all_lenient(
    stream: &mut (impl AsyncWrite + Unpin),
    bytes: &[u8],
) -> std::io::Result<()> {
    stream.write_all(bytes).await?;
    stream.flush().await
}

#[tokio::test]
async fn a_hostile_runners_frames_end_its_own_connection_only() {
    let setup = Setup::start().await;

    // A SETTINGS storm, then a frame past the 64 KiB agreed.
    let mut storm: Vec<u8> = (0..2000).flat_map(|_| frame(SETTINGS, 0, 0, &[])).collect();
    storm.extend(frame(DATA, 0, 1, &vec![0u8; 70_000]));
    hostile_runner(&setup, "storm", &storm).await;

    // CONTINUATION without end: far past the 16 KiB header list.
    let mut continuation = frame(HEADERS, 0, 1, &[0x88]);
    for _ in 0..200 {
        continuation.extend(frame(CONTINUATION, 0, 1, &[0x40; 16 << 10]));
    }
    hostile_runner(&setup, "continuation", &continuation).await;

    // Resets, rapidly, of streams the server never opened.
    let resets: Vec<u8> = (0..1000u32)
        .flat_map(|i| frame(RST_STREAM, 0, 2 * i + 101, &8u32.to_be_bytes()))
        .collect();
    hostile_runner(&setup, "resets", &resets).await;

    setup.admission.wait_for("handshake", 3).await;
    setup.round_trip().await;
}
