//! Content negotiation: whether a request's `Accept` asks for a media type
//! that a route serves besides its default JSON.
//!
//! Routes answer JSON unless the client names the other representation
//! itself, so `*/*`, `application/json`, a missing header or one that names
//! only other types all keep the JSON; a wildcard never selects anything else.

use axum::http::{HeaderMap, header};

/// Whether `Accept` names `media_type` (case-insensitively, its parameters
/// aside) with a weight above zero, in any of the request's `Accept` headers.
pub fn accepts(headers: &HeaderMap, media_type: &str) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|range| {
            let mut parts = range.split(';');
            let named = parts
                .next()
                .is_some_and(|t| t.trim().eq_ignore_ascii_case(media_type));
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
}
