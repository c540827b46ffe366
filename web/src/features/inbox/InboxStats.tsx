/**
 * The inbox's Stats tab (`inboxAnalyticsEnabled`): per category over the last seven days, how long
 * rows waited before the user acted, how the unread pile moved day by day, how many rows were
 * looked at and left, and the time spent on them. Recorded on this machine only.
 */
import { useEffect, useState } from "react";
import { apiFetch } from "../../shared/api/client";
import type { InboxStatsPage } from "../../shared/api/types.generated";
import { EmptyState } from "../../shared/ui/EmptyState";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { CATEGORY_LABEL } from "./list";
import { formatDuration, weekFigures, weekTotals } from "./stats";

function PileUp({ days, counts }: { days: readonly string[]; counts: readonly (number | null)[] }) {
  const top = Math.max(1, ...counts.map((c) => c ?? 0));
  return (
    <span className="stats-pile" role="img" aria-label={`Unread per day: ${counts.map((c) => c ?? "none").join(", ")}`}>
      {counts.map((count, i) => (
        <span
          key={days[i] ?? i}
          className="stats-bar"
          title={`${days[i] ?? ""}: ${count ?? "no sample"}`}
          style={{ height: `${Math.round(((count ?? 0) / top) * 100)}%` }}
        />
      ))}
    </span>
  );
}

export function InboxStats() {
  const [page, setPage] = useState<InboxStatsPage>();
  const [error, setError] = useState<unknown>();
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    apiFetch<InboxStatsPage>("/inbox/stats").then(
      (p) => live && setPage(p),
      (e: unknown) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [attempt]);

  if (error !== undefined)
    return (
      <ErrorNote
        error={error}
        onRetry={() => {
          setError(undefined);
          setAttempt((n) => n + 1);
        }}
      />
    );
  if (!page) return <Loading what="the inbox stats" />;
  if (!page.enabled) return <EmptyState>Inbox stats are off (inboxAnalyticsEnabled); nothing is recorded.</EmptyState>;
  const figures = weekFigures(page.week);
  if (figures.length === 0) return <EmptyState>Nothing recorded this week yet.</EmptyState>;
  const totals = weekTotals(figures);
  return (
    <div className="inbox-stats">
      <p className="muted">Last 7 days, kept on this machine only: counts and durations, no message content or ids.</p>
      <dl className="stats-totals">
        <div>
          <dt>Acted on</dt>
          <dd>{totals.actions}</dd>
        </div>
        <div>
          <dt>Average wait</dt>
          <dd>{formatDuration(totals.averageWaitMs)}</dd>
        </div>
        <div>
          <dt>Looked at, left</dt>
          <dd>
            {totals.idleLooks} of {totals.looks}
          </dd>
        </div>
        <div>
          <dt>Time spent</dt>
          <dd>{formatDuration(totals.visibleMs)}</dd>
        </div>
      </dl>
      {/* Focusable so a keyboard can scroll the table on a narrow screen. */}
      <div className="stats-scroll" role="region" aria-label="Stats by category" tabIndex={0}>
        <table className="stats-table" aria-label="Inbox stats per category">
          <thead>
            <tr>
              <th scope="col">Category</th>
              <th scope="col">Average wait</th>
              <th scope="col">Pile-up</th>
              <th scope="col">Looked at, left</th>
              <th scope="col">Time spent</th>
            </tr>
          </thead>
          <tbody>
            {figures.map((f) => (
              <tr key={f.category}>
                <th scope="row">{CATEGORY_LABEL[f.category] ?? f.category}</th>
                <td>
                  {formatDuration(f.averageWaitMs)}
                  <span className="muted"> ({f.actions})</span>
                </td>
                <td>
                  <PileUp days={page.week.days} counts={f.pileUp} />
                </td>
                <td>
                  {f.idleLooks} of {f.looks}
                </td>
                <td>{formatDuration(f.visibleMs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
