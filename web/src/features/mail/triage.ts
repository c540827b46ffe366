/**
 * Triage, apart from drawing: the key a person presses and the command it is, and the thread
 * list's optimistic state. An action shows at once (archived threads leave the list, a star
 * lights); the server's refusal puts the thread back as it was and keeps the server's words.
 */
import type { ThreadAction, ThreadSummary } from "./api";

export type KeyCommand =
  | "archive"
  | "star"
  | "unread"
  | "spam"
  | "select"
  | "snooze"
  | "next"
  | "previous"
  | "reply"
  | "replyAll"
  | "forward"
  | "search";

const KEYS: Record<string, KeyCommand> = {
  e: "archive",
  s: "star",
  u: "unread",
  "!": "spam",
  x: "select",
  h: "snooze",
  j: "next",
  k: "previous",
  r: "reply",
  a: "replyAll",
  f: "forward",
  "/": "search",
};

/** The command of a key pressed outside a field; a key held with Ctrl, Alt or Meta is the browser's. */
export function keyCommand(event: Pick<KeyboardEvent, "key" | "ctrlKey" | "altKey" | "metaKey">): KeyCommand | null {
  if (event.ctrlKey || event.altKey || event.metaKey) return null;
  return KEYS[event.key.length === 1 ? event.key.toLowerCase() : event.key] ?? null;
}

/** What S and U do to this thread: they toggle. */
export function toggleAction(
  command: "star" | "unread",
  thread: Pick<ThreadSummary, "starred" | "unread">,
): ThreadAction {
  if (command === "star") return thread.starred ? "unstar" : "star";
  return thread.unread > 0 ? "read" : "unread";
}

/** The actions after which the thread is no longer in the folder shown. */
const LEAVES: readonly ThreadAction[] = ["archive", "spam", "not_spam", "snooze", "move"];

export const leavesFolder = (action: ThreadAction) => LEAVES.includes(action);

export interface TriageState {
  threads: ThreadSummary[];
  /** The thread as it was before each action still waiting for the server, by the action's number. */
  held: Record<number, { thread: ThreadSummary; index: number; action: ThreadAction }>;
  /** The server's words for the last refusal, until the next action. */
  error: string | null;
}

export type TriageEvent =
  | { type: "loaded"; threads: ThreadSummary[]; append: boolean }
  | { type: "apply"; op: number; id: string; action: ThreadAction }
  | { type: "confirmed"; op: number }
  | { type: "refused"; op: number; message: string }
  | { type: "opened"; id: string; markRead: boolean }
  | { type: "dismissed" };

export const emptyTriage: TriageState = { threads: [], held: {}, error: null };

function applied(thread: ThreadSummary, action: ThreadAction): ThreadSummary {
  switch (action) {
    case "star":
      return { ...thread, starred: true };
    case "unstar":
      return { ...thread, starred: false };
    case "read":
      return { ...thread, unread: 0 };
    case "unread":
      return { ...thread, unread: Math.max(1, thread.unread) };
    default:
      return thread;
  }
}

/** Puts back what the refused action changed, and only that: a later action on the thread stays. */
function undone(current: ThreadSummary, before: ThreadSummary, action: ThreadAction): ThreadSummary {
  if (action === "star" || action === "unstar") return { ...current, starred: before.starred };
  if (action === "read" || action === "unread") return { ...current, unread: before.unread };
  return current;
}

function without<T>(held: Record<number, T>, op: number): Record<number, T> {
  const rest = { ...held };
  delete rest[op];
  return rest;
}

export function triage(state: TriageState, event: TriageEvent): TriageState {
  switch (event.type) {
    case "loaded": {
      if (!event.append) return { ...state, threads: event.threads };
      const known = new Set(state.threads.map((t) => t.id));
      return { ...state, threads: [...state.threads, ...event.threads.filter((t) => !known.has(t.id))] };
    }
    case "apply": {
      const index = state.threads.findIndex((t) => t.id === event.id);
      const thread = state.threads[index];
      if (thread === undefined) return state;
      const held = { ...state.held, [event.op]: { thread, index, action: event.action } };
      const threads = leavesFolder(event.action)
        ? state.threads.filter((t) => t.id !== event.id)
        : state.threads.map((t) => (t.id === event.id ? applied(t, event.action) : t));
      return { threads, held, error: null };
    }
    case "confirmed":
      return { ...state, held: without(state.held, event.op) };
    case "refused": {
      const was = state.held[event.op];
      const held = without(state.held, event.op);
      if (was === undefined) return { ...state, error: event.message };
      const present = state.threads.some((t) => t.id === was.thread.id);
      let threads: ThreadSummary[];
      if (present) {
        threads = state.threads.map((t) => (t.id === was.thread.id ? undone(t, was.thread, was.action) : t));
      } else {
        threads = [...state.threads];
        threads.splice(Math.min(was.index, threads.length), 0, was.thread);
      }
      return { threads, held, error: event.message };
    }
    case "dismissed":
      return { ...state, error: null };
    case "opened":
      if (!event.markRead) return state;
      return { ...state, threads: state.threads.map((t) => (t.id === event.id ? { ...t, unread: 0 } : t)) };
  }
}

/** The thread J or K moves to from `current`: the next or previous in the list, kept inside it. */
export function neighbour(threads: readonly { id: string }[], current: string | null, step: 1 | -1): string | null {
  if (threads.length === 0) return null;
  const at = threads.findIndex((t) => t.id === current);
  if (at < 0) return threads[0]?.id ?? null;
  return threads[Math.min(threads.length - 1, Math.max(0, at + step))]?.id ?? null;
}

/** Where the selection goes when the open thread leaves the list: the one after it, else the one before. */
export function afterLeaving(threads: readonly { id: string }[], leaving: string): string | null {
  const at = threads.findIndex((t) => t.id === leaving);
  if (at < 0) return null;
  return threads[at + 1]?.id ?? threads[at - 1]?.id ?? null;
}
