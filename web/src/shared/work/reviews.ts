/**
 * What reviewers found in a piece of work (docs/work.md, "Reviews on return"), apart from its
 * rendering: every reviewer's findings in one list, most severe first, and the line that sums
 * them up. Shared because the work page and the session page both show them.
 */
import type { ReviewFinding, ReviewSeverity, WorkEntry, WorkReview } from "../api/types.generated";

/** Most severe first: what must not merge leads the list. */
export const SEVERITY_ORDER: readonly ReviewSeverity[] = ["high", "medium", "low"];

/** A finding with the reviewer that made it: two reviewers' lists are read as one. */
export interface ReviewerFinding extends ReviewFinding {
  reviewer: string;
}

const rank = (severity: ReviewSeverity) => SEVERITY_ORDER.indexOf(severity);

/**
 * Every reviewer's findings, by severity, then file, then line (a finding on the whole file
 * before its lines), then reviewer; a reviewer's own order breaks what is left.
 */
export function reviewFindings(reviews: readonly WorkReview[]): ReviewerFinding[] {
  return reviews
    .flatMap((review) => review.findings.map((finding) => ({ ...finding, reviewer: review.reviewer })))
    .sort(
      (a, b) =>
        rank(a.severity) - rank(b.severity) ||
        a.file.localeCompare(b.file) ||
        (a.line ?? 0) - (b.line ?? 0) ||
        a.reviewer.localeCompare(b.reviewer),
    );
}

/** "src/parse.rs:12", or the file alone for a finding on no line. */
export function findingLocation(finding: Pick<ReviewFinding, "file" | "line">): string {
  return finding.line === null ? finding.file : `${finding.file}:${finding.line}`;
}

export interface ReviewSummary {
  text: string;
  /** The most severe finding's, for the colour; null when nothing was found. */
  severity: ReviewSeverity | null;
  /** Every review failed: there is no verdict at all. */
  failed: boolean;
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * One line for a piece's reviews: "Review: 3 findings · 1 high · 2 low" (with "· 1 review failed" when
 * another reviewer could not say), "Reviewed: no findings", or, when no review got through,
 * "Review failed: <its error>" (or how many failed). Null without a review.
 */
export function reviewSummary(reviews: readonly WorkReview[]): ReviewSummary | null {
  if (reviews.length === 0) return null;
  const failures = reviews.filter((review) => review.error !== null);
  if (failures.length === reviews.length) {
    const only = failures.length === 1 ? failures[0]?.error : null;
    const text = only ? `Review failed: ${only}` : `${failures.length} reviews failed`;
    return { text, severity: null, failed: true };
  }
  const findings = reviewFindings(reviews);
  const failed = failures.length > 0 ? [count(failures.length, "review failed", "reviews failed")] : [];
  if (findings.length === 0)
    return { text: ["Reviewed: no findings", ...failed].join(" · "), severity: null, failed: false };
  const bySeverity = SEVERITY_ORDER.flatMap((severity) => {
    const n = findings.filter((finding) => finding.severity === severity).length;
    return n > 0 ? [`${n} ${severity}`] : [];
  });
  return {
    text: `Review: ${[count(findings.length, "finding", "findings"), ...bySeverity, ...failed].join(" · ")}`,
    severity: findings[0]?.severity ?? null,
    failed: false,
  };
}

/** The piece of work session `id` worked on, if any: a session is on one branch at a time. */
export function workOfSession(entries: readonly WorkEntry[], id: string): WorkEntry | undefined {
  return entries.find((entry) => entry.sessions.includes(id));
}
