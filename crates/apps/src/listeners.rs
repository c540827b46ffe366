//! What the processes of sessions listen on, read from Linux's `/proc` the
//! way VS Code's port finder does: a process belongs to a session when its
//! environment holds `APP_SESSION_ID=<id>` (every process a session starts
//! inherits it), its sockets are the `socket:[inode]` links of its `fd`
//! folder, and the listening ones are the rows of `/proc/<pid>/net/tcp{,6}`
//! in state `0A` with those inodes (asked of the kernel over netlink for
//! this process's own network namespace, see [`crate::sock_diag`]).
//! Processes outside sessions are never listed.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::path::Path;

use crate::sock_diag;

/// The variable that marks a process as a session's.
pub const SESSION_VARIABLE: &str = "APP_SESSION_ID";

/// How much of a command line a listener keeps.
const COMMAND_MAX: usize = 200;

/// The kernel's `TCP_LISTEN`, as `/proc/net/tcp` prints it.
const LISTEN: &str = "0A";

/// One port a session's process listens on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listener {
    pub session_id: String,
    pub pid: u32,
    pub port: u16,
    /// `/proc/<pid>/cmdline`, its arguments joined by spaces, at most 200
    /// characters.
    pub command: String,
}

/// The ports the processes of `session_ids` listen on (loopback or every
/// address), one per session and port, the lowest pid's; sorted by session
/// and port. Unreadable processes are skipped: a scan never fails.
pub fn scan(session_ids: &HashSet<String>) -> Vec<Listener> {
    let proc = Path::new("/proc");
    if session_ids.is_empty() {
        return Vec::new();
    }
    let Ok(entries) = fs::read_dir(proc) else {
        return Vec::new();
    };
    // Socket inode → (pid, session) of the processes that hold it.
    let mut sockets: HashMap<u64, Vec<(u32, String)>> = HashMap::new();
    // One process per network namespace is enough to read its tables.
    let mut namespaces: HashMap<String, u32> = HashMap::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let dir = entry.path();
        let Some(session_id) = session_of(&dir, session_ids) else {
            continue;
        };
        let Ok(fds) = fs::read_dir(dir.join("fd")) else {
            continue;
        };
        let mut holds_socket = false;
        for fd in fds.flatten() {
            if let Some(inode) = fs::read_link(fd.path())
                .ok()
                .and_then(|link| socket_inode(link.to_str()?))
            {
                holds_socket = true;
                sockets
                    .entry(inode)
                    .or_default()
                    .push((pid, session_id.clone()));
            }
        }
        if holds_socket && let Ok(namespace) = fs::read_link(dir.join("ns/net")) {
            let namespace = namespace.to_string_lossy().into_owned();
            namespaces
                .entry(namespace)
                .and_modify(|known| *known = (*known).min(pid))
                .or_insert(pid);
        }
    }
    let own_namespace = fs::read_link(proc.join("self/ns/net")).ok();
    let mut found: BTreeMap<(String, u16), u32> = BTreeMap::new();
    for (namespace, pid) in &namespaces {
        let here = own_namespace
            .as_ref()
            .is_some_and(|own| own.as_os_str() == namespace.as_str());
        let listening = match here.then(sock_diag::listening) {
            Some(Ok(sockets)) => sockets
                .into_iter()
                .filter(|socket| reachable(socket.address))
                .map(|socket| (socket.inode, socket.port))
                .collect(),
            _ => tables_of(&proc.join(pid.to_string())),
        };
        for (inode, port) in listening {
            for (pid, session_id) in sockets.get(&inode).into_iter().flatten() {
                found
                    .entry((session_id.clone(), port))
                    .and_modify(|lowest| *lowest = (*lowest).min(*pid))
                    .or_insert(*pid);
            }
        }
    }
    found
        .into_iter()
        .map(|((session_id, port), pid)| Listener {
            command: command_of(&proc.join(pid.to_string())),
            session_id,
            pid,
            port,
        })
        .collect()
}

/// The session a process's environment names, when it is one of `ids`.
fn session_of(dir: &Path, ids: &HashSet<String>) -> Option<String> {
    let environ = fs::read(dir.join("environ")).ok()?;
    let prefix = format!("{SESSION_VARIABLE}=");
    environ.split(|b| *b == 0).find_map(|variable| {
        let id = std::str::from_utf8(variable.strip_prefix(prefix.as_bytes())?).ok()?;
        ids.contains(id).then(|| id.to_owned())
    })
}

/// `socket:[12345]` → 12345.
fn socket_inode(link: &str) -> Option<u64> {
    link.strip_prefix("socket:[")?
        .strip_suffix(']')?
        .parse()
        .ok()
}

