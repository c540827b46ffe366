//! The daily briefing's shape: which sources are on (`dailyDigestSources`,
//! a source the object leaves out is on), one section of facts per source
//! in a fixed order, the prompt the utility model writes over them, and the
//! body, which is the facts alone when the model wrote nothing.

use serde_json::Value;

/// The phrase that opens the briefing's prompt (the stand-in model in tests
/// answers by it).
pub const BRIEFING_PHRASE: &str = "Write the daily briefing";

/// A source of the daily briefing, in the order its sections come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Calendar,
    Webmail,
    PmEvents,
    PmFeedDigest,
    Rss,
    Sessions,
    ChatApp,
    Sms,
    Messenger,
}

impl Source {
    pub const ALL: [Source; 9] = [
        Source::Calendar,
        Source::Webmail,
        Source::PmEvents,
        Source::PmFeedDigest,
        Source::Rss,
        Source::Sessions,
        Source::ChatApp,
        Source::Sms,
        Source::Messenger,
    ];

    /// Its field in `dailyDigestSources`.
    pub fn key(self) -> &'static str {
        match self {
            Source::Calendar => "calendar",
            Source::Webmail => "webmail",
            Source::PmEvents => "pm-events",
            Source::PmFeedDigest => "pm-feed-digest",
            Source::Rss => "rss",
            Source::Sessions => "sessions",
            Source::ChatApp => "chatApp",
            Source::Sms => "sms",
            Source::Messenger => "messenger",
        }
    }

    /// Its section's heading.
    pub fn label(self) -> &'static str {
        match self {
            Source::Calendar => "Calendar",
            Source::Webmail => "Web mail",
            Source::PmEvents => "Project events",
            Source::PmFeedDigest => "Project digests",
            Source::Rss => "Feeds",
            Source::Sessions => "Sessions",
            Source::ChatApp => "Team chat",
            Source::Sms => "Text messages",
            Source::Messenger => "Messenger",
        }
    }

    /// The sources `dailyDigestSources` turns on.
    pub fn chosen(setting: &Value) -> Vec<Source> {
        Source::ALL
            .into_iter()
            .filter(|s| {
                setting
                    .get(s.key())
                    .and_then(Value::as_bool)
                    .unwrap_or(true)
            })
            .collect()
    }
}

/// One source's facts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    pub source: Source,
    /// What the source says, one line each; empty when it had nothing.
    pub lines: Vec<String>,
}

impl Section {
    pub fn new(source: Source, lines: Vec<String>) -> Self {
        Section { source, lines }
    }

    /// A source that is not set up says so in one line rather than vanish.
    pub fn not_set_up(source: Source, how: &str) -> Self {
        Section {
            source,
            lines: vec![format!("not set up ({how})")],
        }
    }
}

/// The facts, a heading and its lines per section.
pub fn facts(sections: &[Section]) -> String {
    let mut out = String::new();
    for section in sections {
        match section.lines.as_slice() {
            [] => out.push_str(&format!("{}: nothing.\n", section.source.label())),
            [only] if only.starts_with("not set up") => {
                out.push_str(&format!("{}: {only}.\n", section.source.label()));
            }
            lines => {
                out.push_str(&format!("{}:\n", section.source.label()));
                for line in lines {
                    out.push_str(&format!("- {line}\n"));
                }
            }
        }
    }
    out.trim_end().to_owned()
}

/// The prompt over `facts` for the day `day`.
pub fn prompt(day: &str, facts: &str) -> String {
    format!(
        "{BRIEFING_PHRASE} for {day} for a person who runs coding agents and reads this page \
         before starting them. In at most 200 words of Markdown: what needs them first, then \
         the rest by source. Use only these facts; say nothing of a source with nothing.\n\n{facts}"
    )
}

/// The row's body: what the model wrote above the facts, or the facts alone.
pub fn body(written: Option<&str>, facts: &str) -> String {
    match written.map(str::trim).filter(|w| !w.is_empty()) {
        Some(written) => format!("{written}\n\n---\n\n{facts}"),
        None => facts.to_owned(),
    }
}
