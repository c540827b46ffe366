//! The pool runner's side: `switchboard runner --connect URL`. It holds one
//! connection to the server's runner listener, answers each channel the
//! server opens on it with the same helper as over SSH, and reconnects
//! with backoff when the connection goes; turns run under their keepers
//! meanwhile, so the server's `Attach` finds their spooled output whole.
//! Engines reach the control server through a loopback port here whose
//! connections each become a tunnel through the listener.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{Request, StatusCode, header};
use http_body_util::{BodyExt, Empty, Limited};
use hyper_util::rt::TokioIo;
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsConnector;
use tokio_rustls::rustls::ClientConfig;
use tokio_rustls::rustls::pki_types::ServerName;

use super::mux;
use super::tls::{self, Trust};
use crate::{config, helper, keeper, wire};

/// The shortest and longest wait before connecting again.
const BACKOFF_FIRST: Duration = Duration::from_millis(500);
const BACKOFF_MOST: Duration = Duration::from_secs(30);
/// A connection that lasted this long was healthy: the next wait starts
/// short again.
const HEALTHY: Duration = Duration::from_secs(30);

#[derive(Debug, Clone)]
pub struct ConnectOptions {
    /// `https://HOST:PORT` of the server's runner listener.
    pub url: String,
    /// Read again at each connection, so a rotated secret is picked up.
    pub token_file: PathBuf,
    pub name: String,
    pub labels: Vec<String>,
    pub max_sessions: Option<u32>,
    pub trust: Trust,
    /// The pod is the engines' boundary where the kernel offers no sandbox.
    pub pod_isolation: bool,
    pub version: String,
}

/// Where the listener is.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Address {
    host: String,
    port: u16,
}

fn address(url: &str) -> Result<Address, String> {
    let uri: http::Uri = url
        .parse()
        .map_err(|e| format!("`{url}` is not a URL: {e}"))?;
    if uri.scheme_str() != Some("https") {
        return Err(format!("`{url}` must start with https://"));
    }
    let host = uri
        .host()
        .ok_or_else(|| format!("`{url}` names no host"))?
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_owned();
    Ok(Address {
        host,
        port: uri.port_u16().unwrap_or(config::LISTENER_PORT),
    })
}

/// Why a connection ended or never began.
enum Ended {
    /// Worth trying again after a wait.
    Retry(String),
    /// Trying again cannot help (another protocol version is needed).
    Fatal(String),
}

struct Dialer {
    address: Address,
    tls: TlsConnector,
    options: ConnectOptions,
    tunnel_port: u16,
    exe: String,
}

/// Connects and serves until the server refuses this runner for good.
pub async fn run(options: ConnectOptions) -> Result<(), String> {
    if options.pod_isolation {
        keeper::declare_pod_isolation();
    }
    if !config::valid_name(&options.name) {
        return Err(format!(
            "`{}` cannot name a runner: use 1 to 64 letters, digits, `-` and `_` (--name)",
            options.name
        ));
    }
    let address = address(&options.url)?;
    let tls: Arc<ClientConfig> = tls::client(&options.trust)?;
    let tunnels = TcpListener::bind(("127.0.0.1", 0))
        .await
        .map_err(|e| format!("the tunnel's loopback port could not be opened: {e}"))?;
    let tunnel_port = tunnels.local_addr().map_err(|e| e.to_string())?.port();
    let exe = std::env::current_exe()
        .map_err(|e| format!("the runner cannot find its own binary: {e}"))?
        .display()
        .to_string();
    let dialer = Arc::new(Dialer {
        address,
        tls: TlsConnector::from(tls),
        options,
        tunnel_port,
        exe,
    });
    tokio::spawn(serve_tunnels(tunnels, Arc::clone(&dialer)));
    let mut wait = BACKOFF_FIRST;
    loop {
        let began = Instant::now();
        match connection(&dialer).await {
            Ended::Fatal(message) => return Err(message),
            Ended::Retry(message) => {
                tracing::warn!("{message}");
                eprintln!("switchboard runner: {message}");
            }
        }
        if began.elapsed() >= HEALTHY {
            wait = BACKOFF_FIRST;
        }
        tokio::time::sleep(jittered(wait)).await;
        wait = (wait * 2).min(BACKOFF_MOST);
    }
}

/// A wait of between three quarters and the whole of `wait`, so a pool
/// whose server restarted does not knock all at once.
fn jittered(wait: Duration) -> Duration {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let quarter = wait / 4;
    wait - quarter + quarter.mul_f64(f64::from(nanos % 1000) / 1000.0) - quarter / 2
}

/// One connection: upgraded, then each stream the server opens is a
/// channel served by the helper.
async fn connection(dialer: &Dialer) -> Ended {
    let io = match dialer.dial(mux::CONNECT_PATH).await {
        Ok(io) => io,
        Err(ended) => return ended,
    };
    let handshake = h2::server::Builder::new()
        .initial_window_size(mux::CHANNEL_BUFFER as u32)
        .initial_connection_window_size(4 << 20)
        .max_frame_size(64 << 10)
        .max_concurrent_streams(1024)
        .handshake::<_, Bytes>(io);
    let mut connection = match handshake.await {
        Ok(connection) => connection,
        Err(e) => return Ended::Retry(format!("the HTTP/2 handshake failed: {e}")),
    };
    eprintln!(
        "switchboard runner: connected to {}:{} as `{}`",
        dialer.address.host, dialer.address.port, dialer.options.name
    );
    let ping = connection.ping_pong();
    let version = dialer.options.version.clone();
    let streams = async {
        while let Some(stream) = connection.accept().await {
            let (request, mut respond) = match stream {
                Ok(pair) => pair,
                Err(e) => return format!("the connection broke: {e}"),
            };
            let send = match respond.send_response(http::Response::new(()), false) {
                Ok(send) => send,
                Err(_) => continue,
            };
            let (near, far) = mux::pipe();
            tokio::spawn(mux::bridge(send, request.into_body(), far));
            let version = version.clone();
            tokio::spawn(async move {
                let (input, output) = tokio::io::split(near);
                if let Err(e) = helper::serve(&version, input, output).await {
                    tracing::warn!("a channel failed: {e}");
                }
            });
        }
        "the server closed the connection".to_owned()
    };
    tokio::select! {
        reason = streams => Ended::Retry(reason),
        missed = mux::keep_alive(ping) => Ended::Retry(missed),
    }
}

