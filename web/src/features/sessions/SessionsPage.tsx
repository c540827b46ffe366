/**
 * `/` (and `/sessions`), the "Agents" board: every session of the account, live from the event
 * stream, in groups (what needs the user first, then what runs, then what is done), searched by
 * title, prompt, folder and branch, filtered by status and engine (archived ones behind a toggle,
 * and a search that finds only hidden archived ones says so and offers them), ordered by latest
 * activity or by CPU, children under their parent; the fleet governor's last check is one line in
 * the header when it has something to say. A plain word instead when the server has no sessions
 * route.
 */
import { useCallback, useEffect, useMemo, useState } from "react";
import { moveSelection, typingIn } from "../../shared/keys";
import { navigate, sessionPath } from "../../shared/router";
import { ApiError } from "../../shared/api/client";
import { ErrorNote, Loading, NotBuilt } from "../../shared/ui/Status";
import { useToast } from "../../shared/ui/toasts";
import { useApprovals } from "../../shared/answers/useApprovals";
import { usePendingRequests } from "../../shared/answers/usePendingRequests";
import type { InputRequest } from "../../shared/api/types.generated";
import {
  ALL_SESSIONS,
  archivedMatches,
  boardSections,
  folderColumnShown,
  enginesOf,
  ORDER_TITLES,
  orderFromQuery,
  STATUSES,
  statusFromQuery,
  type BoardFilter,
  type BoardOrder,
} from "./board";
import { BoardTable } from "./BoardTable";
import { GovernorLine } from "./GovernorLine";
import { NewSessionButton } from "./NewSessionDialog";
import { useLiveSessions } from "./useLiveSessions";
import "./sessionsBoard.css";
import { EmptyState } from "../../shared/ui/EmptyState";
import { Hint } from "../../shared/ui/Hint";

/**
 * The status filter and the order written back to the address (`null`, the default, leaves the
 * parameter out), so they survive a reload and can be linked.
 */
function writeParam(name: "status" | "sort", value: string | null) {
  const url = new URL(window.location.href);
  if (value === null) url.searchParams.delete(name);
  else url.searchParams.set(name, value);
  window.history.replaceState(window.history.state, "", url);
}

function requestsBySession(requests: readonly InputRequest[]): ReadonlyMap<string, readonly InputRequest[]> {
  const bySession = new Map<string, InputRequest[]>();
  for (const r of requests) bySession.set(r.sessionId, [...(bySession.get(r.sessionId) ?? []), r]);
  return bySession;
}

