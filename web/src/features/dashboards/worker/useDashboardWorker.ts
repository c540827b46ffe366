/**
 * The page's side of the dashboard worker: starts it for the page's lifetime, asks it to load
 * the connected boards (again with their ETags when `revalidation` changes), sends the filters
 * and widgets whenever what they compute changes (moving or resizing a widget sends nothing),
 * and keeps what comes back: board states and column lists in React state, the filter report
 * and widget results in a `ResultsStore`.
 */
import { useEffect, useEffectEvent, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { effectiveFilters } from "../filterEdit";
import { ResultsStore } from "../resultsStore";
import type { BoardMeta, BoardStatus, WorkerReply, WorkerRequest } from "./dashboardCore";
import { takeDashboardWorker } from "./prestart";
import { ApiError } from "../../../shared/api/client";
import type { Dashboard, DashboardConfig, Versioned } from "../api";

export interface DashboardState {
  loads: BoardStatus[];
  metas: BoardMeta[];
  /** The filter report and widget results, which only the parts that show them subscribe to. */
  results: ResultsStore;
}

/** One dashboard's worker, started while something subscribes and stopped when it leaves. */
class StartedWorker {
  private worker: Worker | null = null;

  constructor(private readonly dashboardId: string) {}

  subscribe = (onChange: () => void): (() => void) => {
    const started = takeDashboardWorker(this.dashboardId);
    this.worker = started;
    onChange();
    return () => {
      started.terminate();
      if (this.worker === started) this.worker = null;
    };
  };

  getSnapshot = (): Worker | null => this.worker;
}

/**
 * The dashboard's worker for the caller's lifetime; null until it is there. It was started when
 * the app opened on this dashboard (see `prestart.ts`), or starts as soon as the page opens, so
 * the worker's script loads while the dashboard itself does.
 */
export function useStartedDashboardWorker(dashboardId: string): Worker | null {
  const started = useMemo(() => new StartedWorker(dashboardId), [dashboardId]);
  return useSyncExternalStore(started.subscribe, started.getSnapshot);
}

/**
 * The dashboard as the worker's `open` read it (name, config, ETag): the page's own read, done
 * once for both of them. A refusal comes back as the `ApiError` a direct read would throw.
 */
export function readDashboard(worker: Worker): Promise<Versioned<Dashboard>> {
  return new Promise((resolve, reject) => {
    const onReply = ({ data }: MessageEvent<WorkerReply>) => {
      const read = data.dashboard;
      if (!read) return;
      worker.removeEventListener("message", onReply);
      if (read.ok) resolve({ data: read.dashboard, etag: read.etag });
      else reject(new ApiError(read.status, read.code, read.message));
    };
    worker.addEventListener("message", onReply);
    const request: WorkerRequest = { type: "dashboard" };
    worker.postMessage(request);
  });
}

export function useDashboardWorker(worker: Worker, config: DashboardConfig, revalidation: number): DashboardState {
  const [boards, setBoards] = useState<Pick<DashboardState, "loads" | "metas">>({ loads: [], metas: [] });
  const [results] = useState(() => new ResultsStore());

  useEffect(() => {
    const onReply = ({ data }: MessageEvent<WorkerReply>) => {
      // Results first: boards never show as settled beside the results of fewer boards.
      if (data.results) results.apply(data.results);
      if (data.boards) setBoards(data.boards);
    };
    worker.addEventListener("message", onReply);
    return () => worker.removeEventListener("message", onReply);
  }, [worker, results]);

  const idsKey = config.boardIds.join("\n");
  const revalidated = useRef(revalidation);
  useEffect(() => {
    // Connecting or dropping a board reads only the new ones; coming back to the tab reads all.
    const revalidate = revalidated.current !== revalidation;
    revalidated.current = revalidation;
    const load: WorkerRequest = { type: "load", ids: idsKey === "" ? [] : idsKey.split("\n"), revalidate };
    worker.postMessage(load);
  }, [worker, idsKey, revalidation]);

  // Rules still being typed are left out; moving or resizing a widget changes nothing to send.
  const filters = useMemo(() => effectiveFilters(config.filters), [config.filters]);
  const widgets = config.widgets;
  const viewKey = useMemo(
    () => JSON.stringify([filters, widgets.map((w) => [w.id, w.type, w.settings])]),
    [filters, widgets],
  );
  const postView = useEffectEvent(() => {
    const view: WorkerRequest = { type: "view", filters, widgets: [...widgets] };
    worker.postMessage(view);
  });
  useEffect(() => postView(), [worker, viewKey]);

  return { ...boards, results };
}
