/**
 * The dashboard a worker is to open travels in the worker's name, which the worker reads as it
 * starts. A message posted to a worker that is still starting waits for the page's thread to pass
 * it on, and while the app loads that thread is busy for tens of milliseconds at a time.
 */
const PREFIX = "dashboard ";

export function dashboardWorkerName(dashboardId: string): string {
  return `${PREFIX}${dashboardId}`;
}

/** The dashboard a worker of this name opens, if it is one. */
export function dashboardOfWorkerName(name: string): string | null {
  return name.startsWith(PREFIX) && name.length > PREFIX.length ? name.slice(PREFIX.length) : null;
}
