//! Real mail servers on loopback for tests (feature `test-rig`): Debian's
//! dovecot (IMAP with or without IDLE, implicit TLS and STARTTLS, LMTP) run
//! as the current user from a temporary folder with its own configuration,
//! and aiosmtpd (a real SMTP server, from the repository's Python virtualenv)
//! that delivers every mail into the rig's one mailbox through dovecot's
//! LMTP. The certificates come from a CA made for the run (`rcgen`).
//!
//! [`MailServers::start`] finds the programs (`SWITCHBOARD_DOVECOT`, else
//! `dovecot` on the PATH or in /usr/sbin; `SWITCHBOARD_MAIL_PYTHON`, else
//! `target/pyenv/bin/python`, both installed by `make mail-deps py-deps`).
//! When one is missing it returns `None` after printing why, so the test can
//! skip, unless `SWITCHBOARD_MAIL_REQUIRED=1` (set by the Makefile), when it
//! panics: CI never skips. Run as root, dovecot drops to its own users and
//! the mail belongs to the `dovecot` user; run as anyone else, everything is
//! that user's.

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::config::{Account, Config, Server, Tls};

pub const ADDRESS: &str = "agent@switchboard.test";
pub const PASSWORD: &str = "rig-secret";
/// The saved key name the rig's configuration uses for [`PASSWORD`].
pub const PASSWORD_KEY: &str = "MAIL_PASSWORD";
const READY_WITHIN: Duration = Duration::from_secs(15);
const RELAY: &str = include_str!("smtp_relay.py");

/// What to start.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Whether the IMAP server offers IDLE (dovecot's `imap_capability`).
    pub idle: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { idle: true }
    }
}

pub struct MailServers {
    dir: tempfile::TempDir,
    dovecot: Child,
    dovecot_bin: PathBuf,
    smtp: Child,
    /// Who owns the mail, for [`MailServers::seed`].
    owner: (bool, u32, u32),
    /// IMAP with TLS from the first byte.
    pub imaps_port: u16,
    /// IMAP in plain text, offering STARTTLS.
    pub imap_port: u16,
    /// SMTP in plain text, offering STARTTLS.
    pub smtp_port: u16,
    /// The PEM certificate of the CA that signed the servers' certificate.
    pub ca_file: PathBuf,
}

