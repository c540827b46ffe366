//! Pool runners for tests: `switchboard runner --connect` processes, each
//! in a user and mount namespace of its own (`unshare`) with a home of its
//! own, run as the separate local user `sbrunner` when the tests run as
//! root (as CI does), against a server whose `[listener]` binds an
//! ephemeral loopback port with its self-signed certificate.

// Each suite that includes this file uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::TestServer;

/// The local user pool runners run as, when the tests can switch to it.
pub const POOL_USER: &str = "sbrunner";

/// `[listener]` on an ephemeral loopback port, self-signed.
pub fn listener_toml() -> &'static str {
    "[listener]\naddress = \"127.0.0.1\"\nport = 0\n"
}

/// The server's listener, once bound, and a runner token for it.
pub struct Pool {
    pub url: String,
    pub fingerprint: String,
    pub token_id: String,
    pub token: String,
    /// Holds the token file.
    pub dir: tempfile::TempDir,
}

impl Pool {
    /// Waits for the listener and mints a token, as a user would: `switchboard runners token create`.
    pub fn open(server: &TestServer) -> Pool {
        let deadline = Instant::now() + Duration::from_secs(20);
        let listener = loop {
            let listener = server.call("GET", "/runners/listener", None).json();
            if listener["address"].is_string() {
                break listener;
            }
            assert!(
                Instant::now() < deadline,
                "the listener never bound: {listener}"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        let minted = server.call("POST", "/runners/tokens", Some(&json!({"name": "pool"})));
        assert_eq!(minted.status, 201, "{}", minted.text());
        let minted = minted.json();
        assert_eq!(minted["listener"]["fingerprint"], listener["fingerprint"]);
        let dir = tempfile::tempdir().unwrap();
        let token = minted["token"].as_str().unwrap().to_owned();
        let pool = Pool {
            url: format!("https://{}", listener["address"].as_str().unwrap()),
            fingerprint: listener["fingerprint"].as_str().unwrap().to_owned(),
            token_id: minted["id"].as_str().unwrap().to_owned(),
            token,
            dir,
        };
        pool.write_token(&pool.token);
        pool
    }

    pub fn token_file(&self) -> PathBuf {
        self.dir.path().join("runner-token")
    }

    /// Puts `token` in the file the runners read at each connection.
    pub fn write_token(&self, token: &str) {
        std::fs::write(self.token_file(), token).unwrap();
        open_to_all(self.dir.path());
    }

    pub fn start(&self, name: &str, extra: &[&str]) -> PoolRunner {
        let home = tempfile::tempdir().unwrap();
        if let Some((uid, gid)) = pool_user() {
            std::os::unix::fs::chown(home.path(), Some(uid), Some(gid)).unwrap();
        }
        let mut runner = PoolRunner {
            child: None,
            name: name.to_owned(),
            home,
            args: [
                "runner",
                "--connect",
                &self.url,
                "--token-file",
                self.token_file().to_str().unwrap(),
                "--ca-fingerprint",
                &self.fingerprint,
                "--name",
                name,
            ]
            .iter()
            .chain(extra)
            .map(|s| (*s).to_owned())
            .collect(),
        };
        runner.launch();
        runner
    }
}

/// Lets the pool user read the token file and what leads to it.
pub fn open_to_all(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
}

/// The pool user's ids, when this process may switch to it.
pub fn pool_user() -> Option<(u32, u32)> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return None;
    }
    let output = Command::new("id").args(["-u", POOL_USER]).output().ok()?;
    let uid = String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .ok()?;
    let output = Command::new("id").args(["-g", POOL_USER]).output().ok()?;
    let gid = String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .ok()?;
    Some((uid, gid))
}

pub struct PoolRunner {
    child: Option<Child>,
    pub name: String,
    pub home: tempfile::TempDir,
    args: Vec<String>,
}

impl PoolRunner {
    fn launch(&mut self) {
        let mut command = match pool_user() {
            Some(_) => {
                let mut c = Command::new("setpriv");
                c.args([
                    &format!("--reuid={POOL_USER}"),
                    &format!("--regid={POOL_USER}"),
                    "--init-groups",
                    "--",
                    "unshare",
                ]);
                c
            }
            None => Command::new("unshare"),
        };
        command
            .args(["--user", "--map-current-user", "--mount", "--"])
            .arg(crate::common::serve::binary())
            .args(&self.args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(self.log_path()).unwrap());
        self.child = Some(command.spawn().unwrap());
    }

    pub fn log_path(&self) -> PathBuf {
        // Beside the home, not in it: the runner's user owns the home.
        self.home.path().with_extension("log")
    }

    /// What the runner printed.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.log_path()).unwrap_or_default()
    }

    /// Ends the runner process at once, as a node lost or a pod deleted;
    /// the keepers of its turns go on.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the runner again, in new namespaces, with the same home.
    pub fn restart(&mut self) {
        self.kill();
        self.launch();
    }
}

impl Drop for PoolRunner {
    fn drop(&mut self) {
        self.kill();
        // Its turns' keepers and their engines, which outlive the runner:
        // only processes whose command line or environment names this
        // runner's home or one of its turns.
        let home = self.home.path().display().to_string();
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
                continue;
            };
            let read = |file: &str| std::fs::read(entry.path().join(file)).unwrap_or_default();
            let ours = [read("cmdline"), read("environ")]
                .iter()
                .any(|text| String::from_utf8_lossy(text).contains(&home));
            if ours && pid > 1 && pid != std::process::id() as i32 {
                // SAFETY: kill only reads its two integer arguments.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }
        let _ = std::fs::remove_file(self.log_path());
    }
}

/// `name` in `GET /runners`, once it is in `state`.
pub fn wait_for_runner(server: &TestServer, name: &str, state: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let list = server.call("GET", "/runners", None).json();
        if let Some(runner) = list
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name && r["state"] == state)
        {
            return runner.clone();
        }
        assert!(Instant::now() < deadline, "{name} never {state}: {list}");
        std::thread::sleep(Duration::from_millis(25));
    }
}
