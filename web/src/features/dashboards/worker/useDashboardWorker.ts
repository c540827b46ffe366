/**
 * The page's side of the dashboard worker: starts it for the page's lifetime, asks it to load
 * the connected boards (again with their ETags when `revalidation` changes), sends the filters
 * and widgets whenever what they compute changes (moving or resizing a widget sends nothing),
 * and keeps what comes back: board states and column lists in React state, the count of boards
 * read so far in a `ProgressStore` (only the progress bar renders on each), the filter report
 * and widget results in a `ResultsStore`.
 */
import { useEffect, useEffectEvent, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { effectiveFilters } from "../filterEdit";
import { ResultsStore } from "../resultsStore";
import type { BoardMeta, BoardProgress, BoardStatus, WorkerReply, WorkerRequest } from "./dashboardCore";
import { type OpenedWorker, takeDashboardWorker } from "./prestart";
import { ApiError } from "../../../shared/api/client";
import type { Dashboard, DashboardConfig, Versioned } from "../api";
import type { DashboardFilters, WidgetConfig } from "../engine/types";

export interface DashboardState {
  loads: BoardStatus[];
  metas: BoardMeta[];
  /** How many boards have answered while they load, for the progress bar alone. */
  progress: ProgressStore;
  /** The filter report and widget results, which only the parts that show them subscribe to. */
  results: ResultsStore;
  /** Posts edited filters to the worker straight away (call it beside the edit itself). */
  sendFilters: (filters: DashboardFilters) => void;
}

const NO_PROGRESS: BoardProgress = { settled: 0, total: 0 };

/** The latest board count, replaced as a whole, and a way to hear of it. */
export class ProgressStore {
  private snapshot = NO_PROGRESS;
  private readonly listeners = new Set<() => void>();

  subscribe = (onChange: () => void): (() => void) => {
    this.listeners.add(onChange);
    return () => this.listeners.delete(onChange);
  };

  getSnapshot = (): BoardProgress => this.snapshot;

  set(progress: BoardProgress): void {
    if (progress.settled === this.snapshot.settled && progress.total === this.snapshot.total) return;
    this.snapshot = progress;
    for (const listener of this.listeners) listener();
  }
}

/** One dashboard's worker, started while something subscribes and stopped when it leaves. */
class StartedWorker {
  private opened: OpenedWorker | null = null;

  constructor(private readonly dashboardId: string) {}

  subscribe = (onChange: () => void): (() => void) => {
    const started = takeDashboardWorker(this.dashboardId);
    this.opened = started;
    onChange();
    return () => {
      started.worker.terminate();
      if (this.opened === started) this.opened = null;
    };
  };

  getSnapshot = (): OpenedWorker | null => this.opened;
}

/**
 * The dashboard's worker for the caller's lifetime; null until it is there. It was started when
 * the app opened on this dashboard (see `prestart.ts`), or starts as soon as the page opens, so
 * the worker's script loads while the dashboard itself does.
 */
export function useStartedDashboardWorker(dashboardId: string): OpenedWorker | null {
  const started = useMemo(() => new StartedWorker(dashboardId), [dashboardId]);
  return useSyncExternalStore(started.subscribe, started.getSnapshot);
}

/**
 * The dashboard as the worker's `open` read it (name, config, ETag): the page's own read, done
 * once for both of them. A refusal comes back as the `ApiError` a direct read would throw.
 */
export async function readDashboard(opened: OpenedWorker): Promise<Versioned<Dashboard>> {
  const read = await opened.dashboard;
  if (!read.ok) throw new ApiError(read.status, read.code, read.message);
  return { data: read.dashboard, etag: read.etag };
}

export function useDashboardWorker(worker: Worker, config: DashboardConfig, revalidation: number): DashboardState {
  const [boards, setBoards] = useState<Pick<DashboardState, "loads" | "metas">>({ loads: [], metas: [] });
  const [results] = useState(() => new ResultsStore());
  const [progress] = useState(() => new ProgressStore());

  useEffect(() => {
    const onReply = ({ data }: MessageEvent<WorkerReply>) => {
      // Results first: boards never show as settled beside the results of fewer boards.
      if (data.results) results.apply(data.results);
      if (data.boards) {
        const { loads } = data.boards;
        progress.set({ settled: loads.filter((l) => l.state !== "loading").length, total: loads.length });
        setBoards(data.boards);
      }
      if (data.progress) progress.set(data.progress);
    };
    worker.addEventListener("message", onReply);
    return () => worker.removeEventListener("message", onReply);
  }, [worker, results, progress]);

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
  const viewKey = useMemo(() => viewKeyOf(filters, widgets), [filters, widgets]);
  /** The view last posted to this worker, so the same one is never posted twice. */
  const posted = useRef<{ worker: Worker; key: string } | null>(null);
  const post = (next: DashboardFilters | null, key: string) => {
    if (posted.current?.worker === worker && posted.current.key === key) return;
    posted.current = { worker, key };
    // A view met before shows its kept results in this very task; the worker only confirms them.
    const shown = results.show(key);
    const view: WorkerRequest = {
      type: "view",
      filters: next,
      widgets: [...widgets],
      key,
      ...(shown ? { shown } : {}),
    };
    worker.postMessage(view);
  };
  const postView = useEffectEvent(() => post(filters, viewKey));
  useEffect(() => postView(), [worker, viewKey]);
  /**
   * Sends edited filters at once, from the edit's own event: the worker computes while the page
   * renders the edit, instead of after it. The render that follows then has nothing to send.
   */
  const sendFilters = (next: DashboardFilters) => {
    const effective = effectiveFilters(next);
    post(effective, viewKeyOf(effective, widgets));
  };

  return { ...boards, progress, results, sendFilters };
}

/** What the worker computes from: the effective filters and each widget's id, type and settings. */
function viewKeyOf(filters: DashboardFilters | null, widgets: readonly WidgetConfig[]): string {
  return JSON.stringify([filters, widgets.map((w) => [w.id, w.type, w.settings])]);
}
