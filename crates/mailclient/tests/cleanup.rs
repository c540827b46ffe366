//! Email Cleanup: senders grouped by volume with their unsubscribe method,
//! read from real-shaped headers, and the RFC 8058 one-click POST against a
//! real HTTP server on loopback.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::post;
use mailclient::{
    OneClickOptions, SenderHeaders, Unsubscribe, UnsubscribeError, cleanup, one_click_unsubscribe,
    sender_headers, unsubscribe_method,
};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/fixtures/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn list_headers_give_one_click() {
    let headers = sender_headers(&fixture("list.eml"), true);
    assert_eq!(headers.from, "Shop News <news@news.shop.example>");
    assert_eq!(
        headers.list_id.as_deref(),
        Some("Shop News <news.shop.example>")
    );
    assert_eq!(headers.date, Some(1_741_330_800));
    assert!(headers.unread);
    let method = unsubscribe_method(
        headers.list_unsubscribe.as_deref().unwrap(),
        headers.list_unsubscribe_post.as_deref(),
    );
    assert_eq!(
        method,
        Some(Unsubscribe::OneClick {
            url: "https://news.shop.example/u/one-click?t=abc123".to_owned()
        })
    );
}

#[test]
fn methods_fall_back_to_mailto_then_a_link() {
    let both = "<mailto:unsubscribe@news.shop.example?subject=unsubscribe%20ana&body=please>, <https://news.shop.example/u?t=1>";
    assert_eq!(
        unsubscribe_method(both, None),
        Some(Unsubscribe::Mailto {
            to: "unsubscribe@news.shop.example".to_owned(),
            subject: "unsubscribe ana".to_owned(),
            body: "please".to_owned(),
        })
    );
    assert_eq!(
        unsubscribe_method(
            "<https://news.shop.example/u?t=1>",
            Some("List-Unsubscribe=Later")
        ),
        Some(Unsubscribe::Link {
            url: "https://news.shop.example/u?t=1".to_owned()
        })
    );
    // One-click needs https.
    assert_eq!(
        unsubscribe_method(
            "<http://news.shop.example/u>",
            Some("List-Unsubscribe=One-Click")
        ),
        None
    );
    assert_eq!(unsubscribe_method("garbage, <also garbage>", None), None);
}

#[test]
fn senders_and_domains_are_grouped_by_volume() {
    let list = sender_headers(&fixture("list.eml"), true);
    let mut messages = vec![list.clone(), list.clone(), list];
    messages[0].unread = false;
    for (i, from) in [
        "Bob Lee <bob.lee@gmail.com>",
        "bob.lee@GMAIL.com",
        "Shop Orders <orders@shop.example>",
        "Carol <carol@example.net>",
        "not an address",
    ]
    .into_iter()
    .enumerate()
    {
        messages.push(SenderHeaders {
            from: from.to_owned(),
            date: Some(1_741_000_000 + i as i64),
            unread: i == 0,
            ..SenderHeaders::default()
        });
    }
    let report = cleanup(&messages);
    let top = &report.senders[0];
    assert_eq!(top.address, "news@news.shop.example");
    assert_eq!((top.count, top.unread), (3, 2));
    assert_eq!(top.name.as_deref(), Some("Shop News"));
    assert_eq!(top.last_date, Some(1_741_330_800));
    assert!(matches!(
        top.unsubscribe,
        Some(Unsubscribe::OneClick { .. })
    ));
    let bob = &report.senders[1];
    assert_eq!(bob.address, "bob.lee@gmail.com");
    assert_eq!((bob.count, bob.unread), (2, 1));
    assert_eq!(bob.name.as_deref(), Some("Bob Lee"));
    assert_eq!(bob.unsubscribe, None);
    assert_eq!(report.senders.len(), 4, "{:?}", report.senders);

    let domains: Vec<(&str, usize, usize)> = report
        .domains
        .iter()
        .map(|d| (d.domain.as_str(), d.count, d.senders))
        .collect();
    // Equal counts: the most recent first.
    assert_eq!(
        domains,
        [
            ("news.shop.example", 3, 1),
            ("gmail.com", 2, 1),
            ("example.net", 1, 1),
            ("shop.example", 1, 1)
        ]
    );
}

