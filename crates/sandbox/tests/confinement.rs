//! The sandbox applied to real child processes, in each mode this machine
//! offers: hidden files are refused to the child and to the processes it
//! starts, everything else still works, and in the namespace mode the child
//! may also create new entries beside hidden paths and make namespaces and
//! mounts of its own.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use sandbox::{Mode, Network, Policy};

fn run_in(policy: &Policy, mode: Mode, cwd: &Path, script: &str) -> std::process::Output {
    let abi = sandbox::kernel_abi();
    let hook = policy.prepare_as(mode, abi).unwrap().into_pre_exec(cwd);
    let mut command = Command::new("/bin/sh");
    command.args(["-c", script]).current_dir(cwd);
    // SAFETY: the hook only makes system calls (see `into_pre_exec`).
    unsafe { command.pre_exec(hook) };
    command.output().unwrap()
}

/// The modes this machine can run, the namespace one first.
fn modes() -> Vec<Mode> {
    let mut modes = Vec::new();
    if sandbox::support().mode == Mode::Namespaces {
        modes.push(Mode::Namespaces);
    } else {
        eprintln!("namespace mode not tested here: {:?}", sandbox::support());
    }
    if sandbox::kernel_abi() >= sandbox::MIN_ABI {
        modes.push(Mode::Landlock);
    }
    modes
}

fn namespaces_or_skip() -> bool {
    let yes = sandbox::support().mode == Mode::Namespaces;
    if !yes {
        eprintln!(
            "skipped: no namespace sandbox here: {:?}",
            sandbox::support()
        );
    }
    yes
}

/// A home with a data directory holding two sessions' worktrees.
struct Tree {
    _dir: tempfile::TempDir,
    home: PathBuf,
    data: PathBuf,
}

impl Tree {
    fn new() -> Tree {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let data = home.join(".local/share/switchboard");
        for session in ["s1", "s2"] {
            std::fs::create_dir_all(data.join("worktrees").join(session)).unwrap();
            std::fs::write(data.join("worktrees").join(session).join("mine"), session).unwrap();
        }
        std::fs::write(data.join("cli-token"), "secret").unwrap();
        std::fs::write(home.join("open"), "open").unwrap();
        Tree {
            _dir: dir,
            home,
            data,
        }
    }

    fn policy(&self) -> Policy {
        Policy {
            hidden: vec![self.data.clone()],
            exceptions: vec![self.own()],
            network: Network::Allowed,
        }
    }

    fn own(&self) -> PathBuf {
        self.data.join("worktrees/s1")
    }
}

#[test]
fn a_hidden_folder_is_refused_to_the_child_and_its_children_in_every_mode() {
    for mode in modes() {
        let tree = Tree::new();
        let script = format!(
            "cat {home}/open; cat mine; echo x > mine2 && echo wrote; \
             sh -c 'cat {data}/cli-token' && echo LEAK; cat {data}/cli-token && echo LEAK; \
             cat ../../cli-token && echo LEAK; cat {data}/worktrees/s2/mine && echo LEAK; \
             echo y > {data}/new && echo LEAK; ls {data} | grep -v worktrees; true",
            home = tree.home.display(),
            data = tree.data.display(),
        );
        let out = run_in(&tree.policy(), mode, &tree.own(), &script);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stdout, "opens1wrote\n", "{mode:?}: stderr: {stderr}");
        assert!(!stderr.contains("secret"), "{mode:?}: {stderr}");
        assert_eq!(
            std::fs::read_to_string(tree.own().join("mine2")).unwrap(),
            "x\n"
        );
        assert!(!tree.data.join("new").exists(), "{mode:?}");
    }
}