impl MailServers {
    /// Starts both servers, or says why they cannot run here (see the
    /// module's doc for when that fails the test instead).
    pub fn start(options: Options) -> Option<MailServers> {
        let required = std::env::var("SWITCHBOARD_MAIL_REQUIRED").is_ok_and(|v| v == "1");
        let missing = |what: String| {
            assert!(
                !required,
                "SWITCHBOARD_MAIL_REQUIRED=1 but {what} (run `make mail-deps py-deps`)"
            );
            eprintln!("skipping the mail server test: {what} (run `make mail-deps py-deps`)");
            None
        };
        let Some(dovecot_bin) = dovecot_binary() else {
            return missing("dovecot is not installed".to_owned());
        };
        let python = python_binary();
        let has_aiosmtpd = Command::new(&python)
            .args(["-c", "import aiosmtpd"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !has_aiosmtpd {
            return missing(format!("{} cannot import aiosmtpd", python.display()));
        }
        match Self::launch(options, dovecot_bin, &python) {
            Ok(servers) => Some(servers),
            Err(e) => panic!("the mail servers did not start: {e}"),
        }
    }

    fn launch(options: Options, dovecot_bin: PathBuf, python: &Path) -> Result<Self, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let root = dir.path().to_owned();
        let who = Identity::current()?;
        let (cert, key, ca) = certificates()?;
        let write = |name: &str, text: &str| {
            std::fs::write(root.join(name), text).map_err(|e| format!("{name}: {e}"))
        };
        write("cert.pem", &cert)?;
        write("key.pem", &key)?;
        write("ca.pem", &ca)?;
        let home = root.join("mail");
        std::fs::create_dir(&home).map_err(|e| e.to_string())?;
        if who.root {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o755))
                .map_err(|e| e.to_string())?;
            std::os::unix::fs::chown(&home, Some(who.mail_uid), Some(who.mail_gid))
                .map_err(|e| format!("chown {}: {e}", home.display()))?;
        }
        write(
            "passwd",
            &format!(
                "{ADDRESS}:{{PLAIN}}{PASSWORD}:{}:{}::{}::\n",
                who.mail_uid,
                who.mail_gid,
                home.display()
            ),
        )?;
        let (imap_port, imaps_port, smtp_port) = (free_port()?, free_port()?, free_port()?);
        let capability = if options.idle {
            String::new()
        } else {
            "protocol imap {\n  imap_capability = IMAP4rev1 LITERAL+ SASL-IR ID ENABLE UIDPLUS\n}\n"
                .to_owned()
        };
        let root_text = root.display();
        write(
            "dovecot.conf",
            &format!(
                "base_dir = {root_text}/run
state_dir = {root_text}/state
log_path = {root_text}/dovecot.log
protocols = imap lmtp
listen = 127.0.0.1
default_internal_user = {internal}
default_internal_group = {internal_group}
default_login_user = {login}
first_valid_uid = 1
first_valid_gid = 1
ssl = yes
ssl_cert = <{root_text}/cert.pem
ssl_key = <{root_text}/key.pem
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:~/Maildir
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root_text}/passwd
}}
userdb {{
  driver = passwd-file
  args = username_format=%u {root_text}/passwd
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {imap_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {imaps_port}
    ssl = yes
  }}
}}
service lmtp {{
  unix_listener lmtp {{
    mode = 0666
  }}
}}
service anvil {{
  chroot =
}}
namespace inbox {{
  inbox = yes
  mailbox Sent {{
    special_use = \\Sent
  }}
  mailbox Drafts {{
    special_use = \\Drafts
  }}
  mailbox Archive {{
    special_use = \\Archive
  }}
  mailbox Junk {{
    special_use = \\Junk
  }}
  mailbox Trash {{
    special_use = \\Trash
  }}
}}
{capability}",
                internal = who.internal_user,
                internal_group = who.internal_group,
                login = who.login_user,
            ),
        )?;
        let dovecot = Command::new(&dovecot_bin)
            .arg("-F")
            .arg("-c")
            .arg(root.join("dovecot.conf"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(
                std::fs::File::create(root.join("dovecot.stderr")).map_err(|e| e.to_string())?,
            ))
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", dovecot_bin.display()))?;
        write("smtp_relay.py", RELAY)?;
        let lmtp = root.join("run").join("lmtp");
        let smtp = Command::new(python)
            .arg(root.join("smtp_relay.py"))
            .arg(smtp_port.to_string())
            .arg(&lmtp)
            .arg(ADDRESS)
            .arg(root.join("cert.pem"))
            .arg(root.join("key.pem"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(
                std::fs::File::create(root.join("smtp.stderr")).map_err(|e| e.to_string())?,
            ))
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
        let mut servers = MailServers {
            ca_file: root.join("ca.pem"),
            dir,
            dovecot,
            dovecot_bin,
            smtp,
            owner: (who.root, who.mail_uid, who.mail_gid),
            imaps_port,
            imap_port,
            smtp_port,
        };
        let deadline = Instant::now() + READY_WITHIN;
        let ready = |port: u16| TcpStream::connect(("127.0.0.1", port)).is_ok();
        while !(ready(imap_port) && ready(imaps_port) && ready(smtp_port) && lmtp.exists()) {
            let exited = [servers.dovecot.try_wait(), servers.smtp.try_wait()]
                .into_iter()
                .any(|s| matches!(s, Ok(Some(_))));
            if exited || Instant::now() > deadline {
                return Err(format!(
                    "not ready (exited: {exited}); logs:\n{}",
                    servers.logs()
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(servers)
    }

    /// The servers' logs so far, for a failing test's message.
    pub fn logs(&self) -> String {
        ["dovecot.stderr", "dovecot.log", "smtp.stderr"]
            .iter()
            .map(|name| {
                let text = std::fs::read_to_string(self.dir.path().join(name)).unwrap_or_default();
                format!("--- {name}\n{text}")
            })
            .collect()
    }

    /// An `email.toml` for the rig: IMAP over `imap_tls`, SMTP in plain
    /// text, `ca_file` trusting the rig's CA when `trust_ca`.
    pub fn config(&self, imap_tls: Tls, trust_ca: bool, poll_seconds: u64) -> Config {
        let imap_port = match imap_tls {
            Tls::Implicit => self.imaps_port,
            Tls::Starttls | Tls::None => self.imap_port,
        };
        Config {
            accounts: vec![Account {
                address: ADDRESS.to_owned(),
                imap: Server {
                    host: "localhost".to_owned(),
                    port: imap_port,
                    tls: imap_tls,
                    username: Some(ADDRESS.to_owned()),
                    password_key: Some(PASSWORD_KEY.to_owned()),
                },
                smtp: Server {
                    host: "localhost".to_owned(),
                    port: self.smtp_port,
                    tls: Tls::None,
                    username: None,
                    password_key: None,
                },
            }],
            ca_file: trust_ca.then(|| self.ca_file.clone()),
            poll_seconds,
            folder: None,
            reports: None,
        }
    }

    /// Hands `raw` (a whole RFC 822 message) to the SMTP server, as another
    /// sender's server would.
    pub async fn deliver(&self, from: &str, raw: &[u8]) -> Result<(), String> {
        use lettre::AsyncTransport;
        let transport =
            lettre::AsyncSmtpTransport::<lettre::Tokio1Executor>::builder_dangerous("127.0.0.1")
                .port(self.smtp_port)
                .build();
        let envelope = lettre::address::Envelope::new(
            from.parse().ok(),
            vec![ADDRESS.parse().map_err(|e| format!("{e}"))?],
        )
        .map_err(|e| e.to_string())?;
        transport
            .send_raw(&envelope, raw)
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    /// Every mail the rig's mailbox holds (new and read), as delivered.
    pub fn messages(&self) -> Vec<Vec<u8>> {
        let maildir = self.dir.path().join("mail").join("Maildir");
        ["new", "cur"]
            .iter()
            .filter_map(|sub| std::fs::read_dir(maildir.join(sub)).ok())
            .flat_map(|entries| entries.flatten())
            .filter_map(|entry| std::fs::read(entry.path()).ok())
            .collect()
    }

    /// Writes `messages` straight into `folder`'s maildir (`INBOX` or a
    /// folder name), as new mail dovecot finds on its next look, in order:
    /// far faster than APPEND for tests and benches of many messages.
    /// Returns how many were written.
    pub fn seed(
        &self,
        folder: &str,
        messages: impl IntoIterator<Item = Vec<u8>>,
    ) -> Result<usize, String> {
        let mut maildir = self.dir.path().join("mail").join("Maildir");
        let mut made = vec![maildir.clone()];
        if !folder.eq_ignore_ascii_case("INBOX") {
            maildir = maildir.join(format!(".{folder}"));
            made.push(maildir.clone());
        }
        made.extend(["cur", "new", "tmp"].map(|sub| maildir.join(sub)));
        let (root, uid, gid) = self.owner;
        let own = |path: &Path| -> Result<(), String> {
            if root {
                std::os::unix::fs::chown(path, Some(uid), Some(gid))
                    .map_err(|e| format!("chown {}: {e}", path.display()))?;
            }
            Ok(())
        };
        for dir in &made {
            if !dir.exists() {
                std::fs::create_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                own(dir)?;
            }
        }
        if made.len() > 4 {
            let marker = maildir.join("maildirfolder");
            std::fs::write(&marker, b"").map_err(|e| e.to_string())?;
            own(&marker)?;
        }
        // Dovecot numbers new mail in the order of the names' time part.
        let start = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let mut written = 0;
        for (n, raw) in messages.into_iter().enumerate() {
            let name = format!("{}.M{n}P{}.rig", start + n as u64, std::process::id());
            let path = maildir.join("new").join(name);
            std::fs::write(&path, raw).map_err(|e| format!("{}: {e}", path.display()))?;
            own(&path)?;
            written += 1;
        }
        Ok(written)
    }

    /// How many mails the rig's mailbox holds (new and read).
    pub fn mailbox_count(&self) -> usize {
        let maildir = self.dir.path().join("mail").join("Maildir");
        ["new", "cur"]
            .iter()
            .filter_map(|sub| std::fs::read_dir(maildir.join(sub)).ok())
            .map(|entries| entries.count())
            .sum()
    }
}

impl Drop for MailServers {
    fn drop(&mut self) {
        // `stop` lets dovecot end its children; a kill would orphan them.
        let _ = Command::new(&self.dovecot_bin)
            .arg("-c")
            .arg(self.dir.path().join("dovecot.conf"))
            .arg("stop")
            .stderr(Stdio::null())
            .status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while matches!(self.dovecot.try_wait(), Ok(None)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.dovecot.kill();
        let _ = self.dovecot.wait();
        let _ = self.smtp.kill();
        let _ = self.smtp.wait();
    }
}

/// Who dovecot runs as, and who owns the mail.
struct Identity {
    root: bool,
    internal_user: String,
    internal_group: String,
    login_user: String,
    mail_uid: u32,
    mail_gid: u32,
}

impl Identity {
    fn current() -> Result<Identity, String> {
        let id = |args: &[&str]| -> Result<String, String> {
            let out = Command::new("id")
                .args(args)
                .output()
                .map_err(|e| format!("id: {e}"))?;
            if !out.status.success() {
                return Err(format!("id {args:?} failed"));
            }
            Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
        };
        let number = |text: String| text.parse::<u32>().map_err(|e| format!("id: {e}"));
        let uid = number(id(&["-u"])?)?;
        if uid == 0 {
            // Dovecot will not serve mail as root: the mail is its own user's.
            Ok(Identity {
                root: true,
                internal_user: "dovecot".to_owned(),
                internal_group: "dovecot".to_owned(),
                login_user: "dovenull".to_owned(),
                mail_uid: number(id(&["-u", "dovecot"])?)?,
                mail_gid: number(id(&["-g", "dovecot"])?)?,
            })
        } else {
            let user = id(&["-un"])?;
            Ok(Identity {
                root: false,
                internal_group: id(&["-gn"])?,
                login_user: user.clone(),
                internal_user: user,
                mail_uid: uid,
                mail_gid: number(id(&["-g"])?)?,
            })
        }
    }
}

fn dovecot_binary() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("SWITCHBOARD_DOVECOT") {
        let path = PathBuf::from(path);
        return path.is_file().then_some(path);
    }
    let on_path = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .unwrap_or_default();
    on_path
        .into_iter()
        .chain([PathBuf::from("/usr/sbin"), PathBuf::from("/usr/local/sbin")])
        .map(|dir| dir.join("dovecot"))
        .find(|path| path.is_file())
}

fn python_binary() -> PathBuf {
    std::env::var_os("SWITCHBOARD_MAIL_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/pyenv/bin/python")
        })
}

fn free_port() -> Result<u16, String> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| e.to_string())
}

/// The servers' certificate (for `localhost` and 127.0.0.1) and key, and
/// the CA that signed it, all PEM.
fn certificates() -> Result<(String, String, String), String> {
    use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair};
    let e = |e: rcgen::Error| e.to_string();
    let ca_key = KeyPair::generate().map_err(e)?;
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).map_err(e)?;
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "switchboard mail rig CA");
    let ca = ca_params.self_signed(&ca_key).map_err(e)?;
    let issuer = Issuer::new(ca_params, ca_key);
    let key = KeyPair::generate().map_err(e)?;
    let params =
        CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned()]).map_err(e)?;
    let cert = params.signed_by(&key, &issuer).map_err(e)?;
    Ok((cert.pem(), key.serialize_pem(), ca.pem()))
}