/// A loopback server recording each POST's body.
struct Server {
    base: String,
    bodies: Arc<Mutex<Vec<String>>>,
    _runtime: tokio::runtime::Runtime,
}

fn server() -> Server {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let bodies = Arc::new(Mutex::new(Vec::new()));
    let seen = bodies.clone();
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let record = move |headers: HeaderMap, body: String| {
        let seen = seen.clone();
        async move {
            assert_eq!(
                headers[header::CONTENT_TYPE],
                "application/x-www-form-urlencoded"
            );
            assert!(headers.get(header::COOKIE).is_none());
            seen.lock().unwrap().push(body);
        }
    };
    let ok = record.clone();
    let moved = record.clone();
    let app = Router::new()
        .route(
            "/ok",
            post(move |h, b| {
                let ok = ok.clone();
                async move {
                    ok(h, b).await;
                    StatusCode::OK
                }
            }),
        )
        .route(
            "/moved",
            post(move |h, b| {
                let moved = moved.clone();
                async move {
                    moved(h, b).await;
                    (StatusCode::TEMPORARY_REDIRECT, [(header::LOCATION, "/ok")]).into_response()
                }
            }),
        )
        .route(
            "/to-ftp",
            post(|| async {
                (
                    StatusCode::FOUND,
                    [(header::LOCATION, "ftp://evil.example/x")],
                )
            }),
        )
        .route(
            "/loop",
            post(|| async { (StatusCode::FOUND, [(header::LOCATION, "/loop")]) }),
        )
        .route("/gone", post(|| async { StatusCode::GONE }))
        .route(
            "/slow",
            post(|| async {
                tokio::time::sleep(Duration::from_secs(10)).await;
                StatusCode::OK
            }),
        );
    runtime.spawn(async move { axum::serve(listener, app).await });
    Server {
        base,
        bodies,
        _runtime: runtime,
    }
}

fn test_options() -> OneClickOptions {
    OneClickOptions {
        timeout: Duration::from_millis(1500),
        allow_http: true,
    }
}

#[test]
fn one_click_posts_the_rfc_8058_body_and_follows_a_redirect() {
    let server = server();
    let status = one_click_unsubscribe(&format!("{}/ok", server.base), &test_options()).unwrap();
    assert_eq!(status, 200);
    assert_eq!(
        *server.bodies.lock().unwrap(),
        ["List-Unsubscribe=One-Click"]
    );

    let status = one_click_unsubscribe(&format!("{}/moved", server.base), &test_options()).unwrap();
    assert_eq!(status, 200);
    assert_eq!(
        server.bodies.lock().unwrap().len(),
        3,
        "the POST is repeated after the move"
    );
}

#[test]
fn one_click_refuses_what_it_must() {
    let server = server();
    // http is refused outside tests, before any request is made.
    let error = one_click_unsubscribe(&format!("{}/ok", server.base), &OneClickOptions::default())
        .unwrap_err();
    assert!(matches!(error, UnsubscribeError::NotHttps(_)), "{error}");
    assert!(server.bodies.lock().unwrap().is_empty());

    let error =
        one_click_unsubscribe(&format!("{}/to-ftp", server.base), &test_options()).unwrap_err();
    assert!(
        matches!(error, UnsubscribeError::NotHttps(ref u) if u.starts_with("ftp:")),
        "{error}"
    );
    let error =
        one_click_unsubscribe(&format!("{}/loop", server.base), &test_options()).unwrap_err();
    assert!(
        matches!(error, UnsubscribeError::TooManyRedirects),
        "{error}"
    );
    let error =
        one_click_unsubscribe(&format!("{}/gone", server.base), &test_options()).unwrap_err();
    assert!(
        matches!(error, UnsubscribeError::Refused { status: 410 }),
        "{error}"
    );
    let started = std::time::Instant::now();
    let error =
        one_click_unsubscribe(&format!("{}/slow", server.base), &test_options()).unwrap_err();
    assert!(matches!(error, UnsubscribeError::Transport(_)), "{error}");
    assert!(started.elapsed() < Duration::from_secs(5));
}
