//! The headers a hop owns and the ones the proxy adds: hop-by-hop headers
//! are dropped both ways, the Host becomes what dev servers accept, the
//! original is kept in `X-Forwarded-*`, and the UI's cookie never reaches an
//! app.

use std::net::IpAddr;

use http::header::{
    CONNECTION, COOKIE, HOST, HeaderMap, HeaderName, HeaderValue, TE, TRAILER, TRANSFER_ENCODING,
    UPGRADE,
};

const KEEP_ALIVE: &str = "keep-alive";
const X_FORWARDED_HOST: &str = "x-forwarded-host";
const X_FORWARDED_PROTO: &str = "x-forwarded-proto";
const X_FORWARDED_FOR: &str = "x-forwarded-for";
const X_FORWARDED_PORT: &str = "x-forwarded-port";

/// The protocol an HTTP/1.1 request asks to switch to (`websocket`), when it
/// asks properly: an `Upgrade` header and `upgrade` among `Connection`'s
/// tokens. `h2c` is not passed on: the proxy speaks HTTP/1.1 to apps.
pub fn upgrade_protocol(headers: &HeaderMap) -> Option<HeaderValue> {
    let asks = connection_tokens(headers).any(|token| token.eq_ignore_ascii_case("upgrade"));
    let protocol = headers.get(UPGRADE)?;
    let h2c = protocol
        .to_str()
        .is_ok_and(|text| text.trim().eq_ignore_ascii_case("h2c"));
    (asks && !h2c).then(|| protocol.clone())
}

/// Drops the headers that belong to one hop: those `Connection` names,
/// `Connection` itself, Keep-Alive, Proxy-*, TE, Trailer,
/// Transfer-Encoding and Upgrade.
pub fn strip_hop_by_hop(headers: &mut HeaderMap) {
    let named: Vec<HeaderName> = connection_tokens(headers)
        .filter_map(|token| HeaderName::from_bytes(token.as_bytes()).ok())
        .collect();
    for name in named {
        headers.remove(name);
    }
    for name in [CONNECTION, TE, TRAILER, TRANSFER_ENCODING, UPGRADE] {
        headers.remove(name);
    }
    headers.remove(KEEP_ALIVE);
    let proxy_headers: Vec<HeaderName> = headers
        .keys()
        .filter(|name| name.as_str().starts_with("proxy-"))
        .cloned()
        .collect();
    for name in proxy_headers {
        headers.remove(name);
    }
}

/// What the app is sent in place of what the client sent.
pub struct Forwarded<'a> {
    pub app_port: u16,
    pub proxy_port: u16,
    pub original_host: &'a str,
    pub client: IpAddr,
    pub ui_cookie: &'a str,
    pub upgrade: Option<HeaderValue>,
}

/// Turns a client's request headers into the app's.
pub fn rewrite_request(headers: &mut HeaderMap, forwarded: Forwarded<'_>) {
    strip_hop_by_hop(headers);
    headers.insert(
        HOST,
        header_value(&format!("localhost:{}", forwarded.app_port)),
    );
    if let Ok(original) = HeaderValue::from_str(forwarded.original_host) {
        headers.insert(X_FORWARDED_HOST, original);
    }
    headers.insert(X_FORWARDED_PROTO, HeaderValue::from_static("http"));
    headers.insert(X_FORWARDED_PORT, HeaderValue::from(forwarded.proxy_port));
    let client = forwarded.client.to_string();
    let chain = match headers
        .get(X_FORWARDED_FOR)
        .and_then(|value| value.to_str().ok())
    {
        Some(earlier) => format!("{earlier}, {client}"),
        None => client,
    };
    headers.insert(X_FORWARDED_FOR, header_value(&chain));
    strip_cookie(headers, forwarded.ui_cookie);
    if let Some(protocol) = forwarded.upgrade {
        headers.insert(CONNECTION, HeaderValue::from_static("upgrade"));
        headers.insert(UPGRADE, protocol);
    }
}

