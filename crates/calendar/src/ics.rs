//! iCalendar's syntax (RFC 5545 §3.1): content lines unfolded and split into
//! name, parameters and value, components nested by BEGIN/END, TEXT values
//! unescaped, and DATE / DATE-TIME values read into civil times.
//!
//! Two readers: [`parse`] builds the whole tree of a small document (one
//! CalDAV resource), while [`top_level`] only finds where each child of a
//! VCALENDAR starts and ends, so a 50,000-event subscription is read one
//! event at a time instead of as one tree.

use jiff::civil::{Date, DateTime, Time};

use crate::error::CalendarError;

/// Components deeper than this are refused: no real calendar nests more
/// than VCALENDAR > VEVENT > VALARM (VTIMEZONE > STANDARD).
const MAX_DEPTH: usize = 8;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Property {
    /// In capitals.
    pub name: String,
    /// Names in capitals, values without their quotes.
    pub params: Vec<(String, String)>,
    pub value: String,
}

impl Property {
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Component {
    pub name: String,
    pub props: Vec<Property>,
    pub children: Vec<Component>,
}

impl Component {
    pub fn prop(&self, name: &str) -> Option<&Property> {
        self.props.iter().find(|p| p.name == name)
    }

    pub fn props<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Property> + 'a {
        self.props.iter().filter(move |p| p.name == name)
    }

    /// A TEXT property's value, unescaped.
    pub fn text(&self, name: &str) -> Option<String> {
        self.prop(name).map(|p| unescape(&p.value))
    }

    /// Every component named `name` at any depth below this one.
    pub fn find_all<'a>(&'a self, name: &str, into: &mut Vec<&'a Component>) {
        for child in &self.children {
            if child.name == name {
                into.push(child);
            } else {
                child.find_all(name, into);
            }
        }
    }
}

/// The logical lines of `text`: folded lines joined (a line break followed
/// by a space or a tab continues the line), blank lines dropped.
pub(crate) fn unfold(text: &str) -> impl Iterator<Item = String> + '_ {
    let mut physical = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let mut pending: Option<String> = None;
    std::iter::from_fn(move || {
        loop {
            match physical.next() {
                Some(line) if line.starts_with([' ', '\t']) => {
                    if let Some(p) = pending.as_mut() {
                        p.push_str(&line[1..]);
                    }
                }
                Some(line) => {
                    let done = pending.replace(line.to_owned());
                    if let Some(done) = done.filter(|d| !d.is_empty()) {
                        return Some(done);
                    }
                }
                None => return pending.take().filter(|d| !d.is_empty()),
            }
        }
    })
}

/// Splits one logical line; `None` for a line that is not `name[;params]:value`.
pub(crate) fn parse_line(line: &str) -> Option<Property> {
    let name_end = line.find([';', ':'])?;
    let name = line[..name_end].trim().to_ascii_uppercase();
    if name.is_empty() {
        return None;
    }
    let mut params = Vec::new();
    let bytes = line.as_bytes();
    let mut at = name_end;
    while bytes.get(at) == Some(&b';') {
        let rest = &line[at + 1..];
        let eq = rest.find('=')?;
        let pname = rest[..eq].trim().to_ascii_uppercase();
        let mut value = String::new();
        let mut i = at + 1 + eq + 1;
        // A parameter's values: quoted ones may hold `;`, `:` and `,`.
        loop {
            if bytes.get(i) == Some(&b'"') {
                let close = line[i + 1..].find('"')? + i + 1;
                value.push_str(&line[i + 1..close]);
                i = close + 1;
            } else {
                let end = line[i..]
                    .find([';', ':', ',', '"'])
                    .map_or(line.len(), |e| e + i);
                value.push_str(&line[i..end]);
                i = end;
            }
            if bytes.get(i) == Some(&b',') {
                value.push(',');
                i += 1;
                continue;
            }
            break;
        }
        params.push((pname, value));
        at = i;
    }
    if bytes.get(at) != Some(&b':') {
        return None;
    }
    Some(Property {
        name,
        params,
        value: line[at + 1..].to_owned(),
    })
}

