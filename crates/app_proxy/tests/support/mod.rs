//! What the proxy's tests share: a `Routes` that maps names to ports, real
//! upstreams (Python's `http.server`, the Node fixture), the proxy on a free
//! port, and small HTTP and WebSocket clients.

pub mod websocket;

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};

use app_proxy::{ConnectError, Connecting, Listed, Lookup, Options, Routes, Target};
use bytes::Bytes;
use http::{HeaderMap, Request, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;

pub const UI_COOKIE: &str = "switchboard_ui";

/// Names → what they are; a target with a runner is "away" with that reason.
#[derive(Default)]
pub struct TestRoutes {
    names: Mutex<HashMap<String, Lookup>>,
}

impl TestRoutes {
    pub fn app(&self, name: &str, port: u16) {
        self.set(
            name,
            Lookup::Found(Target {
                name: name.to_owned(),
                port,
                runner: None,
            }),
        );
    }

    pub fn on_runner(&self, name: &str, port: u16, runner: &str) {
        self.set(
            name,
            Lookup::Found(Target {
                name: name.to_owned(),
                port,
                runner: Some(runner.to_owned()),
            }),
        );
    }

    pub fn stopped(&self, name: &str) {
        self.set(
            name,
            Lookup::Stopped {
                name: name.to_owned(),
            },
        );
    }

    fn set(&self, name: &str, lookup: Lookup) {
        self.names.lock().unwrap().insert(name.to_owned(), lookup);
    }
}

impl Routes for TestRoutes {
    fn lookup(&self, name: &str) -> Lookup {
        self.names
            .lock()
            .unwrap()
            .get(name)
            .cloned()
            .unwrap_or(Lookup::Unknown)
    }

    fn running(&self) -> Vec<Listed> {
        let mut listed: Vec<Listed> = self
            .names
            .lock()
            .unwrap()
            .values()
            .filter_map(|lookup| match lookup {
                Lookup::Found(target) => Some(Listed {
                    name: target.name.clone(),
                    url: format!("http://{}.localhost:1/", target.name),
                }),
                _ => None,
            })
            .collect();
        listed.sort_by(|a, b| a.name.cmp(&b.name));
        listed
    }

    fn connect(&self, target: &Target) -> Connecting {
        match &target.runner {
            None => Box::pin(app_proxy::connect_local(target.port)),
            Some(runner) => {
                let runner = runner.clone();
                Box::pin(async move {
                    Err(ConnectError::RunnerAway {
                        runner,
                        reason: "its connection dropped".to_owned(),
                    })
                })
            }
        }
    }
}

/// The proxy serving `routes` on a free loopback port; it stops when dropped.
pub struct RunningProxy {
    pub port: u16,
    stop: oneshot::Sender<()>,
    served: tokio::task::JoinHandle<()>,
}

impl RunningProxy {
    /// Shuts the proxy down and waits until `serve` has returned.
    pub async fn stop(self) {
        drop(self.stop);
        self.served.await.unwrap();
    }
}

pub async fn start_proxy(routes: Arc<TestRoutes>) -> RunningProxy {
    let listener = app_proxy::bind(0).await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (stop, stopped) = oneshot::channel::<()>();
    let options = Options {
        proxy_port: port,
        ui_cookie: UI_COOKIE.to_owned(),
    };
    let served = tokio::spawn(app_proxy::serve(listener, routes, options, async {
        let _ = stopped.await;
    }));
    RunningProxy { port, stop, served }
}

/// A child process killed when dropped, with the port it said it listens on.
pub type Upstream = test_servers::Server;

/// `python3 -m http.server` serving `directory` on a free port.
pub async fn python_server(directory: &Path) -> Upstream {
    let directory = directory.to_owned();
    // Waiting for the port line blocks: off the runtime's thread.
    tokio::task::spawn_blocking(move || test_servers::serve_directory(&directory))
        .await
        .unwrap()
}

/// The Node fixture (`tests/fixtures/app.js`) on a free port.
pub async fn node_server() -> Upstream {
    let mut command = Command::new("node");
    command.arg(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/app.js"
    ));
    tokio::task::spawn_blocking(move || test_servers::Server::start(command, "listening on "))
        .await
        .unwrap()
}

/// A port nothing listens on (bound, then let go).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Sends `request` over a fresh HTTP/1.1 connection to `port`.
pub async fn send(port: u16, request: Request<Full<Bytes>>) -> http::Response<Incoming> {
    let stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(connection);
    sender.send_request(request).await.unwrap()
}

pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// GET `path` from `port` with `Host: host`, body read whole.
pub async fn get(port: u16, host: &str, path: &str) -> Answer {
    let request = Request::get(path)
        .header("host", host)
        .body(Full::default())
        .unwrap();
    read(send(port, request).await).await
}

pub async fn read(response: http::Response<Incoming>) -> Answer {
    let (parts, body) = response.into_parts();
    Answer {
        status: parts.status,
        headers: parts.headers,
        body: body.collect().await.unwrap().to_bytes().to_vec(),
    }
}

/// Writes `raw` to `port` as is and reads the whole answer until the proxy
/// closes or 64 KB have come, for requests a client library would not send.
pub async fn raw(port: u16, raw: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    stream.write_all(raw.as_bytes()).await.unwrap();
    let mut answer = vec![0; 65536];
    let mut filled = 0;
    while filled < answer.len() {
        let read = stream.read(&mut answer[filled..]).await.unwrap_or(0);
        if read == 0 {
            break;
        }
        filled += read;
        if String::from_utf8_lossy(&answer[..filled]).contains("\r\n\r\n") {
            break;
        }
    }
    String::from_utf8_lossy(&answer[..filled]).into_owned()
}
