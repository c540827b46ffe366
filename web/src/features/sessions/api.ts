/** Thin typed calls for sessions: listing, spawning, steering, and reading its transcript a page at a time. */
import { apiFetch } from "../../shared/api/client";
import type {
  Check,
  EngineInfo,
  EntryPage,
  ReadAllDone,
  Session,
  SpawnWithAttachments,
} from "../../shared/api/types.generated";

/** Every session of the account (`GET /sessions`). */
export const listSessions = (signal?: AbortSignal) => apiFetch<Session[]>("/sessions", { signal });

export const getSession = (id: string) => apiFetch<Session>(`/sessions/${encodeURIComponent(id)}`);

export const listEngines = () => apiFetch<EngineInfo[]>("/engines");

export const spawnSession = (request: SpawnWithAttachments) =>
  apiFetch<Session>("/sessions", { method: "POST", body: request });

/** Stops the session and every session it spawned (the whole process tree). */
export const stopSession = (id: string) =>
  apiFetch<unknown>(`/sessions/${encodeURIComponent(id)}/stop`, { method: "POST", body: { tree: true } });

/** The user has the session open: its unread inbox rows are read, so its next notice is a new row. */
export const markSessionSeen = (id: string) =>
  apiFetch<ReadAllDone>(`/sessions/${encodeURIComponent(id)}/seen`, { method: "POST" });

/** Ends the session's process tree and holds it `paused` until resumed (409 `session_ended` when it is not active). */
export const pauseSession = (id: string) =>
  apiFetch<Session>(`/sessions/${encodeURIComponent(id)}/pause`, { method: "POST" });

/** Starts a paused or interrupted session again at once, with a continue nudge. */
export const resumeSession = (id: string) =>
  apiFetch<Session>(`/sessions/${encodeURIComponent(id)}/resume`, { method: "POST" });

/** The governor's last checks, newest first, naming only the caller's own sessions. */
export const governorChecks = () => apiFetch<{ checks: Check[]; revivesToday: Record<string, number> }>("/governor");

/** Runs a governor check now: the owner only (403 otherwise), 409 `check_running` while one runs. */
export const runGovernorCheck = () => apiFetch<Check>("/governor/check", { method: "POST" });

export const archiveSession = (id: string) =>
  apiFetch<unknown>(`/sessions/${encodeURIComponent(id)}/archive`, { method: "POST" });

/** Sets the user's own title (which the utility model never replaces); `null` clears it. */
export const renameSession = (id: string, title: string | null) =>
  apiFetch<Session>(`/sessions/${encodeURIComponent(id)}`, { method: "PATCH", body: { title } });

/** Entries per page: a screenful several times over, small enough to parse at once. */
export const PAGE_SIZE = 200;

/**
 * A page of typed entries, oldest first: the last page when `before` is absent, else the entries
 * just before that `seq`. `more` says whether earlier entries exist.
 */
export function transcriptPage(id: string, before?: number): Promise<EntryPage> {
  const from = before === undefined ? "&tail=true" : `&before=${before}`;
  return apiFetch<EntryPage>(`/sessions/${encodeURIComponent(id)}/transcript?format=json&limit=${PAGE_SIZE}${from}`);
}
