//! A real OpenSSH server on a loopback port, logged into as a separate
//! local user with a home of its own, so the "remote" runner host sees
//! another `$HOME` and another user's files. Needs root (to run sshd and
//! add the user) and Debian's openssh-server (`make ssh-deps`).
// Shared by the runner tests and the engines suite, which use different parts.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Sshd {
    dir: tempfile::TempDir,
    child: Option<Child>,
    pub port: u16,
    pub user: String,
    pub home: PathBuf,
    pub alias: String,
}

const SSHD: &str = "/usr/sbin/sshd";

impl Sshd {
    /// `None` (with a line on stderr) where the rig cannot run, unless
    /// `SWITCHBOARD_SSH_REQUIRED` says it must.
    pub fn start(user: &str) -> Option<Sshd> {
        let missing = if !Path::new(SSHD).exists() {
            Some("sshd is not installed (make ssh-deps)")
        } else if unsafe { libc::geteuid() } != 0 {
            Some("the runner tests run sshd as root")
        } else {
            None
        };
        if let Some(why) = missing {
            assert!(
                std::env::var_os("SWITCHBOARD_SSH_REQUIRED").is_none(),
                "SWITCHBOARD_SSH_REQUIRED is set but {why}"
            );
            eprintln!("skipped: {why}");
            return None;
        }
        ensure_user(user);
        let home = PathBuf::from(
            String::from_utf8(run(
                Command::new("sh").args(["-c", &format!("getent passwd {user} | cut -d: -f6")])
            ))
            .unwrap()
            .trim(),
        );
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        keygen(&d.join("host_key"));
        keygen(&d.join("client_key"));
        std::fs::copy(d.join("client_key.pub"), d.join("authorized_keys")).unwrap();
        let port = free_port();
        let alias = format!("sb-{port}");
        std::fs::write(
            d.join("sshd_config"),
            format!(
                "Port {port}\nListenAddress 127.0.0.1\nHostKey {hk}\nAuthorizedKeysFile {ak}\n\
                 StrictModes no\nUsePAM no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n\
                 PubkeyAuthentication yes\nAllowUsers {user}\nAllowTcpForwarding yes\nPidFile none\n\
                 LogLevel ERROR\n",
                hk = d.join("host_key").display(),
                ak = d.join("authorized_keys").display(),
            ),
        )
        .unwrap();
        let host_key = std::fs::read_to_string(d.join("host_key.pub")).unwrap();
        let key: Vec<&str> = host_key.split_whitespace().take(2).collect();
        std::fs::write(
            d.join("known_hosts"),
            format!("[127.0.0.1]:{port} {} {}\n", key[0], key[1]),
        )
        .unwrap();
        std::fs::write(d.join("empty_known_hosts"), "").unwrap();
        keygen(&d.join("other_host_key"));
        let other = std::fs::read_to_string(d.join("other_host_key.pub")).unwrap();
        let other: Vec<&str> = other.split_whitespace().take(2).collect();
        std::fs::write(
            d.join("changed_known_hosts"),
            format!("[127.0.0.1]:{port} {} {}\n", other[0], other[1]),
        )
        .unwrap();
        let mut sshd = Sshd {
            dir,
            child: None,
            port,
            user: user.to_owned(),
            home,
            alias,
        };
        for (file, known) in [
            ("ssh_config", "known_hosts"),
            ("ssh_config_unknown", "empty_known_hosts"),
            ("ssh_config_changed", "changed_known_hosts"),
        ] {
            sshd.write_client_config(file, known);
        }
        sshd.restart();
        Some(sshd)
    }

    fn write_client_config(&self, file: &str, known: &str) {
        let d = self.dir.path();
        std::fs::write(
            d.join(file),
            format!(
                "Host {alias}\n  HostName 127.0.0.1\n  Port {port}\n  User {user}\n  IdentityFile {key}\n  \
                 IdentitiesOnly yes\n  UserKnownHostsFile {known}\n  StrictHostKeyChecking yes\n  \
                 GlobalKnownHostsFile /dev/null\n",
                alias = self.alias,
                port = self.port,
                user = self.user,
                key = d.join("client_key").display(),
                known = d.join(known).display(),
            ),
        )
        .unwrap();
    }

