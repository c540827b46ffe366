/**
 * Why a session is not working, in words, and what its status lets the user do (Stop, Pause,
 * Resume, Archive): shared by the session page and the board, apart from their rendering so it
 * can be tested without a browser.
 */
import type { Session, SpawnRequest, Status, StopReason } from "../../shared/api/types.generated";
import { stopReasonWords } from "../../shared/humanize";

const ACTIVE: ReadonlySet<Status> = new Set(["queued", "starting", "running", "waiting_for_input"]);

/** Active and not archived: it takes follow-ups and can be stopped or paused. */
export const isOpen = (session: Pick<Session, "status" | "archived">) =>
  ACTIVE.has(session.status) && !session.archived;

/**
 * Resume answers for paused and interrupted sessions only (anything else is `session_ended`),
 * archived or not: resuming reopens a closed one.
 */
export const canResume = (session: Pick<Session, "status">) =>
  session.status === "paused" || session.status === "interrupted";

/** A turn is under way: what the engine reports doing is current, not what it did last. */
export const isWorking = (session: Pick<Session, "status">) =>
  session.status === "starting" || session.status === "running";

/**
 * What a person calls the session: its title (the user's or the engine's), else its prompt's
 * first line. Never its id, which says nothing to a reader.
 */
export function sessionTitle(session: Pick<Session, "title" | "prompt">): string {
  const title = session.title?.trim();
  if (title) return title;
  const line = session.prompt.split("\n").find((l) => l.trim() !== "");
  return line?.trim() || "Untitled session";
}

const RETRYABLE: ReadonlySet<Status> = new Set(["failed", "finished", "stopped", "interrupted"]);

export interface SessionActions {
  stop: boolean;
  pause: boolean;
  resume: boolean;
  archive: boolean;
  /** A new session with the same prompt, engine and folder (isolated again when it was). */
  retry: boolean;
}

/**
 * The spawn request that retries `session`: its engine, first prompt and title, in the folder it
 * was started from (the repository, for a session that had a worktree of its own).
 */
export function retryRequest(session: Pick<Session, "engine" | "prompt" | "title" | "cwd" | "worktree">): SpawnRequest {
  const request: SpawnRequest = {
    engine: session.engine,
    prompt: session.prompt,
    cwd: session.worktree?.repository ?? session.cwd,
  };
  if (session.title) request.title = session.title;
  if (session.worktree) request.isolation = "worktree";
  return request;
}

/** The buttons the session's status allows; the server refuses the others with a 409. */
export function sessionActions(session: Pick<Session, "status" | "archived">): SessionActions {
  const open = isOpen(session);
  return {
    stop: open,
    pause: open,
    resume: canResume(session),
    archive: !session.archived,
    retry: RETRYABLE.has(session.status),
  };
}

/** The status a reason leaves the session in, when the status alone already says the reason. */
const SAID_BY_STATUS: Partial<Record<StopReason, Status>> = {
  finished: "finished",
  waiting_for_user: "waiting_for_input",
  stopped: "stopped",
  failed: "failed",
  interrupted: "interrupted",
};

/**
 * Why the session is not working, in a few words, where its status does not already say it
 * ("closed by you"; "resumes in 3 h"), or null: while it works, and when the words would only
 * repeat the status (a paused session, a finished one that finished). `formatTime` writes
 * `resumeAt`, so the words can be tested without the reader's time zone.
 */
export function describeStop(
  session: Pick<Session, "status" | "stopReason" | "resumeAt">,
  formatTime: (iso: string) => string,
): string | null {
  const reason = session.stopReason;
  if (reason === null) return null;
  const resumes = session.resumeAt === null ? null : `resumes ${formatTime(session.resumeAt)}`;
  const saidBy = SAID_BY_STATUS[reason];
  if (session.status === "paused" || (saidBy !== undefined && saidBy === session.status)) return resumes;
  // A reason a newer server adds is shown as its own name.
  const words = stopReasonWords(reason);
  return resumes === null ? words : `${words}, ${resumes}`;
}

/** Why the composer takes no message, or null when it does. */
export function composerClosed(session: Pick<Session, "status" | "archived">): string | null {
  if (isOpen(session)) return null;
  if (canResume(session)) return `The session is ${session.status}; Resume continues it.`;
  return "The session has ended; it takes no more messages.";
}

/** How often the governor revived a session today (`GET /governor`'s `revivesToday`), in words. */
export function revivesToday(count: number | undefined): string | null {
  if (!count) return null;
  return count === 1 ? "revived once today" : `revived ${count.toLocaleString()} times today`;
}
