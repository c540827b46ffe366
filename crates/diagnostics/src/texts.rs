//! The words of each email, apart from their sending, so docs/diagnostics.md
//! can show them as they are sent. A crash's mail and the digest carry no
//! content: no prompt, transcript, title, path under the home folder, id
//! or name of anything the user made.

/// One engine's share of a week.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EngineUse {
    /// The engine's kind (`claude`, `codex`, `command`): never the name the
    /// user gave it, which may say what they work on.
    pub kind: String,
    pub sessions_started: u64,
    pub turns: u64,
}

/// A week's counts, for the digest.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Usage {
    /// RFC 3339 bounds of the week.
    pub from: String,
    pub to: String,
    pub version: String,
    pub engines: Vec<EngineUse>,
    pub crashes: u64,
}

/// `(subject, body)` of the feedback the user wrote.
pub fn feedback_mail(text: &str, version: &str) -> (String, String) {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let mut subject: String = first.chars().take(70).collect();
    if first.chars().count() > 70 {
        subject.push('…');
    }
    (
        format!("Switchboard feedback: {subject}"),
        format!("{text}\n\n-- \nSent from Switchboard {version} by its user.\n"),
    )
}

/// `(subject, body)` of one crash.
pub fn crash_mail(message: &str, location: &str, at: &str, version: &str) -> (String, String) {
    (
        format!(
            "Switchboard crashed: {}",
            message.chars().take(70).collect::<String>()
        ),
        format!(
            "Switchboard {version} crashed at {at}.\n\n\
             Where: {location}\n\
             What: {message}\n\n\
             Nothing else is sent: no prompt, transcript or file.\n"
        ),
    )
}

/// `(subject, body)` of the weekly digest.
pub fn digest_mail(usage: &Usage) -> (String, String) {
    let mut body = format!(
        "Switchboard {} from {} to {}.\n\n",
        usage.version, usage.from, usage.to
    );
    if usage.engines.is_empty() {
        body.push_str("No session started and no turn ran.\n");
    } else {
        body.push_str("engine kind | sessions started | turns\n");
        for engine in &usage.engines {
            body.push_str(&format!(
                "{} | {} | {}\n",
                engine.kind, engine.sessions_started, engine.turns
            ));
        }
    }
    body.push_str(&format!(
        "\nCrashes: {}\n\nCounts only: no prompt, transcript, title, path or name is sent.\n",
        usage.crashes
    ));
    (
        format!("Switchboard weekly digest, {}", day(&usage.to)),
        body,
    )
}

fn day(stamp: &str) -> &str {
    stamp.get(..10).unwrap_or(stamp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feedback_is_named_by_its_first_line() {
        let (subject, body) = feedback_mail("\n  The board is slow\nwith 300 items", "1.2.3");
        assert_eq!(subject, "Switchboard feedback: The board is slow");
        assert!(body.starts_with("\n  The board is slow\nwith 300 items\n\n-- \n"));
        assert!(body.contains("Switchboard 1.2.3"));
        let (long, _) = feedback_mail(&"x".repeat(100), "1");
        assert_eq!(long.chars().count(), "Switchboard feedback: ".len() + 71);
    }

    #[test]
    fn the_digest_has_counts_by_engine_kind() {
        let usage = Usage {
            from: "2026-11-22T09:00:00.000Z".into(),
            to: "2026-11-29T09:00:00.000Z".into(),
            version: "1.0.0".into(),
            engines: vec![EngineUse {
                kind: "claude".into(),
                sessions_started: 3,
                turns: 17,
            }],
            crashes: 1,
        };
        let (subject, body) = digest_mail(&usage);
        assert_eq!(subject, "Switchboard weekly digest, 2026-11-29");
        assert!(body.contains("claude | 3 | 17\n"), "{body}");
        assert!(body.contains("Crashes: 1"), "{body}");
        let (_, empty) = digest_mail(&Usage::default());
        assert!(empty.contains("No session started"), "{empty}");
    }
}