    /// The client configuration that knows this host's key.
    pub fn config(&self) -> PathBuf {
        self.dir.path().join("ssh_config")
    }

    /// One whose known hosts are empty: ssh must refuse the unknown key.
    pub fn config_with_unknown_key(&self) -> PathBuf {
        self.dir.path().join("ssh_config_unknown")
    }

    /// One that knows another key for this host: ssh must refuse.
    pub fn config_with_changed_key(&self) -> PathBuf {
        self.dir.path().join("ssh_config_changed")
    }

    /// Kills the listener and every connection's sshd, as a network that
    /// went away: the connections drop, the user's processes live on.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let root = child.id();
            for pid in descendants(root) {
                let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
                if comm.trim() == "sshd" {
                    unsafe { libc::kill(pid as i32, libc::SIGKILL) };
                }
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    pub fn restart(&mut self) {
        self.kill();
        std::fs::create_dir_all("/run/sshd").unwrap();
        let log = std::fs::File::create(self.dir.path().join("sshd.log")).unwrap();
        let child = Command::new(SSHD)
            .args(["-D", "-e", "-f"])
            .arg(self.dir.path().join("sshd_config"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap();
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "sshd did not listen: {}",
                std::fs::read_to_string(self.dir.path().join("sshd.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Hands everything under the runner user's home back to that user
    /// (after the test wrote files there as root).
    pub fn give_home(&self) {
        run(Command::new("chown")
            .arg("-R")
            .arg(format!("{0}:{0}", self.user))
            .arg(&self.home));
    }

    /// Runs `script` as the runner's user, for assertions on its files.
    pub fn as_user(&self, script: &str) -> String {
        String::from_utf8_lossy(&run(
            Command::new("runuser").args(["-u", &self.user, "--", "sh", "-c", script])
        ))
        .into_owned()
    }
}

impl Drop for Sshd {
    fn drop(&mut self) {
        self.kill();
    }
}

fn ensure_user(user: &str) {
    // The tests of one binary run side by side: one of them adds the user.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    static CLEARED: std::sync::Once = std::sync::Once::new();
    let known = Command::new("id").arg(user).output().unwrap();
    if known.status.success() {
        // Once per test binary, before any of its turns: an earlier run's
        // spools are not this run's.
        CLEARED.call_once(|| {
            run(Command::new("runuser").args([
                "-u",
                user,
                "--",
                "sh",
                "-c",
                "rm -rf \"$HOME/.local/share/switchboard-runner/turns\"",
            ]));
        });
    } else {
        run(Command::new("useradd").args(["-m", "-s", "/bin/sh", user]));
        // A home left by an earlier user of that name is not theirs yet.
        run(Command::new("sh").args([
            "-c",
            &format!("chown -R {user}: \"$(getent passwd {user} | cut -d: -f6)\""),
        ]));
    }
    // useradd locks the password ('!'), and sshd refuses a locked account
    // even for a key; '*' is no password, not locked.
    run(Command::new("usermod").args(["-p", "*", user]));
}

fn keygen(path: &Path) {
    let _ = std::fs::remove_file(path);
    run(Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-f"])
        .arg(path));
}

fn run(command: &mut Command) -> Vec<u8> {
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "{command:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn descendants(root: u32) -> Vec<u32> {
    let mut parents = std::collections::HashMap::<u32, Vec<u32>>::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some(after) = stat.rsplit_once(") ").map(|(_, rest)| rest) else {
            continue;
        };
        if let Some(ppid) = after.split_whitespace().nth(1).and_then(|p| p.parse().ok()) {
            parents.entry(ppid).or_default().push(pid);
        }
    }
    let mut found = Vec::new();
    let mut queue = vec![root];
    while let Some(pid) = queue.pop() {
        for child in parents.get(&pid).cloned().unwrap_or_default() {
            found.push(child);
            queue.push(child);
        }
    }
    found
}
