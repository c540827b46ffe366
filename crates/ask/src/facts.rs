//! The live fact sheet each question carries: a few hundred tokens about
//! this installation as it is now. A fact that could not be read is
//! `None` and reads `unknown`, never a guess; a list read and found empty
//! reads `none`. Long lists are cut, saying how many were left out.

use std::fmt::Write;

/// Sessions, settings and log lines shown at most, each.
const MOST_LISTED: usize = 6;
/// A log line or a session's error is cut to this many characters.
const LONGEST_LINE: usize = 160;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Facts {
    /// The server's version.
    pub version: Option<String>,
    pub runners: Option<Vec<RunnerFact>>,
    pub engines: Option<Vec<EngineFact>>,
    /// Settings whose value is not the default: key and value as JSON.
    pub changed_settings: Option<Vec<(String, String)>>,
    /// Sessions waiting for the user.
    pub waiting: Option<Vec<SessionFact>>,
    pub failed: Option<Vec<SessionFact>>,
    /// The latest WARN and ERROR lines of the server's log, oldest first.
    pub recent_errors: Option<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RunnerFact {
    pub name: String,
    /// `connected`, `unreachable`, …, as `GET /runners` says.
    pub state: String,
    pub reason: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct EngineFact {
    pub name: String,
    pub kind: String,
    pub version: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SessionFact {
    pub id: String,
    pub title: Option<String>,
    /// Why it stopped, as its record says.
    pub error: Option<String>,
}

impl Facts {
    /// The sheet as the tutor reads it: one line a fact, under a heading.
    pub fn render(&self) -> String {
        let mut sheet = String::from("## Fact sheet (live, read just now)\n");
        line(
            &mut sheet,
            "Switchboard version",
            self.version.as_deref().map(str::to_owned),
        );
        line(
            &mut sheet,
            "Runners",
            listed(self.runners.as_deref(), |r| match &r.reason {
                Some(reason) => format!("{} {} ({})", r.name, r.state, cut(reason)),
                None => format!("{} {}", r.name, r.state),
            }),
        );
        line(
            &mut sheet,
            "Engines",
            listed(self.engines.as_deref(), |e| {
                let version = e.version.as_deref().unwrap_or("version unknown");
                format!("{} ({}, {version})", e.name, e.kind)
            }),
        );
        line(
            &mut sheet,
            "Settings changed from their defaults",
            listed(self.changed_settings.as_deref(), |(key, value)| {
                format!("{key} = {}", cut(value))
            }),
        );
        line(
            &mut sheet,
            "Sessions waiting for the user",
            listed(self.waiting.as_deref(), session),
        );
        line(
            &mut sheet,
            "Failed sessions",
            listed(self.failed.as_deref(), session),
        );
        let errors = self.recent_errors.as_deref().map(|lines| {
            if lines.is_empty() {
                return "none".to_owned();
            }
            let skipped = lines.len().saturating_sub(MOST_LISTED);
            let mut text = String::new();
            if skipped > 0 {
                let _ = write!(text, "({skipped} earlier left out)");
            }
            for entry in &lines[skipped..] {
                let _ = write!(text, "\n  - {}", cut(entry));
            }
            text
        });
        line(&mut sheet, "Recent warnings and errors in the log", errors);
        sheet
    }
}

fn line(sheet: &mut String, name: &str, value: Option<String>) {
    let value = value.unwrap_or_else(|| "unknown".to_owned());
    let _ = writeln!(sheet, "- {name}: {value}");
}

fn listed<T>(items: Option<&[T]>, show: impl Fn(&T) -> String) -> Option<String> {
    let items = items?;
    if items.is_empty() {
        return Some("none".to_owned());
    }
    let mut text = items
        .iter()
        .take(MOST_LISTED)
        .map(show)
        .collect::<Vec<_>>()
        .join("; ");
    if items.len() > MOST_LISTED {
        let _ = write!(text, "; and {} more", items.len() - MOST_LISTED);
    }
    Some(text)
}

fn session(fact: &SessionFact) -> String {
    let mut text = fact.id.clone();
    if let Some(title) = &fact.title {
        let _ = write!(text, " “{}”", cut(title));
    }
    if let Some(error) = &fact.error {
        let _ = write!(text, ": {}", cut(error));
    }
    text
}

fn cut(text: &str) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= LONGEST_LINE {
        return flat;
    }
    let kept: String = flat.chars().take(LONGEST_LINE).collect();
    format!("{kept}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_fact_reads_unknown_and_an_empty_one_none() {
        let sheet = Facts {
            version: Some("1.2.3".to_owned()),
            waiting: Some(Vec::new()),
            ..Facts::default()
        }
        .render();
        assert!(sheet.contains("- Switchboard version: 1.2.3\n"), "{sheet}");
        assert!(
            sheet.contains("- Sessions waiting for the user: none\n"),
            "{sheet}"
        );
        assert!(sheet.contains("- Runners: unknown\n"), "{sheet}");
        assert!(
            sheet.contains("- Recent warnings and errors in the log: unknown\n"),
            "{sheet}"
        );
    }

    #[test]
    fn long_lists_are_cut_and_say_so() {
        let failed = (0..9)
            .map(|n| SessionFact {
                id: format!("s{n}"),
                title: None,
                error: Some("x".repeat(400)),
            })
            .collect();
        let sheet = Facts {
            failed: Some(failed),
            recent_errors: Some((0..8).map(|n| format!("ERROR line {n}")).collect()),
            ..Facts::default()
        }
        .render();
        assert!(sheet.contains("; and 3 more"), "{sheet}");
        assert!(!sheet.contains("s6 "), "{sheet}");
        assert!(sheet.contains("(2 earlier left out)"), "{sheet}");
        assert!(sheet.contains("ERROR line 7"), "{sheet}");
        assert!(!sheet.contains("ERROR line 1\n"), "{sheet}");
        assert!(!sheet.contains(&"x".repeat(161)), "{sheet}");
    }
}
