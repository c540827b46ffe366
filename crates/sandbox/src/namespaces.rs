//! Hiding by mount namespace: the engine runs in a user namespace of its own
//! with a mount namespace in which each hidden folder is covered by an empty,
//! read-only tmpfs and each hidden file by `/dev/null`, and the exceptions
//! (a session's worktree inside the data directory) are mounted back on top.
//!
//! Everything else is the real file system, writable as the user may write
//! it: an engine can create `~/.claude`, `~/.npm` or any other new entry in
//! `$HOME`, and it may make namespaces and mounts of its own (Codex's
//! bubblewrap, Claude Code's sandbox), which Landlock's file rules forbid.
//!
//! The covers are made in a first pair of namespaces and then locked by a
//! second pair: mounts that reach a mount namespace owned by a less
//! privileged user namespace are locked together, so not even a root engine
//! can unmount a cover to see what it hides. What a mount namespace cannot
//! stop, reading another process's view through `/proc/<pid>/root` or its
//! `cwd`, the caller closes with a Landlock domain (`linux.rs`), which refuses
//! that access to every process outside the engine's own domain.
//!
//! [`Covers::build`] does every allocation and every path decision before the
//! fork; [`Covers::apply`] runs in the child between `fork` and `exec` and only
//! makes system calls on the strings prepared here.

use std::ffi::CString;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use rustix::fs::{CWD, Mode, OFlags};
use rustix::io::Errno;
use rustix::mount::{
    MountFlags, MountPropagationFlags, MoveMountFlags, OpenTreeFlags, mount, mount_bind,
    mount_change, mount_remount, move_mount, open_tree,
};
use rustix::thread::UnshareFlags;

/// A folder's cover: its tmpfs options, then what to mount back inside it.
struct FolderCover {
    path: CString,
    /// `mode=0` when nothing inside is mounted back; `mode=0111` (search
    /// only, no listing) when an exception below must stay reachable.
    options: &'static std::ffi::CStr,
    exceptions: Vec<Exception>,
}

/// A hierarchy inside a hidden folder that the engine may use all the same.
struct Exception {
    source: CString,
    /// The folders between the cover and the exception, outermost first,
    /// made inside the tmpfs so the exception has a place to be mounted.
    folders: Vec<CString>,
    /// The exception's mount, taken before its folder is covered.
    tree: Option<OwnedFd>,
}

/// Every step of the covers, prepared before the fork.
pub(crate) struct Covers {
    folders: Vec<FolderCover>,
    files: Vec<CString>,
    uid_map: Vec<u8>,
    gid_map: Vec<u8>,
    cwd: Option<CString>,
}

fn c_path(path: &Path) -> Option<CString> {
    CString::new(path.as_os_str().as_bytes()).ok()
}

impl Covers {
    /// `hidden` and `exceptions` are absolute and resolved. Hidden paths that
    /// do not exist are skipped (there is nothing to hide yet), as are those
    /// inside another hidden folder (its cover hides them already).
    pub(crate) fn build(hidden: &[PathBuf], exceptions: &[PathBuf]) -> Covers {
        let mut covers = Covers {
            folders: Vec::new(),
            files: Vec::new(),
            uid_map: identity_map(rustix::process::geteuid().as_raw()),
            gid_map: identity_map(rustix::process::getegid().as_raw()),
            cwd: None,
        };
        for path in hidden {
            if hidden
                .iter()
                .any(|other| other != path && path.starts_with(other))
            {
                continue;
            }
            let Ok(meta) = std::fs::symlink_metadata(path) else {
                continue;
            };
            let Some(c) = c_path(path) else { continue };
            if !meta.is_dir() {
                covers.files.push(c);
                continue;
            }
            let inside: Vec<Exception> = exceptions
                .iter()
                .filter(|e| e.starts_with(path) && *e != path && e.is_dir())
                .filter(|e| !hidden.iter().any(|h| h != path && e.starts_with(h)))
                .filter_map(|e| {
                    let relative = e.strip_prefix(path).ok()?;
                    let mut folders = Vec::new();
                    let mut at = path.clone();
                    for part in relative.components() {
                        at.push(part);
                        folders.push(c_path(&at)?);
                    }
                    Some(Exception {
                        source: c_path(e)?,
                        folders,
                        tree: None,
                    })
                })
                .collect();
            covers.folders.push(FolderCover {
                path: c,
                options: if inside.is_empty() {
                    c"mode=0,size=4k,nr_inodes=8"
                } else {
                    c"mode=0111,size=64k,nr_inodes=1024"
                },
                exceptions: inside,
            });
        }
        covers
    }

    /// The folder the engine starts in, entered again once the covers are in
    /// place: the process was put in it before they existed, and `..` from
    /// there would otherwise walk the uncovered tree.
    pub(crate) fn set_cwd(&mut self, cwd: &Path) {
        self.cwd = c_path(cwd);
    }

