/**
 * A published dashboard drawn from the public payload alone: the same engine and widgets as
 * the editor, its saved filters applied, nothing that moves or edits.
 */
import { useEffect, useMemo, useState } from "react";
import { ApiError } from "../../shared/api/client";
import { type PublicDashboard, getPublicDashboard, normalizeConfig } from "./api";
import { computeDashboard } from "./engine/computeWidget";
import { prepareBoards } from "./engine/prepareBoards";
import { effectiveFilters, reportNotes } from "./filterEdit";
import { fixedResults } from "./resultsStore";
import { FilterNotes, useNameLookup } from "./Toolbar";
import { WidgetGrid } from "./WidgetGrid";
import { usePageTitle } from "../../shared/ui/PageHeader";
import "./dashboard.css";

type State = { kind: "loading" } | { kind: "error"; message: string } | { kind: "ready"; payload: PublicDashboard };

export function PublicDashboardView({ token }: { token: string }) {
  const [state, setState] = useState<State>({ kind: "loading" });
  useEffect(() => {
    let live = true;
    getPublicDashboard(token).then(
      (payload) => live && setState({ kind: "ready", payload }),
      (e: unknown) =>
        live &&
        setState({
          kind: "error",
          message:
            e instanceof ApiError && e.status === 404
              ? "This link does not work: the dashboard was never published here, or its link was withdrawn."
              : e instanceof Error
                ? e.message
                : String(e),
        }),
    );
    return () => {
      live = false;
    };
  }, [token]);

  if (state.kind === "loading") return <div className="dash-page dash-muted">Loading dashboard…</div>;
  if (state.kind === "error") {
    return (
      <div className="dash-page">
        <h1>Dashboard unavailable</h1>
        <p>{state.message}</p>
      </div>
    );
  }
  return <PublicDashboardBody payload={state.payload} />;
}

function PublicDashboardBody({ payload }: { payload: PublicDashboard }) {
  const config = useMemo(() => normalizeConfig(payload.dashboard.config), [payload]);
  const boards = useMemo(() => (Array.isArray(payload.boards) ? payload.boards : []), [payload]);
  // The payload never changes on this page: the widgets are computed once.
  const computed = useMemo(
    () => computeDashboard(prepareBoards(boards), effectiveFilters(config.filters), config.widgets),
    [boards, config],
  );
  const results = useMemo(
    () => fixedResults({ dataKey: 1, report: computed.report, results: computed.widgets }),
    [computed],
  );
  const boardName = useNameLookup(
    useMemo(() => boards.map((b) => ({ id: b.board.id, name: b.board.name })), [boards]),
    "Board",
  );
  const personName = useNameLookup(Array.isArray(payload.members) ? payload.members : [], "Member");
  const notes = reportNotes(computed.report, boardName);
  usePageTitle(payload.dashboard.name);
  return (
    <div className="dash-page dash-public" data-filter-key={1}>
      <header className="dash-header">
        <h1 className="dash-title">{payload.dashboard.name}</h1>
        <span className="dash-muted dash-small">
          Published dashboard · {boards.length} board{boards.length === 1 ? "" : "s"} · read-only
        </span>
      </header>
      <FilterNotes notes={notes} className="dash-filter-summary" />
      <WidgetGrid
        widgets={config.widgets}
        results={results}
        personName={personName}
        boardName={boardName}
        editable={false}
      />
    </div>
  );
}
