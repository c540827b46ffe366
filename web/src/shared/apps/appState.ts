/**
 * What a running app's state and age are called, apart from their rendering: shared by the
 * Running apps page and the session page's apps, so both say "Exited (1)" and "2 h 5 min" alike.
 */
import type { Tone } from "../ui/Pill";
import type { DeclaredApp, RunningApp } from "./api";

/** The setting that shows running apps; on unless turned off. */
const APPS_SETTING_KEY = "runningAppsEnabled";

/** Whether the settings (once read) leave running apps on: the default is on. */
export function appsEnabled(values: Readonly<Record<string, unknown>> | undefined): boolean {
  return values?.[APPS_SETTING_KEY] !== false;
}

/** "Running", "Failing", "Exited (1)", or "Exited" when no status was read. */
export function appStateLabel(app: Pick<RunningApp, "state" | "exitStatus">): string {
  switch (app.state) {
    case "running":
      return "Running";
    case "failing":
      return "Failing";
    case "exited":
      return app.exitStatus === null ? "Exited" : `Exited (${app.exitStatus})`;
  }
}

/**
 * The pill's colour: an app that keeps crashing is a failure; one that exited is over, however it
 * ended (a Stop ends it with a signal's status, which is no fault).
 */
export function appStateTone(app: Pick<RunningApp, "state">): Tone {
  switch (app.state) {
    case "running":
      return "running";
    case "failing":
      return "failed";
    case "exited":
      return "neutral";
  }
}

/**
 * Serving now: what Open and Stop are for. A failing app kept exiting and is no longer started
 * again, so, like an exited one, it holds no port.
 */
export function isLive(app: Pick<RunningApp, "state">): boolean {
  return app.state === "running";
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How long an app has been up, from `startedAt` to `now`: "42 s", "3 min", "2 h 5 min", "3 d 4 h";
 * a start a little ahead of this clock is "0 s", and one that cannot be read is "".
 */
export function uptimeText(startedAt: string, now: number): string {
  const started = Date.parse(startedAt);
  if (Number.isNaN(started)) return "";
  const up = Math.max(0, now - started);
  if (up < MINUTE) return `${Math.floor(up / 1000)} s`;
  if (up < HOUR) return `${Math.floor(up / MINUTE)} min`;
  if (up < DAY) {
    const minutes = Math.floor((up % HOUR) / MINUTE);
    return minutes === 0 ? `${Math.floor(up / HOUR)} h` : `${Math.floor(up / HOUR)} h ${minutes} min`;
  }
  const hours = Math.floor((up % DAY) / HOUR);
  return hours === 0 ? `${Math.floor(up / DAY)} d` : `${Math.floor(up / DAY)} d ${hours} h`;
}

/**
 * Whether `app` is the one `declared` starts: an app is named after its `apps.toml` entry, then
 * the branch or session it serves (`web`, `web.fix-login`); an entry's name has no dot.
 */
export function startedFrom(app: Pick<RunningApp, "name">, declared: Pick<DeclaredApp, "name">): boolean {
  return app.name === declared.name || app.name.startsWith(`${declared.name}.`);
}

/**
 * The declared apps a Start button is offered for: those with no app listed. One that is listed
 * has its own buttons (Stop while it runs, Restart once it ended), and holds its name until it
 * is no longer listed.
 */
export function declaredToStart<D extends Pick<DeclaredApp, "name">>(
  declared: readonly D[],
  apps: readonly Pick<RunningApp, "name">[],
): D[] {
  return declared.filter((entry) => !apps.some((app) => startedFrom(app, entry)));
}
