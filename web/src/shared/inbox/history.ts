/**
 * The chime log of `notificationHistoryEnabled`: which row chimed, whether a notification showed,
 * and why not. Newest first, at most `HISTORY_CAP` entries, kept in memory and localStorage.
 */
import type { Category } from "../api/types.generated";

export interface Chime {
  at: string;
  rowId: string;
  category: Category;
  title: string;
  shown: boolean;
  reason: string;
}

export const HISTORY_CAP = 100;
export const HISTORY_KEY = "switchboard.inbox.chimes";

export function appendChime(log: readonly Chime[], chime: Chime, cap = HISTORY_CAP): Chime[] {
  return [chime, ...log].slice(0, cap);
}

/** The stored log, or an empty one when there is none or it cannot be read. */
export function parseHistory(stored: string | null): Chime[] {
  if (!stored) return [];
  try {
    const parsed: unknown = JSON.parse(stored);
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter(
        (c): c is Chime =>
          typeof c === "object" &&
          c !== null &&
          typeof (c as Chime).rowId === "string" &&
          typeof (c as Chime).reason === "string" &&
          typeof (c as Chime).at === "string",
      )
      .slice(0, HISTORY_CAP);
  } catch {
    return [];
  }
}
