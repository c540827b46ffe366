//! The check behind the Makefile's install steps (`tools/deps.py`, which
//! `make mail-deps` and the other steps of the machine run) against made-up
//! machines: a temporary root, PATH and target folder holding every piece
//! each step lists pass, and with one piece taken away the check names
//! exactly that piece and its package. Issue 66's machine, dovecot-imapd
//! without dovecot-lmtpd, is one of them. Nothing here reads or changes the
//! real machine: the pieces are empty files and folders.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

const STEPS: [&str; 8] = [
    "git", "dbus", "ssh", "mail", "e2e", "py", "calendar", "engines",
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// The interpreter itself, asked before PATH is pointed at the made-up
/// machine: `python3` on PATH can be a shim that needs the real PATH.
fn python3() -> &'static Path {
    static PYTHON3: OnceLock<PathBuf> = OnceLock::new();
    PYTHON3.get_or_init(|| {
        let output = Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        PathBuf::from(String::from_utf8(output.stdout).unwrap().trim())
    })
}

/// One line of `tools/deps.py pieces`.
#[derive(Clone, Debug)]
struct Piece {
    step: &'static str,
    kind: String,
    package: String,
    what: String,
    location: PathBuf,
    name: String,
    version: String,
}

impl Piece {
    fn report(&self) -> String {
        format!("missing {} for {}\n", self.package, self.what)
    }
}

struct Machine {
    dir: tempfile::TempDir,
}

impl Machine {
    fn empty() -> Machine {
        let machine = Machine {
            dir: tempfile::tempdir().unwrap(),
        };
        std::fs::create_dir_all(machine.root().join("usr/bin")).unwrap();
        std::fs::create_dir_all(machine.target()).unwrap();
        machine
    }

    /// A machine with every piece of every step.
    fn full() -> Machine {
        let machine = Machine::empty();
        for piece in machine.pieces(&STEPS) {
            machine.add(&piece);
        }
        machine
    }

    fn root(&self) -> PathBuf {
        self.dir.path().join("root")
    }

    fn target(&self) -> PathBuf {
        self.dir.path().join("target")
    }

    fn deps(&self, args: &[&str]) -> Output {
        Command::new(python3())
            .arg(repo().join("tools/deps.py"))
            .args(args)
            .env("DEPS_ROOT", self.root())
            .env("DEPS_TARGET", self.target())
            .env("PATH", self.root().join("usr/bin"))
            .output()
            .unwrap()
    }

