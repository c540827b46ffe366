//! The helpers against real processes: a folder served by `http.server` is
//! fetched over a socket and the server is gone once dropped; a child that
//! prints its port after other lines is waited for.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;

fn get(port: u16, path: &str) -> std::io::Result<String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    write!(stream, "GET /{path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")?;
    let mut reply = String::new();
    stream.read_to_string(&mut reply)?;
    Ok(reply)
}

#[test]
fn a_served_folder_answers_until_the_server_is_dropped() {
    let site = tempfile::tempdir().unwrap();
    std::fs::write(site.path().join("hello.txt"), "hello from the folder\n").unwrap();
    let server = test_servers::serve_directory_with(site.path(), |command| {
        command.env("SERVED_BY", "test");
    });
    let port = server.port;
    assert_eq!(
        server.url("hello.txt"),
        format!("http://127.0.0.1:{port}/hello.txt")
    );
    let environ = std::fs::read(format!("/proc/{}/environ", server.pid())).unwrap();
    assert!(
        environ
            .split(|byte| *byte == 0)
            .any(|entry| entry == b"SERVED_BY=test")
    );

    let reply = get(port, "hello.txt").unwrap();
    assert!(reply.starts_with("HTTP/1.0 200"), "{reply}");
    assert!(reply.ends_with("hello from the folder\n"), "{reply}");
    assert!(
        get(port, "missing.txt")
            .unwrap()
            .starts_with("HTTP/1.0 404")
    );

    drop(server);
    assert!(get(port, "hello.txt").is_err(), "still served after drop");
}

#[test]
fn a_child_is_waited_for_until_it_prints_its_port() {
    let script = "import socket, sys\n\
                  s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen()\n\
                  print('starting up'); print('ready, listening on', s.getsockname()[1])\n\
                  sys.stdout.flush(); s.accept()[0].sendall(b'hi')\n\
                  import time; time.sleep(60)\n";
    let mut command = Command::new("python3");
    command.args(["-c", script]);
    let server = test_servers::Server::start(command, "listening on ");
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    let mut greeting = String::new();
    stream.read_to_string(&mut greeting).unwrap();
    assert_eq!(greeting, "hi");
}
