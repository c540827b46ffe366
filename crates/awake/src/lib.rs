//! Keeps the machine awake while sessions run (`keepAwakeWhileSessionsRunning`,
//! docs/resources.md): a sleep inhibitor taken from systemd-logind over the
//! system D-Bus, exactly as `systemd-inhibit --what=sleep --mode=block`
//! takes one. logind answers `Inhibit` with the write end of a FIFO and
//! holds the inhibitor until every copy of that descriptor is closed, so
//! an [`Inhibitor`] is released by dropping it, and a server that dies
//! releases it with its descriptors: nothing can be left holding the
//! machine awake.
//!
//! The system bus is the one `DBUS_SYSTEM_BUS_ADDRESS` names, else
//! `/run/dbus/system_bus_socket` (zbus reads both as libdbus does).
//!
//! ```no_run
//! # async fn run() -> Result<(), awake::Error> {
//! let logind = awake::Logind::connect().await?;
//! let held = logind.inhibit("Switchboard", "agent sessions are running").await?;
//! drop(held); // the machine may sleep again
//! # Ok(()) }
//! ```

use std::os::fd::OwnedFd;
use std::time::Duration;

const LOGIND: &str = "org.freedesktop.login1";

/// How long a question to the bus may take before logind is called absent:
/// a wedged bus must not hold up a session's start or the doctor.
const ANSWER_WITHIN: Duration = Duration::from_secs(3);

#[zbus::proxy(
    interface = "org.freedesktop.login1.Manager",
    default_service = "org.freedesktop.login1",
    default_path = "/org/freedesktop/login1",
    gen_blocking = false
)]
trait Manager {
    fn inhibit(
        &self,
        what: &str,
        who: &str,
        why: &str,
        mode: &str,
    ) -> zbus::Result<zbus::zvariant::OwnedFd>;
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("no system D-Bus: {0}")]
    NoBus(String),
    #[error("no logind on the system bus (nothing owns or activates {LOGIND})")]
    NoLogind,
    #[error("logind refused the inhibitor: {0}")]
    Refused(String),
    #[error("the system bus did not answer within {} s", ANSWER_WITHIN.as_secs())]
    Timeout,
}

/// A connection to logind on the system bus.
#[derive(Clone)]
pub struct Logind {
    connection: zbus::Connection,
}

/// A held sleep inhibitor; dropping it releases it.
#[derive(Debug)]
pub struct Inhibitor {
    _fifo: OwnedFd,
}

impl Logind {
    /// Connects to the system bus and checks that logind is there (running,
    /// or activatable on first call as the bus may start it).
    pub async fn connect() -> Result<Self, Error> {
        within(async {
            let connection = zbus::Connection::system()
                .await
                .map_err(|e| Error::NoBus(e.to_string()))?;
            let bus = zbus::fdo::DBusProxy::new(&connection)
                .await
                .map_err(|e| Error::NoBus(e.to_string()))?;
            let name =
                zbus::names::BusName::try_from(LOGIND).map_err(|e| Error::NoBus(e.to_string()))?;
            let running = bus
                .name_has_owner(name)
                .await
                .map_err(|e| Error::NoBus(e.to_string()))?;
            let activatable = running
                || bus
                    .list_activatable_names()
                    .await
                    .map_err(|e| Error::NoBus(e.to_string()))?
                    .iter()
                    .any(|n| n.as_str() == LOGIND);
            if activatable {
                Ok(Self { connection })
            } else {
                Err(Error::NoLogind)
            }
        })
        .await
    }

    /// Takes a `sleep` inhibitor in `block` mode: logind refuses to suspend
    /// or hibernate (idle or asked) until it is released. The display may
    /// still sleep; that is `idle`, which is not asked for.
    pub async fn inhibit(&self, who: &str, why: &str) -> Result<Inhibitor, Error> {
        within(async {
            let manager = ManagerProxy::new(&self.connection)
                .await
                .map_err(|e| Error::Refused(e.to_string()))?;
            let fifo = manager
                .inhibit("sleep", who, why, "block")
                .await
                .map_err(|e| Error::Refused(e.to_string()))?;
            Ok(Inhibitor { _fifo: fifo.into() })
        })
        .await
    }
}

async fn within<T>(
    answer: impl std::future::Future<Output = Result<T, Error>>,
) -> Result<T, Error> {
    tokio::time::timeout(ANSWER_WITHIN, answer)
        .await
        .unwrap_or(Err(Error::Timeout))
}

/// Whether a sleep inhibitor could be taken here, for callers with no
/// runtime of their own (the doctor): asked on a thread of its own, so it
/// works inside or outside one.
pub fn probe() -> Result<(), Error> {
    std::thread::spawn(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Error::NoBus(e.to_string()))?;
        runtime.block_on(Logind::connect()).map(drop)
    })
    .join()
    .unwrap_or_else(|_| Err(Error::NoBus("the probe's thread panicked".into())))
}
