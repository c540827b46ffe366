/**
 * Loads the connected boards' full reads in parallel, each on its own, so one slow or missing
 * board shows as such without holding back the others, and revalidates with the board's ETag
 * (a 304 reuses the copy already in memory).
 */
import { errorMessage } from "../../shared/api/errorMessage";
import { ApiError, apiRequest } from "../../shared/api/client";
import type { BoardFull } from "./engine/types";

export type BoardLoad =
  | { id: string; state: "loading"; slow: boolean }
  | { id: string; state: "loaded"; data: BoardFull }
  | { id: string; state: "missing" }
  | { id: string; state: "error"; message: string };

interface CachedBoard {
  etag: string;
  data: BoardFull;
}

/** Full reads kept for the page's lifetime, keyed by board id, for If-None-Match. */
const boardCache = new Map<string, CachedBoard>();

export function clearBoardCache(): void {
  boardCache.clear();
}

export type BoardFetcher = (id: string, signal: AbortSignal) => Promise<BoardFull>;

export const fetchBoardFull: BoardFetcher = async (id, signal) => {
  const cached = boardCache.get(id);
  const reply = await apiRequest<BoardFull>(`/boards/${encodeURIComponent(id)}/full`, {
    headers: cached ? { "If-None-Match": cached.etag } : {},
    signal,
  });
  if (reply.status === 304 && cached) return cached.data;
  const etag = reply.headers.get("ETag");
  if (etag) boardCache.set(id, { etag, data: reply.data });
  return reply.data;
};

export interface LoadOptions {
  fetchBoard?: BoardFetcher;
  /** Called with every board's state; calls are batched at most once per `flushMs`. */
  onChange: (loads: BoardLoad[]) => void;
  flushMs?: number;
  /** After this long a board still loading is marked slow. */
  slowAfterMs?: number;
  /** Boards already loaded stay shown while they revalidate. */
  previous?: readonly BoardLoad[];
  /**
   * Whether boards already loaded are read again (with their ETag). Connecting or dropping a
   * board reads only the new ones; a revalidation reads them all.
   */
  revalidate?: boolean;
}

/**
 * Starts every board's read at once and returns a function that cancels them. Recomputing all
 * widgets after each of 50 boards would cost 50 passes over growing data, so updates are
 * batched; the last one comes as soon as every board has settled.
 */
export function loadBoards(ids: readonly string[], options: LoadOptions): () => void {
  const fetchBoard = options.fetchBoard ?? fetchBoardFull;
  const flushMs = options.flushMs ?? 250;
  const controller = new AbortController();
  const kept = new Map((options.previous ?? []).filter((l) => l.state === "loaded").map((l) => [l.id, l]));
  const loads = new Map<string, BoardLoad>(
    ids.map((id) => [id, kept.get(id) ?? { id, state: "loading", slow: false }]),
  );
  const toRead = options.revalidate === false ? ids.filter((id) => !kept.has(id)) : ids;
  let pending = toRead.length;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let cancelled = false;

  const emit = () => {
    timer = null;
    if (!cancelled) options.onChange(ids.map((id) => loads.get(id) as BoardLoad));
  };
  const schedule = () => {
    if (cancelled) return;
    if (pending === 0) {
      if (timer !== null) clearTimeout(timer);
      emit();
    } else if (timer === null) {
      timer = setTimeout(emit, flushMs);
    }
  };

  const slowTimer = setTimeout(() => {
    let changed = false;
    for (const [id, load] of loads) {
      if (load.state === "loading") {
        loads.set(id, { id, state: "loading", slow: true });
        changed = true;
      }
    }
    if (changed) schedule();
  }, options.slowAfterMs ?? 4000);
  if (pending === 0) clearTimeout(slowTimer);

  for (const id of toRead) {
    fetchBoard(id, controller.signal)
      .then(
        (data) => {
          loads.set(id, { id, state: "loaded", data });
        },
        (error: unknown) => {
          if (cancelled) return;
          if (error instanceof ApiError && error.status === 404) loads.set(id, { id, state: "missing" });
          else loads.set(id, { id, state: "error", message: errorMessage(error) });
        },
      )
      .finally(() => {
        pending--;
        if (pending === 0) clearTimeout(slowTimer);
        schedule();
      });
  }
  emit();

  return () => {
    cancelled = true;
    controller.abort();
    clearTimeout(slowTimer);
    if (timer !== null) clearTimeout(timer);
  };
}

/** Loaded boards in connection order, for the engine. */
export function loadedBoards(loads: readonly BoardLoad[]): BoardFull[] {
  const out: BoardFull[] = [];
  for (const load of loads) if (load.state === "loaded") out.push(load.data);
  return out;
}
