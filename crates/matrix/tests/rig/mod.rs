//! A real Matrix homeserver for the tests: Synapse (from PyPI, in
//! `target/pyenv`, pinned in tools/python/requirements.txt) run from a
//! temporary folder on a free loopback port, with SQLite, no federation
//! (no federation listener, no key servers), registration by shared secret
//! only, and a message rate limit low enough to hit.
//!
//! [`Synapse::start`] finds the interpreter (`SWITCHBOARD_SYNAPSE_PYTHON`,
//! else `target/pyenv/bin/python`). When it cannot import synapse it returns
//! `None` after printing why, so the test can skip, unless
//! `SWITCHBOARD_MATRIX_REQUIRED=1`, when it panics: CI never skips.
//!
//! The other side of each conversation (`bob`) is driven with plain HTTP.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const SHARED_SECRET: &str = "rig-registration-secret";
const READY_WITHIN: Duration = Duration::from_secs(60);

pub struct Synapse {
    dir: tempfile::TempDir,
    child: Child,
    python: PathBuf,
    pub port: u16,
}

impl Synapse {
    pub fn start() -> Option<Synapse> {
        let required = std::env::var("SWITCHBOARD_MATRIX_REQUIRED").is_ok_and(|v| v == "1");
        let python = std::env::var_os("SWITCHBOARD_SYNAPSE_PYTHON")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/pyenv/bin/python")
            });
        let importable = Command::new(&python)
            .args(["-c", "import synapse.app.homeserver"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !importable {
            let what = format!("{} cannot import synapse", python.display());
            assert!(!required, "SWITCHBOARD_MATRIX_REQUIRED=1 but {what}");
            eprintln!("skipping the Matrix homeserver test: {what}");
            return None;
        }
        match Self::launch(python) {
            Ok(rig) => Some(rig),
            Err(e) => panic!("Synapse did not start: {e}"),
        }
    }

    fn launch(python: PathBuf) -> Result<Synapse, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| e.to_string())?
            .port();
        let root = dir.path();
        let config = format!(
            "server_name: localhost
pid_file: {root}/homeserver.pid
listeners:
  - port: {port}
    bind_addresses: ['127.0.0.1']
    type: http
    tls: false
    resources:
      - names: [client]
        compress: false
database:
  name: sqlite3
  args:
    database: {root}/homeserver.db
log_config: {root}/log.yaml
media_store_path: {root}/media
signing_key_path: {root}/signing.key
registration_shared_secret: {SHARED_SECRET}
enable_registration: false
report_stats: false
federation_domain_whitelist: []
trusted_key_servers: []
suppress_key_server_warning: true
presence:
  enabled: false
rc_message:
  per_second: 0.5
  burst_count: 4
rc_login:
  address: {{per_second: 100, burst_count: 100}}
  account: {{per_second: 100, burst_count: 100}}
  failed_attempts: {{per_second: 100, burst_count: 100}}
",
            root = root.display()
        );
        std::fs::write(root.join("homeserver.yaml"), config).map_err(|e| e.to_string())?;
        std::fs::write(
            root.join("log.yaml"),
            "version: 1\nformatters:\n  plain:\n    format: '%(asctime)s %(name)s %(levelname)s %(message)s'\nhandlers:\n  console:\n    class: logging.StreamHandler\n    formatter: plain\nroot:\n  level: WARNING\n  handlers: [console]\ndisable_existing_loggers: false\n",
        )
        .map_err(|e| e.to_string())?;
        let config = root.join("homeserver.yaml");
        let keys = Command::new(&python)
            .args(["-m", "synapse.app.homeserver", "-c"])
            .arg(&config)
            .arg("--generate-keys")
            .output()
            .map_err(|e| e.to_string())?;
        if !keys.status.success() {
            return Err(String::from_utf8_lossy(&keys.stderr).into_owned());
        }
        let log = std::fs::File::create(root.join("synapse.log")).map_err(|e| e.to_string())?;
        let child = Command::new(&python)
            .args(["-m", "synapse.app.homeserver", "-c"])
            .arg(&config)
            .stdin(Stdio::null())
            .stdout(log.try_clone().map_err(|e| e.to_string())?)
            .stderr(log)
            .spawn()
            .map_err(|e| e.to_string())?;
        let mut rig = Synapse {
            dir,
            child,
            python,
            port,
        };
        let started = Instant::now();
        loop {
            if ureq::get(&format!("{}/health", rig.url()))
                .call()
                .is_ok_and(|r| r.status() == 200)
            {
                return Ok(rig);
            }
            if let Ok(Some(status)) = rig.child.try_wait() {
                return Err(format!("it exited with {status}: {}", rig.log()));
            }
            if started.elapsed() > READY_WITHIN {
                return Err(format!(
                    "not healthy within {READY_WITHIN:?}: {}",
                    rig.log()
                ));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("synapse.log")).unwrap_or_default()
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Registers a user through the shared secret, as an admin would.
    pub fn register(&self, user: &str, password: &str) {
        let status = Command::new(&self.python)
            .args(["-m", "synapse._scripts.register_new_matrix_user"])
            .args([
                "-u",
                user,
                "-p",
                password,
                "--no-admin",
                "-k",
                SHARED_SECRET,
            ])
            .arg(self.url())
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "registering {user}");
    }

    /// Signs `user` in over plain HTTP: the other side's token.
    pub fn token(&self, user: &str, password: &str) -> String {
        let answer = self.post(
            "/login",
            None,
            json!({"type": "m.login.password", "identifier": {"type": "m.id.user", "user": user}, "password": password}),
        );
        answer["access_token"].as_str().unwrap().to_owned()
    }

    pub fn post(&self, path: &str, token: Option<&str>, body: Value) -> Value {
        let mut request = ureq::post(&format!("{}/_matrix/client/v3{path}", self.url()));
        if let Some(token) = token {
            request = request.header("Authorization", &format!("Bearer {token}"));
        }
        request
            .send_json(body)
            .unwrap()
            .body_mut()
            .read_json()
            .unwrap()
    }

    pub fn put(&self, path: &str, token: &str, body: Value) -> Value {
        ureq::put(&format!("{}/_matrix/client/v3{path}", self.url()))
            .header("Authorization", &format!("Bearer {token}"))
            .send_json(body)
            .unwrap()
            .body_mut()
            .read_json()
            .unwrap()
    }

    pub fn get(&self, path: &str, token: &str) -> Value {
        ureq::get(&format!("{}/_matrix/client/v3{path}", self.url()))
            .header("Authorization", &format!("Bearer {token}"))
            .call()
            .unwrap()
            .body_mut()
            .read_json()
            .unwrap()
    }
}

impl Drop for Synapse {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A path segment percent-encoded (room ids hold `!` and `:`).
pub fn encode(text: &str) -> String {
    percent_encoding::utf8_percent_encode(text, percent_encoding::NON_ALPHANUMERIC).to_string()
}
