//! The mail client's IMAP connections: logged in over TLS unless the
//! account says `none`, every command bounded in time, at most one command
//! connection per account ([`Pool`]), and raw commands whose completion
//! carries what async-imap does not return (COPYUID, the server's words).

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_imap::{Client, Session};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio_rustls::rustls::pki_types::ServerName;

use crate::ClientError;
use mail::{Server, Tls, Trust};

const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
const COMMAND_TIMEOUT: Duration = Duration::from_secs(120);

pub trait Io: AsyncRead + AsyncWrite + Unpin + Send + std::fmt::Debug {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send + std::fmt::Debug> Io for T {}
/// The byte stream under a session: plain TCP or TLS.
pub type Stream = Box<dyn Io>;
pub type ImapSession = Session<Stream>;

/// Where and as whom to log in.
#[derive(Debug, Clone)]
pub struct Login {
    pub server: Server,
    pub password: String,
    pub trust: Trust,
}

impl Login {
    pub fn label(&self) -> String {
        format!("{}:{}", self.server.host, self.server.port)
    }

    /// Connects and logs in; a refused login carries the server's words.
    pub async fn open(&self) -> Result<ImapSession, ClientError> {
        let label = self.label();
        let client = connect(
            &self.trust,
            &self.server.host,
            self.server.port,
            self.server.tls,
        )
        .await?;
        let username = self.server.username.as_deref().unwrap_or_default();
        limit(client.login(username, &self.password), &label)
            .await?
            .map_err(|(e, _)| {
                ClientError::Mail(mail::MailError::Login {
                    server: label.clone(),
                    detail: e.to_string(),
                })
            })
    }
}

/// Runs `work` within the command time limit.
pub async fn limit<T>(work: impl Future<Output = T>, server: &str) -> Result<T, ClientError> {
    tokio::time::timeout(COMMAND_TIMEOUT, work)
        .await
        .map_err(|_| ClientError::Protocol {
            server: server.to_owned(),
            detail: format!("no answer in {} s", COMMAND_TIMEOUT.as_secs()),
        })
}

async fn connect(
    trust: &Trust,
    host: &str,
    port: u16,
    tls: Tls,
) -> Result<Client<Stream>, ClientError> {
    let server = format!("{host}:{port}");
    let unreachable = |source: std::io::Error| {
        ClientError::Mail(mail::MailError::Connect {
            server: server.clone(),
            source,
        })
    };
    let tcp = tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect((host, port)))
        .await
        .map_err(|_| unreachable(std::io::ErrorKind::TimedOut.into()))?
        .map_err(unreachable)?;
    let mut client = match tls {
        Tls::None => Client::new(Box::new(tcp) as Stream),
        Tls::Implicit => Client::new(Box::new(wrap(trust, host, tcp, &server).await?) as Stream),
        Tls::Starttls => {
            let mut plain = Client::new(tcp);
            greeting(&mut plain, &server).await?;
            limit(plain.run_command_and_check_ok("STARTTLS", None), &server).await??;
            let tcp = plain.into_inner();
            return Ok(Client::new(
                Box::new(wrap(trust, host, tcp, &server).await?) as Stream,
            ));
        }
    };
    greeting(&mut client, &server).await?;
    Ok(client)
}

async fn greeting<T: Io>(client: &mut Client<T>, server: &str) -> Result<(), ClientError> {
    match limit(client.read_response(), server).await? {
        Ok(Some(_)) => Ok(()),
        Ok(None) => Err(ClientError::Protocol {
            server: server.to_owned(),
            detail: "closed the connection before its greeting".to_owned(),
        }),
        Err(source) => Err(ClientError::Mail(mail::MailError::Connect {
            server: server.to_owned(),
            source,
        })),
    }
}

