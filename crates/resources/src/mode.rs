//! Which mechanism this machine gives Switchboard: a delegated cgroup v2
//! subtree, the v1 hierarchies, or neither (then nice, `ioprio_set` and
//! `RLIMIT_NPROC`), read from `/proc/self/cgroup` and `/proc/self/mountinfo`
//! and proved by making the parent folder.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The v1 controllers Switchboard uses, by the name the kernel gives them.
pub const V1_CONTROLLERS: [&str; 6] = ["cpu", "cpuacct", "memory", "pids", "blkio", "cpuset"];

/// Where each hierarchy this process sits in is, and its place in it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Layout {
    /// The v2 hierarchy's mount and this process's folder in it.
    pub unified: Option<PathBuf>,
    /// Controllers the v2 hierarchy offers at this process's folder.
    pub unified_controllers: Vec<String>,
    /// Each v1 controller's folder for this process.
    pub v1: BTreeMap<String, PathBuf>,
}

/// Reads the layout from the two files' text.
pub fn layout(proc_cgroup: &str, mountinfo: &str) -> Layout {
    // mount point by the controllers its options name ("cpu,cpuacct"), and
    // the v2 mount.
    let mut v1_mounts: Vec<(Vec<String>, PathBuf, String)> = Vec::new();
    let mut unified_mount: Option<(PathBuf, String)> = None;
    for line in mountinfo.lines() {
        let Some((left, right)) = line.split_once(" - ") else {
            continue;
        };
        let fields: Vec<&str> = left.split(' ').collect();
        let rest: Vec<&str> = right.split(' ').collect();
        let (Some(root), Some(point), Some(fstype)) = (fields.get(3), fields.get(4), rest.first())
        else {
            continue;
        };
        match *fstype {
            "cgroup2" => unified_mount = Some((PathBuf::from(point), (*root).to_owned())),
            "cgroup" => {
                let options = rest.get(2).copied().unwrap_or_default();
                let controllers = options
                    .split(',')
                    .filter(|o| V1_CONTROLLERS.contains(o))
                    .map(str::to_owned)
                    .collect::<Vec<_>>();
                if !controllers.is_empty() {
                    v1_mounts.push((controllers, PathBuf::from(point), (*root).to_owned()));
                }
            }
            _ => {}
        }
    }
    let mut layout = Layout::default();
    for line in proc_cgroup.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        if controllers.is_empty() {
            if let Some((mount, root)) = &unified_mount {
                layout.unified = Some(join(mount, root, path));
            }
            continue;
        }
        for controller in controllers.split(',') {
            if let Some((_, mount, root)) = v1_mounts
                .iter()
                .find(|(c, _, _)| c.iter().any(|c| c == controller))
            {
                layout
                    .v1
                    .insert(controller.to_owned(), join(mount, root, path));
            }
        }
    }
    layout
}

/// The folder of `path` (as `/proc/self/cgroup` gives it) under a mount
/// whose root is `root` (a container sees its own cgroup as `/`).
fn join(mount: &Path, root: &str, path: &str) -> PathBuf {
    let relative = path
        .strip_prefix(root)
        .filter(|_| root != "/")
        .unwrap_or(path)
        .trim_start_matches('/');
    if relative.is_empty() {
        mount.to_owned()
    } else {
        mount.join(relative)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOUNTINFO: &str = "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw";

    #[test]
    fn each_controller_is_found_at_this_process_place_in_its_hierarchy() {
        let cgroup = "9:name=systemd:/\n8:pids:/\n4:memory:/process_api/bc3e\n2:cpu,cpuacct:/\n0::/user.slice/app.scope\n";
        let layout = layout(cgroup, MOUNTINFO);
        assert_eq!(layout.v1["cpu"], Path::new("/sys/fs/cgroup/cpu,cpuacct"));
        assert_eq!(
            layout.v1["cpuacct"],
            Path::new("/sys/fs/cgroup/cpu,cpuacct")
        );
        assert_eq!(
            layout.v1["memory"],
            Path::new("/sys/fs/cgroup/memory/process_api/bc3e")
        );
        assert_eq!(layout.v1["pids"], Path::new("/sys/fs/cgroup/pids"));
        assert!(!layout.v1.contains_key("blkio"));
        assert_eq!(
            layout.unified.as_deref(),
            Some(Path::new("/sys/fs/cgroup/unified/user.slice/app.scope"))
        );
    }

    #[test]
    fn a_pure_v2_machine_has_no_v1_controllers() {
        let mountinfo = "30 23 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate";
        let layout = layout(
            "0::/user.slice/user-1000.slice/user@1000.service/app.slice/sb.service\n",
            mountinfo,
        );
        assert!(layout.v1.is_empty());
        assert_eq!(
            layout.unified.as_deref(),
            Some(Path::new(
                "/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/app.slice/sb.service"
            ))
        );
    }

    #[test]
    fn a_container_sees_its_own_cgroup_as_the_root() {
        let mountinfo = "41 31 0:38 /kubepods/pod1 /sys/fs/cgroup rw - cgroup2 cgroup2 rw";
        let layout = layout("0::/kubepods/pod1\n", mountinfo);
        assert_eq!(layout.unified.as_deref(), Some(Path::new("/sys/fs/cgroup")));
    }
}
