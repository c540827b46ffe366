//! A private system bus (the real `dbus-daemon` from Debian, on a socket in
//! a temporary folder) with a stand-in of systemd-logind's sleep inhibitors
//! on it, for the tests of `keepAwakeWhileSessionsRunning`.
//!
//! The stand-in answers `org.freedesktop.login1.Manager.Inhibit(what, who,
//! why, mode)` as logind does (src/login/logind-dbus.c, `method_inhibit`):
//! with the write end of a pipe, keeping the read end and holding the
//! inhibitor until that read end sees end of file, which is when the caller
//! and every copy of its descriptor are gone. [`Bus::inhibitors`] lists
//! each inhibitor asked for and whether it is still held. A bus started
//! with [`Bus::without_logind`] has nothing on it, as a machine with D-Bus
//! but no logind.
//!
//! Point the program under test at it with
//! `DBUS_SYSTEM_BUS_ADDRESS=`[`Bus::address`].

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// One inhibitor asked of the stand-in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inhibitor {
    pub what: String,
    pub who: String,
    pub why: String,
    pub mode: String,
    /// Whether the caller still holds it (its descriptor is open).
    pub held: bool,
}

type Ledger = Arc<Mutex<Vec<Inhibitor>>>;

/// The private bus; dropping it stops the stand-in and the daemon.
pub struct Bus {
    daemon: Child,
    address: String,
    ledger: Ledger,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    logind: Option<std::thread::JoinHandle<()>>,
    _dir: tempfile::TempDir,
}

struct Manager {
    ledger: Ledger,
}

#[zbus::interface(name = "org.freedesktop.login1.Manager")]
impl Manager {
    fn inhibit(
        &self,
        what: String,
        who: String,
        why: String,
        mode: String,
    ) -> zbus::fdo::Result<zbus::zvariant::OwnedFd> {
        let (mut reader, writer) =
            std::io::pipe().map_err(|e| zbus::fdo::Error::Failed(e.to_string()))?;
        let index = {
            let mut ledger = self.ledger.lock().unwrap_or_else(PoisonError::into_inner);
            ledger.push(Inhibitor {
                what,
                who,
                why,
                mode,
                held: true,
            });
            ledger.len() - 1
        };
        let ledger = Arc::clone(&self.ledger);
        std::thread::spawn(move || {
            let mut buffer = [0u8; 64];
            while matches!(reader.read(&mut buffer), Ok(n) if n > 0) {}
            if let Some(inhibitor) = ledger
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_mut(index)
            {
                inhibitor.held = false;
            }
        });
        Ok(std::os::fd::OwnedFd::from(writer).into())
    }
}

const CONFIG: &str = r#"<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=SOCKET</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
"#;

impl Bus {
    /// A bus with the logind stand-in on it.
    pub fn start() -> std::io::Result<Self> {
        Self::launch(true)
    }

    /// A bus with no logind.
    pub fn without_logind() -> std::io::Result<Self> {
        Self::launch(false)
    }

    fn launch(with_logind: bool) -> std::io::Result<Self> {
        let dir = tempfile::tempdir()?;
        let socket = dir.path().join("system_bus_socket");
        let config = dir.path().join("bus.conf");
        std::fs::write(
            &config,
            CONFIG.replace("SOCKET", &socket.display().to_string()),
        )?;
        let daemon = Command::new("dbus-daemon")
            .arg(format!("--config-file={}", config.display()))
            .arg("--nofork")
            .arg("--nopidfile")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()?;
        let address = format!("unix:path={}", socket.display());
        let mut bus = Self {
            daemon,
            address,
            ledger: Ledger::default(),
            stop: None,
            logind: None,
            _dir: dir,
        };
        wait_for(&socket)?;
        if with_logind {
            bus.serve_logind()?;
        }
        Ok(bus)
    }

    fn serve_logind(&mut self) -> std::io::Result<()> {
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (ready, is_ready) = std::sync::mpsc::channel::<Result<(), String>>();
        let address = self.address.clone();
        let ledger = Arc::clone(&self.ledger);
        let thread = std::thread::spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(runtime) => runtime,
                Err(e) => {
                    let _ = ready.send(Err(e.to_string()));
                    return;
                }
            };
            runtime.block_on(async move {
                let connection = async {
                    zbus::connection::Builder::address(address.as_str())?
                        .name("org.freedesktop.login1")?
                        .serve_at("/org/freedesktop/login1", Manager { ledger })?
                        .build()
                        .await
                }
                .await;
                match connection {
                    Ok(_connection) => {
                        let _ = ready.send(Ok(()));
                        let _ = stopped.await;
                    }
                    Err(e) => {
                        let _ = ready.send(Err(e.to_string()));
                    }
                }
            });
        });
        self.stop = Some(stop);
        self.logind = Some(thread);
        is_ready
            .recv_timeout(Duration::from_secs(10))
            .map_err(|e| std::io::Error::other(format!("logind stand-in: {e}")))?
            .map_err(std::io::Error::other)
    }

    /// The bus's address, for `DBUS_SYSTEM_BUS_ADDRESS`.
    pub fn address(&self) -> &str {
        &self.address
    }

    /// Every inhibitor asked for so far, oldest first.
    pub fn inhibitors(&self) -> Vec<Inhibitor> {
        self.ledger
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The inhibitors held now.
    pub fn held(&self) -> Vec<Inhibitor> {
        self.inhibitors().into_iter().filter(|i| i.held).collect()
    }
}

/// Until the daemon accepts connections: its socket file appears when it
/// binds, a moment before it listens.
fn wait_for(socket: &Path) -> std::io::Result<()> {
    let deadline = Instant::now() + Duration::from_secs(10);
    while std::os::unix::net::UnixStream::connect(socket).is_err() {
        if Instant::now() > deadline {
            return Err(std::io::Error::other(
                "dbus-daemon did not listen within 10 s",
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(())
}

impl Drop for Bus {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.logind.take() {
            let _ = thread.join();
        }
        let _ = self.daemon.kill();
        let _ = self.daemon.wait();
    }
}
