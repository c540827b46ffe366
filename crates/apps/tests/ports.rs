//! Ports handed to sessions: the same holder keeps its port, the lowest
//! free one goes to a newcomer, a port another program holds is skipped,
//! one set aside stays out of the range until its session ends, and an
//! exhausted range says which range.

use std::net::{Ipv4Addr, TcpListener};

use apps::{AppsError, PortRange, Ports};

/// A free range of `size` ports on this machine, found by binding them.
fn free_range(size: u16) -> PortRange {
    for start in (20_000..40_000).step_by(usize::from(size) + 7) {
        let all_free = (start..start + size)
            .all(|port| TcpListener::bind((Ipv4Addr::LOCALHOST, port)).is_ok());
        if all_free {
            return PortRange {
                start,
                end: start + size - 1,
            };
        }
    }
    panic!("no free range of {size} ports");
}

#[test]
fn the_default_range_is_4100_to_4999() {
    assert_eq!(
        PortRange::default(),
        PortRange {
            start: 4100,
            end: 4999
        }
    );
}

#[test]
fn a_holder_keeps_its_port_and_a_newcomer_gets_the_lowest_free_one() {
    let range = free_range(3);
    let ports = Ports::new(range);
    let a = ports.take("a", true).unwrap();
    assert_eq!(a, range.start);
    assert_eq!(ports.take("a", true).unwrap(), a);
    let b = ports.take("b", true).unwrap();
    assert_eq!(b, range.start + 1);
    assert_eq!(ports.held("b"), Some(b));
    assert_eq!(ports.release("a"), Some(a));
    assert_eq!(ports.held("a"), None);
    assert_eq!(
        ports.take("c", true).unwrap(),
        a,
        "a released port is handed out again"
    );
}

#[test]
fn a_port_another_program_holds_is_skipped_only_when_checked() {
    let range = free_range(2);
    let _other = TcpListener::bind((Ipv4Addr::LOCALHOST, range.start)).unwrap();
    let ports = Ports::new(range);
    assert_eq!(ports.take("checked", true).unwrap(), range.start + 1);
    // A runner's ports cannot be tried from here.
    let ports = Ports::new(range);
    assert_eq!(ports.take("remote", false).unwrap(), range.start);
}

#[test]
fn an_exhausted_range_names_itself() {
    let range = free_range(2);
    let ports = Ports::new(range);
    ports.take("a", false).unwrap();
    ports.take("b", false).unwrap();
    let error = ports.take("c", false).unwrap_err();
    assert!(
        matches!(error, AppsError::RangeExhausted { start, end } if start == range.start && end == range.end)
    );
    let message = error.to_string();
    assert!(
        message.starts_with(&format!(
            "every port of {}-{} is taken",
            range.start, range.end
        )),
        "{message}"
    );
}

#[test]
fn a_port_set_aside_goes_to_no_one_until_its_session_gives_its_ports_back() {
    let range = free_range(3);
    let ports = Ports::new(range);
    let first = ports.take("s1/web", false).unwrap();
    assert_eq!(ports.set_aside("s1/web"), Some(first));
    assert_eq!(ports.held("s1/web"), None);
    let next = ports.take("s1/web", false).unwrap();
    assert_eq!(next, first + 1);
    assert_eq!(ports.take("s2", false).unwrap(), first + 2);
    assert_eq!(ports.set_aside("nobody"), None);
    ports.release_session("s1");
    assert_eq!(ports.take("s3", false).unwrap(), first);
}

#[test]
fn a_session_gives_back_its_own_port_and_its_apps() {
    let ports = Ports::new(free_range(4));
    ports.take("s1", false).unwrap();
    ports.take("s1/web", false).unwrap();
    ports.take("s10", false).unwrap();
    ports.release_session("s1");
    assert_eq!(ports.held("s1"), None);
    assert_eq!(ports.held("s1/web"), None);
    assert!(
        ports.held("s10").is_some(),
        "another session that shares a prefix keeps its port"
    );
}

#[test]
fn ports_are_shared_between_threads() {
    let ports = Ports::new(free_range(50));
    let handles: Vec<_> = (0..8)
        .map(|thread| {
            let ports = ports.clone();
            std::thread::spawn(move || {
                (0..5)
                    .map(|n| ports.take(&format!("{thread}-{n}"), false).unwrap())
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut all: Vec<u16> = handles
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), 40, "no port handed out twice");
}
