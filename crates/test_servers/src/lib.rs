//! Real servers for tests: a child process that prints the port it chose
//! (Python's `http.server` on port 0, or any other), killed when dropped,
//! so no test hard-codes a port or leaves a server behind; and Python's
//! readers of office files, the second opinion on what Switchboard writes.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

mod python_readers;
mod webdav;

pub use python_readers::{python_with, run_python};
pub use webdav::{serve_webdav, wsgidav_program};

/// What `http.server` prints before the port: "Serving HTTP on 127.0.0.1
/// port 38123 (http://127.0.0.1:38123/) ...".
const HTTP_SERVER_PORT_MARKER: &str = " port ";

/// A server process with the port it said it listens on; dropping it kills
/// the process, however the test ends.
pub struct Server {
    pub port: u16,
    child: Child,
}

impl Server {
    /// Starts `command` with its stdout piped and waits for the line that
    /// holds `marker` followed by the port. Lines after it are read and
    /// dropped so the child never blocks on a full pipe.
    pub fn start(mut command: Command, marker: &str) -> Server {
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {command:?}: {error}"));
        let mut lines = BufReader::new(child.stdout.take().expect("stdout is piped")).lines();
        let port = loop {
            let line = match lines.next() {
                Some(Ok(line)) => line,
                Some(Err(error)) => panic!("reading {command:?}'s output: {error}"),
                None => panic!("{command:?} ended without printing {marker:?} and a port"),
            };
            if let Some((_, rest)) = line.split_once(marker) {
                break rest
                    .split_whitespace()
                    .next()
                    .and_then(|port| port.parse().ok())
                    .unwrap_or_else(|| panic!("no port after {marker:?} in {line:?}"));
            }
        };
        std::thread::spawn(move || lines.for_each(drop));
        Server { port, child }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `http://127.0.0.1:<port>/<path>`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}/{path}", self.port)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Python's `http.server` serving `directory` on 127.0.0.1, on a port of its
/// choosing.
pub fn serve_directory(directory: &Path) -> Server {
    serve_directory_with(directory, |_| {})
}

/// [`serve_directory`] with the command adjusted first (its environment,
/// say) by `adjust`. The command line is `python3 -u -m http.server 0
/// --bind 127.0.0.1 --directory <directory>`: unbuffered, so the port line
/// comes at once.
pub fn serve_directory_with(directory: &Path, adjust: impl FnOnce(&mut Command)) -> Server {
    let mut command = Command::new("python3");
    command
        .args(["-u", "-m", "http.server", "0", "--bind", "127.0.0.1"])
        .arg("--directory")
        .arg(directory);
    adjust(&mut command);
    Server::start(command, HTTP_SERVER_PORT_MARKER)
}
