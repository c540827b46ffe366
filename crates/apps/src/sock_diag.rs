//! The listening TCP sockets of this process's network namespace, asked of
//! the kernel over netlink (`sock_diag`, as `ss -tln` asks): it walks only
//! the listening sockets, where reading `/proc/net/tcp` walks every bucket
//! of the connection table and takes milliseconds on a machine with plenty
//! of memory.

use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// `SOCK_DIAG_BY_FAMILY` from `linux/sock_diag.h`.
const SOCK_DIAG_BY_FAMILY: u16 = 20;

/// `TCP_LISTEN` from the kernel's TCP states.
const TCP_LISTEN: u32 = 10;

const HEADER_LEN: usize = 16;
/// `struct inet_diag_req_v2`.
const REQUEST_LEN: usize = 56;
/// `struct inet_diag_msg`, up to and with its inode.
const MESSAGE_LEN: usize = 72;

/// A listening socket: its inode, the address and port it is bound to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Listening {
    pub inode: u64,
    pub address: IpAddr,
    pub port: u16,
}

/// Every listening TCP socket, IPv4 and IPv6, of this network namespace.
pub fn listening() -> io::Result<Vec<Listening>> {
    // SAFETY: socket takes three integers and returns a new descriptor or -1.
    let raw = unsafe {
        libc::socket(
            libc::AF_NETLINK,
            libc::SOCK_DGRAM | libc::SOCK_CLOEXEC,
            libc::NETLINK_SOCK_DIAG,
        )
    };
    if raw < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `raw` is a descriptor just opened and owned by nothing else.
    let socket = unsafe { OwnedFd::from_raw_fd(raw) };
    let mut found = Vec::new();
    for (sequence, family) in (1u32..).zip([libc::AF_INET, libc::AF_INET6]) {
        send_request(&socket, family, sequence)?;
        read_replies(&socket, &mut found)?;
    }
    Ok(found)
}

fn send_request(socket: &OwnedFd, family: libc::c_int, sequence: u32) -> io::Result<()> {
    let mut request = [0u8; HEADER_LEN + REQUEST_LEN];
    let flags = u16::try_from(libc::NLM_F_REQUEST | libc::NLM_F_DUMP).unwrap_or(0);
    request[0..4].copy_from_slice(&((HEADER_LEN + REQUEST_LEN) as u32).to_ne_bytes());
    request[4..6].copy_from_slice(&SOCK_DIAG_BY_FAMILY.to_ne_bytes());
    request[6..8].copy_from_slice(&flags.to_ne_bytes());
    request[8..12].copy_from_slice(&sequence.to_ne_bytes());
    let body = &mut request[HEADER_LEN..];
    body[0] = u8::try_from(family).unwrap_or(0);
    body[1] = u8::try_from(libc::IPPROTO_TCP).unwrap_or(0);
    body[4..8].copy_from_slice(&(1u32 << TCP_LISTEN).to_ne_bytes());
    // SAFETY: an all-zero sockaddr_nl is valid; the family is set below.
    let mut kernel: libc::sockaddr_nl = unsafe { std::mem::zeroed() };
    kernel.nl_family = libc::AF_NETLINK as libc::sa_family_t;
    // SAFETY: the buffer and the address are valid for the lengths given.
    let sent = unsafe {
        libc::sendto(
            socket.as_raw_fd(),
            request.as_ptr().cast(),
            request.len(),
            0,
            (&raw const kernel).cast(),
            std::mem::size_of::<libc::sockaddr_nl>() as libc::socklen_t,
        )
    };
    if sent < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Reads the dump's parts until the kernel says it is done.
fn read_replies(socket: &OwnedFd, found: &mut Vec<Listening>) -> io::Result<()> {
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        // SAFETY: the buffer is valid for its length.
        let read = unsafe {
            libc::recv(
                socket.as_raw_fd(),
                buffer.as_mut_ptr().cast(),
                buffer.len(),
                0,
            )
        };
        let Ok(read) = usize::try_from(read) else {
            return Err(io::Error::last_os_error());
        };
        if read == 0 {
            return Ok(());
        }
        let mut rest = &buffer[..read];
        while rest.len() >= HEADER_LEN {
            let length = u32_at(rest, 0) as usize;
            let kind = u16::from_ne_bytes([rest[4], rest[5]]);
            if length < HEADER_LEN || length > rest.len() {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "a netlink message longer than what was read",
                ));
            }
            let payload = &rest[HEADER_LEN..length];
            match kind {
                k if k == libc::NLMSG_DONE as u16 => return Ok(()),
                k if k == libc::NLMSG_ERROR as u16 => {
                    let errno = payload
                        .get(0..4)
                        .map_or(0, |b| i32::from_ne_bytes([b[0], b[1], b[2], b[3]]));
                    return Err(io::Error::from_raw_os_error(-errno));
                }
                _ => found.extend(parse_message(payload)),
            }
            // Messages are aligned to 4 bytes.
            let next = (length + 3) & !3;
            rest = rest.get(next..).unwrap_or(&[]);
        }
    }
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_ne_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// One `struct inet_diag_msg`: family, state, ports in network order, the
/// source address, and the inode at its end.
fn parse_message(message: &[u8]) -> Option<Listening> {
    if message.len() < MESSAGE_LEN {
        return None;
    }
    let port = u16::from_be_bytes([message[4], message[5]]);
    let source = &message[8..24];
    let address = match i32::from(message[0]) {
        libc::AF_INET => IpAddr::V4(Ipv4Addr::new(source[0], source[1], source[2], source[3])),
        libc::AF_INET6 => {
            let mut octets = [0u8; 16];
            octets.copy_from_slice(source);
            IpAddr::V6(Ipv6Addr::from(octets))
        }
        _ => return None,
    };
    Some(Listening {
        inode: u64::from(u32_at(message, 68)),
        address,
        port,
    })
}

#[cfg(test)]
mod tests {
    use std::net::TcpListener;
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::MetadataExt;

    use super::*;

    #[test]
    fn a_socket_bound_here_is_listed_with_its_inode() {
        let v4 = TcpListener::bind("127.0.0.1:0").unwrap();
        let v6 = TcpListener::bind("[::1]:0").ok();
        let inode_of = |listener: &TcpListener| {
            std::fs::metadata(format!("/proc/self/fd/{}", listener.as_raw_fd()))
                .unwrap()
                .ino()
        };
        let found = listening().unwrap();
        assert!(found.contains(&Listening {
            inode: inode_of(&v4),
            address: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: v4.local_addr().unwrap().port(),
        }));
        if let Some(v6) = v6 {
            assert!(found.contains(&Listening {
                inode: inode_of(&v6),
                address: IpAddr::V6(Ipv6Addr::LOCALHOST),
                port: v6.local_addr().unwrap().port(),
            }));
        }
        let connected = std::net::TcpStream::connect(v4.local_addr().unwrap()).unwrap();
        let port = connected.local_addr().unwrap().port();
        assert!(
            listening().unwrap().iter().all(|l| l.port != port),
            "only listening sockets"
        );
    }
}
