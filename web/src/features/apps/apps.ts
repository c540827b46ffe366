/**
 * The Running apps page's logic, apart from its rendering: apps grouped by the session that runs
 * them (sessions with a live app first, the most recently started first), what each group says of
 * its session, and what the output panel says when there are no lines to show.
 */
import { isLive } from "../../shared/apps/appState";
import type { RunningApp } from "../../shared/apps/api";

/** One session's apps, by name. */
export interface AppGroup {
  sessionId: string;
  /** The session's title; null for one never given a title. */
  sessionTitle: string | null;
  worktree: string | null;
  branch: string | null;
  apps: RunningApp[];
}

/** The session's name as a heading says it. */
export function groupTitle(group: Pick<AppGroup, "sessionTitle">): string {
  return group.sessionTitle?.trim() || "Untitled session";
}

/** Where the session works: "on fix-login, /src/app-wt/fix-login", its branch or its folder alone, or nothing known. */
export function whereText(group: Pick<AppGroup, "worktree" | "branch">): string | null {
  if (group.branch !== null && group.worktree !== null) return `on ${group.branch}, ${group.worktree}`;
  if (group.branch !== null) return `on ${group.branch}`;
  return group.worktree;
}

const newest = (apps: readonly RunningApp[]) => Math.max(...apps.map((app) => Date.parse(app.startedAt) || 0));

/**
 * The apps by session: a session with a live app before one whose apps all exited, then the
 * session whose app started last first; within a session, by name.
 */
export function groupBySession(apps: readonly RunningApp[]): AppGroup[] {
  const groups = new Map<string, AppGroup>();
  for (const app of apps) {
    const group = groups.get(app.sessionId);
    if (group) {
      group.apps.push(app);
      // Any of its apps may carry what the others lack.
      group.sessionTitle ??= app.sessionTitle;
      group.worktree ??= app.worktree;
      group.branch ??= app.branch;
    } else {
      groups.set(app.sessionId, {
        sessionId: app.sessionId,
        sessionTitle: app.sessionTitle,
        worktree: app.worktree,
        branch: app.branch,
        apps: [app],
      });
    }
  }
  const live = (group: AppGroup) => (group.apps.some(isLive) ? 0 : 1);
  return [...groups.values()]
    .map((group) => ({ ...group, apps: [...group.apps].sort((a, b) => a.name.localeCompare(b.name)) }))
    .sort((a, b) => live(a) - live(b) || newest(b.apps) - newest(a.apps) || groupTitle(a).localeCompare(groupTitle(b)));
}

/** "12 running, 1 failing", "2 running", "none running": said beside the heading. */
export function appsSummary(apps: readonly Pick<RunningApp, "state">[]): string {
  const running = apps.filter((app) => app.state === "running").length;
  const failing = apps.filter((app) => app.state === "failing").length;
  const words = [running === 0 && failing === 0 ? "none running" : `${running} running`];
  if (failing > 0) words.push(`${failing} failing`);
  return words.join(", ");
}

/** The runner an app is on, said only when it is not this machine. */
export function runnerShown(app: Pick<RunningApp, "runner">): string | null {
  return app.runner === "local" ? null : app.runner;
}

/**
 * Why the output panel has no lines: Switchboard holds the output of the apps it started, not of
 * those it found listening; a started app may not have printed yet.
 */
export function noOutputText(app: Pick<RunningApp, "origin" | "port">): string {
  return app.origin === "detected"
    ? `Switchboard did not start this app, so it has none of its output: it found it listening on port ${app.port} in the session's processes.`
    : "It has printed nothing yet.";
}