impl Dialer {
    /// A TLS connection to the listener upgraded on `path`.
    async fn dial(&self, path: &str) -> Result<TokioIo<hyper::upgrade::Upgraded>, Ended> {
        let Address { host, port } = &self.address;
        let retry = |what: &str, e: &dyn std::fmt::Display| {
            Ended::Retry(format!("{what} {host}:{port} failed: {e}"))
        };
        let token = std::fs::read_to_string(&self.options.token_file)
            .map_err(|e| retry("reading the token file for", &e))?
            .trim()
            .to_owned();
        let tcp = tokio::time::timeout(
            Duration::from_secs(10),
            TcpStream::connect((host.as_str(), *port)),
        )
        .await
        .map_err(|_| retry("connecting to", &"no answer within 10 s"))?
        .map_err(|e| retry("connecting to", &e))?;
        let _ = tcp.set_nodelay(true);
        let name = ServerName::try_from(host.clone()).map_err(|e| retry("naming", &e))?;
        let tls = self
            .tls
            .connect(name, tcp)
            .await
            .map_err(|e| retry("the TLS handshake with", &e))?;
        let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(tls))
            .await
            .map_err(|e| retry("the HTTP handshake with", &e))?;
        tokio::spawn(conn.with_upgrades());
        let options = &self.options;
        let mut request = Request::get(path)
            .header(header::HOST, format!("{host}:{port}"))
            .header(header::CONNECTION, "upgrade")
            .header(header::UPGRADE, mux::UPGRADE)
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .header(mux::PROTOCOL_HEADER, wire::PROTOCOL.to_string())
            .header(mux::NAME_HEADER, &options.name)
            .header(mux::LABELS_HEADER, options.labels.join(","))
            .header(mux::TUNNEL_PORT_HEADER, self.tunnel_port.to_string())
            .header(mux::EXE_HEADER, &self.exe);
        if let Some(max) = options.max_sessions {
            request = request.header(mux::MAX_SESSIONS_HEADER, max.to_string());
        }
        let request = request
            .body(Empty::<Bytes>::new())
            .map_err(|e| retry("building the request to", &e))?;
        let response = sender
            .send_request(request)
            .await
            .map_err(|e| retry("the request to", &e))?;
        let status = response.status();
        if status == StatusCode::SWITCHING_PROTOCOLS {
            let upgraded = hyper::upgrade::on(response)
                .await
                .map_err(|e| retry("the upgrade with", &e))?;
            return Ok(TokioIo::new(upgraded));
        }
        let body = Limited::new(response.into_body(), 16 << 10)
            .collect()
            .await
            .map(|b| b.to_bytes())
            .unwrap_or_default();
        let message = serde_json::from_slice::<serde_json::Value>(&body)
            .ok()
            .and_then(|v| v["error"]["message"].as_str().map(str::to_owned))
            .unwrap_or_else(|| String::from_utf8_lossy(&body).into_owned());
        let said = format!("the server refused the runner ({status}): {message}");
        Err(if status == StatusCode::UPGRADE_REQUIRED {
            Ended::Fatal(said)
        } else {
            Ended::Retry(said)
        })
    }
}

/// Each connection an engine opens to the loopback port goes through its
/// own tunnel to the control server.
async fn serve_tunnels(listener: TcpListener, dialer: Arc<Dialer>) {
    loop {
        let Ok((mut local, _)) = listener.accept().await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let dialer = Arc::clone(&dialer);
        tokio::spawn(async move {
            let _ = local.set_nodelay(true);
            match dialer.dial(mux::TUNNEL_PATH).await {
                Ok(mut remote) => {
                    let _ = tokio::io::copy_bidirectional(&mut local, &mut remote).await;
                }
                Err(Ended::Retry(reason) | Ended::Fatal(reason)) => {
                    tracing::warn!("a tunnel to the control server failed: {reason}");
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listener_address_is_https_with_the_default_port() {
        assert_eq!(
            address("https://pool.example:7000"),
            Ok(Address {
                host: "pool.example".into(),
                port: 7000
            })
        );
        assert_eq!(
            address("https://[::1]").map(|a| (a.host, a.port)),
            Ok(("::1".into(), config::LISTENER_PORT))
        );
        assert!(address("http://pool.example:7000").is_err());
        assert!(address("pool.example").is_err());
    }

    #[test]
    fn waits_stay_near_their_mark() {
        for _ in 0..100 {
            let wait = jittered(Duration::from_secs(8));
            assert!(
                wait >= Duration::from_secs(5) && wait <= Duration::from_secs(8),
                "{wait:?}"
            );
        }
    }
}
