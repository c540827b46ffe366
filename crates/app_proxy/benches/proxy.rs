//! The proxy's cost, printed as figures: the latency it adds per request
//! (sequential small GETs on a kept-alive connection, through it against
//! direct), the throughput of a 100 MB download and upload through it
//! against direct (with the peak memory of the process, which holds both
//! ends and the proxy), and 200 WebSockets open through it at once, each
//! echoing a message. The upstream is a tiny hyper server in this file, so
//! the app's own speed is not what is measured. Run:
//! `cargo bench -p app_proxy --bench proxy`.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use app_proxy::{Connecting, Listed, Lookup, Options, Routes, Target};
use bytes::Bytes;
use http::{Request, Response, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::{Body, Frame, Incoming};
use hyper::client::conn::http1::SendRequest;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::Barrier;
use tokio::task::JoinSet;

const REQUESTS: usize = 5_000;
const WARM_UP: usize = 500;
const DOWNLOAD_BYTES: usize = 100 * 1024 * 1024;
const CHUNK_BYTES: usize = 64 * 1024;
const WEBSOCKETS: usize = 200;

/// A body of `left` bytes, sent as clones of one chunk.
struct Download {
    chunk: Bytes,
    left: usize,
}

impl Body for Download {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        if this.left == 0 {
            return Poll::Ready(None);
        }
        let size = this.left.min(this.chunk.len());
        this.left -= size;
        Poll::Ready(Some(Ok(Frame::data(this.chunk.slice(..size)))))
    }
}

type AppBody = http_body_util::Either<Full<Bytes>, Download>;

/// `/` answers "ok", `/big` 100 MB, and an upgrade is echoed byte for byte.
async fn app(mut request: Request<Incoming>) -> Result<Response<AppBody>, Infallible> {
    if request.headers().contains_key("upgrade") {
        let upgrade = hyper::upgrade::on(&mut request);
        tokio::spawn(async move {
            if let Ok(upgraded) = upgrade.await {
                let mut io = TokioIo::new(upgraded);
                let mut buffer = vec![0; 4096];
                while let Ok(read) = io.read(&mut buffer).await {
                    if read == 0 || io.write_all(&buffer[..read]).await.is_err() {
                        break;
                    }
                }
            }
        });
        let mut response = Response::new(AppBody::Left(Full::default()));
        *response.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
        response
            .headers_mut()
            .insert("connection", "upgrade".parse().unwrap());
        response
            .headers_mut()
            .insert("upgrade", "websocket".parse().unwrap());
        return Ok(response);
    }
    if request.uri().path() == "/upload" {
        let mut received = 0;
        let mut body = request.into_body();
        while let Some(Ok(frame)) = body.frame().await {
            received += frame.data_ref().map_or(0, Bytes::len);
        }
        return Ok(Response::new(AppBody::Left(Full::new(Bytes::from(
            received.to_string(),
        )))));
    }
    let body = if request.uri().path() == "/big" {
        AppBody::Right(Download {
            chunk: Bytes::from(vec![b'x'; CHUNK_BYTES]),
            left: DOWNLOAD_BYTES,
        })
    } else {
        AppBody::Left(Full::new(Bytes::from_static(b"ok")))
    };
    Ok(Response::new(body))
}

async fn start_app() -> u16 {
    // The same backlog as the proxy's, so a burst of connections measures
    // the proxy rather than the queue of the app behind it.
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let listener = socket.listen(1024).unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        loop {
            let (stream, _) = listener.accept().await.unwrap();
            stream.set_nodelay(true).unwrap();
            tokio::spawn(async move {
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service_fn(app))
                    .with_upgrades()
                    .await;
            });
        }
    });
    port
}

struct BenchRoutes {
    port: u16,
}

impl Routes for BenchRoutes {
    fn lookup(&self, name: &str) -> Lookup {
        match name {
            "bench" => Lookup::Found(Target {
                name: name.to_owned(),
                port: self.port,
                runner: None,
            }),
            _ => Lookup::Unknown,
        }
    }

    fn running(&self) -> Vec<Listed> {
        Vec::new()
    }

    fn connect(&self, target: &Target) -> Connecting {
        Box::pin(app_proxy::connect_local(target.port))
    }
}

async fn client(port: u16) -> SendRequest<Full<Bytes>> {
    let stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    stream.set_nodelay(true).unwrap();
    let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(connection);
    sender
}

fn get(path: &str, host: &str) -> Request<Full<Bytes>> {
    Request::get(path)
        .header("host", host)
        .body(Full::default())
        .unwrap()
}

/// Sorted latencies of sequential small GETs on one kept-alive connection.
async fn latencies(port: u16, host: &str) -> Vec<Duration> {
    let mut sender = client(port).await;
    let mut taken = Vec::with_capacity(REQUESTS);
    for round in 0..WARM_UP + REQUESTS {
        sender.ready().await.unwrap();
        let started = Instant::now();
        let response = sender.send_request(get("/", host)).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        response.into_body().collect().await.unwrap();
        if round >= WARM_UP {
            taken.push(started.elapsed());
        }
    }
    taken.sort();
    taken
}

