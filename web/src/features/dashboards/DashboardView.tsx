/**
 * The dashboard page proper (loaded lazily by `DashboardPage`): header with name, save state
 * and publish; the toolbar; the board loading strip; the grid; the widget settings panel.
 * There is no Edit/View toggle: every change goes to the draft and the autosave saves it.
 */
import { Link } from "../../shared/router";
import { usePageTitle } from "../../shared/ui/PageHeader";
import { errorMessage } from "../../shared/api/errorMessage";
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { ApiError } from "../../shared/api/client";
import { type Dashboard, getDashboard, saveDashboard } from "./api";
import { AUTOSAVE_DEBOUNCE_MS, type AutosaveSnapshot, Autosaver } from "./autosave";
import type { DashboardFilters, WidgetConfig } from "./engine/types";
import type { MenuWidgetType } from "./engine/widgetMenu";
import { exportPng, printDashboard } from "./exportDashboard";
import { reportNotes } from "./filterEdit";
import { withGridLayout } from "./layout";
import { PublishControl } from "./PublishControl";
import { type ResultsSource, useResults } from "./resultsStore";
import {
  AddWidgetMenu,
  ConnectBoardsModal,
  ExportMenu,
  FilterMenu,
  FilterNotes,
  InviteModal,
  PeopleMenu,
  useNameLookup,
} from "./Toolbar";
import { columnOptions, newWidget } from "./widgetDefaults";
import { WidgetGrid } from "./WidgetGrid";
import { WidgetSettings } from "./WidgetSettings";
import type { BoardStatus } from "./worker/dashboardCore";
import { type Draft, useAutosave } from "./useAutosave";
import { useDirectory } from "./useDirectory";
import { useDisconnectedBoards } from "./useDisconnectedBoards";
import { useRefreshOnFocus } from "./useRefreshOnFocus";
import {
  type ProgressStore,
  readDashboard,
  useDashboardWorker,
  useStartedDashboardWorker,
} from "./worker/useDashboardWorker";
import "./dashboard.css";
import { EmptyState } from "../../shared/ui/EmptyState";

type Loaded =
  | { kind: "loading" }
  | { kind: "error"; message: string; notFound: boolean }
  | { kind: "ready"; dashboard: Dashboard; saver: Autosaver<Draft> };

const LOADING: Loaded = { kind: "loading" };

export function DashboardView({ id }: { id: string }) {
  // What was read, for the worker it was read from: a new worker (another dashboard) reads anew.
  const [read, setRead] = useState<{ worker: Worker | null; loaded: Loaded }>({ worker: null, loaded: LOADING });
  const opened = useStartedDashboardWorker(id);
  const worker = opened?.worker ?? null;
  useEffect(() => {
    if (!opened) return;
    let live = true;
    readDashboard(opened).then(
      ({ data, etag }) => {
        if (!live) return;
        const saver = new Autosaver<Draft>({
          initial: { name: data.name, config: data.config },
          etag,
          save: async (draft, current) => ({ etag: (await saveDashboard(id, draft, current)).etag }),
          isConflict: (e) => e instanceof ApiError && e.status === 412,
        });
        setRead({ worker: opened.worker, loaded: { kind: "ready", dashboard: data, saver } });
      },
      (error: unknown) => {
        if (!live) return;
        const notFound = error instanceof ApiError && error.status === 404;
        setRead({ worker: opened.worker, loaded: { kind: "error", notFound, message: errorMessage(error) } });
      },
    );
    return () => {
      live = false;
    };
  }, [id, opened]);

  const loaded = read.worker === worker ? read.loaded : LOADING;
  if (loaded.kind === "loading" || !worker) return <div className="dash-page dash-muted">Loading dashboard…</div>;
  if (loaded.kind === "error") {
    return (
      <div className="dash-page">
        <h1>{loaded.notFound ? "Dashboard not found" : "The dashboard could not be loaded"}</h1>
        <p className="dash-error">{loaded.message}</p>
      </div>
    );
  }
  return <DashboardEditor dashboard={loaded.dashboard} saver={loaded.saver} worker={worker} />;
}

