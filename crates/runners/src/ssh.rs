//! The OpenSSH transport: the system's `ssh`, so the user's `~/.ssh/config`,
//! agents, `ProxyJump` and known hosts all apply.
//!
//! One master connection per host (`ControlMaster`) carries every channel:
//! the install, the probes and one channel per turn. Host keys are checked
//! as the user's configuration says, and never switched off here: an
//! unknown or changed key is ssh's refusal, shown as the runner's reason.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, Command};

use crate::config::SshRunner;

/// How long one connection attempt may take before the runner is called
/// unreachable: a host that drops packets must not hang a spawn.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Where the helper's binary goes, under the remote home.
const BIN_DIR: &str = "$HOME/.local/share/switchboard-runner/bin";

#[derive(Debug, Clone)]
pub struct SshHost {
    pub runner: SshRunner,
    /// `ssh -F`, when `runners.toml` names one.
    pub config: Option<PathBuf>,
    /// The master connection's socket.
    pub control_path: PathBuf,
}

impl SshHost {
    /// Master connection `slot` of this host: slot 0 is the main one (the
    /// install, the tunnel); more carry channels past what one connection
    /// may hold (sshd's `MaxSessions`, 10 by default).
    pub fn slot(&self, slot: usize) -> SshHost {
        let mut ssh = self.clone();
        if slot > 0 {
            let mut name = self.control_path.as_os_str().to_owned();
            name.push(format!("-{slot}"));
            ssh.control_path = PathBuf::from(name);
        }
        ssh
    }

    fn command(&self) -> Command {
        let mut command = Command::new("ssh");
        if let Some(config) = &self.config {
            command.arg("-F").arg(config);
        }
        command
            .arg("-o")
            .arg(format!("ControlPath={}", self.control_path.display()))
            .args([
                "-o",
                "BatchMode=yes",
                "-o",
                "ServerAliveInterval=5",
                "-o",
                "ServerAliveCountMax=3",
                "-o",
            ])
            .arg(format!("ConnectTimeout={}", CONNECT_TIMEOUT.as_secs()))
            .stdin(Stdio::null())
            .kill_on_drop(true);
        command
    }

