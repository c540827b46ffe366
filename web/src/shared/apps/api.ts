/**
 * Thin typed calls for running apps (issue 64, docs/apps.md): the dev servers sessions run, each
 * served through Switchboard's proxy at `http://<name>.localhost:<port>/`. While the setting
 * `runningAppsEnabled` is off every call is refused with 403 `apps_disabled`.
 */
import { apiFetch } from "../api/client";
import type { AppOutput, RunningApp, StartApp } from "../api/types.generated";

export type { AppOutput, AppsProxy, DeclaredApp, RunningApp } from "../api/types.generated";

export const APPS_PATH = "/apps";
export const APPS_PROXY_PATH = "/apps/proxy";

/** A session's apps only. */
export const sessionAppsPath = (sessionId: string) => `${APPS_PATH}?sessionId=${encodeURIComponent(sessionId)}`;

/** The apps a session's folder declares in `apps.toml`. */
export const declaredAppsPath = (sessionId: string) =>
  `${APPS_PATH}/declared?sessionId=${encodeURIComponent(sessionId)}`;

const appPath = (name: string, action: string) => `${APPS_PATH}/${encodeURIComponent(name)}/${action}`;

export const appOutput = (name: string, signal?: AbortSignal) =>
  apiFetch<AppOutput>(appPath(name, "output"), { signal });

/** Stops the app's process tree: one Switchboard found listening too. */
export const stopApp = (name: string) => apiFetch<RunningApp>(appPath(name, "stop"), { method: "POST" });

/** Runs a started app's command again, on the same name and port. */
export const restartApp = (name: string) => apiFetch<RunningApp>(appPath(name, "restart"), { method: "POST" });

/** Starts an app of the session's `apps.toml`, with the command it declares. */
export const startApp = (sessionId: string, name: string) => {
  const body: StartApp = { sessionId, name };
  return apiFetch<RunningApp>(APPS_PATH, { method: "POST", body });
};
