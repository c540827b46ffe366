//! A real CalDAV server for the tests: Radicale (from PyPI, in
//! `target/radicale`, installed by `make calendar-deps`) run on a free
//! loopback port from a temporary folder, with htpasswd users and the
//! owner-only rights, plus the writes a calendar app would make on it
//! (MKCALENDAR, PUT, DELETE) to change the server under the sync.
//!
//! [`Radicale::start`] finds the interpreter (`SWITCHBOARD_RADICALE_PYTHON`,
//! else `target/radicale/bin/python`). When it cannot import radicale it
//! returns `None` after printing why, so the test can skip, unless
//! `SWITCHBOARD_CALENDAR_REQUIRED=1` (set by the Makefile), when it panics:
//! CI never skips.

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;

pub const USER: &str = "ada";
pub const PASSWORD: &str = "rig-secret-4711";
const READY_WITHIN: Duration = Duration::from_secs(20);

pub struct Radicale {
    dir: tempfile::TempDir,
    child: Child,
    pub port: u16,
    password: String,
}

impl Radicale {
    /// Starts Radicale, or says why it cannot run here (see the module doc).
    pub fn start() -> Option<Radicale> {
        let required = std::env::var("SWITCHBOARD_CALENDAR_REQUIRED").is_ok_and(|v| v == "1");
        let python = std::env::var_os("SWITCHBOARD_RADICALE_PYTHON")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/radicale/bin/python")
            });
        let importable = Command::new(&python)
            .args(["-c", "import radicale"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !importable {
            let what = format!("{} cannot import radicale", python.display());
            assert!(
                !required,
                "SWITCHBOARD_CALENDAR_REQUIRED=1 but {what} (run `make calendar-deps`)"
            );
            eprintln!("skipping the CalDAV server test: {what} (run `make calendar-deps`)");
            return None;
        }
        match Self::launch(&python) {
            Ok(rig) => Some(rig),
            Err(e) => panic!("Radicale did not start: {e}"),
        }
    }

    fn launch(python: &Path) -> Result<Radicale, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| e.to_string())?
            .port();
        let root = dir.path();
        std::fs::write(root.join("users"), format!("{USER}:{PASSWORD}\n"))
            .map_err(|e| e.to_string())?;
        let config = format!(
            "[server]\nhosts = 127.0.0.1:{port}\n\
             [auth]\ntype = htpasswd\nhtpasswd_filename = {users}\nhtpasswd_encryption = plain\n\
             htpasswd_cache = False\ncache_logins = False\ndelay = 0\n\
             [rights]\ntype = owner_only\npermit_delete_collection = True\n\
             [storage]\nfilesystem_folder = {storage}\n\
             [logging]\nlevel = warning\n",
            users = root.join("users").display(),
            storage = root.join("collections").display(),
        );
        std::fs::write(root.join("config"), config).map_err(|e| e.to_string())?;
        let log = std::fs::File::create(root.join("radicale.log")).map_err(|e| e.to_string())?;
        let child = Command::new(python)
            .args(["-m", "radicale", "--config"])
            .arg(root.join("config"))
            .stdin(Stdio::null())
            .stdout(log.try_clone().map_err(|e| e.to_string())?)
            .stderr(log)
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
        let mut rig = Radicale {
            dir,
            child,
            port,
            password: PASSWORD.to_owned(),
        };
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = rig.child.try_wait() {
                return Err(format!("it exited with {status}: {}", rig.log()));
            }
            if started.elapsed() > READY_WITHIN {
                return Err(format!(
                    "no listener within {READY_WITHIN:?}: {}",
                    rig.log()
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(rig)
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("radicale.log")).unwrap_or_default()
    }

    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    /// The URL of a path under the user's home (`work/` is a calendar).
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}/{USER}/{path}", self.port)
    }

    /// The user's password on the server from now on.
    pub fn set_password(&mut self, password: &str) {
        std::fs::write(
            self.dir.path().join("users"),
            format!("{USER}:{password}\n"),
        )
        .unwrap();
        self.password = password.to_owned();
    }

    fn request(&self, method: &str, path: &str, body: Option<(&str, &str)>) -> u16 {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .allow_non_standard_methods(true)
            .build()
            .into();
        let auth =
            base64::engine::general_purpose::STANDARD.encode(format!("{USER}:{}", self.password));
        let builder = ureq::http::Request::builder()
            .method(ureq::http::Method::from_bytes(method.as_bytes()).unwrap())
            .uri(self.url(path))
            .header("Authorization", format!("Basic {auth}"));
        let reply = match body {
            Some((kind, text)) => agent.run(
                builder
                    .header("Content-Type", kind)
                    .body(text.to_owned())
                    .unwrap(),
            ),
            None => agent.run(builder.body(()).unwrap()),
        };
        let status = reply.unwrap().status().as_u16();
        assert!(
            status < 300,
            "{method} {path} answered {status}: {}",
            self.log()
        );
        status
    }

    /// Makes the calendar `name` (a path segment) shown as `display`.
    pub fn make_calendar(&self, name: &str, display: &str) {
        let body = format!(
            r#"<?xml version="1.0" encoding="utf-8"?>
<c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:displayname>{display}</d:displayname><c:supported-calendar-component-set><c:comp name="VEVENT"/></c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>"#
        );
        self.request(
            "MKCALENDAR",
            &format!("{name}/"),
            Some(("application/xml", &body)),
        );
    }

    pub fn put(&self, path: &str, ics: &str) {
        self.request("PUT", path, Some(("text/calendar; charset=utf-8", ics)));
    }

    pub fn delete(&self, path: &str) {
        self.request("DELETE", path, None);
    }
}

impl Drop for Radicale {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A one-event calendar object.
pub fn event(uid: &str, summary: &str, start: &str, end: &str) -> String {
    format!(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//switchboard//tests//EN\r\nBEGIN:VEVENT\r\nUID:{uid}\r\nDTSTAMP:20260301T000000Z\r\nDTSTART:{start}\r\nDTEND:{end}\r\nSUMMARY:{summary}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )
}