fn percentile(sorted: &[Duration], fraction: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * fraction).round() as usize]
}

fn micros(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e6
}

/// MB/s of one 100 MB download, read frame by frame.
async fn download(port: u16, host: &str) -> f64 {
    let mut sender = client(port).await;
    let started = Instant::now();
    let response = sender.send_request(get("/big", host)).await.unwrap();
    let mut body = response.into_body();
    let mut received = 0;
    while let Some(frame) = body.frame().await {
        if let Ok(data) = frame.unwrap().into_data() {
            received += data.len();
        }
    }
    assert_eq!(received, DOWNLOAD_BYTES);
    DOWNLOAD_BYTES as f64 / (1024.0 * 1024.0) / started.elapsed().as_secs_f64()
}

/// MB/s of one 100 MB upload, sent chunk by chunk.
async fn upload(port: u16, host: &str) -> f64 {
    let stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(connection);
    let request = Request::post("/upload")
        .header("host", host)
        .body(Download {
            chunk: Bytes::from(vec![b'u'; CHUNK_BYTES]),
            left: DOWNLOAD_BYTES,
        })
        .unwrap();
    let started = Instant::now();
    let response = sender.send_request(request).await.unwrap();
    let counted = response.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(counted, DOWNLOAD_BYTES.to_string());
    DOWNLOAD_BYTES as f64 / (1024.0 * 1024.0) / started.elapsed().as_secs_f64()
}

/// The process's peak resident memory, in MB (Linux).
fn peak_rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<f64>()
                .ok()
        })
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

/// Opens one WebSocket through the proxy, waits until all are open, then
/// echoes one message; true when the echo came back whole.
async fn websocket(proxy_port: u16, index: usize, all_open: Arc<Barrier>) -> bool {
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", proxy_port)).await else {
        all_open.wait().await;
        return false;
    };
    let handshake = "GET /ws HTTP/1.1\r\nHost: bench.localhost\r\nConnection: Upgrade\r\n\
                     Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
                     Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";
    let mut head = Vec::new();
    let switched = async {
        stream.write_all(handshake.as_bytes()).await.ok()?;
        while !head.ends_with(b"\r\n\r\n") {
            let mut byte = [0];
            if stream.read(&mut byte).await.ok()? == 0 {
                return None;
            }
            head.push(byte[0]);
        }
        head.starts_with(b"HTTP/1.1 101").then_some(())
    }
    .await;
    all_open.wait().await;
    if switched.is_none() {
        return false;
    }
    let message = format!("message {index} through the proxy");
    if stream.write_all(message.as_bytes()).await.is_err() {
        return false;
    }
    let mut echoed = vec![0; message.len()];
    stream.read_exact(&mut echoed).await.is_ok() && echoed == message.as_bytes()
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let app_port = start_app().await;
        let listener = app_proxy::bind(0).await.unwrap();
        let proxy_port = listener.local_addr().unwrap().port();
        let options = Options {
            proxy_port,
            ui_cookie: "switchboard_ui".to_owned(),
        };
        let routes = Arc::new(BenchRoutes { port: app_port });
        tokio::spawn(app_proxy::serve(listener, routes, options, std::future::pending()));
        let through = "bench.localhost";

        let direct = latencies(app_port, "127.0.0.1").await;
        let proxied = latencies(proxy_port, through).await;
        println!("latency, {REQUESTS} sequential small GETs on a kept-alive connection:");
        for (label, fraction) in [("p50", 0.5), ("p99", 0.99)] {
            let (d, p) = (percentile(&direct, fraction), percentile(&proxied, fraction));
            println!(
                "  {label}: direct {:.0} µs, through the proxy {:.0} µs, added {:.0} µs",
                micros(d),
                micros(p),
                micros(p) - micros(d)
            );
        }

        let rss_before = peak_rss_mb();
        let direct = download(app_port, "127.0.0.1").await;
        let proxied = download(proxy_port, through).await;
        println!("100 MB download: direct {direct:.0} MB/s, through the proxy {proxied:.0} MB/s");
        let direct = upload(app_port, "127.0.0.1").await;
        let proxied = upload(proxy_port, through).await;
        println!("100 MB upload: direct {direct:.0} MB/s, through the proxy {proxied:.0} MB/s");
        println!(
            "  peak resident memory {rss_before:.0} MB before, {:.0} MB after (bodies are never held whole)",
            peak_rss_mb()
        );

        let all_open = Arc::new(Barrier::new(WEBSOCKETS));
        let started = Instant::now();
        let mut sockets = JoinSet::new();
        for index in 0..WEBSOCKETS {
            sockets.spawn(websocket(proxy_port, index, all_open.clone()));
        }
        let mut echoed = 0;
        while let Some(done) = sockets.join_next().await {
            echoed += usize::from(done.unwrap_or(false));
        }
        println!(
            "{WEBSOCKETS} WebSockets open at once through the proxy: {echoed} echoed, in {:.1} ms",
            started.elapsed().as_secs_f64() * 1e3
        );
    });
}