#[test]
fn in_the_namespace_mode_the_child_creates_entries_beside_hidden_paths() {
    if !namespaces_or_skip() {
        return;
    }
    let tree = Tree::new();
    // Every folder on the way down to the data directory takes new entries,
    // as an engine's first run makes `~/.claude`, `~/.cache`, `~/.local/state`.
    let script = format!(
        "mkdir {home}/.claude && echo a > {home}/.claude/x && cat {home}/.claude/x; \
         echo b > {home}/.claude.json && cat {home}/.claude.json; \
         mkdir -p {home}/.local/state/app && echo c; \
         mkdir {home}/.local/share/other && echo d; ls {home}/.local/share",
        home = tree.home.display(),
    );
    let out = run_in(&tree.policy(), Mode::Namespaces, &tree.home, &script);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "a\nb\nc\nd\nother\nswitchboard\n",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // They are real entries, there for the user and the next turn.
    assert!(tree.home.join(".claude/x").exists());
    assert!(tree.home.join(".local/share/other").is_dir());
}

#[test]
fn in_the_namespace_mode_the_child_makes_its_own_namespaces_but_cannot_uncover() {
    if !namespaces_or_skip() {
        return;
    }
    let tree = Tree::new();
    let mnt = tree.home.join("mnt");
    std::fs::create_dir_all(&mnt).unwrap();
    // `unshare -r` makes the child root in a user namespace of its own, as
    // bubblewrap does; the mount inside it works, the unmount of the cover
    // does not, and the token stays out of reach.
    let script = format!(
        "unshare -r -m sh -c 'mount -t tmpfs none {mnt} && echo mounted; \
         umount {data} 2>/dev/null && echo LEAK; umount -l {data} 2>/dev/null && echo LEAK; \
         cat {data}/cli-token 2>/dev/null && echo LEAK'; true",
        mnt = mnt.display(),
        data = tree.data.display(),
    );
    let out = run_in(&tree.policy(), Mode::Namespaces, &tree.home, &script);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "mounted\n",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_child_cannot_look_through_another_process_into_hidden_paths() {
    for mode in modes() {
        let tree = Tree::new();
        // This test process sees everything; its /proc entries must not
        // lend the child its view.
        let script = format!(
            "cat /proc/{pid}/root{data}/cli-token && echo LEAK; \
             ls /proc/{pid}/cwd/ >/dev/null && echo LEAK; kill -0 {pid} && echo LEAK; true",
            pid = std::process::id(),
            data = tree.data.display(),
        );
        let out = run_in(&tree.policy(), mode, &tree.home, &script);
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "",
            "{mode:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn a_hidden_file_reads_as_nothing() {
    for mode in modes() {
        let tree = Tree::new();
        let netrc = tree.home.join(".netrc");
        std::fs::write(&netrc, "machine example.com password hunter2").unwrap();
        let policy = Policy {
            hidden: vec![netrc.clone()],
            exceptions: vec![],
            network: Network::Allowed,
        };
        let script = format!("cat {} 2>/dev/null; echo end", netrc.display());
        let out = run_in(&policy, mode, &tree.home, &script);
        assert_eq!(String::from_utf8_lossy(&out.stdout), "end\n", "{mode:?}");
        assert!(std::fs::read_to_string(&netrc).unwrap().contains("hunter2"));
    }
}

#[test]
fn without_the_network_tcp_connect_is_refused() {
    if sandbox::kernel_abi() < sandbox::NETWORK_ABI {
        eprintln!("skipped: this kernel cannot govern the network");
        return;
    }
    for mode in modes() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let open = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let allowed = open.local_addr().unwrap().port();
        let policy = Policy {
            hidden: vec![],
            exceptions: vec![],
            network: Network::Denied {
                connect_ports: vec![allowed],
            },
        };
        // bash's /dev/tcp does a plain connect(2).
        let script = format!(
            "bash -c 'echo > /dev/tcp/127.0.0.1/{port}' && echo LEAK; \
             bash -c 'echo > /dev/tcp/127.0.0.1/{allowed}' && echo allowed; true"
        );
        let out = run_in(&policy, mode, Path::new("/"), &script);
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "allowed\n",
            "{mode:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
