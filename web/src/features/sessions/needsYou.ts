/**
 * "Needs you", apart from its rendering: the one rule of which sessions wait on the user
 * (`needsYouReason`, what the board's group, the inbox's section and `n` all follow), and the
 * inbox's section: those sessions newest first, why each waits, what it said last or how it
 * failed, in words, and for how long.
 */
import type { Session } from "../../shared/api/types.generated";
import { plainMessage } from "../../shared/humanize";
import { epochMs } from "../../shared/time";

/** Why a session is in the section, as its card says it. */
export type NeedsYouReason = "question" | "approval" | "reply" | "failed";

export const REASON_WORDS: Record<NeedsYouReason, string> = {
  question: "Asked you a question",
  approval: "Waits for your approval",
  reply: "Waits for your reply",
  failed: "Failed",
};

export interface NeedsYouCard {
  session: Session;
  reason: NeedsYouReason;
  /** What it said last, or, failed, its error in words; `null` when the session says nothing. */
  said: string | null;
  /** Since when it waits: its last change, which for a session that stopped is when it stopped. */
  since: string;
}

/** Claude Code's tool for asking the user; the board's activity names the tool when it was the last step. */
const ASK_TOOL = "AskUserQuestion";

const NO_ONE: ReadonlySet<string> = new Set();

type Judged = Pick<Session, "id" | "status" | "archived" | "awaitingApproval" | "turnEnd" | "activity">;

/**
 * Why the session waits on the user, or `null` when it does not: it failed; it holds an approval
 * or an input request (`asking`: the ids of sessions with one pending), or waits to be approved
 * to start; or its turn ended asking something. A turn that did its work and asked nothing is
 * done (`turnEnd` "done", as the server's attention rule read the transcript): answerable, but
 * nobody is waited on, so it is not here. Until the rule has read the turn (`turnEnd` null) a
 * waiting session counts as asking, so a question is never missed while the verdict is on its way.
 */
export function needsYouReason(session: Judged, asking: ReadonlySet<string> = NO_ONE): NeedsYouReason | null {
  if (session.archived) return null;
  if (session.status === "failed") return "failed";
  if (session.awaitingApproval || asking.has(session.id)) return "approval";
  if (session.status !== "waiting_for_input" || session.turnEnd === "done") return null;
  const activity = session.activity;
  if (activity?.kind === "tool" && activity.text === ASK_TOOL) return "question";
  return session.turnEnd === "asked" ? "question" : "reply";
}

/**
 * What the session said last: the line it last wrote, when its last step was writing. Its other
 * steps (a file read, a tool, a to-do item) are what it did, not what it said to the user.
 */
function lastWords(session: Session): string | null {
  const activity = session.activity;
  return activity?.kind === "writing" && activity.text.trim() !== "" ? activity.text.trim() : null;
}

/**
 * The sessions that need the user (`needsYouReason`), newest first. A waiting session with a
 * follow-up already queued (`pendingMessages`) has been answered and is about to move on, so it
 * is left out: its card goes as soon as the reply is accepted. So is one answered here at the turn
 * it is still on (`answered`: session id to its `turns` when answered), which a poll can still
 * read as waiting; it comes back when a later turn waits again.
 */
export function needsYou(
  sessions: readonly Session[],
  answered: ReadonlyMap<string, number> = new Map(),
): NeedsYouCard[] {
  return sessions
    .filter((s) => s.status === "failed" || (s.pendingMessages === 0 && answered.get(s.id) !== s.turns))
    .flatMap((session) => {
      const reason = needsYouReason(session);
      if (reason === null) return [];
      const said = reason === "failed" ? errorWords(session.error) : lastWords(session);
      return [{ session, reason, said, since: session.updatedAt }];
    })
    .sort((a, b) => epochMs(b.since) - epochMs(a.since) || a.session.id.localeCompare(b.session.id));
}

/** "under a minute", "5 min", "2 h 5 min", "3 d 4 h": a wait, to the unit that matters. */
export function durationWords(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return "under a minute";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

/** How long the card's session has waited, in words: "Waiting 5 min", "Failed 2 h ago". */
export function waitWords(card: Pick<NeedsYouCard, "reason" | "since">, now: number): string {
  const waited = durationWords(now - epochMs(card.since));
  if (card.reason !== "failed") return `Waiting ${waited}`;
  return waited === "under a minute" ? "Failed just now" : `Failed ${waited} ago`;
}

/** Longer than this, an error is cut: the whole of it is on the session's page and in a tooltip. */
const MAX_ERROR_CHARS = 200;

/**
 * A session's error as a person reads it: the first line only (an engine's stderr follows it),
 * in words (`plainMessage`), cut to a couple of lines.
 */
export function errorWords(error: string | null): string {
  const line = error
    ?.split("\n")
    .find((l) => l.trim() !== "")
    ?.trim();
  if (!line) return "It failed without saying why.";
  const words = plainMessage(line).words;
  if (words.length > MAX_ERROR_CHARS) return `${words.slice(0, MAX_ERROR_CHARS - 1).trimEnd()}…`;
  return words;
}