/// The components of a whole document (usually one VCALENDAR).
pub(crate) fn parse(text: &str) -> Result<Vec<Component>, CalendarError> {
    let mut roots = Vec::new();
    let mut stack: Vec<Component> = Vec::new();
    for line in unfold(text) {
        let Some(prop) = parse_line(&line) else {
            continue;
        };
        match prop.name.as_str() {
            "BEGIN" => {
                if stack.len() >= MAX_DEPTH {
                    return Err(CalendarError::Ics("components nested too deep".into()));
                }
                stack.push(Component {
                    name: prop.value.trim().to_ascii_uppercase(),
                    ..Component::default()
                });
            }
            "END" => {
                let name = prop.value.trim().to_ascii_uppercase();
                let Some(done) = stack.pop() else {
                    return Err(CalendarError::Ics(format!("END:{name} without BEGIN")));
                };
                if done.name != name {
                    return Err(CalendarError::Ics(format!(
                        "END:{name} closes BEGIN:{}",
                        done.name
                    )));
                }
                match stack.last_mut() {
                    Some(parent) => parent.children.push(done),
                    None => roots.push(done),
                }
            }
            _ => {
                if let Some(open) = stack.last_mut() {
                    open.props.push(prop);
                }
            }
        }
    }
    if let Some(open) = stack.last() {
        return Err(CalendarError::Ics(format!(
            "BEGIN:{} is never closed",
            open.name
        )));
    }
    Ok(roots)
}

/// One child of a VCALENDAR as found by [`top_level`]: its name and its text.
pub(crate) struct Block<'a> {
    pub name: String,
    pub text: &'a str,
}

/// The children of every VCALENDAR in `text` as slices of it, without
/// building them: a BEGIN at depth one starts a block, its END closes it.
/// BEGIN and END lines are never folded in practice (they are short), and a
/// continuation line starts with a space, so physical lines suffice.
pub(crate) fn top_level(text: &str) -> impl Iterator<Item = Result<Block<'_>, CalendarError>> {
    let mut offset = 0;
    let mut depth = 0_usize;
    let mut start: Option<(usize, String)> = None;
    std::iter::from_fn(move || {
        while offset < text.len() {
            let line_end = text[offset..]
                .find('\n')
                .map_or(text.len(), |e| offset + e + 1);
            let line = text[offset..line_end].trim_end_matches(['\r', '\n']);
            let line_start = offset;
            offset = line_end;
            let upper = line.get(..6).map(str::to_ascii_uppercase);
            match upper.as_deref() {
                Some("BEGIN:") => {
                    depth += 1;
                    if depth > MAX_DEPTH {
                        return Some(Err(CalendarError::Ics("components nested too deep".into())));
                    }
                    if depth == 2 {
                        start = Some((line_start, line[6..].trim().to_ascii_uppercase()));
                    }
                }
                _ if line
                    .get(..4)
                    .is_some_and(|l| l.eq_ignore_ascii_case("END:")) =>
                {
                    if depth == 0 {
                        return Some(Err(CalendarError::Ics("END without BEGIN".into())));
                    }
                    depth -= 1;
                    if depth == 1
                        && let Some((from, name)) = start.take()
                    {
                        return Some(Ok(Block {
                            name,
                            text: &text[from..line_end],
                        }));
                    }
                }
                _ => {}
            }
        }
        if depth != 0 {
            depth = 0;
            return Some(Err(CalendarError::Ics(
                "the file ends inside a component".into(),
            )));
        }
        None
    })
}

/// A TEXT value with its escapes (`\n`, `\,`, `\;`, `\\`) undone.
pub(crate) fn unescape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n' | 'N') => out.push('\n'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// A DATE or DATE-TIME value as read: the civil time, and what it is
/// relative to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stamp {
    /// `20260105`: a whole day, floating.
    Date(Date),
    /// `20260105T090000Z`.
    Utc(DateTime),
    /// `20260105T090000`: in the property's TZID, or floating without one.
    Local(DateTime),
}

impl Stamp {
    pub fn civil(self) -> DateTime {
        match self {
            Stamp::Date(d) => d.to_datetime(Time::midnight()),
            Stamp::Utc(t) | Stamp::Local(t) => t,
        }
    }
}

