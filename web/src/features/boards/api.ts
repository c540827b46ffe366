/** Thin typed calls of the board module; callers show the ApiError they throw. */
import { apiFetch, apiRequest } from "../../shared/api/client";
import type { Session, SetupPreset } from "../../shared/api/types.generated";
import type { Board, BoardFull, Item, ItemPatch, ItemValues } from "./types";

export const createBoard = (workspaceId: string, name: string, preset?: SetupPreset) =>
  apiFetch<Board>("/boards", { method: "POST", body: preset ? { workspaceId, name, preset } : { workspaceId, name } });

export const createItem = (boardId: string, groupId: string, name: string, values: ItemValues = {}) =>
  apiFetch<Item>(`/boards/${encodeURIComponent(boardId)}/items`, { method: "POST", body: { groupId, name, values } });

export const updateItem = (itemId: string, patch: ItemPatch) =>
  apiFetch<Item>(`/items/${encodeURIComponent(itemId)}`, { method: "PATCH", body: patch });

export const deleteItem = (itemId: string) =>
  apiFetch<undefined>(`/items/${encodeURIComponent(itemId)}`, { method: "DELETE" });

export interface CachedBoard {
  etag: string | null;
  full: BoardFull;
}

/**
 * The last full read of each board, kept for the page's lifetime so that
 * coming back to a board shows it at once and revalidates with If-None-Match.
 */
const cache = new Map<string, CachedBoard>();

export function cachedBoard(boardId: string): CachedBoard | undefined {
  return cache.get(boardId);
}

/**
 * Keeps what the screen shows. Local edits keep the ETag of the last read:
 * each accepted edit changed the server's ETag, so the next read is a 200.
 */
export function rememberBoard(boardId: string, full: BoardFull, etag: string | null): void {
  cache.set(boardId, { etag, full });
}

/**
 * Reads the full board, sending `etag` as If-None-Match: `null` back means the
 * server answered 304 and the copy on screen is current.
 */
export async function fetchFullBoard(
  boardId: string,
  etag: string | null,
  signal?: AbortSignal,
): Promise<{ full: BoardFull; etag: string | null } | null> {
  const headers: Record<string, string> = etag ? { "If-None-Match": etag } : {};
  const reply = await apiRequest<BoardFull>(`/boards/${encodeURIComponent(boardId)}/full`, { headers, signal });
  if (reply.status === 304) return null;
  return { full: reply.data, etag: reply.headers.get("ETag") };
}

/**
 * What a session-link cell calls its session: the title, else its prompt's first line. Read once
 * per session for the page's lifetime (a board links the same few sessions row after row); a
 * failed read is forgotten, so the next cell to ask reads again.
 */
const sessionNames = new Map<string, Promise<string | null>>();

export function sessionName(id: string): Promise<string | null> {
  let name = sessionNames.get(id);
  if (!name) {
    name = apiFetch<Session>(`/sessions/${encodeURIComponent(id)}`).then(
      (session) => session.title || session.prompt.split("\n", 1)[0] || null,
      () => {
        sessionNames.delete(id);
        return null;
      },
    );
    sessionNames.set(id, name);
  }
  return name;
}
