//! Cutting the fuzzer's bytes into the several inputs a parser takes.

/// `data` as text, invalid UTF-8 replaced: the parsers that take `&str`
/// are handed text the caller already decoded the same way.
pub(crate) fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// `data` cut at its NUL bytes into exactly `count` texts, the missing
/// ones empty and the last holding whatever remains (NULs included).
pub(crate) fn fields(data: &[u8], count: usize) -> Vec<String> {
    let mut out: Vec<String> = data
        .splitn(count.max(1), |b| *b == 0)
        .map(|part| String::from_utf8_lossy(part).into_owned())
        .collect();
    out.resize(count, String::new());
    out
}

/// The first byte as a choice among `options` (0 when there is none) and
/// the bytes after it.
pub(crate) fn choice(data: &[u8], options: usize) -> (usize, &[u8]) {
    match data.split_first() {
        Some((first, rest)) => (usize::from(*first) % options.max(1), rest),
        None => (0, data),
    }
}

/// Unix seconds of the window the calendar targets expand into: 60 days
/// before 2026-06-01 to 400 days after, the service's default span.
pub(crate) const WINDOW: (i64, i64) = (1_780_272_000 - 60 * 86_400, 1_780_272_000 + 400 * 86_400);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_cut_at_nul_and_padded() {
        assert_eq!(fields(b"a\0b\0c\0d", 3), ["a", "b", "c\0d"]);
        assert_eq!(fields(b"a", 3), ["a", "", ""]);
    }

    #[test]
    fn the_first_byte_chooses() {
        assert_eq!(choice(b"\x05xy", 3), (2, &b"xy"[..]));
        assert_eq!(choice(b"", 3), (0, &b""[..]));
    }
}
