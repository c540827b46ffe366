/**
 * Loads the connected boards' full reads in parallel, each on its own, so one slow or missing
 * board shows as such without holding back the others, and revalidates with the board's ETag
 * (a 304 reuses the copy already in memory). Reads ask for the compact column form, a fraction
 * of the JSON's bytes that decodes without an object per item, and take the JSON as well when
 * that is what comes back. The server marks both `no-cache` with an ETag, so after a reload the
 * browser's HTTP cache revalidates each read instead of downloading it again.
 */
import { errorMessage } from "../../shared/api/errorMessage";
import { ApiError, apiRequest } from "../../shared/api/client";
import { ColumnsFormError, ITEM_FIELDS, decodeItemColumns } from "./engine/itemColumns";
import type { BoardFull, BoardRead, Item } from "./engine/types";

/** The compact column form of `GET /boards/<id>/full`. */
export const COLUMNS_MEDIA_TYPE = "application/vnd.switchboard.columns+json";

/** What a full read asks for: the compact form, else the JSON. */
export const FULL_READ_ACCEPT = `${COLUMNS_MEDIA_TYPE}, application/json;q=0.5`;

export type BoardLoad =
  | { id: string; state: "loading"; slow: boolean }
  | { id: string; state: "loaded"; data: BoardRead }
  | { id: string; state: "missing" }
  | { id: string; state: "error"; message: string };

interface CachedBoard {
  etag: string;
  data: BoardRead;
}

/** Full reads kept for the page's lifetime, keyed by board id, for If-None-Match. */
const boardCache = new Map<string, CachedBoard>();

export function clearBoardCache(): void {
  boardCache.clear();
}

export type BoardFetcher = (id: string, signal: AbortSignal) => Promise<BoardRead>;

/** An item of the JSON form, as far as the engine reads it: text fields and an object of values. */
function isItem(item: unknown): item is Item {
  if (typeof item !== "object" || item === null) return false;
  const { values } = item as Partial<Item>;
  return (
    typeof values === "object" &&
    values !== null &&
    ITEM_FIELDS.every((field) => typeof (item as Item)[field] === "string")
  );
}

/**
 * A full read as the engine takes it, from whichever form the reply's type says it is. A body
 * without the form's shape is refused here as an invalid reply, so the board shows that error
 * rather than failing later in the engine.
 */
function boardRead(body: unknown, contentType: string | null, status: number): BoardRead {
  const invalid = (why: string) => new ApiError(status, "invalid_reply", `The board's full read is malformed: ${why}.`);
  const { board, items } = (body ?? {}) as { board?: BoardRead["board"]; items?: unknown };
  if (typeof board !== "object" || board === null) throw invalid("it has no board");
  if (!contentType?.startsWith(COLUMNS_MEDIA_TYPE)) {
    if (!Array.isArray(items) || !items.every(isItem)) throw invalid("its items are not a list of items");
    return body as BoardFull;
  }
  try {
    return { board, itemColumns: decodeItemColumns(items) };
  } catch (error) {
    if (!(error instanceof ColumnsFormError)) throw error;
    throw invalid(error.message);
  }
}

/**
 * Full reads on the wire at once. The browser opens six connections per origin and the page
 * shares them: with all six taken by board reads, the page's own code and small reads waited
 * hundreds of milliseconds behind them. Four keep a small machine's cores busy serving reads;
 * a read gives its place up once its body is in, before it is decoded.
 */
export const MAX_READS_ON_THE_WIRE = 4;

let readsOnTheWire = 0;
const waitingForTheWire: (() => void)[] = [];

async function onTheWire<T>(read: () => Promise<T>): Promise<T> {
  if (readsOnTheWire >= MAX_READS_ON_THE_WIRE) await new Promise<void>((resolve) => waitingForTheWire.push(resolve));
  else readsOnTheWire++;
  try {
    return await read();
  } finally {
    // The place passes straight to the next read waiting, if any.
    const next = waitingForTheWire.shift();
    if (next) next();
    else readsOnTheWire--;
  }
}

export const fetchBoardFull: BoardFetcher = async (id, signal) => {
  const cached = boardCache.get(id);
  const headers: Record<string, string> = { Accept: FULL_READ_ACCEPT };
  if (cached) headers["If-None-Match"] = cached.etag;
  const reply = await onTheWire(() =>
    apiRequest<unknown>(`/boards/${encodeURIComponent(id)}/full`, { headers, signal, priority: "low" }),
  );
  if (reply.status === 304 && cached) return cached.data;
  const data = boardRead(reply.data, reply.headers.get("Content-Type"), reply.status);
  const etag = reply.headers.get("ETag");
  if (etag) boardCache.set(id, { etag, data });
  return data;
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
export function loadedBoards(loads: readonly BoardLoad[]): BoardRead[] {
  const out: BoardRead[] = [];
  for (const load of loads) if (load.state === "loaded") out.push(load.data);
  return out;
}