    /// Starts the master connection and waits until it is up; the error is
    /// ssh's own message.
    pub async fn connect(&self) -> Result<Child, String> {
        // A master a previous server left (it was killed) still holds the
        // socket: ended here rather than left running.
        if self.control_path.exists() {
            self.exit().await;
        }
        let mut master = self.command();
        master
            .args([
                "-M",
                "-N",
                "-o",
                "ControlPersist=no",
                "-o",
                "ExitOnForwardFailure=yes",
            ])
            .arg("--")
            .arg(self.runner.ssh_destination())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = master
            .spawn()
            .map_err(|e| format!("the ssh client could not be started: {e}"))?;
        let deadline = tokio::time::Instant::now() + CONNECT_TIMEOUT + Duration::from_secs(2);
        loop {
            if let Ok(Some(status)) = child.try_wait() {
                let mut stderr = String::new();
                if let Some(mut err) = child.stderr.take() {
                    let _ = err.read_to_string(&mut stderr).await;
                }
                return Err(ssh_message(&stderr, status.code()));
            }
            if self.check().await {
                return Ok(child);
            }
            if tokio::time::Instant::now() > deadline {
                return Err(format!(
                    "ssh did not connect within {} s",
                    CONNECT_TIMEOUT.as_secs()
                ));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Whether the master connection answers.
    pub async fn check(&self) -> bool {
        if !self.control_path.exists() {
            return false;
        }
        let mut check = self.command();
        check
            .args(["-O", "check", "--"])
            .arg(self.runner.ssh_destination())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        matches!(check.status().await, Ok(status) if status.success())
    }

    /// Asks the master for a reverse tunnel from a port the remote sshd
    /// picks to `local_port` here; returns that remote port.
    pub async fn forward_back(&self, local_port: u16) -> Result<u16, String> {
        let mut forward = self.command();
        forward
            .args(["-O", "forward", "-R"])
            .arg(format!("127.0.0.1:0:127.0.0.1:{local_port}"))
            .arg("--")
            .arg(self.runner.ssh_destination());
        let output = run(forward, None).await?;
        if !output.status.success() {
            return Err(ssh_message(
                &String::from_utf8_lossy(&output.stderr),
                output.status.code(),
            ));
        }
        String::from_utf8_lossy(&output.stdout)
            .trim()
            .parse()
            .map_err(|_| "the runner host allocated no port for the control tunnel".to_owned())
    }

    /// Runs a shell command on the host over the master, with `stdin` fed
    /// in; returns stdout, or ssh's or the command's message.
    pub async fn shell(&self, script: &str, stdin: Option<&Path>) -> Result<String, String> {
        let mut command = self.command();
        command
            .arg("--")
            .arg(self.runner.ssh_destination())
            .arg(script);
        let output = run(command, stdin).await?;
        if output.status.success() {
            Ok(String::from_utf8_lossy(&output.stdout).into_owned())
        } else {
            Err(ssh_message(
                &String::from_utf8_lossy(&output.stderr),
                output.status.code(),
            ))
        }
    }

    /// Makes sure the helper of exactly this build is on the host and
    /// returns its path there (`$HOME` unexpanded, for the remote shell).
    pub async fn install(&self, exe: &Path, hash: &str) -> Result<String, String> {
        let remote = format!("{BIN_DIR}/switchboard-{hash}");
        let look = format!(
            "uname -sm; if test -x \"{remote}\"; then touch \"{remote}\"; echo present; else echo absent; fi"
        );
        let answer = self.shell(&look, None).await?;
        let mut lines = answer.lines();
        let uname = lines.next().unwrap_or_default().trim().to_owned();
        if uname != "Linux x86_64" {
            return Err(format!(
                "the runner host is `{uname}`; runners need Linux on x86-64"
            ));
        }
        if lines.next().map(str::trim) == Some("present") {
            return Ok(remote);
        }
        // Other builds' helpers go once unused for a week (each connection
        // touches its own): a server of another version may still use one.
        let upload = format!(
            "set -e; umask 077; mkdir -p \"{BIN_DIR}\"; t=\"{BIN_DIR}/.upload-$$\"; \
             trap 'rm -f \"$t\"' EXIT; cat > \"$t\"; chmod 700 \"$t\"; mv \"$t\" \"{remote}\"; \
             trap - EXIT; find \"{BIN_DIR}\" -name 'switchboard-*' ! -name 'switchboard-{hash}' -mtime +7 -delete"
        );
        self.shell(&upload, Some(exe))
            .await
            .map_err(|e| format!("the helper could not be installed on the runner host: {e}"))?;
        Ok(remote)
    }

    /// A channel running the helper: `remote_exe runner --stdio`.
    pub fn helper(&self, remote_exe: &str) -> Result<Child, String> {
        let mut command = self.command();
        command
            .arg("--")
            .arg(self.runner.ssh_destination())
            .arg(format!("\"{remote_exe}\" runner --stdio"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command
            .spawn()
            .map_err(|e| format!("the ssh client could not be started: {e}"))
    }

    /// Closes the master connection (and every channel on it).
    pub async fn exit(&self) {
        let mut exit = self.command();
        exit.args(["-O", "exit", "--"])
            .arg(self.runner.ssh_destination())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let _ = tokio::time::timeout(Duration::from_secs(5), exit.status()).await;
        let _ = std::fs::remove_file(&self.control_path);
    }
}

async fn run(mut command: Command, stdin: Option<&Path>) -> Result<std::process::Output, String> {
    command
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command
        .spawn()
        .map_err(|e| format!("the ssh client could not be started: {e}"))?;
    if let (Some(path), Some(mut pipe)) = (stdin, child.stdin.take()) {
        let mut file = tokio::fs::File::open(path)
            .await
            .map_err(|e| format!("{} cannot be read: {e}", path.display()))?;
        tokio::spawn(async move {
            let _ = tokio::io::copy(&mut file, &mut pipe).await;
            let _ = pipe.shutdown().await;
        });
    }
    match tokio::time::timeout(Duration::from_secs(600), child.wait_with_output()).await {
        Ok(output) => output.map_err(|e| format!("the ssh client failed: {e}")),
        Err(_) => Err("ssh did not finish within 10 minutes".to_owned()),
    }
}

/// ssh's last meaningful lines, which say what went wrong (host key,
/// refused, resolution, permission).
fn ssh_message(stderr: &str, code: Option<i32>) -> String {
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.chars().all(|c| c == '@'))
        .collect();
    let key_problem = lines.iter().find(|l| {
        l.contains("REMOTE HOST IDENTIFICATION HAS CHANGED")
            || l.contains("Host key verification failed")
            || l.contains("No ED25519 host key is known")
            || l.contains("host key")
    });
    match (key_problem, lines.last()) {
        (Some(key), Some(last)) if key != last => format!("{key} {last}"),
        (_, Some(last)) => (*last).to_owned(),
        (_, None) => match code {
            Some(code) => format!("ssh exited with status {code}"),
            None => "ssh was killed".to_owned(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sshs_own_words_name_the_key_problem() {
        let changed = "@@@@@@@@@@@\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\n@@@@@@@\nIT IS POSSIBLE THAT SOMEONE IS DOING SOMETHING NASTY!\nHost key verification failed.\n";
        let message = ssh_message(changed, Some(255));
        assert!(message.contains("HAS CHANGED"), "{message}");
        assert!(
            message.contains("Host key verification failed"),
            "{message}"
        );
        assert_eq!(
            ssh_message(
                "ssh: connect to host h port 22: Connection refused\n",
                Some(255)
            ),
            "ssh: connect to host h port 22: Connection refused"
        );
        assert_eq!(ssh_message("", Some(255)), "ssh exited with status 255");
    }
}
