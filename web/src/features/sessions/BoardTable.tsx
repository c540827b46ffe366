/**
 * The agent board's table: a heading and rows per `BoardSection` ("Needs you", "Running",
 * "Done"), one row per session, children indented under a collapsible parent, drawn as a virtual
 * list (only the lines in view are in the DOM, between two spacer rows). A row that needs the user
 * carries what it asks under it (approvals, input requests, a reply box), answered in place. Every
 * row has its actions (open, stop, retry, archive) in a "⋯" menu, and the selected row (by j/k, a
 * click or the focus; or the row under the pointer) shows them as buttons over its last columns.
 * Titles take the width the other columns leave, and all start at one x position.
 */
import { plainMessage, sessionStatusWords } from "../../shared/humanize";
import { Coded } from "../../shared/ui/Coded";
import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { InputRequest, Session } from "../../shared/api/types.generated";
import { SessionAnswers } from "../../shared/answers/SessionAnswers";
import type { Approvals } from "../../shared/answers/useApprovals";
import { Link, navigate, sessionPath } from "../../shared/router";
import { relativeTime } from "../../shared/time";
import { ConfirmDialog } from "../../shared/ui/Dialog";
import { useToast } from "../../shared/ui/toasts";
import { useMediaQuery } from "../../shared/useMediaQuery";
import { useNow } from "../../shared/useNow";
import { archiveSession, stopSession } from "./api";
import {
  ACTION_LABELS,
  boardItems,
  describeActivity,
  GROUP_TITLES,
  workFolder,
  lastActivityAt,
  type BoardGroup,
  type BoardRow,
  type BoardSection,
  rowActions,
  type RowAction,
} from "./board";
import { BoardRowMenu } from "./BoardRowMenu";
import { describeStop, sessionTitle } from "./lifecycle";
import { runnerLabel } from "./runnerChoice";
import { cpuFigure } from "./resourceUse";
import { costOf } from "./spend";
import { useRetry } from "./useRetry";
import { Pill } from "../../shared/ui/Pill";
import { When } from "../../shared/ui/When";

/**
 * The columns, each with its class for its width; the session's takes what the others leave. On
 * a phone only those marked `narrow` are drawn: the session, its status and its "⋯" menu.
 */
const COLUMNS = [
  { key: "session", title: "Session", narrow: true },
  { key: "engine", title: "Engine", narrow: false },
  { key: "status", title: "Status", narrow: true },
  { key: "folder", title: "Folder", narrow: false },
  { key: "turns", title: "Turns", narrow: false },
  { key: "cost", title: "Cost", narrow: false },
  { key: "cpu", title: "CPU", narrow: false },
  { key: "last", title: "Last activity", narrow: false },
  { key: "actions", title: "Actions", narrow: true },
] as const;
const NARROW = "(max-width: 640px)";
const NO_REQUESTS: readonly InputRequest[] = [];

interface Props {
  sections: readonly BoardSection[];
  collapsed: ReadonlySet<string>;
  onToggle(id: string): void;
  /** The selected row (by j/k, a click or the focus), if any. */
  selected: string | null;
  /** Selects a row: a click on it or the focus entering it. */
  onSelect(id: string): void;
  approvals: Approvals;
  /** Pending input requests by session id. */
  requests: ReadonlyMap<string, readonly InputRequest[]>;
  /** False when the Folder column would say the same on every row (see `folderColumnShown`). */
  showFolder: boolean;
}

