//! What the proxy asks of whoever runs it: which app a name is, what runs,
//! and a connection to an app. Loopback connections are built in.

use std::future::Future;
use std::io::ErrorKind;
use std::net::{Ipv4Addr, Ipv6Addr};
use std::pin::Pin;

use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

/// Where an app listens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The app's name without `.localhost`, e.g. `web.fix-login`.
    pub name: String,
    pub port: u16,
    /// The runner the app runs on; `None` is this machine.
    pub runner: Option<String>,
}

/// What a name is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    Found(Target),
    /// The name was an app that has since stopped.
    Stopped {
        name: String,
    },
    Unknown,
}

/// An app that runs now, as the pages of wrong names list it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    pub name: String,
    pub url: String,
}

/// A byte stream to an app: a TCP stream here, a runner's channel there.
pub trait Io: AsyncRead + AsyncWrite + Send + Unpin + 'static {}

impl<T: AsyncRead + AsyncWrite + Send + Unpin + 'static> Io for T {}

/// Why no connection to an app could be opened; each has its own page.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConnectError {
    /// Nothing listens on the port: the app is starting or has stopped.
    #[error("nothing listens on the app's port")]
    Refused,
    #[error("the runner {runner} is away: {reason}")]
    RunnerAway { runner: String, reason: String },
    #[error("{0}")]
    Other(String),
}

/// A connection being opened to an app.
pub type Connecting = Pin<Box<dyn Future<Output = Result<Box<dyn Io>, ConnectError>> + Send>>;

/// The proxy's view of the running apps.
pub trait Routes: Send + Sync + 'static {
    /// `name` is the Host without `.localhost` and port, e.g. `web.fix-login`.
    fn lookup(&self, name: &str) -> Lookup;
    /// What runs now, for the page a wrong name gets.
    fn running(&self) -> Vec<Listed>;
    /// A connection to the target: TCP to loopback for this machine
    /// ([`connect_local`]), a runner's channel for a runner.
    fn connect(&self, target: &Target) -> Connecting;
}

/// A TCP connection to `port` on this machine: 127.0.0.1 first, then `::1`,
/// since a dev server told to listen on `localhost` may have bound either.
pub async fn connect_local(port: u16) -> Result<Box<dyn Io>, ConnectError> {
    let stream = match TcpStream::connect((Ipv4Addr::LOCALHOST, port)).await {
        Ok(stream) => stream,
        Err(error) if error.kind() == ErrorKind::ConnectionRefused => {
            // Whatever `::1` answers (refused, or no IPv6 at all), the app
            // is not listening where it was said to.
            TcpStream::connect((Ipv6Addr::LOCALHOST, port))
                .await
                .map_err(|_| ConnectError::Refused)?
        }
        Err(error) => return Err(ConnectError::Other(error.to_string())),
    };
    // Small requests and replies (hot-reload messages, API calls) must not
    // wait for Nagle's timer.
    if let Err(error) = stream.set_nodelay(true) {
        tracing::debug!(%error, port, "could not set TCP_NODELAY towards an app");
    }
    Ok(Box::new(stream))
}
