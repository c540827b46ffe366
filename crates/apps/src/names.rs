//! The names apps are reached by: DNS labels under `.localhost`, which
//! browsers resolve to loopback themselves (RFC 6761), so nothing is written
//! to `/etc/hosts`.

/// The longest DNS label (RFC 1035).
const LABEL_MAX: usize = 63;

/// The longest name a user may declare: room is left for the place
/// (`<app>.<branch>`) within a label-sized budget people can read.
const APP_NAME_MAX: usize = 40;

const SUFFIX: &str = ".localhost";

/// `raw` as one DNS label: lowercase, every run of characters outside
/// `[a-z0-9]` one `-`, no `-` at either end, at most 63 bytes; `None` when
/// nothing is left (`feature/Fix_login` → `feature-fix-login`).
pub fn label(raw: &str) -> Option<String> {
    let mut out = String::with_capacity(raw.len());
    let mut pending_dash = false;
    for c in raw.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            if pending_dash && !out.is_empty() {
                out.push('-');
            }
            pending_dash = false;
            out.push(c);
        } else {
            pending_dash = true;
        }
    }
    // Only ASCII is pushed, so any byte index is a character boundary.
    out.truncate(LABEL_MAX);
    let trimmed = out.trim_matches('-');
    (!trimmed.is_empty()).then(|| trimmed.to_owned())
}

/// The host an app answers on: `app.place.localhost`, or `app.localhost`
/// for the main checkout.
pub fn host(app: &str, place: Option<&str>) -> String {
    match place {
        Some(place) => format!("{app}.{place}{SUFFIX}"),
        None => format!("{app}{SUFFIX}"),
    }
}

/// Whether `name` may be a declared app's name (in `apps.toml` or asked for
/// by `POST /apps`): 1 to 40 of `[a-z0-9-]`, no `-` at either end. An
/// invalid name is refused rather than rewritten, so the name a user wrote
/// is the name they find.
pub fn app_name_valid(name: &str) -> bool {
    (1..=APP_NAME_MAX).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
}

/// The app a request's `Host` header names: the part before `.localhost`
/// (`web.fix-login` for `Web.Fix-Login.localhost.:8080`). `localhost` alone,
/// addresses and names elsewhere are `None`.
pub fn name_from_host(host_header: &str) -> Option<String> {
    let host = host_header.trim();
    if host.starts_with('[') {
        return None;
    }
    let host = match host.split_once(':') {
        Some((host, port)) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => host,
        Some(_) => return None,
        None => host,
    };
    let host = host.to_ascii_lowercase();
    let host = host.strip_suffix('.').unwrap_or(&host);
    let name = host.strip_suffix(SUFFIX)?;
    let valid_label = |label: &str| {
        (1..=LABEL_MAX).contains(&label.len())
            && label
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    };
    (!name.is_empty() && name.split('.').all(valid_label)).then(|| name.to_owned())
}
