/**
 * `postSendNavigation`: where the session page goes after the user sends a message. The setting
 * is a list tried in order; the first step that applies wins, and when none does the page stays.
 * - `stay` always applies: the page stays.
 * - `next_in_inbox`: the newest unread `session` inbox row about another session opens that session.
 * - `next_in_project`: the next session after this one in the board's order (wrapping around)
 *   with the same folder (`cwd`) that waits for input.
 * - `waiting_room` always applies: the board filtered to sessions waiting for input.
 */
import type { InboxRow, Session } from "../../shared/api/types.generated";
import { sessionPath } from "../../shared/router";

export type PostSendStep = "stay" | "next_in_project" | "next_in_inbox" | "waiting_room";

export const WAITING_ROOM = "/sessions?status=waiting_for_input";

export interface PostSendContext {
  current: Session;
  /** The account's sessions in the board's order (`boardRows` with no filter). */
  boardOrder: readonly Session[];
  /** Unread `session` inbox rows, newest first. */
  unreadSessionRows: readonly InboxRow[];
}

function rowSession(row: InboxRow): string | undefined {
  const action = row.actions.find((a) => a.kind === "open_session");
  return action?.kind === "open_session" ? action.sessionId : row.source.sessionId;
}

function nextInProject({ current, boardOrder }: PostSendContext): string | null {
  const waits = (s: Session) =>
    s.id !== current.id && !s.archived && s.cwd === current.cwd && s.status === "waiting_for_input";
  const at = boardOrder.findIndex((s) => s.id === current.id);
  const after = boardOrder.slice(at + 1).find(waits) ?? boardOrder.slice(0, Math.max(0, at)).find(waits);
  return after ? sessionPath(after.id) : null;
}

function nextInInbox({ current, unreadSessionRows }: PostSendContext): string | null {
  for (const row of unreadSessionRows) {
    const id = rowSession(row);
    if (row.category === "session" && id !== undefined && id !== current.id) return sessionPath(id);
  }
  return null;
}

/** The address to go to, or `null` to stay. */
export function postSendTarget(steps: readonly PostSendStep[], context: PostSendContext): string | null {
  for (const step of steps) {
    switch (step) {
      case "stay":
        return null;
      case "waiting_room":
        return WAITING_ROOM;
      case "next_in_inbox": {
        const target = nextInInbox(context);
        if (target) return target;
        break;
      }
      case "next_in_project": {
        const target = nextInProject(context);
        if (target) return target;
        break;
      }
    }
  }
  return null;
}

/** The steps of the setting this build knows, in order (`["stay"]` when unset). */
export function postSendSteps(value: unknown): PostSendStep[] {
  if (!Array.isArray(value)) return ["stay"];
  const known: readonly unknown[] = ["stay", "next_in_project", "next_in_inbox", "waiting_room"];
  return value.filter((v): v is PostSendStep => known.includes(v));
}
