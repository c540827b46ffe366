/**
 * The toolbar bookmarks' logic without rendering: the form's draft, the checks the server makes
 * (run first so a slip shows before a round trip), the bodies sent, and a drag's new order.
 */
import type { Bookmark, BookmarkFields, BookmarkKind } from "../../shared/api/types.generated";

/** The same limits the server enforces (crates/bookmarks). */
export const MAX_TITLE_CHARS = 200;
export const MAX_URL_CHARS = 2_000;
export const MAX_PROMPT_CHARS = 20_000;

/** What the add/edit form holds: every field as typed, the kind choosing which ones count. */
export interface BookmarkDraft {
  kind: BookmarkKind;
  title: string;
  url: string;
  prompt: string;
  engine: string;
  cwd: string;
}

export function draftOf(bookmark?: Bookmark): BookmarkDraft {
  return {
    kind: bookmark?.kind ?? "url",
    title: bookmark?.title ?? "",
    url: bookmark?.url ?? "",
    prompt: bookmark?.prompt ?? "",
    engine: bookmark?.engine ?? "",
    cwd: bookmark?.cwd ?? "",
  };
}

const length = (text: string) => [...text].length;

/** Why the draft would be refused, or null when it can be sent. */
export function validateDraft(draft: BookmarkDraft): string | null {
  const title = draft.title.trim();
  if (title === "" || length(title) > MAX_TITLE_CHARS)
    return `A title of 1 to ${MAX_TITLE_CHARS} characters is needed.`;
  if (draft.kind === "url") {
    const url = draft.url.trim();
    if (!/^https?:\/\/\S+$/i.test(url) || length(url) > MAX_URL_CHARS) {
      return "The URL must be an http:// or https:// address without spaces.";
    }
    return null;
  }
  const prompt = draft.prompt.trim();
  if (prompt === "" || length(prompt) > MAX_PROMPT_CHARS) {
    return `A prompt of 1 to ${MAX_PROMPT_CHARS.toLocaleString("en")} characters is needed.`;
  }
  const cwd = draft.cwd.trim();
  if (cwd !== "" && !cwd.startsWith("/")) return "The folder must be an absolute path (starting with /).";
  return null;
}

/** The fields a kind owns; the others must be empty on the server. */
const KIND_FIELDS = { url: ["url"], session: ["prompt", "engine", "cwd"] } as const;
type ContentField = (typeof KIND_FIELDS)[BookmarkKind][number];

/** `POST /bookmarks`: the kind's own fields, trimmed, leaving out the optional ones left blank. */
export function createBody(draft: BookmarkDraft): BookmarkFields {
  const body: BookmarkFields = { title: draft.title.trim(), kind: draft.kind };
  for (const field of KIND_FIELDS[draft.kind]) {
    const value = draft[field].trim();
    if (value !== "") body[field] = value;
  }
  return body;
}

/**
 * `PATCH /bookmarks/<id>`: only what changed. The server reads an empty string as "clear", so a
 * blanked engine or folder, and the old kind's fields when the kind changes, are sent as "".
 */
export function patchBody(original: Bookmark, draft: BookmarkDraft): BookmarkFields {
  const body: BookmarkFields = {};
  const title = draft.title.trim();
  if (title !== original.title) body.title = title;
  if (draft.kind !== original.kind) body.kind = draft.kind;
  const fields: ContentField[] = ["url", "prompt", "engine", "cwd"];
  for (const field of fields) {
    const owned = (KIND_FIELDS[draft.kind] as readonly ContentField[]).includes(field);
    const value = owned ? draft[field].trim() : "";
    if (value !== (original[field] ?? "")) body[field] = value;
  }
  return body;
}

/** The list with the item at `from` moved to `to` (indexes in the original list); a copy. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const moved = [...items];
  if (from < 0 || from >= items.length || to < 0 || to >= items.length || from === to) return moved;
  const [item] = moved.splice(from, 1);
  moved.splice(to, 0, item as T);
  return moved;
}
