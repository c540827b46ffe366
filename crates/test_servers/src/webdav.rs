//! A real WebDAV server for tests: WsgiDAV (from PyPI, in `target/pyenv`,
//! installed by `make py-deps`) sharing a folder read-write on a free
//! loopback port, behind Basic authentication with one user.
//!
//! When WsgiDAV is not installed [`serve_webdav`] prints why and returns
//! `None`, so the test can skip, unless `SWITCHBOARD_DRIVES_REQUIRED=1`,
//! when it panics: CI never skips.

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::Server;

/// What WsgiDAV prints (on stdout, through cheroot) once it listens.
const READY_MARKER: &str = "Serving on http://127.0.0.1:";
const READY_WITHIN: Duration = Duration::from_secs(20);

/// The `wsgidav` program: `SWITCHBOARD_WSGIDAV`, else the workspace's
/// `target/pyenv/bin/wsgidav`.
pub fn wsgidav_program() -> PathBuf {
    std::env::var_os("SWITCHBOARD_WSGIDAV")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/pyenv/bin/wsgidav")
        })
}

/// Serves `dir/root` (created) over WebDAV to `user` with `password`; the
/// server's configuration is written to `dir/wsgidav.json`. `None` (after
/// saying why) when WsgiDAV is missing and not required.
pub fn serve_webdav(dir: &Path, user: &str, password: &str) -> Option<Server> {
    let program = wsgidav_program();
    if !program.is_file() {
        let what = format!("{} is missing (run `make py-deps`)", program.display());
        assert!(
            std::env::var("SWITCHBOARD_DRIVES_REQUIRED").as_deref() != Ok("1"),
            "SWITCHBOARD_DRIVES_REQUIRED=1 but {what}"
        );
        eprintln!("skipping the WebDAV server test: {what}");
        return None;
    }
    let root = dir.join("root");
    std::fs::create_dir_all(&root).expect("the share's folder can be made");
    // WsgiDAV prints the port it was given, not the one it got: choose one.
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free loopback port")
        .port();
    let config = format!(
        r#"{{"host": "127.0.0.1", "port": {port},
  "provider_mapping": {{"/": {{"root": {root:?}, "readonly": false}}}},
  "http_authenticator": {{"domain_controller": null, "accept_basic": true,
    "accept_digest": false, "default_to_digest": false}},
  "simple_dc": {{"user_mapping": {{"*": {{{user:?}: {{"password": {password:?}}}}}}}}},
  "dir_browser": {{"enable": false}},
  "lock_storage": true,
  "verbose": 3}}"#,
        root = root.display().to_string(),
    );
    let config_file = dir.join("wsgidav.json");
    std::fs::write(&config_file, config).expect("the server's configuration can be written");
    let mut command = Command::new(program);
    command.arg("--config").arg(&config_file);
    let server = Server::start(command, READY_MARKER);
    // cheroot prints the line a moment before it accepts connections.
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < READY_WITHIN,
            "WsgiDAV took no connection within {READY_WITHIN:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    Some(server)
}
