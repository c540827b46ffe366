//! The IMAP watcher: keeps one connection to the inbox `emailInboundInboxId`
//! names, hands every new mail to the caller, then waits for the next with
//! IDLE when the server has it (renewed every 29 minutes, as RFC 2177 asks),
//! else polls every `poll_seconds`. A lost connection is made again after a
//! pause that doubles up to five minutes.
//!
//! A first start (no cursor saved) begins at the mailbox's UIDNEXT: only
//! mail arriving from then on is handed over, never the mailbox's history.
//! A changed UIDVALIDITY means the server renumbered the mailbox, so the
//! watcher starts over the same way; the ledger's Message-ID key keeps a
//! renumbered mail from being processed twice. The cursor moves past a
//! mail only once the caller's future for it has finished.
//!
//! The waits (poll, reconnect pause, I/O limits) run on real time, as the
//! repository's other network waits do.

use std::any::Any;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_imap::{Client, Session};
use futures_util::{FutureExt, TryStreamExt};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio::sync::watch;
use tokio_rustls::rustls::pki_types::ServerName;

use crate::book::{Cursor, Fetched, Mailbook};
use crate::config::{Inbox, Tls};
use crate::{MailError, Trust};

/// RFC 2177: a client should end IDLE and start it again within 29 minutes.
pub const IDLE_RENEW: Duration = Duration::from_secs(29 * 60);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
const COMMAND_TIMEOUT: Duration = Duration::from_secs(120);
const FIRST_RETRY: Duration = Duration::from_secs(1);
const LAST_RETRY: Duration = Duration::from_secs(300);

pub(crate) trait Io: AsyncRead + AsyncWrite + Unpin + Send + std::fmt::Debug {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send + std::fmt::Debug> Io for T {}
pub(crate) type Stream = Box<dyn Io>;

/// What the watcher is doing, for a status line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    Connecting,
    /// Connected and waiting with IDLE.
    Idling,
    /// Connected to a server without IDLE, asking every `poll_seconds`.
    Polling,
    /// The last attempt failed; the next one comes after a pause.
    Retrying {
        error: String,
    },
    Stopped,
}

impl Status {
    /// How the API words it: `connecting`, `idling`, `polling`,
    /// `retrying: <why>`, or `off` once stopped.
    pub fn label(&self) -> String {
        match self {
            Status::Connecting => "connecting".to_owned(),
            Status::Idling => "idling".to_owned(),
            Status::Polling => "polling".to_owned(),
            Status::Retrying { error } => format!("retrying: {error}"),
            Status::Stopped => "off".to_owned(),
        }
    }
}

pub struct Watcher {
    inbox: Inbox,
    password: String,
    trust: Trust,
    poll: Duration,
    book: Arc<Mailbook>,
    status: watch::Sender<Status>,
}

impl Watcher {
    /// `password` is the value of the saved key `inbox.account.imap`'s
    /// `password_key` names.
    pub fn new(
        inbox: Inbox,
        password: String,
        trust: Trust,
        poll: Duration,
        book: Arc<Mailbook>,
    ) -> Self {
        Self {
            inbox,
            password,
            trust,
            poll,
            book,
            status: watch::Sender::new(Status::Connecting),
        }
    }

    pub fn status(&self) -> watch::Receiver<Status> {
        self.status.subscribe()
    }

    /// Watches until `stop` turns true (or its sender is dropped), handing
    /// each new mail to `on_mail` in UID order.
    pub async fn run<F, Fut>(&self, mut on_mail: F, mut stop: watch::Receiver<bool>)
    where
        F: FnMut(Fetched) -> Fut,
        Fut: Future<Output = ()>,
    {
        let mut pause = FIRST_RETRY;
        // The session watches `stop` between commands; this copy also cuts
        // short a connection attempt or a command that is slow to answer.
        let mut stop_now = stop.clone();
        loop {
            let started = Instant::now();
            self.status.send_replace(Status::Connecting);
            // The IMAP library panics on some malformed replies (imap-proto
            // slices a reply's text by byte, found by fuzzing): that fails
            // this connection like any protocol error instead of ending the
            // watcher for good.
            let session = AssertUnwindSafe(self.session(&mut on_mail, &mut stop)).catch_unwind();
            let error = tokio::select! {
                outcome = session => match outcome {
                    Ok(Ok(())) => break,
                    Ok(Err(e)) => e,
                    Err(panic) => self.panicked(panic.as_ref()),
                },
                () = stopped(&mut stop_now) => break,
            };
            tracing::warn!(mailbox = %self.inbox.mailbox, "mail watcher: {error}");
            self.status.send_replace(Status::Retrying {
                error: error.to_string(),
            });
            if started.elapsed() > LAST_RETRY {
                pause = FIRST_RETRY;
            }
            tokio::select! {
                () = tokio::time::sleep(pause) => {}
                () = stopped(&mut stop) => break,
            }
            pause = (pause * 2).min(LAST_RETRY);
        }
        self.status.send_replace(Status::Stopped);
    }

    fn panicked(&self, panic: &(dyn Any + Send)) -> MailError {
        let imap = &self.inbox.account.imap;
        let what = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("no message");
        MailError::Protocol {
            server: format!("{}:{}", imap.host, imap.port),
            detail: format!("the IMAP client failed on the server's reply ({what})"),
        }
    }