    /// Runs in the child between `fork` and `exec`: no allocation, only
    /// system calls on what [`Covers::build`] prepared.
    pub(crate) fn apply(&mut self) -> Result<(), Errno> {
        self.enter_namespaces()?;
        // Our covers must not leak into the parent's namespace, while mounts
        // the user makes later (a USB drive) still reach the engine.
        mount_change(
            c"/",
            MountPropagationFlags::DOWNSTREAM | MountPropagationFlags::REC,
        )?;
        for folder in &mut self.folders {
            for exception in &mut folder.exceptions {
                exception.tree = Some(open_tree(
                    CWD,
                    exception.source.as_c_str(),
                    OpenTreeFlags::OPEN_TREE_CLONE
                        | OpenTreeFlags::OPEN_TREE_CLOEXEC
                        | OpenTreeFlags::AT_RECURSIVE,
                )?);
            }
        }
        let tmpfs_flags = MountFlags::NOSUID | MountFlags::NODEV | MountFlags::NOEXEC;
        for folder in &mut self.folders {
            mount(
                c"tmpfs",
                folder.path.as_c_str(),
                c"tmpfs",
                tmpfs_flags,
                Some(folder.options),
            )?;
            for exception in &mut folder.exceptions {
                for made in &exception.folders {
                    match rustix::fs::mkdir(made.as_c_str(), Mode::from_raw_mode(0o111)) {
                        Ok(()) | Err(Errno::EXIST) => {}
                        Err(e) => return Err(e),
                    }
                }
                if let (Some(tree), Some(target)) =
                    (exception.tree.take(), exception.folders.last())
                {
                    move_mount(
                        &tree,
                        c"",
                        CWD,
                        target.as_c_str(),
                        MoveMountFlags::MOVE_MOUNT_F_EMPTY_PATH,
                    )?;
                }
            }
            mount_remount(
                folder.path.as_c_str(),
                tmpfs_flags | MountFlags::RDONLY,
                c"",
            )?;
        }
        for file in &self.files {
            mount_bind(c"/dev/null", file.as_c_str())?;
        }
        // A second pair of namespaces locks every mount above together.
        self.enter_namespaces()?;
        if let Some(cwd) = &self.cwd {
            rustix::process::chdir(cwd.as_c_str())?;
        }
        Ok(())
    }

    /// A new user namespace in which the engine keeps its own user and group
    /// ids (mapped to themselves, so files keep their owners), and a new
    /// mount namespace owned by it.
    fn enter_namespaces(&self) -> Result<(), Errno> {
        // SAFETY: only namespaces are unshared, not the file table or other
        // state Rust relies on; the child is single-threaded after fork.
        unsafe { rustix::thread::unshare_unsafe(UnshareFlags::NEWUSER | UnshareFlags::NEWNS)? };
        write_file(c"/proc/self/setgroups", b"deny")?;
        write_file(c"/proc/self/uid_map", &self.uid_map)?;
        write_file(c"/proc/self/gid_map", &self.gid_map)
    }
}

/// `"<id> <id> 1"`: the id maps to itself and nothing else is mapped, the one
/// map an unprivileged process may write for itself.
fn identity_map(id: u32) -> Vec<u8> {
    format!("{id} {id} 1").into_bytes()
}

fn write_file(path: &std::ffi::CStr, bytes: &[u8]) -> Result<(), Errno> {
    let fd = rustix::fs::open(path, OFlags::WRONLY | OFlags::CLOEXEC, Mode::empty())?;
    let written = rustix::io::write(&fd, bytes)?;
    if written == bytes.len() {
        Ok(())
    } else {
        Err(Errno::IO)
    }
}

/// Whether this machine lets an unprivileged process make the namespaces
/// and covers above: a child is forked that takes every step on a throwaway
/// cover of the temporary folder and then stops short of `exec` on purpose.
pub(crate) fn probe() -> Result<(), std::io::Error> {
    use std::os::unix::process::CommandExt;
    // The child reports success with an errno nothing else returns here, so
    // nothing is ever executed.
    const DONE: i32 = libc::ECANCELED;
    let temp = std::env::temp_dir();
    let hidden: Vec<PathBuf> = if temp.is_dir() {
        vec![temp]
    } else {
        Vec::new()
    };
    let mut covers = Covers::build(&hidden, &[]);
    let mut command = std::process::Command::new("/");
    // SAFETY: `apply` only makes system calls on strings prepared before the fork.
    unsafe {
        command.pre_exec(move || {
            covers
                .apply()
                .map_err(|e| std::io::Error::from_raw_os_error(e.raw_os_error()))?;
            Err(std::io::Error::from_raw_os_error(DONE))
        })
    };
    match command.spawn() {
        Err(e) if e.raw_os_error() == Some(DONE) => Ok(()),
        Err(e) => Err(e),
        Ok(mut child) => {
            let _ = child.kill();
            let _ = child.wait();
            Err(std::io::Error::other("the probe ran past its own stop"))
        }
    }
}
