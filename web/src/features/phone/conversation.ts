/**
 * The pure parts of the texts and messenger pages: which conversation the address opens (an
 * inbox row links `/texts?number=` or `/messenger?room=`), and what the reply box allows.
 */

/** The most characters one text carries (the server's `sms::MAX_SEND_CHARS`). */
export const MAX_TEXT_CHARS = 1600;
/** The most characters one messenger message carries (the server's `matrix::MAX_TEXT_CHARS`). */
export const MAX_MESSAGE_CHARS = 16000;

/** The conversation `?key=` names in `search`, or null. */
export function openedFrom(search: string, key: "number" | "room"): string | null {
  const value = new URLSearchParams(search).get(key);
  return value && value.trim() ? value : null;
}

/** Characters as the server counts them (code points, so an emoji is one). */
export const charCount = (text: string) => Array.from(text).length;

/** Why the reply box cannot send `text` now, or null when it can. */
export function replyProblem(text: string, max: number): string | null {
  if (!text.trim()) return "Write something first.";
  const count = charCount(text);
  if (count > max) return `${count} characters; at most ${max} are sent.`;
  return null;
}

/** A texting page's note for a text that did not go out (`state: failed`). */
export function failureNote(state: string, failure: string | null): string | null {
  if (state !== "failed") return null;
  return failure ? `Not sent: ${failure}` : "Not sent.";
}
