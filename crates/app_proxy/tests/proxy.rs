//! The proxy against real dev servers on real sockets: Python's
//! `http.server` for files, and a Node server (tests/fixtures/app.js) for
//! headers, uploads, server-sent events, a broken response and WebSockets.

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{Request, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::{TokioExecutor, TokioIo};
use serde_json::Value;
use tokio::net::TcpStream;

use support::websocket::{CLOSE, TEXT, WebSocket};
use support::{
    TestRoutes, free_port, get, node_server, python_server, raw, read, send, start_proxy,
};

fn json(body: &[u8]) -> Value {
    serde_json::from_slice(body).unwrap()
}

#[tokio::test]
async fn files_come_through_the_proxy_as_they_come_directly() {
    let directory = tempfile::tempdir().unwrap();
    std::fs::write(directory.path().join("hello.txt"), "hello from python\n").unwrap();
    let big: Vec<u8> = (0..20 * 1024 * 1024)
        .map(|i: u32| (i % 251) as u8)
        .collect();
    std::fs::write(directory.path().join("big.bin"), &big).unwrap();
    let python = python_server(directory.path()).await;
    let routes = Arc::new(TestRoutes::default());
    routes.app("files", python.port);
    let proxy = start_proxy(routes).await;

    let direct = get(python.port, "127.0.0.1", "/hello.txt").await;
    let proxied = get(
        proxy.port,
        &format!("files.localhost:{}", proxy.port),
        "/hello.txt",
    )
    .await;
    assert_eq!(proxied.status, StatusCode::OK);
    assert_eq!(proxied.body, direct.body);
    assert_eq!(
        proxied.headers.get("content-type"),
        direct.headers.get("content-type")
    );

    let proxied = get(proxy.port, "files.localhost", "/big.bin").await;
    assert_eq!(proxied.status, StatusCode::OK);
    assert_eq!(proxied.headers.get("content-length").unwrap(), "20971520");
    assert!(proxied.body == big, "the 20 MB file came through changed");
}

#[tokio::test]
async fn the_app_sees_its_own_host_and_never_the_ui_cookie() {
    let node = node_server().await;
    let routes = Arc::new(TestRoutes::default());
    routes.app("web.fix-login", node.port);
    let proxy = start_proxy(routes).await;

    let original_host = format!("Web.Fix-Login.localhost:{}", proxy.port);
    let request = Request::post("/headers?x=1&y=two")
        .header("host", &original_host)
        .header("cookie", "a=1; switchboard_ui=secret; b=2")
        .header("x-custom", "kept")
        .header("proxy-authorization", "Basic c2VjcmV0")
        .body(Full::new(Bytes::from_static(b"{}")))
        .unwrap();
    let answer = read(send(proxy.port, request).await).await;
    assert_eq!(answer.status, StatusCode::OK);
    let set_cookies: Vec<_> = answer.headers.get_all("set-cookie").iter().collect();
    assert_eq!(set_cookies, ["app_session=abc; Path=/", "theme=dark"]);

    let seen = json(&answer.body);
    assert_eq!(seen["method"], "POST");
    assert_eq!(seen["url"], "/headers?x=1&y=two");
    let headers = &seen["headers"];
    assert_eq!(headers["host"], format!("localhost:{}", node.port));
    assert_eq!(headers["x-forwarded-host"], original_host);
    assert_eq!(headers["x-forwarded-proto"], "http");
    assert_eq!(headers["x-forwarded-port"], proxy.port.to_string());
    assert_eq!(headers["x-forwarded-for"], "127.0.0.1");
    assert_eq!(headers["cookie"], "a=1; b=2");
    assert_eq!(headers["x-custom"], "kept");
    assert!(headers.get("proxy-authorization").is_none(), "{headers}");
}

#[tokio::test]
async fn connections_to_the_app_are_kept_alive_between_requests() {
    let node = node_server().await;
    let routes = Arc::new(TestRoutes::default());
    routes.app("web", node.port);
    let proxy = start_proxy(routes).await;

    let mut ports = Vec::new();
    for _ in 0..3 {
        let answer = get(proxy.port, "web.localhost", "/headers").await;
        ports.push(json(&answer.body)["remotePort"].as_u64().unwrap());
    }
    assert!(
        ports.iter().all(|port| *port == ports[0]),
        "new connections: {ports:?}"
    );
}

#[tokio::test]
async fn an_http2_request_with_prior_knowledge_is_served() {
    let node = node_server().await;
    let routes = Arc::new(TestRoutes::default());
    routes.app("web", node.port);
    let proxy = start_proxy(routes).await;

    let stream = TcpStream::connect(("127.0.0.1", proxy.port)).await.unwrap();
    let (mut sender, connection) =
        hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(stream))
            .await
            .unwrap();
    tokio::spawn(connection);
    let request = Request::get(format!("http://web.localhost:{}/headers?h2=1", proxy.port))
        .header("cookie", "switchboard_ui=secret")
        .header("cookie", "theme=dark")
        .body(Full::<Bytes>::default())
        .unwrap();
    let response = sender.send_request(request).await.unwrap();
    assert_eq!(response.version(), http::Version::HTTP_2);
    let answer = read(response).await;
    assert_eq!(answer.status, StatusCode::OK);
    let seen = json(&answer.body);
    assert_eq!(seen["httpVersion"], "1.1");
    assert_eq!(seen["url"], "/headers?h2=1");
    assert_eq!(seen["headers"]["host"], format!("localhost:{}", node.port));
    assert_eq!(
        seen["headers"]["x-forwarded-host"],
        format!("web.localhost:{}", proxy.port)
    );
    assert_eq!(seen["headers"]["cookie"], "theme=dark");

    let stranger = Request::get(format!("http://evil.com:{}/", proxy.port))
        .body(Full::<Bytes>::default())
        .unwrap();
    let refused = sender.send_request(stranger).await.unwrap();
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_large_upload_streams_to_the_app() {
    let node = node_server().await;
    let routes = Arc::new(TestRoutes::default());
    routes.app("web", node.port);
    let proxy = start_proxy(routes).await;

    let upload = Bytes::from(vec![7_u8; 20 * 1024 * 1024]);
    let request = Request::post("/upload")
        .header("host", "web.localhost")
        .body(Full::new(upload))
        .unwrap();
    let answer = read(send(proxy.port, request).await).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(json(&answer.body)["bytes"], 20 * 1024 * 1024);
}

#[tokio::test]
async fn server_sent_events_arrive_as_they_are_sent() {
    let node = node_server().await;
    let routes = Arc::new(TestRoutes::default());
    routes.app("web", node.port);
    let proxy = start_proxy(routes).await;

    let started = Instant::now();
    let request = Request::get("/events")
        .header("host", "web.localhost")
        .body(Full::<Bytes>::default())
        .unwrap();
    let response = send(proxy.port, request).await;
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let mut body = response.into_body();
    let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
    let first_after = started.elapsed();
    assert_eq!(&first[..], b"data: event 1\n\n");
    // The app sends ten events 100 ms apart: the first must not wait for the end.
    assert!(
        first_after < Duration::from_millis(700),
        "first event after {first_after:?}"
    );
    let rest = body.collect().await.unwrap().to_bytes();
    assert!(String::from_utf8_lossy(&rest).ends_with("data: event 10\n\n"));
}

#[tokio::test]
async fn an_app_that_breaks_off_a_response_ends_the_clients() {
    let node = node_server().await;
    let routes = Arc::new(TestRoutes::default());
    routes.app("web", node.port);
    let proxy = start_proxy(routes).await;

    let request = Request::get("/broken")
        .header("host", "web.localhost")
        .body(Full::<Bytes>::default())
        .unwrap();
    let response = send(proxy.port, request).await;
    assert_eq!(response.status(), StatusCode::OK);
    let ended = tokio::time::timeout(Duration::from_secs(5), response.into_body().collect()).await;
    assert!(
        matches!(ended, Ok(Err(_))),
        "a cut-off body must end in an error, not hang or look complete"
    );
}

#[tokio::test]
async fn a_websocket_echoes_through_the_proxy_and_closes_when_the_app_closes_it() {
    let node = node_server().await;
    let routes = Arc::new(TestRoutes::default());
    routes.app("web", node.port);
    let proxy = start_proxy(routes).await;

    let (mut socket, head) = WebSocket::connect(proxy.port, "web.localhost", "/hmr").await;
    assert!(
        head.to_ascii_lowercase()
            .contains(&format!("x-seen-host: localhost:{}", node.port)),
        "{head}"
    );
    socket.send(TEXT, b"hello through the proxy").await;
    assert_eq!(
        socket.receive().await,
        Some((TEXT, b"hello through the proxy".to_vec()))
    );
    let long = vec![b'x'; 70_000];
    socket.send(TEXT, &long).await;
    assert_eq!(socket.receive().await, Some((TEXT, long)));

    socket.send(TEXT, b"close-me").await;
    let (opcode, _) = socket.receive().await.unwrap();
    assert_eq!(opcode, CLOSE);
    let after_close = tokio::time::timeout(Duration::from_secs(5), socket.receive()).await;
    assert_eq!(after_close, Ok(None), "the proxy kept our side open");
}

#[tokio::test]
async fn names_outside_localhost_are_refused() {
    let routes = Arc::new(TestRoutes::default());
    routes.app("web", free_port());
    let proxy = start_proxy(routes).await;

    for host in [
        "evil.com",
        "127.0.0.1",
        "localhost",
        "web.localhost.evil.com",
    ] {
        let answer = get(proxy.port, &format!("{host}:{}", proxy.port), "/").await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{host}");
        assert!(
            answer
                .text()
                .contains("only serves the Running apps at *.localhost names")
        );
    }
    let no_host = raw(proxy.port, "GET / HTTP/1.0\r\n\r\n").await;
    assert!(no_host.starts_with("HTTP/1.0 403"), "{no_host}");
    let absolute = raw(
        proxy.port,
        "GET http://evil.com/ HTTP/1.1\r\nHost: web.localhost\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(absolute.starts_with("HTTP/1.1 403"), "{absolute}");
    let connect = raw(
        proxy.port,
        "CONNECT evil.com:443 HTTP/1.1\r\nHost: evil.com:443\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(connect.starts_with("HTTP/1.1 405"), "{connect}");
}

#[tokio::test]
async fn an_unknown_name_gets_a_page_listing_the_running_apps() {
    let routes = Arc::new(TestRoutes::default());
    routes.app("web.fix-login", free_port());
    routes.app("docs", free_port());
    let proxy = start_proxy(routes).await;

    let answer = get(proxy.port, "nothing<b>.localhost", "/").await;
    assert_eq!(
        answer.status,
        StatusCode::FORBIDDEN,
        "odd characters are no name"
    );

    let answer = get(proxy.port, "api.localhost", "/").await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(answer.headers["content-type"], "text/html; charset=utf-8");
    let page = answer.text();
    assert!(
        page.contains("No app is running at api.localhost"),
        "{page}"
    );
    assert!(
        page.contains("<a href=\"http://docs.localhost:1/\">docs</a>"),
        "{page}"
    );
    assert!(page.contains("<a href=\"http://web.fix-login.localhost:1/\">web.fix-login</a>"));
}

#[tokio::test]
async fn apps_that_are_gone_get_a_502_that_says_why() {
    let routes = Arc::new(TestRoutes::default());
    routes.app("silent", free_port());
    routes.stopped("old");
    routes.on_runner("remote", 3000, "build-box");
    let proxy = start_proxy(routes).await;

    let silent = get(proxy.port, "silent.localhost", "/").await;
    assert_eq!(silent.status, StatusCode::BAD_GATEWAY);
    assert!(
        silent
            .text()
            .contains("silent is not answering (it may be starting or has stopped)")
    );

    let old = get(proxy.port, "old.localhost", "/").await;
    assert_eq!(old.status, StatusCode::BAD_GATEWAY);
    assert!(old.text().contains("old has stopped"));
    assert!(
        old.text().contains(">silent</a>"),
        "the page lists what runs"
    );

    let remote = get(proxy.port, "remote.localhost", "/").await;
    assert_eq!(remote.status, StatusCode::BAD_GATEWAY);
    assert!(
        remote
            .text()
            .contains("the runner build-box is away: its connection dropped"),
        "{}",
        remote.text()
    );
}

#[tokio::test]
async fn shutting_down_closes_the_listener_and_open_websockets() {
    let node = node_server().await;
    let routes = Arc::new(TestRoutes::default());
    routes.app("web", node.port);
    let proxy = start_proxy(routes).await;
    let port = proxy.port;

    let (mut socket, _) = WebSocket::connect(port, "web.localhost", "/hmr").await;
    socket.send(TEXT, b"before").await;
    assert_eq!(socket.receive().await, Some((TEXT, b"before".to_vec())));

    tokio::time::timeout(Duration::from_secs(5), proxy.stop())
        .await
        .expect("serve returned");
    let closed = tokio::time::timeout(Duration::from_secs(5), socket.receive()).await;
    assert_eq!(closed, Ok(None), "the WebSocket outlived the proxy");
    assert!(TcpStream::connect(("127.0.0.1", port)).await.is_err());
}