function SaveState({ snapshot, onRetry }: { snapshot: AutosaveSnapshot<Draft>; onRetry: () => void }) {
  switch (snapshot.status) {
    case "saved":
      return (
        <span className="dash-save dash-save-saved" data-save-status="saved">
          Saved
        </span>
      );
    case "pending":
    case "saving":
      return (
        <span className="dash-save" data-save-status={snapshot.status}>
          Saving…
        </span>
      );
    case "error":
      return (
        <span className="dash-save dash-save-error" data-save-status="error" title={snapshot.error ?? ""}>
          Not saved: {snapshot.error}{" "}
          <button type="button" onClick={onRetry}>
            Retry
          </button>
        </span>
      );
    case "conflict":
      return (
        <span className="dash-save dash-save-error" data-save-status="conflict">
          Not saved
        </span>
      );
  }
}

/** The count of boards read so far: the one part of the page that renders as each arrives. */
function BoardProgressBar({ progress }: { progress: ProgressStore }) {
  const { settled, total } = useSyncExternalStore(progress.subscribe, progress.getSnapshot);
  if (settled >= total) return null;
  return (
    <div className="dash-progress" data-testid="board-progress">
      <span>
        Loading boards {settled}/{total}
      </span>
      <progress max={total} value={settled} />
    </div>
  );
}

function BoardStrip({
  loads,
  progress,
  boardName,
}: {
  loads: readonly BoardStatus[];
  progress: ProgressStore;
  boardName: (id: string) => string;
}) {
  const settled = loads.filter((l) => l.state !== "loading").length;
  const problems = loads.filter((l) => l.state !== "loaded" && (l.state !== "loading" || l.slow));
  if (settled === loads.length && problems.length === 0) return null;
  return (
    <div className="dash-board-strip" aria-live="polite">
      <BoardProgressBar progress={progress} />
      {problems.map((l) => (
        <span key={l.id} className={`dash-board-chip dash-board-${l.state}`} data-board-state={l.state}>
          {boardName(l.id)}:{" "}
          {l.state === "missing"
            ? "not found (deleted, or not yours); left out"
            : l.state === "error"
              ? `could not be loaded (${l.message}); left out`
              : "still loading…"}
        </span>
      ))}
    </div>
  );
}

const NO_SPRINTS: readonly string[] = [];

/**
 * The page's root, marked with the current results' `dataKey` (scripts and tests wait on it):
 * a new result re-renders this element alone, since its children are the same elements.
 */
function ResultsKeyedPage({
  dashboardId,
  boardsSettled,
  results,
  children,
}: {
  dashboardId: string;
  boardsSettled: boolean;
  results: ResultsSource;
  children: React.ReactNode;
}) {
  const dataKey = useResults(results, (r) => r.dataKey);
  return (
    <div
      className="dash-page touch"
      data-dashboard-id={dashboardId}
      data-filter-key={dataKey}
      data-boards-settled={boardsSettled ? "true" : "false"}
    >
      {children}
    </div>
  );
}

/** Made once: `toLocaleString` builds a formatter on every call. */
const COUNT = new Intl.NumberFormat("en-US");

function KeptItems({ results }: { results: ResultsSource }) {
  const report = useResults(results, (r) => r.report);
  return (
    <span className="dash-muted dash-small dash-kept" data-kept-items={report.keptItems}>
      {COUNT.format(report.keptItems)} of {COUNT.format(report.totalItems)} items
    </span>
  );
}

/**
 * The filter notes, as text: a new result with the same notes (most of them: a filter change
 * rarely changes which boards a rule skips) renders neither the notes nor the filter menu.
 */
function useReportNotes(results: ResultsSource, boardName: (id: string) => string): string[] {
  const text = useResults(results, (r) => reportNotes(r.report, boardName).join(NOTE_BREAK));
  return useMemo(() => (text === "" ? [] : text.split(NOTE_BREAK)), [text]);
}

const NOTE_BREAK = "\u0000";

function ReportedNotes({ results, boardName }: { results: ResultsSource; boardName: (id: string) => string }) {
  return <FilterNotes notes={useReportNotes(results, boardName)} className="dash-filter-summary" />;
}