/// Removes the cookie called `name` from every `Cookie` header (HTTP/2
/// clients may send one per cookie), joining the rest into one header.
pub fn strip_cookie(headers: &mut HeaderMap, name: &str) {
    if !headers.contains_key(COOKIE) {
        return;
    }
    let mut kept: Vec<String> = Vec::new();
    for value in headers.get_all(COOKIE) {
        for pair in String::from_utf8_lossy(value.as_bytes()).split(';') {
            let pair = pair.trim();
            let cookie_name = pair.split_once('=').map_or(pair, |(key, _)| key).trim();
            if !pair.is_empty() && cookie_name != name {
                kept.push(pair.to_owned());
            }
        }
    }
    headers.remove(COOKIE);
    if !kept.is_empty()
        && let Ok(value) = HeaderValue::from_str(&kept.join("; "))
    {
        headers.insert(COOKIE, value);
    }
}

fn connection_tokens(headers: &HeaderMap) -> impl Iterator<Item = &str> {
    headers
        .get_all(CONNECTION)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .filter(|token| !token.is_empty())
}

/// A value made of digits, dots, colons, commas and spaces is always valid.
fn header_value(text: &str) -> HeaderValue {
    HeaderValue::from_str(text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(
                HeaderName::from_bytes(name.as_bytes()).unwrap(),
                HeaderValue::from_str(value).unwrap(),
            );
        }
        map
    }

    #[test]
    fn hop_by_hop_headers_and_the_ones_connection_names_are_dropped() {
        let mut map = headers(&[
            ("connection", "keep-alive, x-private"),
            ("x-private", "1"),
            ("keep-alive", "timeout=5"),
            ("proxy-authorization", "Basic x"),
            ("te", "trailers"),
            ("transfer-encoding", "chunked"),
            ("upgrade", "websocket"),
            ("accept", "*/*"),
        ]);
        strip_hop_by_hop(&mut map);
        let left: Vec<&str> = map.keys().map(HeaderName::as_str).collect();
        assert_eq!(left, ["accept"]);
    }

    #[test]
    fn the_ui_cookie_is_removed_and_the_others_kept() {
        let mut map = headers(&[
            ("cookie", "a=1; switchboard_ui=secret; b=2"),
            ("cookie", "switchboard_ui=again"),
            ("cookie", "c=3"),
        ]);
        strip_cookie(&mut map, "switchboard_ui");
        assert_eq!(map.get_all(COOKIE).iter().count(), 1);
        assert_eq!(map.get(COOKIE).unwrap(), "a=1; b=2; c=3");

        let mut only_ui = headers(&[("cookie", "switchboard_ui=secret")]);
        strip_cookie(&mut only_ui, "switchboard_ui");
        assert!(only_ui.get(COOKIE).is_none());
    }

    #[test]
    fn an_upgrade_counts_only_when_connection_asks_for_it() {
        let asked = headers(&[
            ("connection", "keep-alive, Upgrade"),
            ("upgrade", "websocket"),
        ]);
        assert_eq!(upgrade_protocol(&asked).unwrap(), "websocket");
        let not_asked = headers(&[("upgrade", "websocket")]);
        assert!(upgrade_protocol(&not_asked).is_none());
        let h2c = headers(&[("connection", "upgrade"), ("upgrade", "h2c")]);
        assert!(upgrade_protocol(&h2c).is_none());
    }

    #[test]
    fn the_request_is_addressed_to_the_app_and_says_where_it_came_from() {
        let mut map = headers(&[
            ("host", "web.localhost:4100"),
            ("x-forwarded-for", "10.0.0.1"),
            ("connection", "upgrade"),
            ("upgrade", "websocket"),
        ]);
        let upgrade = upgrade_protocol(&map);
        rewrite_request(
            &mut map,
            Forwarded {
                app_port: 5173,
                proxy_port: 4100,
                original_host: "web.localhost:4100",
                client: IpAddr::from([127, 0, 0, 1]),
                ui_cookie: "switchboard_ui",
                upgrade,
            },
        );
        assert_eq!(map.get(HOST).unwrap(), "localhost:5173");
        assert_eq!(map.get(X_FORWARDED_HOST).unwrap(), "web.localhost:4100");
        assert_eq!(map.get(X_FORWARDED_PROTO).unwrap(), "http");
        assert_eq!(map.get(X_FORWARDED_PORT).unwrap(), "4100");
        assert_eq!(map.get(X_FORWARDED_FOR).unwrap(), "10.0.0.1, 127.0.0.1");
        assert_eq!(map.get(CONNECTION).unwrap(), "upgrade");
        assert_eq!(map.get(UPGRADE).unwrap(), "websocket");
    }
}
