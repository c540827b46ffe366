/**
 * Why a session is not working, in words, and what its status lets the user do (Stop, Pause,
 * Resume, Archive): shared by the session page and the board, apart from their rendering so it
 * can be tested without a browser.
 */
import type { Session, Status, StopReason } from "../../shared/api/types.generated";

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

export interface SessionActions {
  stop: boolean;
  pause: boolean;
  resume: boolean;
  archive: boolean;
}

/** The buttons the session's status allows; the server refuses the others with a 409. */
export function sessionActions(session: Pick<Session, "status" | "archived">): SessionActions {
  const open = isOpen(session);
  return { stop: open, pause: open, resume: canResume(session), archive: !session.archived };
}

const STOP_REASON_WORDS: Record<StopReason, string> = {
  finished: "finished cleanly",
  waiting_for_user: "waiting for you",
  stopped: "stopped with Stop",
  closed: "closed by you",
  failed: "failed with an error",
  interrupted: "interrupted from outside",
};

/**
 * Why the session is not working, in a few words ("waiting for you"; "interrupted from outside,
 * resumes at 14:05"), or null while it works. `formatTime` writes `resumeAt`, so the words can be
 * tested without the reader's time zone.
 */
export function describeStop(
  session: Pick<Session, "status" | "stopReason" | "resumeAt">,
  formatTime: (iso: string) => string,
): string | null {
  const reason = session.stopReason;
  if (reason === null) return null;
  // A pause is the user's stop to the contract; its status says which.
  if (session.status === "paused") return "paused";
  // A reason a newer server adds is shown as its own name.
  const words: string = STOP_REASON_WORDS[reason] ?? reason.replace(/_/g, " ");
  return session.resumeAt === null ? words : `${words}, resumes at ${formatTime(session.resumeAt)}`;
}

const TIME = new Intl.DateTimeFormat(undefined, { timeStyle: "short" });
const DAY_AND_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** The reader's local time of `iso`: the clock time alone today, with the day on any other day. */
export function localTime(iso: string, now: number): string {
  const at = new Date(iso);
  return at.toDateString() === new Date(now).toDateString() ? TIME.format(at) : DAY_AND_TIME.format(at);
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