export function BoardTable({
  sections,
  collapsed,
  onToggle,
  selected,
  onSelect,
  approvals,
  requests,
  showFolder,
}: Props) {
  const now = useNow();
  const toast = useToast();
  const retry = useRetry();
  const [stopping, setStopping] = useState<Session | null>(null);
  const narrow = useMediaQuery(NARROW);
  const columns = COLUMNS.filter((c) => (narrow ? c.narrow : c.key !== "folder" || showFolder));
  const asking = useMemo(
    () => new Set(approvals.approvals.filter((a) => a.state === "pending").map((a) => a.sessionId)),
    [approvals.approvals],
  );
  const items = useMemo(
    () =>
      boardItems(
        sections,
        (session) => session.status === "waiting_for_input" || asking.has(session.id) || requests.has(session.id),
      ),
    [sections, asking, requests],
  );
  // The room for a tree toggle is kept before every title only when some row has one, so every
  // title starts at the same place either way.
  const tree = useMemo(
    () => items.some((item) => item.kind === "row" && (item.row.childCount > 0 || item.row.depth > 0)),
    [items],
  );
  // Stable, so a row's memo holds: one selection step redraws two rows, not the board.
  const act = useCallback(
    (action: RowAction, session: Session) => {
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
    },
    [toast, retry],
  );

  // Only the lines in view are in the DOM: a thousand sessions lay out, search and step like
  // thirty. The table keeps its columns fixed, so they do not shift as lines come and go.
  const scroller = useRef<HTMLDivElement>(null);
  // The rule warns that the React Compiler would skip this component; the app does not use the
  // compiler, and the virtualizer re-renders the component itself on every scroll.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => (items[index]?.kind === "answers" ? 56 : 48),
    overscan: 12,
    getItemKey: (index) => items[index]?.key ?? index,
  });
  useEffect(() => {
    if (selected === null) return;
    const index = items.findIndex((item) => item.kind === "row" && item.row.session.id === selected);
    if (index >= 0) virtualizer.scrollToIndex(index, { align: "auto" });
  }, [selected, items, virtualizer]);
  const shown = virtualizer.getVirtualItems();
  const before = shown[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (shown[shown.length - 1]?.end ?? 0);

  return (
    <div className="table-scroll board-scroller" ref={scroller}>
      <table
        className={`plain-table session-board${tree ? " has-tree" : ""}`}
        data-sessions={items.filter((i) => i.kind === "row").length}
      >
        <colgroup>
          {columns.map((c) => (
            <col key={c.key} className={`col-${c.key}`} />
          ))}
        </colgroup>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key}>{c.key === "actions" ? <span className="visually-hidden">{c.title}</span> : c.title}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {before > 0 && <tr aria-hidden="true" className="board-spacer" style={{ height: before }} />}
          {shown.map((line) => {
            const item = items[line.index];
            if (!item) return null;
            const measured = { ref: virtualizer.measureElement, "data-index": line.index, "data-group": item.group };
            switch (item.kind) {
              case "group":
                return (
                  <tr key={item.key} className="board-group" {...measured}>
                    <th colSpan={columns.length} scope="colgroup">
                      {GROUP_TITLES[item.group]} <span className="muted">({item.count})</span>
                    </th>
                  </tr>
                );
              case "row":
                return (
                  <SessionRow
                    key={item.key}
                    measure={virtualizer.measureElement}
                    index={line.index}
                    group={item.group}
                    session={item.row.session}
                    depth={item.row.depth}
                    childCount={item.row.childCount}
                    collapsed={collapsed.has(item.row.session.id)}
                    onToggle={onToggle}
                    onAction={act}
                    onSelect={onSelect}
                    now={now}
                    narrow={narrow}
                    showFolder={showFolder}
                    tree={tree}
                    selected={item.row.session.id === selected}
                  />
                );
              case "answers":
                return (
                  <tr key={item.key} className="board-answers" data-answers-for={item.session.id} {...measured}>
                    <td colSpan={columns.length}>
                      <SessionAnswers
                        sessionId={item.session.id}
                        title={sessionTitle(item.session)}
                        approvals={approvals}
                        requests={requests.get(item.session.id) ?? NO_REQUESTS}
                        reply={item.session.status === "waiting_for_input"}
                      />
                    </td>
                  </tr>
                );
            }
          })}
          {after > 0 && <tr aria-hidden="true" className="board-spacer" style={{ height: after }} />}
        </tbody>
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

interface Measured {
  ref: (element: Element | null) => void;
  "data-index": number;
  "data-group": BoardGroup;
}

// Memoised on the session object and plain values (not the row, which each search or filter
// builds anew): a `session` event, a keystroke or a selection step redraws only the rows it changes.
const SessionRow = memo(function SessionRow({
  measure,
  index,
  group,
  session,
  depth,
  childCount,
  collapsed,
  onToggle,
  onAction,
  onSelect,
  now,
  narrow,
  showFolder,
  tree,
  selected,
}: Pick<BoardRow, "session" | "depth" | "childCount"> & {
  /**
   * What the virtual list needs on the row, as plain props (one object made per render would
   * redraw every visible row at each keystroke): its measuring ref, index and group.
   */
  measure: Measured["ref"];
  index: number;
  group: BoardGroup;
  collapsed: boolean;
  onToggle(id: string): void;
  onAction(action: RowAction, session: Session): void;
  onSelect(id: string): void;
  now: number;
  /** A phone's board: only the session, its status and its menu are drawn. */
  narrow: boolean;
  showFolder: boolean;
  /** Whether some row of the board has a tree toggle: the room for one is kept on every row. */
  tree: boolean;
  selected: boolean;
}) {
  const cost = costOf(session);
  const cpu = cpuFigure(session);
  const last = lastActivityAt(session);
  const title = sessionTitle(session);
  const doing = describeActivity(session);
  const stopWords = describeStop(session, (iso) => relativeTime(iso, now));
  const runner = runnerLabel(session);
  const actions = rowActions(session);
  const select = () => {
    if (!selected) onSelect(session.id);
  };
  return (
    <tr
      ref={measure}
      data-index={index}
      data-group={group}
      data-session-id={session.id}
      data-status={session.status}
      data-depth={depth}
      aria-current={selected ? "true" : undefined}
      className={["session-row", session.archived ? "archived" : "", selected ? "selected" : ""].join(" ").trim()}
      onClick={select}
      onFocus={select}
    >
      <td>
        <span
          className="session-cell"
          style={depth > 0 ? { paddingLeft: `calc(${depth} * var(--indent))` } : undefined}
        >
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
            tree && <span className="tree-toggle-space" />
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
            {session.error && <SessionError error={session.error} />}
          </span>
          {collapsed && <span className="muted"> +{childCount}</span>}
        </span>
      </td>
      {!narrow && (
        <td>
          {session.engine}
          {runner && (
            <div className="muted runner-on" title={`Runs on ${runner}`}>
              on {runner}
            </div>
          )}
        </td>
      )}
      <td>
        <Pill status={sessionStatusWords(session)} />
        {session.agentDriven && <span className="muted"> · agent</span>}
        {session.archived && <span className="muted"> · archived</span>}
        {stopWords && <div className="muted stop-reason">{stopWords}</div>}
      </td>
      {!narrow && (
        <>
          {showFolder && (
            <td title={session.worktree ? `${session.worktree.repository} · ${session.worktree.branch}` : session.cwd}>
              <span className="folder">{workFolder(session)}</span>
              {session.worktree && <div className="muted branch">{session.worktree.branch}</div>}
            </td>
          )}
          <td>{session.turns}</td>
          <td>
            {cost ?? (
              <span className="muted" title="This engine reports no price">
                —
              </span>
            )}
          </td>
          <td className="cpu">
            {cpu ?? (
              <span className="muted" title="No figures: the session runs on a runner, or this machine has no cgroups">
                —
              </span>
            )}
          </td>
          <td>
            <When at={last} now={now} />
          </td>
        </>
      )}
      <td className="row-actions">
        {!narrow && (
          <span className="row-action-bar">
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
          </span>
        )}
        <BoardRowMenu title={title} actions={actions} onAction={(action) => onAction(action, session)} />
      </td>
    </tr>
  );
});

/** A session's error in words, the text as stored on hover. */
function SessionError({ error }: { error: string }) {
  const plain = plainMessage(error);
  return (
    <Coded raw={plain.raw ?? error} className="inline-error session-now">
      {plain.words}
    </Coded>
  );
}
