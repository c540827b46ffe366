//! The control and UI ports: those of the Switchboard serving this data
//! directory (from `server.json`), else those `switchboard serve` would bind,
//! and whether another program holds them.

use std::path::Path;

use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;
use utoipa::ToSchema;

/// Where the ports to look at come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listeners<'a> {
    /// This very process serves the data directory at these base URLs
    /// (`http://127.0.0.1:<port>`; no control URL: the control server is
    /// off).
    Serving {
        control_url: Option<&'a str>,
        ui_url: &'a str,
    },
    /// Whichever Switchboard runs on the data directory says in its
    /// `server.json`; without one, `serve` would bind these.
    Expected { control: u16, ui: u16 },
}

#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Ports {
    /// The process serving this data directory; `null` when none runs.
    pub server_pid: Option<u32>,
    pub control: Port,
    pub ui: Port,
    /// The pid of a server that left `server.json` behind and no longer
    /// runs (it did not shut down cleanly).
    pub stale_server_pid: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Port {
    /// `null` when the listener is off.
    pub port: Option<u16>,
    pub state: PortState,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PortState {
    /// Switchboard serves it, for this data directory.
    Switchboard,
    /// Nothing listens: `serve` can bind it.
    Free,
    /// Another program (or a Switchboard of another data directory) holds it.
    InUse,
    /// The control server is turned off (setting `cliServerEnabled`).
    Off,
}

impl Ports {
    pub(crate) fn warnings(&self) -> Vec<String> {
        let mut warnings = Vec::new();
        for (port, listener, flag) in [
            (&self.control, "control server", "--control-port"),
            (&self.ui, "UI server", "--ui-port"),
        ] {
            if let (PortState::InUse, Some(number)) = (port.state, port.port) {
                warnings.push(format!(
                    "Port {number} ({listener}) is in use by another program: `switchboard serve` \
                     would not start; choose another with {flag}."
                ));
            }
        }
        if let Some(pid) = self.stale_server_pid {
            warnings.push(format!(
                "server.json names process {pid}, which no longer serves it (the server did not \
                 shut down cleanly); the next `switchboard serve` replaces it."
            ));
        }
        warnings
    }
}

pub(crate) fn examine(data_dir: &Path, listeners: Listeners<'_>) -> Ports {
    let (control, ui) = match listeners {
        Listeners::Serving {
            control_url,
            ui_url,
        } => {
            let serving = |port: Option<u16>| Port {
                port,
                state: port.map_or(PortState::Off, |_| PortState::Switchboard),
            };
            return Ports {
                server_pid: Some(std::process::id()),
                control: serving(control_url.and_then(sessions::port_of)),
                ui: serving(sessions::port_of(ui_url)),
                stale_server_pid: None,
            };
        }
        Listeners::Expected { control, ui } => (control, ui),
    };
    let mut stale_server_pid = None;
    if let Some(server) = ServerFile::read(data_dir) {
        let served = |port: Option<u16>| port.is_none_or(|p| !free(p));
        if alive(server.pid) && served(server.control) && served(Some(server.ui)) {
            return Ports {
                server_pid: Some(server.pid),
                control: Port {
                    port: server.control,
                    state: server
                        .control
                        .map_or(PortState::Off, |_| PortState::Switchboard),
                },
                ui: Port {
                    port: Some(server.ui),
                    state: PortState::Switchboard,
                },
                stale_server_pid: None,
            };
        }
        stale_server_pid = Some(server.pid);
    }
    let expected = |port: u16| Port {
        port: Some(port),
        state: if free(port) {
            PortState::Free
        } else {
            PortState::InUse
        },
    };
    Ports {
        server_pid: None,
        control: expected(control),
        ui: expected(ui),
        stale_server_pid,
    }
}

/// What `DIR/server.json` says.
struct ServerFile {
    pid: u32,
    control: Option<u16>,
    ui: u16,
}

impl ServerFile {
    fn read(data_dir: &Path) -> Option<Self> {
        let text = std::fs::read_to_string(data_dir.join("server.json")).ok()?;
        let value: Value = serde_json::from_str(&text).ok()?;
        Some(Self {
            pid: u32::try_from(value["pid"].as_u64()?).ok()?,
            control: value["controlUrl"].as_str().and_then(sessions::port_of),
            ui: sessions::port_of(value["uiUrl"].as_str()?)?,
        })
    }
}

/// Whether a process with this id exists (a signal 0 reaches it, or exists
/// but is not ours to signal).
fn alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only checks that the process exists.
    pid > 0
        && (unsafe { libc::kill(pid, 0) } == 0
            || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM))
}

/// Whether `serve` could bind the port on 127.0.0.1 now.
fn free(port: u16) -> bool {
    std::net::TcpListener::bind(("127.0.0.1", port)).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listening_port_is_in_use_and_a_closed_one_free() {
        let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        let dir = tempfile::tempdir().unwrap();
        let look = || {
            let expected = Listeners::Expected {
                control: port,
                ui: 0,
            };
            examine(dir.path(), expected)
        };
        let ports = look();
        assert_eq!(ports.control.state, PortState::InUse);
        assert_eq!(ports.ui.state, PortState::Free);
        assert_eq!(ports.server_pid, None);
        assert!(ports.warnings()[0].contains(&port.to_string()));
        drop(listener);
        assert_eq!(look().control.state, PortState::Free);
    }

    #[test]
    fn a_server_file_of_a_live_server_names_its_ports() {
        let control = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let ui = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let (c, u) = (
            control.local_addr().unwrap().port(),
            ui.local_addr().unwrap().port(),
        );
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("server.json");
        let write = |pid: u32, control: Value| {
            let body = serde_json::json!({
                "pid": pid, "controlUrl": control, "uiUrl": format!("http://127.0.0.1:{u}")
            });
            std::fs::write(&file, body.to_string()).unwrap();
        };
        let expected = Listeners::Expected {
            control: 19519,
            ui: 19520,
        };
        write(std::process::id(), format!("http://127.0.0.1:{c}").into());
        let ports = examine(dir.path(), expected);
        assert_eq!(ports.server_pid, Some(std::process::id()));
        assert_eq!(ports.control.port, Some(c));
        assert_eq!(ports.control.state, PortState::Switchboard);
        assert_eq!(ports.ui.state, PortState::Switchboard);

        write(std::process::id(), Value::Null);
        let ports = examine(dir.path(), expected);
        assert_eq!(ports.control.state, PortState::Off);
        assert_eq!(ports.control.port, None);

        // A pid no process has: the file outlived its server.
        write(u32::MAX >> 2, Value::Null);
        let ports = examine(dir.path(), expected);
        assert_eq!(ports.server_pid, None);
        assert_eq!(ports.stale_server_pid, Some(u32::MAX >> 2));
        assert_eq!(ports.control.port, Some(19519));
    }
}
