/**
 * Starting the dashboard worker before the dashboard page exists. Opening `/dashboards/<id>`
 * directly (a link, a reload) first loads the app's code and the page's own chunks; the worker
 * started here reads the dashboard and begins the boards' reads meanwhile, on the other core.
 * This module is in the app's first load; the worker's code is not.
 */
import type { WorkerRequest } from "./dashboardCore";

let waiting: { dashboardId: string; worker: Worker } | null = null;

function startWorker(dashboardId: string): Worker {
  const worker = new Worker(new URL("./dashboard.worker.ts", import.meta.url), { type: "module" });
  const open: WorkerRequest = { type: "open", dashboardId };
  worker.postMessage(open);
  return worker;
}

/** Starts the worker of the dashboard the app opens on, for its page to take. */
export function prestartDashboardWorker(dashboardId: string): void {
  waiting?.worker.terminate();
  waiting = { dashboardId, worker: startWorker(dashboardId) };
}

/** The worker started ahead for this dashboard, once; otherwise a new one. */
export function takeDashboardWorker(dashboardId: string): Worker {
  const ahead = waiting;
  waiting = null;
  if (ahead?.dashboardId === dashboardId) return ahead.worker;
  ahead?.worker.terminate();
  return startWorker(dashboardId);
}
