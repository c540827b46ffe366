//! The runner listener: the one listener that may bind beyond loopback,
//! serving nothing but pool runners. A connection is refused as early and
//! as cheaply as can be: too many from one address in a second are closed
//! before TLS; a wrong token, protocol or name is a plain HTTP status with
//! the contract's error shape, on a connection that then closes (one guess
//! of a token per connection). An accepted one is upgraded to the runner's
//! multiplexed connection ([`super::mux`]) or, on `/tunnel`, relayed to
//! the control server for the engines on that runner.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{Request, Response, StatusCode, header};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio_rustls::TlsAcceptor;

use super::mux;
use super::registry::Refusal;
use super::tls;
use crate::config::{self, Listener};
use crate::host::Hello;
use crate::hosts::Runners;
use crate::wire;

/// Connections one address may open in a second; more are closed unread.
/// A pool's pods restarting together behind one node's address stay well
/// under it.
pub const PER_ADDRESS_PER_SECOND: u32 = 50;
/// Connections in their TLS or HTTP handshake at once; more are closed
/// unread.
pub const HANDSHAKES: usize = 256;
/// Of those, the most from one address: one address cannot take every
/// place in the queue with sockets that never finish.
pub const HANDSHAKES_PER_ADDRESS: u32 = 16;
/// From the accept to the upgrade, TLS and the request together: a client
/// sending a byte a second is closed at this.
pub const HANDSHAKE_TIME: Duration = Duration::from_secs(10);

