//! A switched connection (a WebSocket, any HTTP/1.1 `Upgrade`) joined end to
//! end: what either side sends reaches the other, and either side closing
//! closes the other.

use hyper::upgrade::OnUpgrade;
use hyper_util::rt::TokioIo;
use tokio::sync::watch;

/// Waits for both sides to finish switching, then copies both ways until
/// both are closed or the proxy shuts down.
pub async fn splice(client: OnUpgrade, app: OnUpgrade, mut shutdown: watch::Receiver<bool>) {
    let (client, app) = match tokio::join!(client, app) {
        (Ok(client), Ok(app)) => (client, app),
        (Err(error), _) | (_, Err(error)) => {
            tracing::debug!(%error, "an upgraded connection could not be joined");
            return;
        }
    };
    let mut client = TokioIo::new(client);
    let mut app = TokioIo::new(app);
    tokio::select! {
        copied = tokio::io::copy_bidirectional(&mut client, &mut app) => {
            if let Err(error) = copied {
                tracing::debug!(%error, "an upgraded connection ended with an error");
            }
        }
        _ = shutdown.wait_for(|stopping| *stopping) => {}
    }
}
