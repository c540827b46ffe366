//! The listening TCP sockets of this process's network namespace, asked of
//! the kernel over netlink (`sock_diag`, as `ss -tln` asks) through the
//! rust-netlink crates: it walks only the listening sockets, where reading
//! `/proc/net/tcp` walks every bucket of the connection table and takes
//! milliseconds on a machine with plenty of memory.

use std::io;
use std::net::IpAddr;

use netlink_packet_core::{
    NLM_F_DUMP, NLM_F_REQUEST, NetlinkHeader, NetlinkMessage, NetlinkPayload,
};
use netlink_packet_sock_diag::inet::{ExtensionFlags, InetRequest, SocketId, StateFlags};
use netlink_packet_sock_diag::{AF_INET, AF_INET6, IPPROTO_TCP, SockDiagMessage};
use netlink_sys::protocols::NETLINK_SOCK_DIAG;
use netlink_sys::{Socket, SocketAddr};

/// Room for one datagram of a dump: the kernel fills up to a page or two.
const RECEIVE_BUFFER: usize = 64 * 1024;

/// A listening socket: its inode, the address and port it is bound to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Listening {
    pub inode: u64,
    pub address: IpAddr,
    pub port: u16,
}

/// Every listening TCP socket, IPv4 and IPv6, of this network namespace.
pub fn listening() -> io::Result<Vec<Listening>> {
    let socket = Socket::new(NETLINK_SOCK_DIAG)?;
    let mut found = Vec::new();
    let mut buffer = Vec::with_capacity(RECEIVE_BUFFER);
    for (sequence, family) in (1u32..).zip([AF_INET, AF_INET6]) {
        send_request(&socket, family, sequence)?;
        read_replies(&socket, &mut buffer, &mut found)?;
    }
    Ok(found)
}

fn send_request(socket: &Socket, family: u8, sequence: u32) -> io::Result<()> {
    let mut header = NetlinkHeader::default();
    header.flags = NLM_F_REQUEST | NLM_F_DUMP;
    header.sequence_number = sequence;
    let socket_id = if family == AF_INET6 {
        SocketId::new_v6()
    } else {
        SocketId::new_v4()
    };
    let mut request = NetlinkMessage::new(
        header,
        SockDiagMessage::InetRequest(InetRequest {
            family,
            protocol: IPPROTO_TCP,
            extensions: ExtensionFlags::empty(),
            states: StateFlags::LISTEN,
            socket_id,
        })
        .into(),
    );
    request.finalize();
    let mut bytes = vec![0; request.buffer_len()];
    request.serialize(&mut bytes);
    let kernel = SocketAddr::new(0, 0);
    socket.send_to(&bytes, &kernel, 0)?;
    Ok(())
}

/// Reads the dump's datagrams until the kernel says it is done.
fn read_replies(
    socket: &Socket,
    buffer: &mut Vec<u8>,
    found: &mut Vec<Listening>,
) -> io::Result<()> {
    loop {
        buffer.clear();
        if socket.recv(buffer, 0)? == 0 {
            return Ok(());
        }
        let mut rest = buffer.as_slice();
        while !rest.is_empty() {
            let message = NetlinkMessage::<SockDiagMessage>::deserialize(rest)
                .map_err(|error| io::Error::new(io::ErrorKind::InvalidData, error))?;
            match message.payload {
                NetlinkPayload::Done(_) => return Ok(()),
                NetlinkPayload::Error(error) => return Err(error.to_io()),
                NetlinkPayload::InnerMessage(SockDiagMessage::InetResponse(response)) => {
                    found.push(Listening {
                        inode: u64::from(response.header.inode),
                        address: response.header.socket_id.source_address,
                        port: response.header.socket_id.source_port,
                    });
                }
                _ => {}
            }
            // A checked message is never shorter than its header; the
            // kernel pads each to 4 bytes.
            let next = (message.header.length as usize).next_multiple_of(4);
            rest = rest.get(next..).unwrap_or(&[]);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::net::{Ipv4Addr, Ipv6Addr, TcpListener};
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