/// Who may be a runner, and the record of who was refused.
pub trait Admission: Send + Sync {
    /// The id of the runner token `token` is, while it is in force.
    fn admit(&self, token: &str) -> Option<String>;
    /// A connection was refused: `bad_token`, `rate_limited`,
    /// `too_many_pending`, `protocol`, `tls`, `name_taken`, `token_in_use`,
    /// `bad_request`, `timeout` or, after the upgrade, `handshake`.
    fn refused(&self, reason: &'static str);
}

/// The listener while it runs; dropping it stops accepting.
pub struct RunnerListener {
    pub local_addr: SocketAddr,
    /// The SHA-256 of its certificate, which runners pin.
    pub fingerprint: String,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for RunnerListener {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Binds `[listener]` and serves runners until dropped.
pub async fn listen(
    runners: Runners,
    listener: &Listener,
    admission: Arc<dyn Admission>,
) -> Result<RunnerListener, String> {
    raise_open_files();
    let run_dir = runners.inner.data_dir.join("runners");
    let server_tls = tls::server(&listener.tls, &run_dir)?;
    let address = SocketAddr::new(listener.address, listener.port);
    let tcp = TcpListener::bind(address)
        .await
        .map_err(|e| format!("the runner listener cannot bind {address}: {e}"))?;
    let local_addr = tcp.local_addr().map_err(|e| e.to_string())?;
    let shared = Arc::new(Shared {
        runners,
        admission,
        acceptor: TlsAcceptor::from(server_tls.config),
    });
    let task = tokio::spawn(accept_loop(tcp, shared));
    Ok(RunnerListener {
        local_addr,
        fingerprint: server_tls.fingerprint,
        task,
    })
}

/// Each runner holds a connection and a tunnel or two: a pool of hundreds
/// would pass the usual soft limit of 1,024 descriptors, so the soft limit
/// goes up to the hard one.
fn raise_open_files() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write only `limit`.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < limit.rlim_max
        {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}

struct Shared {
    runners: Runners,
    admission: Arc<dyn Admission>,
    acceptor: TlsAcceptor,
}

/// Counts each address's connections in the current second.
struct Limiter {
    window: Instant,
    counts: HashMap<IpAddr, u32>,
}

impl Limiter {
    fn allow(&mut self, ip: IpAddr, now: Instant) -> bool {
        if now.duration_since(self.window) >= Duration::from_secs(1) {
            self.window = now;
            self.counts.clear();
        }
        let count = self.counts.entry(ip).or_insert(0);
        *count = count.saturating_add(1);
        *count <= PER_ADDRESS_PER_SECOND
    }
}

/// Connections from each address still in their handshake.
#[derive(Default)]
struct Pending {
    counts: Mutex<HashMap<IpAddr, u32>>,
}

/// One place an address holds in [`Pending`] until dropped.
struct PendingPlace {
    pending: Arc<Pending>,
    ip: IpAddr,
}

impl Pending {
    fn enter(self: &Arc<Self>, ip: IpAddr) -> Option<PendingPlace> {
        let mut counts = self.counts.lock().ok()?;
        let count = counts.entry(ip).or_insert(0);
        if *count >= HANDSHAKES_PER_ADDRESS {
            return None;
        }
        *count += 1;
        Some(PendingPlace {
            pending: Arc::clone(self),
            ip,
        })
    }
}

impl Drop for PendingPlace {
    fn drop(&mut self) {
        if let Ok(mut counts) = self.pending.counts.lock()
            && let Some(count) = counts.get_mut(&self.ip)
        {
            *count = count.saturating_sub(1);
            if *count == 0 {
                counts.remove(&self.ip);
            }
        }
    }
}

async fn accept_loop(tcp: TcpListener, shared: Arc<Shared>) {
    let handshakes = Arc::new(Semaphore::new(HANDSHAKES));
    let pending = Arc::new(Pending::default());
    let mut limiter = Limiter {
        window: Instant::now(),
        counts: HashMap::new(),
    };
    loop {
        let (stream, peer) = match tcp.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of descriptors, most likely: wait rather than spin.
                tracing::warn!("the runner listener could not accept: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        if !limiter.allow(peer.ip(), Instant::now()) {
            shared.admission.refused("rate_limited");
            continue;
        }
        let Some(place) = pending.enter(peer.ip()) else {
            shared.admission.refused("too_many_pending");
            continue;
        };
        let Ok(permit) = Arc::clone(&handshakes).try_acquire_owned() else {
            shared.admission.refused("too_many_pending");
            continue;
        };
        let shared = Arc::clone(&shared);
        tokio::spawn(async move {
            let deadline = tokio::time::Instant::now() + HANDSHAKE_TIME;
            let _ = stream.set_nodelay(true);
            let tls = match tokio::time::timeout_at(deadline, shared.acceptor.accept(stream)).await
            {
                Ok(Ok(tls)) => tls,
                _ => {
                    shared.admission.refused("tls");
                    return;
                }
            };
            let service = hyper::service::service_fn({
                let shared = Arc::clone(&shared);
                move |request| {
                    let shared = Arc::clone(&shared);
                    async move { Ok::<_, Infallible>(answer(&shared, peer, request)) }
                }
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HANDSHAKE_TIME)
                .keep_alive(false)
                .max_buf_size(16 << 10)
                .serve_connection(TokioIo::new(tls), service)
                .with_upgrades();
            if tokio::time::timeout_at(deadline, connection).await.is_err() {
                // TLS done, the request still not whole: a slowloris.
                shared.admission.refused("timeout");
            }
            drop((permit, place));
        });
    }
}

fn refusal(status: StatusCode, code: &str, message: &str) -> Response<Full<Bytes>> {
    let body = serde_json::json!({"error": {"code": code, "message": message}});
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    response
}

fn text<'a>(request: &'a Request<Incoming>, name: &str) -> Option<&'a str> {
    request.headers().get(name)?.to_str().ok()
}

/// A runner's request, checked in the order that costs least; the
/// accepted one is answered `101` and taken over once upgraded.
fn answer(
    shared: &Arc<Shared>,
    peer: SocketAddr,
    mut request: Request<Incoming>,
) -> Response<Full<Bytes>> {
    let path = request.uri().path().to_owned();
    if path != mux::CONNECT_PATH && path != mux::TUNNEL_PATH {
        return refusal(
            StatusCode::NOT_FOUND,
            "not_found",
            "this listener serves runners only",
        );
    }
    let upgrade = text(&request, header::UPGRADE.as_str());
    if !upgrade.is_some_and(|u| u.eq_ignore_ascii_case(mux::UPGRADE)) {
        shared.admission.refused("bad_request");
        return refusal(
            StatusCode::BAD_REQUEST,
            "bad_request",
            "a runner connects with `switchboard runner --connect`",
        );
    }
    let protocol = text(&request, mux::PROTOCOL_HEADER).and_then(|p| p.parse::<u32>().ok());
    if protocol != Some(wire::PROTOCOL) {
        shared.admission.refused("protocol");
        let theirs = protocol.map_or_else(|| "none".to_owned(), |p| p.to_string());
        return refusal(
            StatusCode::UPGRADE_REQUIRED,
            "protocol_mismatch",
            &format!(
                "this server speaks runner protocol {} (switchboard {}); the runner speaks {theirs}: run switchboard {} on the runner",
                wire::PROTOCOL,
                shared.runners.inner.version,
                shared.runners.inner.version,
            ),
        );
    }
    let token = text(&request, header::AUTHORIZATION.as_str())
        .and_then(|a| a.strip_prefix("Bearer "))
        .map(|t| t.trim().to_owned());
    let Some(token_id) = token.as_deref().and_then(|t| shared.admission.admit(t)) else {
        shared.admission.refused("bad_token");
        tracing::warn!(peer = %peer, "a runner connection was refused: no valid runner token");
        return refusal(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "a runner token is required (`switchboard runners token create`)",
        );
    };
    let name = text(&request, mux::NAME_HEADER)
        .unwrap_or_default()
        .to_owned();
    if !config::valid_name(&name) {
        shared.admission.refused("bad_request");
        return refusal(
            StatusCode::BAD_REQUEST,
            "bad_request",
            "a runner's name is 1 to 64 letters, digits, `-` and `_`",
        );
    }
    if path == mux::TUNNEL_PATH {
        let upgraded = hyper::upgrade::on(&mut request);
        if !shared.runners.pool_connected_with(&name, &token_id) {
            return refusal(
                StatusCode::CONFLICT,
                "not_connected",
                &format!("the runner `{name}` is not connected with this token"),
            );
        }
        let runners = shared.runners.clone();
        let tunnel = tokio::spawn(async move {
            let Ok(upgraded) = upgraded.await else {
                return;
            };
            let port = runners.inner.control_port.load(Ordering::Relaxed);
            let Ok(mut control) = TcpStream::connect(("127.0.0.1", port)).await else {
                return;
            };
            let _ = control.set_nodelay(true);
            let _ = tokio::io::copy_bidirectional(&mut TokioIo::new(upgraded), &mut control).await;
        });
        shared
            .runners
            .remember_tunnel(&token_id, tunnel.abort_handle());
        return switching();
    }
    let hello = match hello_of(&request, name, peer) {
        Ok(hello) => hello,
        Err(message) => {
            shared.admission.refused("bad_request");
            return refusal(StatusCode::BAD_REQUEST, "bad_request", &message);
        }
    };
    match shared.runners.may_take(&hello.name, &token_id, peer.ip()) {
        Ok(()) => {}
        Err(Refusal::NameTaken(message)) => {
            shared.admission.refused("name_taken");
            return refusal(StatusCode::CONFLICT, "name_taken", &message);
        }
        Err(Refusal::TokenInUse(message)) => {
            shared.admission.refused("token_in_use");
            tracing::warn!(peer = %peer, "a runner token was presented from a second address");
            return refusal(StatusCode::CONFLICT, "token_in_use", &message);
        }
    }
    let token = token.unwrap_or_default();
    let upgraded = hyper::upgrade::on(&mut request);
    let shared = Arc::clone(shared);
    tokio::spawn(async move {
        if let Ok(upgraded) = upgraded.await {
            take_over(shared, hello, token_id, token, TokioIo::new(upgraded)).await;
        }
    });
    switching()
}

fn switching() -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::new()));
    *response.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let headers = response.headers_mut();
    headers.insert(
        header::CONNECTION,
        header::HeaderValue::from_static("upgrade"),
    );
    headers.insert(
        header::UPGRADE,
        header::HeaderValue::from_static(mux::UPGRADE),
    );
    response
}