export function SessionsPage() {
  const { sessions, error, reload } = useLiveSessions();
  const [filter, setFilterState] = useState<BoardFilter>(() => ({
    ...ALL_SESSIONS,
    status: statusFromQuery(window.location.search),
  }));
  const setFilter = (next: BoardFilter) => {
    if (next.status !== filter.status) writeParam("status", next.status === "all" ? null : next.status);
    setFilterState(next);
  };
  const [order, setOrderState] = useState<BoardOrder>(() => orderFromQuery(window.location.search));
  const setOrder = (next: BoardOrder) => {
    writeParam("sort", next === "activity" ? null : next);
    setOrderState(next);
  };
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [query, setQuery] = useState("");
  const toast = useToast();
  const approvals = useApprovals(
    () => undefined,
    (e: unknown, context: string) => toast.error(e, context),
  );
  const pendingRequests = usePendingRequests();
  const requests = useMemo(() => requestsBySession(pendingRequests), [pendingRequests]);
  const asking = useMemo(
    () => new Set([...approvals.approvals.map((a) => a.sessionId), ...requests.keys()]),
    [approvals.approvals, requests],
  );
  const sections = useMemo(
    () => (sessions ? boardSections(sessions, filter, collapsed, query, asking, order) : []),
    [sessions, filter, collapsed, query, asking, order],
  );
  const engines = useMemo(() => (sessions ? enginesOf(sessions) : []), [sessions]);
  const showFolder = useMemo(() => (sessions ? folderColumnShown(sessions) : true), [sessions]);
  const hiddenMatches = useMemo(
    () => (sessions ? archivedMatches(sessions, filter, query) : 0),
    [sessions, filter, query],
  );

  // j and k move through the rows as drawn, Enter opens the selected session.
  const [selected, setSelected] = useState<string | null>(null);
  useEffect(() => {
    const drawn = sections.flatMap((section) => section.rows.map((row) => row.session));
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return;
      if (document.querySelector("dialog[open]")) return;
      if (event.key === "j" || event.key === "k") {
        event.preventDefault();
        setSelected(moveSelection(drawn, selected, event.key === "j" ? 1 : -1));
      } else if (
        event.key === "Enter" &&
        // Enter on a button or a link (a row's action, its menu) is that control's.
        !(event.target instanceof Element && event.target.closest("button, a, [role='dialog']")) &&
        selected !== null &&
        drawn.some((s) => s.id === selected)
      ) {
        event.preventDefault();
        navigate(sessionPath(selected));
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [sections, selected]);

  const toggle = useCallback(
    (id: string) =>
      setCollapsed((current) => {
        const next = new Set(current);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );

  if (error instanceof ApiError && error.status === 404) return <NotBuilt title="Sessions" />;

  const archived = sessions?.filter((s) => s.archived).length ?? 0;

  return (
    <section className="page agents-page">
      <header className="page-head">
        <h1>Agents</h1>
        <Hint className="muted shortcut-hint">
          <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>Enter</kbd> opens, <kbd>n</kbd> next needing you
        </Hint>
        <GovernorLine />
      </header>
      <div className="board-filters" role="group" aria-label="Filters">
        <input
          type="search"
          className="board-search"
          aria-label="Search sessions"
          placeholder="Search title, prompt, folder, branch"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <label className="board-filter">
          <span className="phone-hidden-words">Status</span>{" "}
          <select
            value={filter.status}
            onChange={(e) => setFilter({ ...filter, status: e.target.value as BoardFilter["status"] })}
          >
            <option value="all">All statuses</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.replace(/_/g, " ")}
              </option>
            ))}
          </select>
        </label>
        <label className="board-filter">
          <span className="phone-hidden-words">Engine</span>{" "}
          <select value={filter.engine} onChange={(e) => setFilter({ ...filter, engine: e.target.value })}>
            <option value="all">All engines</option>
            {engines.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label className="board-filter">
          <span className="phone-hidden-words">Sort</span>{" "}
          <select value={order} onChange={(e) => setOrder(e.target.value as BoardOrder)}>
            {(Object.keys(ORDER_TITLES) as BoardOrder[]).map((o) => (
              <option key={o} value={o}>
                {ORDER_TITLES[o]}
              </option>
            ))}
          </select>
        </label>
        <label className="board-archived-toggle">
          <input
            type="checkbox"
            checked={filter.showArchived}
            onChange={(e) => setFilter({ ...filter, showArchived: e.target.checked })}
          />{" "}
          Show archived ({archived})
        </label>
      </div>
      {error !== undefined && <ErrorNote error={error} onRetry={reload} />}
      {!sessions && error === undefined && <Loading what="sessions" />}
      {sessions?.length === 0 && (
        <EmptyState className="board-empty">
          <p>No sessions yet.</p>
          <NewSessionButton label="Start your first session" />
        </EmptyState>
      )}
      {sessions && sessions.length > 0 && sections.length === 0 && (
        <EmptyState>No session matches these filters.</EmptyState>
      )}
      {hiddenMatches > 0 && (
        <p className="board-archived-note" role="status">
          {hiddenMatches} archived {hiddenMatches === 1 ? "match" : "matches"} —{" "}
          <button type="button" className="link-button" onClick={() => setFilter({ ...filter, showArchived: true })}>
            show
          </button>
        </p>
      )}
      {sections.length > 0 && (
        <BoardTable
          sections={sections}
          collapsed={collapsed}
          onToggle={toggle}
          selected={selected}
          onSelect={setSelected}
          approvals={approvals}
          requests={requests}
          showFolder={showFolder}
        />
      )}
    </section>
  );
}
