//! The one place tests and benches start `switchboard serve`: its command line, the wait for
//! `server.json`, and where the started server listens. The benches include this file with
//! `#[path]`, so it uses nothing but std and serde_json.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_switchboard")
}

/// `switchboard serve` with `dir` as its data directory, on free loopback ports. Its stdout
/// (the login link) is discarded; callers add arguments (`--demo`) and choose where stderr goes.
pub fn serve_command(dir: &Path) -> Command {
    serve_command_on(dir, 0)
}

/// [`serve_command`] with the control server asked for `control_port`, for the tests of a port
/// that is already taken.
pub fn serve_command_on(dir: &Path, control_port: u16) -> Command {
    let mut command = Command::new(binary());
    command
        .args(["serve", "--control-port", &control_port.to_string()])
        .args(["--ui-port", "0", "--data-dir"])
        .arg(dir)
        .stdout(Stdio::null());
    command
}

/// Waits until `child` has written `DIR/server.json` and returns its content. The file names the
/// pid, so one an earlier server left behind does not count.
pub fn wait_for_server_file(dir: &Path, child: &Child) -> Value {
    let path = dir.join("server.json");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(text) = std::fs::read_to_string(&path)
            && let Ok(value) = serde_json::from_str::<Value>(&text)
            && value["pid"].as_u64() == Some(u64::from(child.id()))
        {
            return value;
        }
        assert!(Instant::now() < deadline, "server.json never appeared");
        // Short, because the start-up benchmark measures up to the moment this returns.
        std::thread::sleep(Duration::from_micros(200));
    }
}

/// Where a started server listens (`host:port`, no scheme) and the owner's cli token.
#[derive(Debug, Clone)]
pub struct Addresses {
    /// `None` when the control server is off (`cliServerEnabled` was false at launch).
    pub control: Option<String>,
    pub ui: String,
    pub token: String,
}

impl Addresses {
    /// Reads `DIR/server.json` and `DIR/cli-token` of a server that is up.
    pub fn read(dir: &Path) -> Self {
        let info: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("server.json")).expect("server.json"),
        )
        .expect("server.json is JSON");
        let address = |url: &Value| {
            url.as_str()
                .map(|u| u.trim_start_matches("http://").to_owned())
        };
        Self {
            control: address(&info["controlUrl"]),
            ui: address(&info["uiUrl"]).expect("server.json has uiUrl"),
            token: std::fs::read_to_string(dir.join("cli-token"))
                .expect("cli-token")
                .trim()
                .to_owned(),
        }
    }

    pub fn control(&self) -> &str {
        self.control.as_deref().expect("the control server is off")
    }
}
