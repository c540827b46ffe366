/** A session as `GET /sessions/<id>` gives it, for the sessions feature's tests to vary. */
import type { Session } from "../../shared/api/types.generated";

export function session(id: string, overrides: Partial<Session> = {}): Session {
  return {
    id,
    accountId: "a1",
    engine: "echo",
    engineKind: "command",
    engineVersion: null,
    title: id,
    cwd: "/home/me/project",
    prompt: "do it",
    status: "running",
    archived: false,
    agentDriven: false,
    parentId: null,
    children: [],
    turns: 1,
    engineTurns: 0,
    costUsd: null,
    treeCostUsd: null,
    tokens: { input: 0, output: 0, cachedInput: 0 },
    engineSessionId: null,
    startsAt: null,
    resumeAt: null,
    error: null,
    pendingMessages: 0,
    maxDollarsPerSession: 0,
    maxTurnsPerSession: 0,
    createdAt: "2026-01-01T10:00:00Z",
    updatedAt: "2026-01-01T10:00:00Z",
    worktree: null,
    trigger: null,
    stopReason: null,
    activity: null,
    ...overrides,
  };
}
