/** A running app as `GET /apps` lists one, for the tests of what the pages make of it. */
import type { RunningApp } from "./api";

export const runningApp = (overrides: Partial<RunningApp> = {}): RunningApp => ({
  name: "web.fix-login",
  url: "http://web.fix-login.localhost:4800/",
  sessionId: "s-1",
  runner: "local",
  command: "npm run dev",
  port: 41_002,
  pid: 4242,
  state: "running",
  startedAt: "2026-01-01T10:00:00Z",
  exitStatus: null,
  origin: "started",
  sessionTitle: "Fix the login",
  worktree: "/src/app-wt/fix-login",
  branch: "fix-login",
  ...overrides,
});
