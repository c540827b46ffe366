/**
 * The page's side of the dashboard worker: starts it for the page's lifetime, asks it to load
 * the connected boards (again with their ETags when `revalidation` changes), sends the filters
 * and widgets whenever what they compute changes (moving or resizing a widget sends nothing),
 * and keeps what comes back: board states, column lists, the filter report and widget results.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import type { FilterReport } from "../engine/applyFilters";
import type { WidgetResult } from "../engine/computeWidget";
import type { DashboardFilters, WidgetConfig } from "../engine/types";
import type { BoardMeta, BoardStatus, WorkerReply, WorkerRequest } from "./dashboardCore";

export const EMPTY_REPORT: FilterReport = {
  rules: [],
  people: { active: false, skippedBoardIds: [] },
  totalItems: 0,
  keptItems: 0,
};

export interface DashboardState {
  loads: BoardStatus[];
  metas: BoardMeta[];
  report: FilterReport;
  /** 0 until the first results; then as `ResultsUpdate.dataKey`. */
  dataKey: number;
  results: ReadonlyMap<string, WidgetResult>;
}

const INITIAL: DashboardState = { loads: [], metas: [], report: EMPTY_REPORT, dataKey: 0, results: new Map() };

/** Folds one worker reply into the page's state; results of the same data merge by widget id. */
export function applyReply(state: DashboardState, reply: WorkerReply): DashboardState {
  let next = state;
  if (reply.boards) next = { ...next, loads: reply.boards.loads, metas: reply.boards.metas };
  if (reply.results) {
    const { dataKey, report, results } = reply.results;
    const merged = new Map(dataKey === state.dataKey ? state.results : []);
    for (const [id, result] of Object.entries(results)) merged.set(id, result);
    next = { ...next, dataKey, report, results: merged };
  }
  return next;
}

/**
 * Starts the dashboard worker for the caller's lifetime; null until it is started. The page
 * starts it as soon as it opens, so the worker's script loads while the dashboard itself does.
 */
export function useStartedDashboardWorker(): Worker | null {
  const [worker, setWorker] = useState<Worker | null>(null);
  useEffect(() => {
    const started = new Worker(new URL("./dashboard.worker.ts", import.meta.url), { type: "module" });
    setWorker(started);
    return () => started.terminate();
  }, []);
  return worker;
}

export function useDashboardWorker(
  worker: Worker,
  boardIds: readonly string[],
  revalidation: number,
  filters: DashboardFilters,
  widgets: readonly WidgetConfig[],
): DashboardState {
  const [state, setState] = useState(INITIAL);
  const post = (request: WorkerRequest) => worker.postMessage(request);

  useEffect(() => {
    const onReply = (event: MessageEvent<WorkerReply>) => setState((s) => applyReply(s, event.data));
    worker.addEventListener("message", onReply);
    return () => worker.removeEventListener("message", onReply);
  }, [worker]);

  const idsKey = boardIds.join("\n");
  const revalidated = useRef(revalidation);
  useEffect(() => {
    // Connecting or dropping a board reads only the new ones; coming back to the tab reads all.
    const revalidate = revalidated.current !== revalidation;
    revalidated.current = revalidation;
    post({ type: "load", ids: idsKey === "" ? [] : idsKey.split("\n"), revalidate });
  }, [worker, idsKey, revalidation]);

  const viewKey = useMemo(
    () => JSON.stringify([filters, widgets.map((w) => [w.id, w.type, w.settings])]),
    [filters, widgets],
  );
  const view = useRef({ filters, widgets });
  view.current = { filters, widgets };
  useEffect(() => {
    post({ type: "view", filters: view.current.filters, widgets: [...view.current.widgets] });
  }, [worker, viewKey]);

  return state;
}