/// The listening sockets of the network namespace process `dir` is in,
/// from its `net/tcp` and `net/tcp6` tables: for a namespace other than
/// this process's, which netlink cannot be asked about from here.
fn tables_of(dir: &Path) -> Vec<(u64, u16)> {
    ["tcp", "tcp6"]
        .into_iter()
        .filter_map(|table| fs::read_to_string(dir.join("net").join(table)).ok())
        .flat_map(|text| listening_rows(&text).collect::<Vec<_>>())
        .collect()
}

/// The (inode, port) of the rows of a `/proc/net/tcp{,6}` table that listen
/// on loopback or on every address.
fn listening_rows(table: &str) -> impl Iterator<Item = (u64, u16)> + '_ {
    table.lines().skip(1).filter_map(|row| {
        let fields: Vec<&str> = row.split_whitespace().collect();
        if fields.get(3) != Some(&LISTEN) {
            return None;
        }
        let (address, port) = fields.get(1)?.split_once(':')?;
        let port = u16::from_str_radix(port, 16).ok()?;
        let inode = fields.get(9)?.parse().ok()?;
        reachable(parse_address(address)?).then_some((inode, port))
    })
}

/// An address as the kernel prints it: each 32-bit word in hex, in the
/// machine's byte order.
fn parse_address(hex: &str) -> Option<IpAddr> {
    let word = |at: usize| -> Option<[u8; 4]> {
        let text = hex.get(at * 8..at * 8 + 8)?;
        Some(u32::from_str_radix(text, 16).ok()?.to_ne_bytes())
    };
    match hex.len() {
        8 => Some(IpAddr::V4(Ipv4Addr::from(word(0)?))),
        32 => {
            let mut bytes = [0u8; 16];
            for at in 0..4 {
                bytes[at * 4..at * 4 + 4].copy_from_slice(&word(at)?);
            }
            Some(IpAddr::V6(Ipv6Addr::from(bytes)))
        }
        _ => None,
    }
}

/// Whether the proxy can reach a server bound to `address`: loopback or
/// every address, in either family.
fn reachable(address: IpAddr) -> bool {
    let address = match address {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(address, IpAddr::V4),
        v4 => v4,
    };
    match address {
        IpAddr::V4(v4) => v4 == Ipv4Addr::LOCALHOST || v4.is_unspecified(),
        IpAddr::V6(v6) => v6 == Ipv6Addr::LOCALHOST || v6.is_unspecified(),
    }
}

fn command_of(dir: &Path) -> String {
    let Ok(raw) = fs::read(dir.join("cmdline")) else {
        return String::new();
    };
    let joined = raw
        .split(|b| *b == 0)
        .filter(|argument| !argument.is_empty())
        .map(String::from_utf8_lossy)
        .collect::<Vec<_>>()
        .join(" ");
    joined.chars().take(COMMAND_MAX).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    // The tables below are as a little-endian machine prints them.
    #[cfg(target_endian = "little")]
    #[test]
    fn rows_are_read_in_the_kernels_byte_order() {
        let tcp = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 111 1 0000000000000000 100 0 0 10 0\n   1: 0100007F:1F91 0100007F:A000 01 00000000:00000000 00:00000000 00000000  1000        0 112 1 0000000000000000 100 0 0 10 0\n   2: 0200A8C0:1F92 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 113 1 0000000000000000 100 0 0 10 0\n   3: 00000000:1F93 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 114 1 0000000000000000 100 0 0 10 0\n";
        // Listening on 127.0.0.1:8080 and 0.0.0.0:8083; connected, and
        // listening on 192.168.0.2 only, are not servers the proxy reaches.
        assert_eq!(
            listening_rows(tcp).collect::<Vec<_>>(),
            [(111, 8080), (114, 8083)]
        );
        let tcp6 = "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n   0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 211 1 0000000000000000 100 0 0 10 0\n   1: 00000000000000000000000000000000:1F91 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 212 1 0000000000000000 100 0 0 10 0\n   2: 0000000000000000FFFF00000100007F:1F92 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 213 1 0000000000000000 100 0 0 10 0\n";
        assert_eq!(
            listening_rows(tcp6).collect::<Vec<_>>(),
            [(211, 8080), (212, 8081), (213, 8082)]
        );
    }

    #[test]
    fn a_namespaces_tables_list_a_socket_listening_in_it() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let rows = tables_of(Path::new("/proc/self"));
        assert!(
            rows.iter().any(|(_, p)| *p == port),
            "{port} not in {rows:?}"
        );
    }

    #[test]
    fn socket_links_give_their_inode() {
        assert_eq!(socket_inode("socket:[4242]"), Some(4242));
        assert_eq!(socket_inode("pipe:[4242]"), None);
        assert_eq!(socket_inode("/dev/null"), None);
    }
}
