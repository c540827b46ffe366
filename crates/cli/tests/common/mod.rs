//! A real `switchboard serve` on free loopback ports, and a raw HTTP/1.1
//! client that can send exactly the headers a test needs (including none).
#![allow(dead_code)]

pub mod calendar;
pub mod serve;
pub mod sse;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

pub use serve::binary;
use serve::{Addresses, serve_command, wait_for_server_file};

pub struct TestServer {
    pub dir: tempfile::TempDir,
    pub child: Option<Child>,
    pub control: Option<String>,
    pub ui: String,
    pub token: String,
    /// A folder outside the data directory that the test's engines may write
    /// (the sandbox hides the data directory from them), kept across restarts.
    pub scratch: Option<tempfile::TempDir>,
}

impl TestServer {
    /// Polls `GET /sessions/<id>` until the session reaches `wanted`, and returns it.
    pub fn wait_for_status(&self, id: &str, wanted: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let session = self.call("GET", &format!("/sessions/{id}"), None).json();
            if session["status"] == wanted {
                return session;
            }
            assert!(
                Instant::now() < deadline,
                "session {id} stuck at {}",
                session["status"]
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Signs a browser in through the owner's login link: the `Cookie`
    /// header value that the UI server's API then takes.
    pub fn browser_cookie(&self) -> String {
        let login = request(
            &self.ui,
            "GET",
            &format!("/login?token={}", self.token),
            &[],
            None,
        );
        login
            .header("set-cookie")
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .to_owned()
    }

    pub fn start() -> Self {
        let dir = tempfile::tempdir().unwrap();
        Self::start_in(dir)
    }

    pub fn start_in(dir: tempfile::TempDir) -> Self {
        Self::start_in_with(dir, &[])
    }

    /// [`TestServer::start`] with more `serve` arguments (the hidden test
    /// flags: `--manual-clock`, `--stream-keep-alive-ms`).
    pub fn start_with(args: &[&str]) -> Self {
        Self::start_in_with(tempfile::tempdir().unwrap(), args)
    }

    pub fn start_in_with(dir: tempfile::TempDir, args: &[&str]) -> Self {
        Self::start_in_with_env(dir, args, &[])
    }

    /// [`TestServer::start_in_with`] with environment variables for the
    /// server (a fake `HOME` for the sandbox tests).
    pub fn start_in_with_env(dir: tempfile::TempDir, args: &[&str], env: &[(&str, &Path)]) -> Self {
        let mut command = serve_command(dir.path());
        command.args(args).envs(env.iter().copied());
        // Not a pipe: one that nobody reads would stop the server once it filled up.
        command.stderr(Stdio::null());
        Self::start_command(dir, command)
    }

    /// A server that may hold only `limit` open files, soft and hard alike,
    /// so that it cannot raise its own.
    pub fn start_with_open_file_limit(dir: tempfile::TempDir, limit: u64) -> Self {
        use std::os::unix::process::CommandExt;
        let mut command = serve_command(dir.path());
        command.stderr(Stdio::null());
        // SAFETY: one system call on a local between fork and exec.
        unsafe {
            command.pre_exec(move || {
                let rlimit = libc::rlimit {
                    rlim_cur: limit,
                    rlim_max: limit,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &rlimit) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
        Self::start_command(dir, command)
    }

    /// A server whose log, at debug level, goes to the file `log`.
    pub fn start_logging(dir: tempfile::TempDir, args: &[&str], log: &Path) -> Self {
        let mut command = serve_command(dir.path());
        command
            .args(args)
            .env("RUST_LOG", "debug")
            .stderr(std::fs::File::create(log).unwrap());
        Self::start_command(dir, command)
    }

    fn start_command(dir: tempfile::TempDir, mut command: Command) -> Self {
        let child = command.spawn().unwrap();
        wait_for_server_file(dir.path(), &child);
        let Addresses { control, ui, token } = Addresses::read(dir.path());
        Self {
            control,
            ui,
            token,
            child: Some(child),
            dir,
            scratch: None,
        }
    }

    /// A `--demo` server whose demo engine and project folders live in the
    /// test's own scratch folder, not the user's cache.
    pub fn demo() -> Self {
        let scratch = tempfile::tempdir().unwrap();
        let server = Self::start_in_with_env(
            tempfile::tempdir().unwrap(),
            &["--demo"],
            &[("XDG_CACHE_HOME", scratch.path())],
        );
        server.keeping(scratch)
    }

    /// Keeps `scratch` (where the test's engines record what they saw) as long as this server.
    pub fn keeping(mut self, scratch: tempfile::TempDir) -> Self {
        self.scratch = Some(scratch);
        self
    }

    pub fn scratch(&self) -> &Path {
        self.scratch.as_ref().expect("no scratch folder").path()
    }

    pub fn control(&self) -> &str {
        self.control.as_deref().expect("control server is off")
    }

    pub fn data_dir(&self) -> &Path {
        self.dir.path()
    }

    /// Stops the server with SIGTERM and waits for it to exit.
    pub fn stop(&mut self) -> std::process::ExitStatus {
        let mut child = self.child.take().expect("already stopped");
        signal(&child, "TERM");
        wait_with_timeout(&mut child, Duration::from_secs(10))
    }

    /// Kills the server with SIGKILL, as a crash would.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Stops this server and starts another on the same data directory.
    pub fn restart(mut self) -> Self {
        if self.child.is_some() {
            self.stop();
        }
        let dir = std::mem::replace(&mut self.dir, tempfile::tempdir().unwrap());
        let scratch = self.scratch.take();
        let mut restarted = Self::start_in(dir);
        restarted.scratch = scratch;
        restarted
    }

    pub fn crash_and_restart(self) -> Self {
        self.crash_and_restart_with(&[])
    }

    /// SIGKILL, then a new server on the same data directory with `args`.
    pub fn crash_and_restart_with(mut self, args: &[&str]) -> Self {
        self.kill();
        let _ = std::fs::remove_file(self.dir.path().join("server.json"));
        let dir = std::mem::replace(&mut self.dir, tempfile::tempdir().unwrap());
        let scratch = self.scratch.take();
        let mut restarted = Self::start_in_with(dir, args);
        restarted.scratch = scratch;
        restarted
    }

    /// Runs the CLI as the owner would outside a session: found through this
    /// server's data directory, with no agent-session variables around.
    pub fn cli(&self, args: &[&str]) -> std::process::Output {
        Command::new(binary())
            .args(args)
            .arg("--data-dir")
            .arg(self.data_dir())
            .env_remove("APP_CONTROL_URL")
            .env_remove("APP_CLI_TOKEN")
            .env_remove("APP_SESSION_ID")
            .output()
            .unwrap()
    }

    /// A request to the control server with the owner's cli token.
    pub fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Reply {
        self.call_as(&self.token.clone(), method, path, body)
    }

    /// Starts a session as the owner does in the web UI (so not agent-driven):
    /// `POST /api/sessions` with the browser's cookie, answered as is.
    pub fn browser_spawn(&self, cookie: &str, body: &Value) -> Reply {
        request(
            &self.ui,
            "POST",
            "/api/sessions",
            &[("Cookie", cookie), ("Content-Type", "application/json")],
            Some(body.to_string().as_bytes()),
        )
    }

    /// [`TestServer::browser_spawn`] of `engine` with `prompt` that must
    /// succeed; returns the new session.
    pub fn browser_session(&self, engine: &str, prompt: &str) -> Value {
        let body = serde_json::json!({"engine": engine, "prompt": prompt});
        let reply = self.browser_spawn(&self.browser_cookie(), &body);
        assert_eq!(reply.status, 201, "{}", reply.text());
        reply.json()
    }

    /// Sets a setting as the owner; anything but 200 fails the test.
    pub fn set_setting(&self, key: &str, value: Value) {
        let reply = self.call(
            "PATCH",
            &format!("/settings/{key}"),
            Some(&serde_json::json!({ "value": value })),
        );
        assert_eq!(reply.status, 200, "{}", reply.text());
    }

    /// Turns the drives on and adds the WebDAV drive `main` at `url`.
    pub fn add_webdav_drive(&self, url: &str, username: &str, password: &str) {
        self.set_setting("driveEnabled", serde_json::json!(true));
        let added = self.call(
            "POST",
            "/drives",
            Some(&serde_json::json!({"kind": "webdav", "url": url, "username": username, "password": password})),
        );
        assert_eq!(added.status, 201, "{}", added.text());
    }

    pub fn call_as(&self, token: &str, method: &str, path: &str, body: Option<&Value>) -> Reply {
        let auth = format!("Bearer {token}");
        let mut headers = vec![("Authorization", auth.as_str())];
        let text = body.map(Value::to_string);
        if text.is_some() {
            headers.push(("Content-Type", "application/json"));
        }
        request(
            self.control(),
            method,
            path,
            &headers,
            text.as_deref().map(str::as_bytes),
        )
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        let running = self.child.is_some();
        self.kill();
        // A killed server leaves its cgroup parent behind, which only a next server on the same
        // data directory sweeps: a test's temporary one has none, and a developer's machine
        // gathered thousands of them, run after run, until the kernel refused new groups.
        if running {
            let trees = resources::Trees::for_data_dir(self.dir.path());
            trees.sweep(&|_| false);
            trees.close();
        }
    }
}

pub fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .args([format!("-{name}"), child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

pub fn wait_with_timeout(child: &mut Child, timeout: Duration) -> std::process::ExitStatus {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(Instant::now() < deadline, "process did not exit in time");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn error_code(&self) -> String {
        self.json()["error"]["code"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Sends one HTTP/1.1 request with `Host: <addr>` and the given headers.
pub fn request(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
) -> Reply {
    let host = format!("Host: {addr}\r\n");
    raw_request(addr, method, path, &host, headers, body)
}

/// Sends one request whose Host line is exactly `host_line` (which may be
/// empty, to send no Host at all).
pub fn raw_request(
    addr: &str,
    method: &str,
    path: &str,
    host_line: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
) -> Reply {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\n{host_line}Connection: close\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    if let Some(body) = body {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    if let Some(body) = body {
        // The server may answer (413) before reading everything.
        let _ = stream.write_all(body);
    }
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    parse_reply(&raw)
}

fn parse_reply(raw: &[u8]) -> Reply {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap();
    let status = status_line.split(' ').nth(1).unwrap().parse().unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    let chunked = headers
        .iter()
        .any(|(n, v)| n.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    if chunked {
        body = dechunk(&body);
    }
    Reply {
        status,
        headers,
        body,
    }
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(line_end) = data.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size = usize::from_str_radix(String::from_utf8_lossy(&data[..line_end]).trim(), 16)
            .unwrap_or(0);
        if size == 0 {
            return out;
        }
        let start = line_end + 2;
        out.extend_from_slice(&data[start..start + size]);
        data = &data[start + size + 2..];
    }
}

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The path of one of `crates/cli/tests/fixtures`, as engines.toml writes it.
pub fn fixture(name: &str) -> String {
    workspace_root()
        .join("crates/cli/tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

/// Writes `dir/engines.toml` with the `primary` engine the
/// `conversation-claude` fixture: Claude Code's stream-json, naming the
/// conversation it continued.
pub fn conversation_engine(dir: &Path) {
    std::fs::write(
        dir.join("engines.toml"),
        format!(
            "[engines.primary]\nkind = \"claude\"\ncommand = [\"/bin/sh\", {:?}]\n",
            fixture("conversation-claude")
        ),
    )
    .unwrap();
}

/// `engines.toml` with one `command` engine, `holder`, that records its
/// session's agent token in `scratch/token-<session id>` and then works
/// (sleeps), so a test can act as that session.
fn token_holder_engines(scratch: &Path) -> String {
    let holder = format!(
        "printf '%s' \"$APP_CLI_TOKEN\" > {}/token-$APP_SESSION_ID; exec sleep 300",
        scratch.display()
    );
    format!("[engines.holder]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {holder:?}]\n")
}

/// What an engine wrote to `path`, once it is there and not empty (the
/// engine runs beside the test).
pub fn written(path: &Path) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(text) = std::fs::read_to_string(path)
            && !text.is_empty()
        {
            return text;
        }
        assert!(
            Instant::now() < deadline,
            "{} was never written",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

impl TestServer {
    /// A server whose `holder` engine records each session's agent token;
    /// `prepare` writes what else the data directory needs before the start.
    pub fn with_token_holders(prepare: impl FnOnce(&Path)) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let scratch = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("engines.toml"),
            token_holder_engines(scratch.path()),
        )
        .unwrap();
        prepare(dir.path());
        Self::start_in_with(dir, &[]).keeping(scratch)
    }

    /// The agent token a `holder` session recorded.
    pub fn agent_token(&self, session_id: &str) -> String {
        written(&self.scratch().join(format!("token-{session_id}")))
    }

    /// Starts a `holder` session from the browser: its id and agent token.
    pub fn holder_session(&self) -> (String, String) {
        let session = self.browser_session("holder", "work");
        let id = session["id"].as_str().unwrap().to_owned();
        let token = self.agent_token(&id);
        (id, token)
    }
}

/// Runs git in `dir` with its author and defaults named in the command (no
/// global git config is read), failing the test when it fails; its trimmed stdout.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=Test", "-c", "user.email=test@example.com"])
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}
