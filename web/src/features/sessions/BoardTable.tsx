/**
 * The agent board's table: a group of rows per `BoardSection` ("Needs you", "Running", "Done"),
 * one row per session, children indented under a collapsible parent.
 */
import { memo, useEffect, useRef } from "react";
import { Link, sessionPath } from "../../shared/router";
import { relativeTime } from "../../shared/time";
import { describeActivity, GROUP_TITLES, workFolder, lastActivityAt, type BoardRow, type BoardSection } from "./board";
import { costGauge, turnsGauge } from "./ceilings";
import { Gauge } from "./Gauge";
import { describeStop, localTime } from "./lifecycle";
import { useNow } from "../../shared/useNow";

// One formatter for every row: `toLocaleString` would build one per call.
const FULL_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

interface Props {
  sections: readonly BoardSection[];
  collapsed: ReadonlySet<string>;
  onToggle(id: string): void;
  /** The row j/k selected, if any. */
  selected: string | null;
}

export function BoardTable({ sections, collapsed, onToggle, selected }: Props) {
  const now = useNow();
  return (
    <table className="plain-table session-board">
      <thead>
        <tr>
          <th>Session</th>
          <th>Engine</th>
          <th>Status</th>
          <th>Folder</th>
          <th>Now</th>
          <th>Turns</th>
          <th>Cost</th>
          <th>Last activity</th>
        </tr>
      </thead>
      {sections.map(({ group, rows }) => (
        <tbody key={group} data-group={group}>
          <tr className="board-group">
            <th colSpan={8} scope="colgroup">
              {GROUP_TITLES[group]} <span className="muted">({rows.length})</span>
            </th>
          </tr>
          {rows.map((row) => (
            <SessionRow
              key={row.session.id}
              row={row}
              collapsed={collapsed.has(row.session.id)}
              onToggle={onToggle}
              now={now}
              selected={row.session.id === selected}
            />
          ))}
        </tbody>
      ))}
    </table>
  );
}

// Memoised: a `session` event changes one row object, so only that row redraws.
const SessionRow = memo(function SessionRow({
  row: { session, depth, childCount },
  collapsed,
  onToggle,
  now,
  selected,
}: {
  row: BoardRow;
  collapsed: boolean;
  onToggle(id: string): void;
  now: number;
  selected: boolean;
}) {
  const ref = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    if (selected) ref.current?.scrollIntoView({ block: "nearest" });
  }, [selected]);
  const cost = costGauge(session);
  const last = lastActivityAt(session);
  const title = session.title || session.prompt.split("\n", 1)[0] || session.id;
  const stopWords = describeStop(session, (iso) => localTime(iso, now));
  return (
    <tr
      ref={ref}
      data-session-id={session.id}
      data-status={session.status}
      aria-current={selected ? "true" : undefined}
      className={[session.archived ? "archived" : "", selected ? "selected" : ""].join(" ").trim() || undefined}
    >
      <td>
        <span className="session-cell" style={{ paddingLeft: `${depth * 20}px` }}>
          {childCount > 0 ? (
            <button
              type="button"
              className="tree-toggle"
              aria-expanded={!collapsed}
              aria-label={`${collapsed ? "Show" : "Hide"} ${childCount} child session${childCount === 1 ? "" : "s"}`}
              onClick={() => onToggle(session.id)}
            >
              {collapsed ? "▸" : "▾"}
            </button>
          ) : (
            <span className="tree-toggle-space" />
          )}
          <Link to={sessionPath(session.id)} className="session-title">
            {title}
          </Link>
          {collapsed && <span className="muted"> +{childCount}</span>}
        </span>
      </td>
      <td>{session.engine}</td>
      <td>
        <span className={`tag status-${session.status}`}>{session.status.replace(/_/g, " ")}</span>
        {session.agentDriven && <span className="muted"> · agent</span>}
        {session.archived && <span className="muted"> · archived</span>}
        {stopWords && <div className="muted stop-reason">{stopWords}</div>}
      </td>
      <td title={session.worktree?.path ?? session.cwd}>
        <span className="folder">{workFolder(session)}</span>
        {session.worktree && <div className="muted branch">{session.worktree.branch}</div>}
      </td>
      <td className="session-now">
        {describeActivity(session)}
        {session.error && <div className="inline-error">{session.error}</div>}
      </td>
      <td>
        <Gauge name="Turns" gauge={turnsGauge(session)} />
      </td>
      <td>
        {cost ? (
          <Gauge name="Cost" gauge={cost} />
        ) : (
          <span className="muted" title="This engine reports no price">
            —
          </span>
        )}
      </td>
      <td>
        <time dateTime={last} title={FULL_TIME.format(new Date(last))}>
          {relativeTime(last, now)}
        </time>
      </td>
    </tr>
  );
});