function ReportedFilterMenu({
  results,
  boardName,
  ...menu
}: Omit<React.ComponentProps<typeof FilterMenu>, "notes"> & {
  results: ResultsSource;
  boardName: (id: string) => string;
}) {
  return <FilterMenu {...menu} notes={useReportNotes(results, boardName)} />;
}

function DashboardEditor({
  dashboard,
  saver,
  worker,
}: {
  dashboard: Dashboard;
  saver: Autosaver<Draft>;
  worker: Worker;
}) {
  const { snapshot, edit, editConfig } = useAutosave(saver);
  const draft = snapshot.draft;
  usePageTitle(draft.name);
  const filters = draft.config.filters;

  // Board reads, parsing, filtering and widget computation run in a worker; the page gets
  // board states, column lists, the filter report and widget results.
  const revalidation = useRefreshOnFocus();
  const { loads, metas, progress, results, sendFilters } = useDashboardWorker(worker, draft.config, revalidation);
  const disconnected = useDisconnectedBoards(loads, metas, editConfig);

  const {
    boards: accountBoards,
    members,
    error: sideError,
    refreshBoards,
    addMember,
  } = useDirectory(dashboard.workspaceId);

  const columns = useMemo(() => columnOptions(metas), [metas]);

  const boardRows = useMemo(
    () => [...metas.map((b) => ({ id: b.board.id, name: b.board.name })), ...(accountBoards ?? [])],
    [metas, accountBoards],
  );
  const boardName = useNameLookup(boardRows, "Board");
  const personName = useNameLookup(members, "Member");

  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [connectOpen, setConnectOpen] = useState(false);
  const [inviteOpen, setInviteOpen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const gridRef = useRef<HTMLDivElement>(null);

  const selected = draft.config.widgets.find((w) => w.id === selectedId) ?? null;
  const addWidget = (type: MenuWidgetType) =>
    editConfig((c) => ({ ...c, widgets: [...c.widgets, newWidget(type, c.widgets, metas)] }));
  const replaceWidget = (widget: WidgetConfig) =>
    editConfig((c) => ({ ...c, widgets: c.widgets.map((w) => (w.id === widget.id ? widget : w)) }));
  const onLayout = useCallback(
    (layout: readonly { i: string; x: number; y: number; w: number; h: number }[]) =>
      editConfig((c) => {
        const widgets = withGridLayout(c.widgets, layout);
        return widgets === c.widgets ? c : { ...c, widgets: [...widgets] };
      }),
    [editConfig],
  );
  const setFilters = (next: DashboardFilters) => {
    sendFilters(next);
    editConfig((c) => ({ ...c, filters: next }));
  };

  const [exporting, setExporting] = useState(false);
  const onPng = async () => {
    if (!gridRef.current) return;
    setExporting(true);
    try {
      await exportPng(gridRef.current, draft.name);
    } catch (e) {
      setNotice(`PNG export failed: ${errorMessage(e)}`);
    } finally {
      setExporting(false);
    }
  };

  const reload = async (keepMine: boolean) => {
    try {
      const fresh = await getDashboard(dashboard.id);
      if (keepMine) saver.overwrite(fresh.etag);
      else saver.reset({ name: fresh.data.name, config: fresh.data.config }, fresh.etag);
    } catch (e) {
      setNotice(errorMessage(e));
    }
  };

  // Settled once every connected board (the current list, not a stale one) has answered.
  const boardsSettled =
    loads.map((l) => l.id).join("\n") === draft.config.boardIds.join("\n") && loads.every((l) => l.state !== "loading");
  // Re-renders the page only while a Burndown's settings are open and its result changes.
  const selectedBurndown = useResults(results, (r) =>
    selected?.type === "burndown" ? r.results.get(selected.id) : undefined,
  );
  const burndownSprints = selectedBurndown?.kind === "burndown" ? selectedBurndown.sprintNames : NO_SPRINTS;

  return (
    <ResultsKeyedPage dashboardId={dashboard.id} boardsSettled={boardsSettled} results={results}>
      <header className="dash-header">
        <Link to="/dashboards" className="muted touch-link">
          Dashboards
        </Link>
        <h1 className="visually-hidden">{draft.name}</h1>
        <input
          className="dash-name"
          aria-label="Dashboard name"
          value={draft.name}
          onChange={(e) => edit((d) => ({ ...d, name: e.target.value }))}
        />
        <SaveState snapshot={snapshot} onRetry={() => saver.retryNow()} />
        <div className="dash-header-actions">
          <PublishControl dashboardId={dashboard.id} />
        </div>
      </header>
      {snapshot.status === "conflict" && (
        <div className="dash-conflict" role="alert">
          <strong>This dashboard was changed elsewhere</strong> (another tab, a script or an agent) after you opened it,
          so your latest changes were not saved.{" "}
          <button type="button" onClick={() => reload(false)}>
            Reload the saved version
          </button>{" "}
          <button type="button" onClick={() => reload(true)}>
            Keep mine and overwrite
          </button>
        </div>
      )}
      <div className="dash-toolbar" role="toolbar" aria-label="Dashboard tools">
        <button type="button" className="dash-connect" onClick={() => (refreshBoards(), setConnectOpen(true))}>
          {draft.config.boardIds.length} connected board{draft.config.boardIds.length === 1 ? "" : "s"}
        </button>
        <AddWidgetMenu onAdd={addWidget} />
        <PeopleMenu members={members} filters={filters} onChange={setFilters} />
        <ReportedFilterMenu
          columns={columns}
          filters={filters}
          results={results}
          boardName={boardName}
          onChange={setFilters}
        />
        <ExportMenu onPng={onPng} onPdf={printDashboard} />
        <button type="button" onClick={() => setInviteOpen(true)}>
          Invite
        </button>
        {exporting && <span className="dash-muted">Exporting…</span>}
        <KeptItems results={results} />
      </div>
      <ReportedNotes results={results} boardName={boardName} />
      {(notice || sideError) && (
        <p className="dash-error" role="status">
          {notice ?? sideError}
        </p>
      )}
      <BoardStrip loads={loads} progress={progress} boardName={boardName} />
      {disconnected.length > 0 && (
        <ul className="dash-disconnected" role="status" data-testid="disconnected-boards">
          {disconnected.map(({ id, name }) => (
            <li key={id} data-board-id={id}>
              Board {name ? `“${name}”` : id} no longer exists and was disconnected.
            </li>
          ))}
        </ul>
      )}
      <div className="dash-main">
        {draft.config.widgets.length === 0 ? (
          <EmptyState className="dash-empty-grid">
            {draft.config.boardIds.length === 0
              ? "Connect boards, then add widgets with + Add widget."
              : "Add a widget with + Add widget."}
          </EmptyState>
        ) : (
          <WidgetGrid
            widgets={draft.config.widgets}
            results={results}
            personName={personName}
            boardName={boardName}
            editable
            selectedId={selectedId}
            onLayout={onLayout}
            onSettings={setSelectedId}
            gridRef={gridRef}
          />
        )}
        {selected && (
          <WidgetSettings
            widget={selected}
            columns={columns}
            sprintNames={burndownSprints}
            onChange={replaceWidget}
            onRemove={() => {
              editConfig((c) => ({ ...c, widgets: c.widgets.filter((w) => w.id !== selected.id) }));
              setSelectedId(null);
            }}
            onClose={() => setSelectedId(null)}
          />
        )}
      </div>
      <p className="dash-muted dash-small dash-footnote">
        Changes save automatically {AUTOSAVE_DEBOUNCE_MS} ms after the last edit. Drag a widget by its title; resize it
        from its edges.
      </p>
      {connectOpen && (
        <ConnectBoardsModal
          boards={accountBoards}
          connected={draft.config.boardIds}
          onChange={(ids) => editConfig((c) => ({ ...c, boardIds: ids }))}
          onClose={() => setConnectOpen(false)}
        />
      )}
      {inviteOpen && (
        <InviteModal
          onClose={() => setInviteOpen(false)}
          onInvited={(m) => {
            addMember(m);
            setInviteOpen(false);
            setNotice(`${m.name} was added to the member directory.`);
          }}
        />
      )}
    </ResultsKeyedPage>
  );
}