/// Reads `20260105`, `20260105T090000` or `20260105T090000Z`.
pub(crate) fn parse_stamp(value: &str) -> Option<Stamp> {
    let value = value.trim();
    let (digits, utc) = match value.strip_suffix(['Z', 'z']) {
        Some(rest) => (rest, true),
        None => (value, false),
    };
    if !digits.is_ascii() {
        return None;
    }
    let num = |range: std::ops::Range<usize>| -> Option<i16> {
        let part = digits.get(range)?;
        part.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    let date = Date::new(
        num(0..4)?,
        i8::try_from(num(4..6)?).ok()?,
        i8::try_from(num(6..8)?).ok()?,
    )
    .ok()?;
    match digits.len() {
        8 if !utc => Some(Stamp::Date(date)),
        15 if digits.as_bytes()[8].eq_ignore_ascii_case(&b'T') => {
            let part = |r| num(r).and_then(|n| i8::try_from(n).ok());
            // A leap second (60) is read as the second before it.
            let time = Time::new(part(9..11)?, part(11..13)?, part(13..15)?.min(59), 0).ok()?;
            let civil = date.to_datetime(time);
            Some(if utc {
                Stamp::Utc(civil)
            } else {
                Stamp::Local(civil)
            })
        }
        _ => None,
    }
}

/// `±HHMM[SS]` (TZOFFSETFROM, TZOFFSETTO) in seconds.
pub(crate) fn parse_offset(value: &str) -> Option<i32> {
    let value = value.trim();
    let (sign, digits) = match value.as_bytes().first()? {
        b'+' => (1, &value[1..]),
        b'-' => (-1, &value[1..]),
        _ => return None,
    };
    if !(digits.len() == 4 || digits.len() == 6) || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n = |r: std::ops::Range<usize>| digits[r].parse::<i32>().ok();
    let seconds = if digits.len() == 6 { n(4..6)? } else { 0 };
    let total = n(0..2)? * 3600 + n(2..4)? * 60 + seconds;
    (total < 24 * 3600).then_some(sign * total)
}

/// A DURATION value (`P1D`, `PT1H30M`, `-P2W`) in seconds.
pub(crate) fn parse_duration(value: &str) -> Option<i64> {
    let value = value.trim();
    let (sign, rest) = match value.as_bytes().first()? {
        b'-' => (-1, &value[1..]),
        b'+' => (1, &value[1..]),
        _ => (1, value),
    };
    let rest = rest.strip_prefix(['P', 'p'])?;
    let mut total: i64 = 0;
    let mut number = String::new();
    for c in rest.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let unit = match c.to_ascii_uppercase() {
            'T' => {
                continue;
            }
            'W' => 7 * 86_400,
            'D' => 86_400,
            'H' => 3_600,
            'M' => 60,
            'S' => 1,
            _ => return None,
        };
        let n: i64 = number.parse().ok()?;
        number.clear();
        total = total.checked_add(n.checked_mul(unit)?)?;
    }
    number.is_empty().then_some(sign * total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folded_lines_and_quoted_parameters_are_read() {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:Plan\r\n  the week\r\nATTENDEE;CN=\"Doe; Jane\";ROLE=REQ:mailto:j@x.test\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
        let roots = parse(text).unwrap();
        let event = &roots[0].children[0];
        assert_eq!(event.text("SUMMARY").unwrap(), "Plan the week");
        let attendee = event.prop("ATTENDEE").unwrap();
        assert_eq!(attendee.param("CN"), Some("Doe; Jane"));
        assert_eq!(attendee.value, "mailto:j@x.test");
    }

    #[test]
    fn an_unclosed_component_is_an_error_not_a_panic() {
        assert!(parse("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:1\n").is_err());
        assert!(parse("END:VEVENT\n").is_err());
        let blocks: Vec<_> = top_level("BEGIN:VCALENDAR\nBEGIN:VEVENT\n").collect();
        assert!(blocks.iter().any(Result::is_err));
        // A line starting with multi-byte characters is not cut inside one.
        let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\n\u{e9}\u{e9}\nEND:VEVENT\nEND:VCALENDAR\n";
        assert_eq!(top_level(text).filter(Result::is_ok).count(), 1);
    }

    #[test]
    fn top_level_finds_each_child_of_the_calendar() {
        let text = "BEGIN:VCALENDAR\nBEGIN:VTIMEZONE\nTZID:X\nBEGIN:STANDARD\nEND:STANDARD\nEND:VTIMEZONE\nBEGIN:VEVENT\nUID:a\nEND:VEVENT\nEND:VCALENDAR\n";
        let blocks: Vec<Block<'_>> = top_level(text).map(Result::unwrap).collect();
        let names: Vec<&str> = blocks.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["VTIMEZONE", "VEVENT"]);
        assert_eq!(blocks[1].text, "BEGIN:VEVENT\nUID:a\nEND:VEVENT\n");
    }

    #[test]
    fn values_are_read() {
        assert_eq!(parse_offset("+0100"), Some(3600));
        assert_eq!(parse_offset("-0530"), Some(-19_800));
        assert_eq!(parse_duration("PT1H30M"), Some(5400));
        assert_eq!(parse_duration("-P1W"), Some(-604_800));
        assert_eq!(parse_duration("P1X"), None);
        assert!(matches!(parse_stamp("20260329"), Some(Stamp::Date(_))));
        assert!(matches!(
            parse_stamp("20260329T020000Z"),
            Some(Stamp::Utc(_))
        ));
        assert_eq!(parse_stamp("2026-03-29"), None);
        assert_eq!(unescape("a\\, b\\nc\\\\"), "a, b\nc\\");
    }
}
