/**
 * A piece of work's reviews (docs/work.md, "Reviews on return"): one line that sums them up,
 * opening onto every finding, most severe first, with where it is and which reviewer made it,
 * then what each reviewer looked at. Drawn on the work page's cards and on the session page.
 */
import type { WorkEntry } from "../api/types.generated";
import { exactTime, relativeTime } from "../time";
import { findingLocation, reviewFindings, reviewSummary } from "./reviews";
import "./reviews.css";
import { Pill } from "../ui/Pill";

export function ReviewFindings({
  entry,
  now,
  open = false,
}: {
  entry: Pick<WorkEntry, "reviews" | "lastCommit">;
  now: number;
  /** Opened from the start, where the reviews are what the user came for. */
  open?: boolean;
}) {
  const summary = reviewSummary(entry.reviews);
  if (summary === null) return null;
  const findings = reviewFindings(entry.reviews);
  const tone = summary.failed ? "failed" : (summary.severity ?? "clean");
  return (
    <details className="review" open={open}>
      <summary className={`review-summary review-${tone}`}>{summary.text}</summary>
      {findings.length > 0 && (
        <ul className="review-findings" aria-label="Review findings">
          {findings.map((finding, i) => (
            // Findings have no id, and the same text may be found twice on one line.
            <li key={i} className={`review-finding review-${finding.severity}`}>
              <div className="review-finding-head">
                <Pill status={finding.severity} />
                <code className="review-location">{findingLocation(finding)}</code>
                <span className="muted">{finding.reviewer}</span>
              </div>
              <p className="review-text">{finding.text}</p>
            </li>
          ))}
        </ul>
      )}
      <ul className="review-reviewers muted" aria-label="Reviewers">
        {entry.reviews.map((review) => (
          <li key={review.reviewer}>
            {review.reviewer} {review.error === null ? "reviewed" : "could not review"}{" "}
            <code title={review.head}>{review.head.slice(0, 7)}</code>
            {/* A review of an earlier head says nothing of the commits made since. */}
            {entry.lastCommit !== null && review.head !== entry.lastCommit.sha && " (not the last commit)"}{" "}
            <time dateTime={review.at} title={exactTime(review.at)}>
              {relativeTime(review.at, now)}
            </time>
            {review.error !== null && `: ${review.error}`}
          </li>
        ))}
      </ul>
    </details>
  );
}
