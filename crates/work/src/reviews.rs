//! Reviews on return (`cloudSessionReviewsEnabled`, docs/work.md): when a
//! session ends with new commits, each reviewer engine `engines.toml`
//! names reads the branch's diff once and answers with findings (file,
//! line, severity, text). This module makes the question ([`question`]),
//! reads the diff ([`diff`]) and keeps the answers, one per reviewer and
//! head commit, so the same commits are never reviewed twice by the same
//! reviewer. Running the reviewer is the caller's: a review never holds
//! the branch back, and nothing here changes a repository.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use store::Db;
use store::rusqlite::{OptionalExtension, Transaction, params};
use worktrees::git;

use crate::facts::Piece;

/// How a review question opens; the test stand-in of the model API tells a
/// review from other questions by it.
pub const REVIEW_PHRASE: &str = "Review this change that a coding agent made";

/// The most of a diff a reviewer is shown; the rest is cut, and the
/// reviewer is told so.
pub const MOST_DIFF_CHARS: usize = 150_000;

/// The most findings kept of one review.
pub const MOST_FINDINGS: usize = 50;

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "ReviewSeverity")]
pub enum Severity {
    High,
    Medium,
    Low,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "ReviewFinding")]
pub struct Finding {
    pub file: String,
    /// The line in the new version of the file, when the finding has one.
    #[serde(default)]
    pub line: Option<u32>,
    pub severity: Severity,
    pub text: String,
}

/// One reviewer's review of one head commit of a piece of work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "WorkReview")]
pub struct Review {
    /// The reviewer engine's name in `engines.toml`.
    pub reviewer: String,
    /// The commit reviewed.
    pub head: String,
    /// When it was done (RFC 3339).
    pub at: String,
    pub findings: Vec<Finding>,
    /// Why the review could not be done (the reviewer failed or answered
    /// nothing usable); `findings` is empty then.
    pub error: Option<String>,
}

impl Review {
    pub fn high(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::High)
            .count()
    }
}

/// What a reviewer is asked to answer.
#[derive(Debug, Deserialize)]
pub struct Answer {
    pub findings: Vec<Finding>,
}

/// The branch's change since the work started: its head commit and the
/// diff from the base (cut at [`MOST_DIFF_CHARS`]; the flag says whether
/// it was).
pub fn diff(piece: &Piece) -> Result<(String, String, bool), worktrees::WorktreeError> {
    let head = git::checked(
        &piece.repository,
        [
            "rev-parse",
            "--verify",
            format!("{}^{{commit}}", piece.branch).as_str(),
        ],
    )?
    .trim()
    .to_owned();
    let text = git::checked(
        &piece.repository,
        [
            "diff",
            "--no-color",
            "--no-ext-diff",
            "--find-renames",
            piece.base.as_str(),
            head.as_str(),
        ],
    )?;
    let cut = text.len() > MOST_DIFF_CHARS;
    let text = if cut {
        let mut end = MOST_DIFF_CHARS;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text[..end].to_owned()
    } else {
        text
    };
    Ok((head, text, cut))
}

/// The question for a reviewer of `branch`, given its diff.
pub fn question(branch: &str, diff: &str, cut: bool) -> String {
    let cut = if cut {
        "\nThe diff is longer than shown: it was cut, so say nothing of what is missing from it."
    } else {
        ""
    };
    format!(
        "{REVIEW_PHRASE}, on branch {branch}. Find real problems a careful reviewer would block or \
         flag: bugs, security holes, data loss, broken error handling, missing tests for risky \
         code. Leave out style and taste. Each finding names the file and the line in the new \
         version, a severity (high: must not merge as is; medium: should be fixed; low: worth a \
         look), and one or two plain sentences. No findings is a fine answer.{cut}\n\
         <diff>\n{diff}</diff>"
    )
}

/// The JSON Schema of [`Answer`], as the reviewer is shown it.
pub fn schema() -> Value {
    json!({
        "type": "object",
        "required": ["findings"],
        "properties": {"findings": {"type": "array", "items": {
            "type": "object",
            "required": ["file", "severity", "text"],
            "properties": {
                "file": {"type": "string"},
                "line": {"type": ["integer", "null"], "minimum": 1},
                "severity": {"enum": ["high", "medium", "low"]},
                "text": {"type": "string"}
            }
        }}}
    })
}

/// Whether `reviewer` already reviewed `head` of the work `work_id`.
pub fn reviewed(db: &Db, work_id: &str, reviewer: &str, head: &str) -> store::Result<bool> {
    db.read(|tx: &Transaction<'_>| {
        Ok(tx
            .query_row(
                "SELECT 1 FROM work_reviews WHERE work_id = ?1 AND reviewer = ?2 AND head = ?3",
                params![work_id, reviewer, head],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    })
}

pub fn record(db: &Db, work_id: &str, review: &Review) -> store::Result<()> {
    let findings = serde_json::to_string(&review.findings).unwrap_or_else(|_| "[]".to_owned());
    db.write(|tx: &Transaction<'_>| {
        tx.execute(
            "INSERT OR REPLACE INTO work_reviews (work_id, reviewer, head, at, findings, error)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                work_id,
                review.reviewer,
                review.head,
                review.at,
                findings,
                review.error
            ],
        )?;
        Ok(())
    })
}

/// The newest review of each reviewer, for every piece of work.
pub fn latest(db: &Db) -> store::Result<HashMap<String, Vec<Review>>> {
    db.read(|tx: &Transaction<'_>| {
        let mut statement = tx.prepare(
            "SELECT work_id, reviewer, head, at, findings, error FROM work_reviews
             ORDER BY work_id, reviewer, at DESC",
        )?;
        let rows = statement.query_map([], |row| {
            Ok((
                row.get::<_, String>(0)?,
                Review {
                    reviewer: row.get(1)?,
                    head: row.get(2)?,
                    at: row.get(3)?,
                    findings: serde_json::from_str(&row.get::<_, String>(4)?).unwrap_or_default(),
                    error: row.get(5)?,
                },
            ))
        })?;
        let mut found: HashMap<String, Vec<Review>> = HashMap::new();
        for row in rows {
            let (work_id, review) = row?;
            let reviews = found.entry(work_id).or_default();
            if reviews.last().is_none_or(|r| r.reviewer != review.reviewer) {
                reviews.push(review);
            }
        }
        Ok(found)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_shape_is_the_schema_and_lines_may_be_missing() {
        let answer: Answer = serde_json::from_value(json!({"findings": [
            {"file": "src/db.rs", "line": 12, "severity": "high", "text": "SQL built from input."},
            {"file": "README.md", "severity": "low", "text": "Typo."}
        ]}))
        .unwrap();
        assert_eq!(answer.findings[0].line, Some(12));
        assert_eq!(answer.findings[1].line, None);
        assert_eq!(answer.findings[0].severity, Severity::High);
        let required = &schema()["properties"]["findings"]["items"]["required"];
        assert_eq!(required, &json!(["file", "severity", "text"]));
    }

    #[test]
    fn a_cut_diff_is_said_to_be_cut() {
        assert!(question("b", "diff", true).contains("was cut"));
        assert!(!question("b", "diff", false).contains("was cut"));
        assert!(question("b", "diff", false).starts_with(REVIEW_PHRASE));
    }
}
