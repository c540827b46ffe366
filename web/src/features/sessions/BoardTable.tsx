/**
 * The agent board's table: a group of rows per `BoardSection` ("Needs you", "Running", "Done"),
 * one row per session, children indented under a collapsible parent. A row that needs the user
 * carries what it asks under it (approvals, input requests, a reply box), answered in place, and
 * every row has its actions (open, stop, archive, retry) on hover, focus or selection.
 */
import { memo, useEffect, useRef, useState } from "react";
import type { InputRequest, Session } from "../../shared/api/types.generated";
import { SessionAnswers } from "../../shared/answers/SessionAnswers";
import type { Approvals } from "../../shared/answers/useApprovals";
import { Link, navigate, sessionPath } from "../../shared/router";
import { relativeTime } from "../../shared/time";
import { ConfirmDialog } from "../../shared/ui/Dialog";
import { useToast } from "../../shared/ui/toasts";
import { useNow } from "../../shared/useNow";
import { archiveSession, stopSession } from "./api";
import { describeActivity, GROUP_TITLES, workFolder, lastActivityAt, type BoardRow, type BoardSection } from "./board";
import { describeStop, localTime, sessionActions, sessionTitle } from "./lifecycle";
import { costOf } from "./spend";
import { useRetry } from "./useRetry";

// One formatter for every row: `toLocaleString` would build one per call.
const FULL_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
const COLUMNS = 8;
const NO_REQUESTS: readonly InputRequest[] = [];

interface Props {
  sections: readonly BoardSection[];
  collapsed: ReadonlySet<string>;
  onToggle(id: string): void;
  /** The row j/k selected, if any. */
  selected: string | null;
  approvals: Approvals;
  /** Pending input requests by session id. */
  requests: ReadonlyMap<string, readonly InputRequest[]>;
}

export function BoardTable({ sections, collapsed, onToggle, selected, approvals, requests }: Props) {
  const now = useNow();
  const toast = useToast();
  const retry = useRetry();
  const [stopping, setStopping] = useState<Session | null>(null);
  const asking = new Set(approvals.approvals.filter((a) => a.state === "pending").map((a) => a.sessionId));
  const act = (action: RowAction, session: Session) => {
    switch (action) {
      case "open":
        return navigate(sessionPath(session.id));
      case "stop":
        return setStopping(session);
      case "archive":
        return void archiveSession(session.id).catch((e: unknown) => toast.error(e, "The session was not archived"));
      case "retry":
        return retry(session);
    }
  };
  return (
    <div className="table-scroll">
      <table className="plain-table session-board">
        <thead>
          <tr>
            <th>Session</th>
            <th>Engine</th>
            <th>Status</th>
            <th>Folder</th>
            <th>Turns</th>
            <th>Cost</th>
            <th>Last activity</th>
            <th>
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        {sections.map(({ group, rows }) => (
          <tbody key={group} data-group={group}>
            <tr className="board-group">
              <th colSpan={COLUMNS} scope="colgroup">
                {GROUP_TITLES[group]} <span className="muted">({rows.length})</span>
              </th>
            </tr>
            {rows.map((row) => {
              const session = row.session;
              const pendingRequests = requests.get(session.id) ?? NO_REQUESTS;
              const answerable =
                group === "needs_you" &&
                (session.status === "waiting_for_input" || asking.has(session.id) || pendingRequests.length > 0);
              return [
                <SessionRow
                  key={session.id}
                  row={row}
                  collapsed={collapsed.has(session.id)}
                  onToggle={onToggle}
                  onAction={act}
                  now={now}
                  selected={session.id === selected}
                />,
                answerable && (
                  <tr key={`${session.id}-answers`} className="board-answers" data-answers-for={session.id}>
                    <td colSpan={COLUMNS}>
                      <SessionAnswers
                        sessionId={session.id}
                        title={sessionTitle(session)}
                        approvals={approvals}
                        requests={pendingRequests}
                        reply={session.status === "waiting_for_input"}
                      />
                    </td>
                  </tr>
                ),
              ];
            })}
          </tbody>
        ))}
      </table>
      {stopping && (
        <ConfirmDialog
          title={`Stop ${sessionTitle(stopping)}?`}
          confirmLabel="Stop"
          onConfirm={() => {
            const id = stopping.id;
            setStopping(null);
            stopSession(id).catch((e: unknown) => toast.error(e, "The session was not stopped"));
          }}
          onClose={() => setStopping(null)}
        >
          <p>This ends the session&apos;s process tree. It takes no more messages afterwards.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

type RowAction = "open" | "stop" | "archive" | "retry";

const ACTION_LABELS: Record<RowAction, string> = { open: "Open", stop: "Stop", archive: "Archive", retry: "Retry" };

// Memoised: a `session` event changes one row object, so only that row redraws.
const SessionRow = memo(function SessionRow({
  row: { session, depth, childCount },
  collapsed,
  onToggle,
  onAction,
  now,
  selected,
}: {
  row: BoardRow;
  collapsed: boolean;
  onToggle(id: string): void;
  onAction(action: RowAction, session: Session): void;
  now: number;
  selected: boolean;
}) {
  const ref = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    if (selected) ref.current?.scrollIntoView({ block: "nearest" });
  }, [selected]);
  const cost = costOf(session);
  const last = lastActivityAt(session);
  const title = sessionTitle(session);
  const doing = describeActivity(session);
  const stopWords = describeStop(session, (iso) => localTime(iso, now));
  const allowed = sessionActions(session);
  const actions: RowAction[] = ["open"];
  if (allowed.stop) actions.push("stop");
  if (allowed.retry) actions.push("retry");
  if (allowed.archive) actions.push("archive");
  return (
    <tr
      ref={ref}
      data-session-id={session.id}
      data-status={session.status}
      aria-current={selected ? "true" : undefined}
      className={["session-row", session.archived ? "archived" : "", selected ? "selected" : ""].join(" ").trim()}
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
          <span className="session-names">
            <Link to={sessionPath(session.id)} className="session-title" title={title}>
              {title}
            </Link>
            {doing && (
              <span className="muted session-now" title={doing}>
                {doing}
              </span>
            )}
            {session.error && (
              <span className="inline-error session-now" title={session.error}>
                {session.error}
              </span>
            )}
          </span>
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
      <td title={session.worktree ? `${session.worktree.repository} · ${session.worktree.branch}` : session.cwd}>
        <span className="folder">{workFolder(session)}</span>
        {session.worktree && <div className="muted branch">{session.worktree.branch}</div>}
      </td>
      <td>{session.turns}</td>
      <td>
        {cost ?? (
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
      <td className="row-actions">
        {actions.map((action) => (
          <button
            key={action}
            type="button"
            aria-label={`${ACTION_LABELS[action]} ${title}`}
            onClick={() => onAction(action, session)}
          >
            {ACTION_LABELS[action]}
          </button>
        ))}
      </td>
    </tr>
  );
});
