//! The weekly report: sums over the week's sessions, and its Markdown.

use std::collections::HashMap;
use std::fmt::Write as _;

use serde::Serialize;
use sessions::{SessionHistory, Status};
use ts_rs::TS;
use utoipa::ToSchema;

/// The report's id among the artifacts: there is one, always current.
pub const WEEKLY_REPORT_ID: &str = "weekly-report";

/// The folders a report names.
const TOP_FOLDERS: usize = 5;

#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Weekly {
    /// The window, as stored timestamps: the last seven days up to now.
    pub from: String,
    pub to: String,
    pub sessions: usize,
    pub turns: i64,
    /// Turns the watchdog restarted (stalls and loops).
    pub stalls: i64,
    /// Sessions that ended failed, and turns that failed.
    pub failed_sessions: usize,
    pub failed_turns: i64,
    /// `None` when no engine reported a dollar cost.
    pub cost_usd: Option<f64>,
    pub follow_ups_per_session: f64,
    /// The folders with the most sessions, most first: `(folder, sessions)`.
    pub top_folders: Vec<(String, usize)>,
    /// The report as Markdown, for reading as is.
    pub markdown: String,
}

pub fn weekly(from: String, to: String, history: &[SessionHistory]) -> Weekly {
    let sessions = history.len();
    let turns = history.iter().map(|h| h.turns).sum();
    let stalls = history.iter().map(|h| h.restarts).sum();
    let failed_sessions = history
        .iter()
        .filter(|h| h.status == Status::Failed)
        .count();
    let failed_turns = history.iter().map(|h| h.failed_turns).sum();
    let cost_usd = history
        .iter()
        .filter_map(|h| h.cost_usd)
        .fold(None, |sum: Option<f64>, c| Some(sum.unwrap_or(0.0) + c));
    let follow_ups: i64 = history.iter().map(|h| h.follow_ups).sum();
    let follow_ups_per_session = if sessions == 0 {
        0.0
    } else {
        follow_ups as f64 / sessions as f64
    };
    let mut by_folder: HashMap<&str, usize> = HashMap::new();
    for h in history {
        *by_folder.entry(h.cwd.as_str()).or_default() += 1;
    }
    let mut top_folders: Vec<(String, usize)> = by_folder
        .into_iter()
        .map(|(folder, n)| (folder.to_owned(), n))
        .collect();
    top_folders.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    top_folders.truncate(TOP_FOLDERS);
    let mut report = Weekly {
        from,
        to,
        sessions,
        turns,
        stalls,
        failed_sessions,
        failed_turns,
        cost_usd,
        follow_ups_per_session,
        top_folders,
        markdown: String::new(),
    };
    report.markdown = markdown(&report);
    report
}

fn markdown(r: &Weekly) -> String {
    let mut out = format!("# Your week with agents\n\n{} to {}\n\n", r.from, r.to);
    let _ = writeln!(out, "- Sessions: {}", r.sessions);
    let _ = writeln!(out, "- Turns: {}", r.turns);
    let _ = writeln!(out, "- Restarted for a stall or a loop: {}", r.stalls);
    let _ = writeln!(
        out,
        "- Failed: {} sessions, {} turns",
        r.failed_sessions, r.failed_turns
    );
    let _ = match r.cost_usd {
        Some(cost) => writeln!(out, "- Cost: ${cost:.2}"),
        None => writeln!(out, "- Cost: none reported"),
    };
    let _ = writeln!(
        out,
        "- Follow-ups per session: {:.1}",
        r.follow_ups_per_session
    );
    if !r.top_folders.is_empty() {
        out.push_str("\n## Folders used most\n\n");
        for (folder, n) in &r.top_folders {
            let _ = writeln!(out, "- {folder}: {n}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(
        cwd: &str,
        status: Status,
        turns: i64,
        follow_ups: i64,
        cost: Option<f64>,
    ) -> SessionHistory {
        SessionHistory {
            cwd: cwd.to_owned(),
            status,
            turns,
            follow_ups,
            restarts: 1,
            failed_turns: i64::from(status == Status::Failed),
            cost_usd: cost,
        }
    }

    #[test]
    fn a_week_is_summed_from_its_sessions() {
        let history = [
            session("/a", Status::Finished, 3, 2, Some(0.5)),
            session("/a", Status::Failed, 1, 0, None),
            session("/b", Status::WaitingForInput, 2, 1, Some(0.25)),
        ];
        let r = weekly("from".into(), "to".into(), &history);
        assert_eq!((r.sessions, r.turns, r.stalls), (3, 6, 3));
        assert_eq!((r.failed_sessions, r.failed_turns), (1, 1));
        assert_eq!(r.cost_usd, Some(0.75));
        assert!((r.follow_ups_per_session - 1.0).abs() < 1e-9);
        assert_eq!(r.top_folders, [("/a".to_owned(), 2), ("/b".to_owned(), 1)]);
        assert!(r.markdown.contains("- Cost: $0.75"), "{}", r.markdown);
    }

    #[test]
    fn an_empty_week_says_so_without_dividing_by_zero() {
        let r = weekly("from".into(), "to".into(), &[]);
        assert_eq!(r.follow_ups_per_session, 0.0);
        assert_eq!(r.cost_usd, None);
        assert!(r.markdown.contains("Cost: none reported"));
    }
}
