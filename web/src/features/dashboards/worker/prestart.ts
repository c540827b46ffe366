/**
 * Starting the dashboard worker before the dashboard page exists. Opening `/dashboards/<id>`
 * directly (a link, a reload) first loads the app's code and the page's own chunks; the worker
 * started here reads the dashboard and begins the boards' reads meanwhile, on the other core.
 * This module is in the app's first load; the worker's code is not.
 */
import type { DashboardRead, WorkerReply } from "./dashboardCore";
import { dashboardWorkerName } from "./workerName";

/** A started worker and its `open` read of the dashboard, kept from the start: the worker posts it unasked. */
export interface OpenedWorker {
  worker: Worker;
  dashboard: Promise<DashboardRead>;
}

let waiting: { dashboardId: string; opened: OpenedWorker } | null = null;

function startWorker(dashboardId: string): OpenedWorker {
  // The worker opens the dashboard its name gives as soon as it starts.
  const worker = new Worker(new URL("./dashboard.worker.ts", import.meta.url), {
    type: "module",
    name: dashboardWorkerName(dashboardId),
  });
  const dashboard = new Promise<DashboardRead>((resolve) => {
    const onReply = ({ data }: MessageEvent<WorkerReply>) => {
      if (!data.dashboard) return;
      worker.removeEventListener("message", onReply);
      resolve(data.dashboard);
    };
    // Before the first message can arrive: the read is posted once, to whoever listens then.
    worker.addEventListener("message", onReply);
  });
  return { worker, dashboard };
}

/** Starts the worker of the dashboard the app opens on, for its page to take. */
export function prestartDashboardWorker(dashboardId: string): void {
  waiting?.opened.worker.terminate();
  waiting = { dashboardId, opened: startWorker(dashboardId) };
}

/** The worker started ahead for this dashboard, once; otherwise a new one. */
export function takeDashboardWorker(dashboardId: string): OpenedWorker {
  const ahead = waiting;
  waiting = null;
  if (ahead?.dashboardId === dashboardId) return ahead.opened;
  ahead?.opened.worker.terminate();
  return startWorker(dashboardId);
}