    fn pieces(&self, steps: &[&'static str]) -> Vec<Piece> {
        let mut pieces = Vec::new();
        for &step in steps {
            let output = self.deps(&["pieces", step]);
            assert!(output.status.success(), "{output:?}");
            for line in String::from_utf8(output.stdout).unwrap().lines() {
                let fields: Vec<&str> = line.split('\t').collect();
                assert_eq!(fields.len(), 6, "{line}");
                pieces.push(Piece {
                    step,
                    kind: fields[0].to_owned(),
                    package: fields[1].to_owned(),
                    what: fields[2].to_owned(),
                    location: PathBuf::from(fields[3]),
                    name: fields[4].to_owned(),
                    version: fields[5].to_owned(),
                });
            }
        }
        pieces
    }

    /// What `check STEP` prints, and whether it passed.
    fn check(&self, step: &str) -> (String, bool) {
        let output = self.deps(&["check", step]);
        assert!(output.stderr.is_empty(), "{output:?}");
        (
            String::from_utf8(output.stdout).unwrap(),
            output.status.success(),
        )
    }

    /// Where the piece is on this machine: the file, or the folder that
    /// stands for a package.
    fn place(&self, piece: &Piece) -> PathBuf {
        match piece.kind.as_str() {
            "program" => self.root().join("usr/bin").join(&piece.name),
            "python" => piece
                .location
                .join("lib/python3.11/site-packages")
                .join(format!(
                    "{}-{}.dist-info",
                    piece.name.replace(['-', '.'], "_"),
                    piece.version
                )),
            "file" | "npm" => piece.location.clone(),
            other => panic!("a piece of an unknown kind {other}"),
        }
    }

    fn add(&self, piece: &Piece) {
        self.add_at_version(piece, &piece.version);
    }

    fn add_at_version(&self, piece: &Piece, version: &str) {
        let place = self.place(piece);
        match piece.kind.as_str() {
            "python" => {
                let place = place.with_file_name(format!(
                    "{}-{version}.dist-info",
                    piece.name.replace(['-', '.'], "_")
                ));
                std::fs::create_dir_all(place).unwrap();
            }
            "npm" => {
                std::fs::create_dir_all(&place).unwrap();
                let manifest = serde_json::json!({"name": piece.name, "version": version});
                std::fs::write(place.join("package.json"), manifest.to_string()).unwrap();
            }
            _ => executable(&place),
        }
    }

    fn remove(&self, piece: &Piece) {
        let place = self.place(piece);
        if place.is_dir() {
            std::fs::remove_dir_all(place).unwrap();
        } else {
            std::fs::remove_file(place).unwrap();
        }
    }
}

fn executable(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn every_piece_taken_away_alone_is_reported_alone() {
    let machine = Machine::full();
    for step in STEPS {
        assert_eq!(machine.check(step), (String::new(), true), "{step}");
    }
    let pieces = machine.pieces(&STEPS);
    assert!(pieces.len() > 20, "{pieces:?}");
    for piece in &pieces {
        machine.remove(piece);
        assert_eq!(
            machine.check(piece.step),
            (piece.report(), false),
            "{piece:?}"
        );
        machine.add(piece);
    }
}

#[test]
fn dovecot_imapd_without_lmtpd_is_caught() {
    let machine = Machine::full();
    std::fs::remove_file(machine.root().join("usr/lib/dovecot/lmtp")).unwrap();
    assert!(machine.root().join("usr/bin/dovecot").is_file());
    assert!(machine.root().join("usr/lib/dovecot/imap").is_file());
    assert_eq!(
        machine.check("mail"),
        (
            "missing dovecot-lmtpd for /usr/lib/dovecot/lmtp\n".to_owned(),
            false
        )
    );
}

#[test]
fn dovecot_in_sbin_off_path_counts() {
    let machine = Machine::full();
    std::fs::remove_file(machine.root().join("usr/bin/dovecot")).unwrap();
    assert!(!machine.check("mail").1);
    executable(&machine.root().join("usr/sbin/dovecot"));
    assert_eq!(machine.check("mail"), (String::new(), true));
}

#[test]
fn a_pinned_package_at_another_version_is_reported_with_the_one_there() {
    let machine = Machine::full();
    let pieces = machine.pieces(&["py", "engines"]);
    for kind in ["python", "npm"] {
        let piece = pieces.iter().find(|p| p.kind == kind).unwrap();
        machine.remove(piece);
        machine.add_at_version(piece, "0.0.1");
        let (report, passed) = machine.check(piece.step);
        assert!(!passed);
        assert_eq!(
            report,
            format!(
                "missing {} for {} (0.0.1 there)\n",
                piece.package, piece.what
            )
        );
    }
}

#[test]
fn the_pieces_are_what_the_tests_use() {
    let machine = Machine::empty();
    let pieces = machine.pieces(&STEPS);
    let has = |step: &str, package: &str, what: &str| {
        pieces
            .iter()
            .any(|p| p.step == step && p.package == package && p.what.starts_with(what))
    };
    let system = [
        ("git", "git", "git on PATH"),
        ("dbus", "dbus-daemon", "dbus-daemon on PATH"),
        ("ssh", "openssh-server", "/usr/sbin/sshd"),
        ("ssh", "openssh-client", "ssh on PATH"),
        ("ssh", "openssh-client", "ssh-keygen on PATH"),
        ("mail", "dovecot-core", "dovecot on PATH"),
        ("mail", "dovecot-core", "/usr/lib/dovecot/auth"),
        ("mail", "dovecot-imapd", "/usr/lib/dovecot/imap"),
        ("mail", "dovecot-imapd", "/usr/lib/dovecot/imap-login"),
        ("mail", "dovecot-lmtpd", "/usr/lib/dovecot/lmtp"),
        ("e2e", "chromium", "chromium on PATH"),
    ];
    for (step, package, what) in system {
        assert!(has(step, package, what), "{step}: {package} for {what}");
    }

    for (step, requirements, venv) in [
        ("py", "tools/python/requirements.txt", "pyenv"),
        (
            "calendar",
            "crates/calendar/tests/rig/requirements.txt",
            "radicale",
        ),
    ] {
        let text = std::fs::read_to_string(repo().join(requirements)).unwrap();
        let pins: Vec<String> = text
            .lines()
            .map(|line| line.split('#').next().unwrap().trim().to_owned())
            .filter(|line| !line.is_empty())
            .collect();
        let listed: Vec<String> = pieces
            .iter()
            .filter(|p| p.step == step && p.kind == "python")
            .inspect(|p| assert_eq!(p.location, machine.target().join(venv)))
            .map(|p| format!("{}=={}", p.name, p.version))
            .collect();
        assert_eq!(listed, pins, "{requirements}");
        assert!(pieces.iter().any(
            |p| p.step == step && p.location == machine.target().join(venv).join("bin/python")
        ));
    }

    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("tools/engines/package.json")).unwrap(),
    )
    .unwrap();
    let modules = machine.target().join("engines/node_modules");
    let engines = manifest["dependencies"].as_object().unwrap();
    assert_eq!(engines.len(), 2);
    for (name, version) in engines {
        let version = version.as_str().unwrap();
        assert!(pieces.iter().any(|p| p.kind == "npm"
            && p.name == *name
            && p.version == version
            && p.location == modules.join(name)));
    }
    for command in ["claude", "codex"] {
        let path = modules.join(".bin").join(command);
        assert!(
            pieces
                .iter()
                .any(|p| p.step == "engines" && p.location == path)
        );
    }
}

#[test]
fn install_runs_no_apt_for_a_made_up_root() {
    let machine = Machine::empty();
    let output = machine.deps(&["install", "git"]);
    assert!(!output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stdout, "git-deps: installing git for git on PATH\n");
    assert!(
        stderr.contains("apt installs into the real machine"),
        "{stderr}"
    );
}