fn hello_of(request: &Request<Incoming>, name: String, peer: SocketAddr) -> Result<Hello, String> {
    let labels: Vec<String> = text(request, mux::LABELS_HEADER)
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect();
    if labels.len() > 32 || labels.iter().any(|l| !config::valid_name(l)) {
        return Err("labels are at most 32, each letters, digits, `-` and `_`".to_owned());
    }
    let max_sessions = match text(request, mux::MAX_SESSIONS_HEADER) {
        None => None,
        Some(text) => match text.parse::<u32>() {
            Ok(n) if n >= 1 => Some(n),
            _ => return Err("the most sessions is a whole number of at least 1".to_owned()),
        },
    };
    let tunnel_port = text(request, mux::TUNNEL_PORT_HEADER)
        .and_then(|p| p.parse::<u16>().ok())
        .filter(|p| *p != 0)
        .ok_or_else(|| "the runner must name its tunnel's port".to_owned())?;
    let exe = text(request, mux::EXE_HEADER)
        .unwrap_or_default()
        .to_owned();
    if exe.is_empty() || exe.len() > 4096 || !exe.starts_with('/') {
        return Err("the runner must name its binary's absolute path".to_owned());
    }
    Ok(Hello {
        name,
        labels,
        max_sessions,
        tunnel_port,
        exe,
        peer: peer.to_string(),
    })
}

