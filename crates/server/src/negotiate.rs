//! Content negotiation: whether a request's `Accept` asks for a media type
//! that a route serves besides its default JSON, and whether its
//! `Accept-Encoding` takes a coding a route keeps its body in.
//!
//! Routes answer JSON unless the client names the other representation
//! itself, so `*/*`, `application/json`, a missing header or one that names
//! only other types all keep the JSON; a wildcard never selects anything else.

use axum::http::{HeaderMap, HeaderName, header};

/// Whether `Accept` names `media_type` (case-insensitively, its parameters
/// aside) with a weight above zero, in any of the request's `Accept` headers.
pub fn accepts(headers: &HeaderMap, media_type: &str) -> bool {
    names(headers, header::ACCEPT, media_type)
}

/// Whether `Accept-Encoding` names `coding` with a weight above zero; as
/// with types, `*` does not count.
pub fn accepts_encoding(headers: &HeaderMap, coding: &str) -> bool {
    names(headers, header::ACCEPT_ENCODING, coding)
}

fn names(headers: &HeaderMap, list: HeaderName, token: &str) -> bool {
    headers
        .get_all(list)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|range| {
            let mut parts = range.split(';');
            let named = parts
                .next()
                .is_some_and(|t| t.trim().eq_ignore_ascii_case(token));
            named && weight(parts) > 0.0
        })
}

/// The `q` of a media range's parameters; 1 when it has none, and when its
/// value is not a number (an unreadable weight does not refuse the type).
fn weight<'a>(params: impl Iterator<Item = &'a str>) -> f32 {
    params
        .filter_map(|p| p.split_once('='))
        .find(|(name, _)| name.trim().eq_ignore_ascii_case("q"))
        .and_then(|(_, q)| q.trim().parse::<f32>().ok())
        .unwrap_or(1.0)
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    const COLUMNS: &str = "application/vnd.switchboard.columns+json";

    fn with(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append(header::ACCEPT, HeaderValue::from_str(value).unwrap());
        }
        headers
    }

    #[test]
    fn only_a_named_type_with_a_weight_above_zero_is_accepted() {
        for yes in [
            &["application/vnd.switchboard.columns+json"][..],
            &["application/vnd.switchboard.columns+json, application/json;q=0.5"],
            &["application/json;q=0.9, Application/Vnd.Switchboard.Columns+JSON ; q=0.1"],
            &[
                "text/html",
                "application/vnd.switchboard.columns+json;charset=utf-8",
            ],
            &["application/vnd.switchboard.columns+json;q=oops"],
        ] {
            assert!(accepts(&with(yes), COLUMNS), "{yes:?}");
        }
        for no in [
            &[][..],
            &["*/*"],
            &["application/*"],
            &["application/json"],
            &["application/vnd.switchboard.columns+json;q=0"],
            &["application/vnd.switchboard.columns+json; Q=0.000, application/json"],
            &["application/vnd.switchboard.columns+jsonx"],
        ] {
            assert!(!accepts(&with(no), COLUMNS), "{no:?}");
        }
    }

    #[test]
    fn an_encoding_is_taken_only_when_named_with_a_weight_above_zero() {
        let encodings = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(
                header::ACCEPT_ENCODING,
                HeaderValue::from_str(value).unwrap(),
            );
            headers
        };
        for yes in ["gzip, deflate, br, zstd", "ZSTD;q=0.5", "gzip;q=1.0, zstd"] {
            assert!(accepts_encoding(&encodings(yes), "zstd"), "{yes}");
        }
        for no in ["gzip, deflate, br", "*", "zstd;q=0", "zstdx"] {
            assert!(!accepts_encoding(&encodings(no), "zstd"), "{no}");
        }
        assert!(!accepts_encoding(&HeaderMap::new(), "zstd"));
        // An Accept header says nothing of encodings.
        assert!(!accepts_encoding(&with(&["zstd"]), "zstd"));
    }
}