async fn wrap(
    trust: &Trust,
    host: &str,
    tcp: TcpStream,
    server: &str,
) -> Result<tokio_rustls::client::TlsStream<TcpStream>, ClientError> {
    let tls_error = |source: std::io::Error| {
        ClientError::Mail(mail::MailError::Tls {
            server: server.to_owned(),
            source,
        })
    };
    let name = ServerName::try_from(host.to_owned()).map_err(|e| {
        tls_error(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            e.to_string(),
        ))
    })?;
    limit(trust.connector().connect(name, tcp), server)
        .await?
        .map_err(tls_error)
}

/// Reads responses to the command tagged `tag` up to its completion: the
/// untagged ones handed to `each`, then OK, or the server's words as
/// [`ClientError::Refused`].
pub async fn finish(
    session: &mut ImapSession,
    tag: &async_imap::imap_proto::RequestId,
    command: &str,
    server: &str,
    mut each: impl FnMut(&async_imap::imap_proto::Response<'_>),
) -> Result<(), ClientError> {
    use async_imap::imap_proto::{Response, Status};
    loop {
        let Some(response) = limit(session.read_response(), server)
            .await?
            .map_err(|e| ClientError::Imap(e.into()))?
        else {
            return Err(ClientError::Imap(async_imap::error::Error::ConnectionLost));
        };
        let parsed = response.parsed();
        each(parsed);
        if let Response::Done {
            tag: done,
            status,
            outcome,
        } = parsed
            && done == tag
        {
            return match status {
                Status::Ok => Ok(()),
                _ => Err(ClientError::Refused {
                    server: server.to_owned(),
                    command: command.to_owned(),
                    detail: outcome
                        .information
                        .as_deref()
                        .unwrap_or("no reason given")
                        .to_owned(),
                }),
            };
        }
    }
}

/// Runs `command` and waits for its completion, handing untagged
/// responses to `each`.
pub async fn run(
    session: &mut ImapSession,
    command: &str,
    server: &str,
    each: impl FnMut(&async_imap::imap_proto::Response<'_>),
) -> Result<(), ClientError> {
    let tag = limit(session.run_command(command), server).await??;
    let verb = command
        .split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    finish(session, &tag, &verb, server, each).await
}

/// A connection left unused this long is checked with NOOP before use.
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(60);

type Slot = Arc<tokio::sync::Mutex<Option<(ImapSession, std::time::Instant)>>>;

/// At most one command connection per account, reused while it works:
/// callers for one account wait their turn.
#[derive(Default)]
pub struct Pool {
    slots: Mutex<HashMap<String, Slot>>,
}

/// The account's connection, lent out until [`Checkout::keep`] gives it
/// back (dropped without that, it closes).
pub struct Checkout {
    guard: tokio::sync::OwnedMutexGuard<Option<(ImapSession, std::time::Instant)>>,
    session: ImapSession,
    pub label: String,
}

impl Pool {
    pub async fn checkout(&self, account: &str, login: &Login) -> Result<Checkout, ClientError> {
        let slot = {
            let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
            slots.entry(account.to_owned()).or_default().clone()
        };
        let mut guard = slot.lock_owned().await;
        let label = login.label();
        let session = match guard.take() {
            Some((mut session, used)) => {
                if used.elapsed() > STALE_AFTER
                    && !matches!(limit(session.noop(), &label).await, Ok(Ok(())))
                {
                    login.open().await?
                } else {
                    session
                }
            }
            None => login.open().await?,
        };
        // An earlier holder's unsolicited responses are of no use to this one.
        while session.unsolicited_responses.try_recv().is_ok() {}
        Ok(Checkout {
            guard,
            session,
            label,
        })
    }
}

impl Checkout {
    pub fn session(&mut self) -> &mut ImapSession {
        &mut self.session
    }

    /// Passes `outcome` on, keeping the connection for the next caller
    /// unless it failed (it may be mid-response or broken).
    pub fn keep<T>(mut self, outcome: Result<T, ClientError>) -> Result<T, ClientError> {
        if outcome.is_ok() {
            *self.guard = Some((self.session, std::time::Instant::now()));
        }
        outcome
    }
}