    /// One connection, until stopped (`Ok`) or broken (`Err`).
    async fn session<F, Fut>(
        &self,
        on_mail: &mut F,
        stop: &mut watch::Receiver<bool>,
    ) -> Result<(), MailError>
    where
        F: FnMut(Fetched) -> Fut,
        Fut: Future<Output = ()>,
    {
        let imap = &self.inbox.account.imap;
        let server = format!("{}:{}", imap.host, imap.port);
        let client = connect(&self.trust, &imap.host, imap.port, imap.tls).await?;
        let username = imap.username.as_deref().unwrap_or_default();
        let mut session = limit(client.login(username, &self.password), &server)
            .await?
            .map_err(|(e, _)| MailError::Login {
                server: server.clone(),
                detail: e.to_string(),
            })?;
        let can_idle = limit(session.capabilities(), &server)
            .await??
            .has_str("IDLE");
        let selected = limit(session.select(&self.inbox.mailbox), &server).await??;
        let protocol = |detail: &str| MailError::Protocol {
            server: server.clone(),
            detail: detail.to_owned(),
        };
        let uid_validity = selected
            .uid_validity
            .ok_or_else(|| protocol("SELECT gave no UIDVALIDITY"))?;
        let account = self.inbox.account.address.as_str();
        let mailbox = self.inbox.mailbox.as_str();
        let mut cursor = match self.book.cursor(account, mailbox)? {
            Some(saved) if saved.uid_validity == uid_validity => saved,
            _ => {
                let fresh = Cursor {
                    uid_validity,
                    last_uid: selected.uid_next.unwrap_or(1).saturating_sub(1),
                };
                self.book.save_cursor(account, mailbox, fresh)?;
                fresh
            }
        };
        self.status.send_replace(if can_idle {
            Status::Idling
        } else {
            Status::Polling
        });
        loop {
            for (uid, raw) in fetch_after(&mut session, cursor.last_uid, &server).await? {
                if *stop.borrow() {
                    return Ok(());
                }
                on_mail(Fetched {
                    account: account.to_owned(),
                    mailbox: mailbox.to_owned(),
                    uid_validity,
                    uid,
                    raw,
                })
                .await;
                cursor.last_uid = uid;
                self.book.save_cursor(account, mailbox, cursor)?;
            }
            if can_idle {
                let mut idle = session.idle();
                limit(idle.init(), &server).await??;
                let woke = {
                    // Dropping the interrupt ends the wait: keep it alive.
                    let (wait, _interrupt) = idle.wait_with_timeout(IDLE_RENEW);
                    tokio::select! {
                        outcome = wait => Some(outcome?),
                        () = stopped(stop) => None,
                    }
                };
                session = limit(idle.done(), &server).await??;
                if woke.is_none() {
                    return logout(session, &server).await;
                }
            } else {
                tokio::select! {
                    () = tokio::time::sleep(self.poll) => {}
                    () = stopped(stop) => return logout(session, &server).await,
                }
                limit(session.noop(), &server).await??;
            }
        }
    }
}

/// Resolves once `stop` is true or its sender is gone.
async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|stopped| *stopped).await;
}

pub(crate) async fn limit<T>(work: impl Future<Output = T>, server: &str) -> Result<T, MailError> {
    tokio::time::timeout(COMMAND_TIMEOUT, work)
        .await
        .map_err(|_| MailError::Protocol {
            server: server.to_owned(),
            detail: format!("no answer in {} s", COMMAND_TIMEOUT.as_secs()),
        })
}

pub(crate) async fn logout(mut session: Session<Stream>, server: &str) -> Result<(), MailError> {
    limit(session.logout(), server).await??;
    Ok(())
}

/// The messages with a UID above `last_uid`, oldest first. `n:*` always
/// names the newest message even when its UID is below `n`, hence the
/// filter.
async fn fetch_after(
    session: &mut Session<Stream>,
    last_uid: u32,
    server: &str,
) -> Result<Vec<(u32, Vec<u8>)>, MailError> {
    let range = format!("{}:*", last_uid.saturating_add(1));
    let fetched: Vec<_> = limit(
        async {
            session
                .uid_fetch(&range, "(UID BODY.PEEK[])")
                .await?
                .try_collect::<Vec<_>>()
                .await
        },
        server,
    )
    .await??;
    let mut mails: Vec<(u32, Vec<u8>)> = fetched
        .iter()
        .filter_map(|f| Some((f.uid?, f.body()?.to_vec())))
        .filter(|(uid, _)| *uid > last_uid)
        .collect();
    mails.sort_by_key(|(uid, _)| *uid);
    Ok(mails)
}

/// A connected client past the greeting, over TLS unless `tls` is `None`.
pub(crate) async fn connect(
    trust: &Trust,
    host: &str,
    port: u16,
    tls: Tls,
) -> Result<Client<Stream>, MailError> {
    let server = format!("{host}:{port}");
    let tcp = tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect((host, port)))
        .await
        .map_err(|_| MailError::Connect {
            server: server.clone(),
            source: std::io::ErrorKind::TimedOut.into(),
        })?
        .map_err(|source| MailError::Connect {
            server: server.clone(),
            source,
        })?;
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

async fn greeting<T: AsyncRead + AsyncWrite + Unpin + Send + std::fmt::Debug>(
    client: &mut Client<T>,
    server: &str,
) -> Result<(), MailError> {
    match limit(client.read_response(), server).await? {
        Ok(Some(_)) => Ok(()),
        Ok(None) => Err(MailError::Protocol {
            server: server.to_owned(),
            detail: "closed the connection before its greeting".to_owned(),
        }),
        Err(source) => Err(MailError::Connect {
            server: server.to_owned(),
            source,
        }),
    }
}

async fn wrap(
    trust: &Trust,
    host: &str,
    tcp: TcpStream,
    server: &str,
) -> Result<tokio_rustls::client::TlsStream<TcpStream>, MailError> {
    let tls_error = |source: std::io::Error| MailError::Tls {
        server: server.to_owned(),
        source,
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