/// The upgraded connection becomes the runner's: HTTP/2 with this server
/// as the client, kept alive with pings, attached until it ends.
async fn take_over(
    shared: Arc<Shared>,
    hello: Hello,
    token_id: String,
    token: String,
    io: TokioIo<hyper::upgrade::Upgraded>,
) {
    let name = hello.name.clone();
    let handshake = h2::client::Builder::new()
        .initial_window_size(mux::CHANNEL_BUFFER as u32)
        .initial_connection_window_size(4 << 20)
        .max_frame_size(64 << 10)
        .max_header_list_size(16 << 10)
        .enable_push(false)
        .handshake::<_, Bytes>(io);
    let (send, mut connection) = match tokio::time::timeout(HANDSHAKE_TIME, handshake).await {
        Ok(Ok(pair)) => pair,
        _ => {
            shared.admission.refused("handshake");
            tracing::warn!(runner = name, "a pool runner's HTTP/2 handshake failed");
            return;
        }
    };
    let ping = connection.ping_pong();
    let driver = tokio::spawn(async move {
        tokio::select! {
            ended = &mut connection => ended.map_err(|e| e.to_string()),
            missed = mux::keep_alive(ping) => Err(missed),
        }
    });
    let abort = driver.abort_handle();
    let generation = match shared
        .runners
        .attach_pool(hello, token_id.clone(), send, abort.clone())
        .await
    {
        Ok(generation) => generation,
        Err(reason) => {
            // Its HTTP/2 broke the rules (a frame too large, a flood of
            // CONTINUATION, a reset of a stream never opened) or it never
            // answered the probe.
            shared.admission.refused("handshake");
            tracing::warn!(runner = name, "a pool runner could not be probed: {reason}");
            abort.abort();
            return;
        }
    };
    tracing::info!(runner = name, "pool runner connected");
    if shared.admission.admit(&token).is_none() {
        // Revoked while it connected.
        shared.runners.revoke_token(&token_id);
    }
    let reason = match driver.await {
        Ok(Ok(())) => "the runner closed its connection".to_owned(),
        Ok(Err(reason)) => format!("the runner's connection broke: {reason}"),
        Err(_) => "the connection was ended by the server".to_owned(),
    };
    shared.runners.pool_gone(&name, generation, &reason);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_gets_its_share_of_a_second_and_then_the_next() {
        let start = Instant::now();
        let mut limiter = Limiter {
            window: start,
            counts: HashMap::new(),
        };
        let one = IpAddr::from([10, 0, 0, 1]);
        let two = IpAddr::from([10, 0, 0, 2]);
        let allowed = (0..1000).filter(|_| limiter.allow(one, start)).count();
        assert_eq!(allowed, PER_ADDRESS_PER_SECOND as usize);
        assert!(limiter.allow(two, start));
        assert!(limiter.allow(one, start + Duration::from_millis(1001)));
    }
}
