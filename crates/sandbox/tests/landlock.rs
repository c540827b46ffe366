//! The ruleset applied to real child processes: hidden files are refused to
//! the child and to the processes it starts, everything else still works.

use std::os::unix::process::CommandExt;
use std::process::Command;

use sandbox::{Network, Policy};

fn run(policy: &Policy, script: &str) -> std::process::Output {
    let hook = policy.prepare().unwrap().into_pre_exec();
    let mut command = Command::new("/bin/sh");
    command.args(["-c", script]);
    // SAFETY: the hook only makes system calls (see `into_pre_exec`).
    unsafe { command.pre_exec(hook) };
    command.output().unwrap()
}

#[test]
fn a_hidden_folder_is_refused_to_the_child_and_its_children() {
    if sandbox::kernel_abi() < sandbox::MIN_ABI {
        eprintln!("skipped: this kernel has no Landlock");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(data.join("worktrees/s1")).unwrap();
    std::fs::write(data.join("cli-token"), "secret").unwrap();
    std::fs::write(data.join("worktrees/s1/mine"), "mine").unwrap();
    std::fs::write(dir.path().join("open"), "open").unwrap();
    let policy = Policy {
        hidden: vec![data.clone()],
        exceptions: vec![data.join("worktrees/s1")],
        network: Network::Allowed,
    };
    let token = data.join("cli-token");
    let script = format!(
        "cat {open}; cat {mine}; echo x > {mine}2 && echo wrote; \
         sh -c 'cat {token}' && echo LEAK; cat {token} && echo LEAK; \
         echo y > {data}/new && echo LEAK; ls {data} && echo LEAK; true",
        open = dir.path().join("open").display(),
        mine = data.join("worktrees/s1/mine").display(),
        token = token.display(),
        data = data.display(),
    );
    let out = run(&policy, &script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stdout, "openminewrote\n", "stderr: {stderr}");
    assert!(stderr.contains("Permission denied"), "{stderr}");
}

#[test]
fn without_the_network_tcp_connect_is_refused() {
    if sandbox::kernel_abi() < sandbox::NETWORK_ABI {
        eprintln!("skipped: this kernel cannot govern the network");
        return;
    }
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
    let out = run(&policy, &script);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "allowed\n",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
