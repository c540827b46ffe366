//! The listener side: a loopback port serving HTTP/1.1 and HTTP/2 with prior
//! knowledge on the same socket, one task per connection, until shut down.

use std::convert::Infallible;
use std::future::Future;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::net::{TcpListener, TcpSocket};
use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::proxy::{Options, Proxy};
use crate::routes::Routes;

/// A pause after a failed accept (out of file descriptors, say), so the
/// loop does not spin while the cause lasts.
const AFTER_ACCEPT_ERROR: Duration = Duration::from_millis(50);

/// Connections the kernel queues before they are accepted. The usual 128
/// overflows when a page opens many connections at once (200 WebSockets in
/// the bench did): the kernel then drops handshakes and clients wait a
/// second for their retry.
const BACKLOG: u32 = 1024;

/// The proxy's listener on `127.0.0.1:port` (never another address: the
/// apps are for this machine's browser only). Port 0 picks a free one.
pub async fn bind(port: u16) -> std::io::Result<TcpListener> {
    let socket = TcpSocket::new_v4()?;
    socket.set_reuseaddr(true)?;
    socket.bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))?;
    socket.listen(BACKLOG)
}

/// Serves the proxy on `listener` until `shutdown` completes; then stops
/// accepting and closes every connection it holds, upgraded ones included.
pub async fn serve(
    listener: TcpListener,
    routes: Arc<dyn Routes>,
    options: Options,
    shutdown: impl Future<Output = ()>,
) {
    let (stop, stopping) = watch::channel(false);
    let proxy = Arc::new(Proxy::new(routes, options, stopping));
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder.http1().timer(TokioTimer::new());
    builder.http2().timer(TokioTimer::new());
    let builder = Arc::new(builder);
    let mut connections = JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, client)) => {
                    if let Err(error) = stream.set_nodelay(true) {
                        tracing::debug!(%error, "could not set TCP_NODELAY on a proxy connection");
                    }
                    let proxy = proxy.clone();
                    let builder = builder.clone();
                    connections.spawn(async move {
                        let service = service_fn(move |request| {
                            let proxy = proxy.clone();
                            async move { Ok::<_, Infallible>(proxy.handle(request, client).await) }
                        });
                        let served = builder
                            .serve_connection_with_upgrades(TokioIo::new(stream), service)
                            .await;
                        if let Err(error) = served {
                            tracing::debug!(%error, %client, "a proxy connection ended with an error");
                        }
                    });
                }
                Err(error) => {
                    tracing::debug!(%error, "the apps proxy could not accept a connection");
                    tokio::time::sleep(AFTER_ACCEPT_ERROR).await;
                }
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    stop.send_replace(true);
    connections.shutdown().await;
}
