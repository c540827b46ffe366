/**
 * Loads the connected boards' full reads, each settling on its own, so one slow or missing
 * board shows as such without holding back the others. The boards a load asks for at once come
 * in one reply (`GET /boards/full`, a line per board, each decoded as its line arrives): one
 * request instead of fifty saves each request's work in every process of the browser. Its
 * boards share their dictionaries (`dicts=shared`, sent once in the reply's first line), so the
 * values boards have in common are parsed once and the engine decides what each means once. A
 * board read before revalidates on its own with its ETag (a 304 reuses the copy in memory).
 * Reads ask for the compact column form, a fraction of the JSON's bytes that decodes without an
 * object per item; a board read on its own takes the JSON as well when that is what comes back.
 * A read may carry only some item fields (`fields=`, what the dashboard's widgets read): the
 * copy kept for revalidation is then that read's, apart from the whole one.
 */
import { errorMessage } from "../../shared/api/errorMessage";
import { ApiError, apiRequest, apiStream } from "../../shared/api/client";
import { ColumnsFormError, ITEM_FIELDS, type SharedDicts, decodeItemColumns } from "./engine/itemColumns";
import type { BoardFull, BoardRead, Item, ReadField } from "./engine/types";

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

/** Full reads kept for the page's lifetime, keyed by board id and fields, for If-None-Match. */
const boardCache = new Map<string, CachedBoard>();

/** The fields a read carries, as `fields=` lists them; empty for a read of them all. */
const fieldList = (fields: readonly ReadField[] | undefined) => fields?.join(",") ?? "";

const cacheKey = (id: string, fields: readonly ReadField[] | undefined) => `${fieldList(fields)}\n${id}`;

/**
 * A full read's query: `fields=…` for a read of only `fields` (plain names, nothing to escape),
 * and codes packed into one base64 string a column, which parse as one string each instead of
 * a number per item.
 */
const readQuery = (fields: readonly ReadField[] | undefined) =>
  `${fields ? `fields=${fieldList(fields)}&` : ""}codes=base64`;

export function clearBoardCache(): void {
  boardCache.clear();
}

/** Reads a board, with only `fields` of its items when given (else all of them). */
export type BoardFetcher = (id: string, signal: AbortSignal, fields?: readonly ReadField[]) => Promise<BoardRead>;

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
function boardRead(body: unknown, contentType: string | null, status: number, shared?: SharedDicts): BoardRead {
  const invalid = (why: string) => new ApiError(status, "invalid_reply", `The board's full read is malformed: ${why}.`);
  const { board, items } = (body ?? {}) as { board?: BoardRead["board"]; items?: unknown };
  if (typeof board !== "object" || board === null) throw invalid("it has no board");
  if (!contentType?.startsWith(COLUMNS_MEDIA_TYPE)) {
    if (!Array.isArray(items) || !items.every(isItem)) throw invalid("its items are not a list of items");
    return body as BoardFull;
  }
  try {
    return { board, itemColumns: decodeItemColumns(items, shared) };
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

export const fetchBoardFull: BoardFetcher = async (id, signal, fields) => {
  const key = cacheKey(id, fields);
  const cached = boardCache.get(key);
  const headers: Record<string, string> = { Accept: FULL_READ_ACCEPT };
  if (cached) headers["If-None-Match"] = cached.etag;
  const path = `/boards/${encodeURIComponent(id)}/full?${readQuery(fields)}`;
  const reply = await onTheWire(() => apiRequest<unknown>(path, { headers, signal, priority: "low" }));
  if (reply.status === 304 && cached) return cached.data;
  const data = boardRead(reply.data, reply.headers.get("Content-Type"), reply.status);
  const etag = reply.headers.get("ETag");
  if (etag) boardCache.set(key, { etag, data });
  return data;
};

/** The most boards `GET /boards/full` reads in one reply. */
export const MAX_BOARDS_READ_TOGETHER = 100;

/** One line of `GET /boards/full`: a board, or first (`dicts=shared`) the dictionaries they share. */
type FullReadLine =
  | { id: string; etag: string; body: unknown }
  | { id: string; error: { code?: string; message?: string } }
  | { dicts: SharedDicts };

/**
 * Cuts a text that arrives in pieces into its lines. A line may span many pieces (a board's
 * body is a few hundred kilobytes), so pieces are kept until its end and joined once.
 */
export class LineSplitter {
  private pieces: string[] = [];

  /** The lines `piece` completes, without their newlines. */
  push(piece: string): string[] {
    const lines: string[] = [];
    let from = 0;
    for (let end = piece.indexOf("\n"); end >= 0; end = piece.indexOf("\n", from)) {
      this.pieces.push(piece.slice(from, end));
      lines.push(this.pieces.join(""));
      this.pieces = [];
      from = end + 1;
    }
    if (from < piece.length) this.pieces.push(piece.slice(from));
    return lines;
  }

  /** What came after the last newline. */
  rest(): string {
    return this.pieces.join("");
  }
}

/** A line of the reply as read, refused as an invalid reply unless it has a line's shape. */
function parseLine(text: string): FullReadLine {
  const invalid = (why: string) => new ApiError(200, "invalid_reply", `The boards' read is malformed: ${why}.`);
  let line: unknown;
  try {
    line = JSON.parse(text);
  } catch {
    throw invalid("a line is not JSON");
  }
  const { id, etag, error, dicts } = (line ?? {}) as { id?: unknown; etag?: unknown; error?: unknown; dicts?: unknown };
  if (dicts !== undefined) {
    const lists = typeof dicts === "object" && dicts !== null && !Array.isArray(dicts) ? Object.values(dicts) : null;
    if (!lists?.every(Array.isArray)) throw invalid("its dictionaries are not lists");
    if (id !== undefined) throw invalid("a line of dictionaries names a board");
    return line as FullReadLine;
  }
  if (typeof id !== "string") throw invalid("a line names no board");
  if (typeof etag !== "string" && (typeof error !== "object" || error === null))
    throw invalid(`the line of ${id} has neither an ETag nor an error`);
  return line as FullReadLine;
}

/** An error line as the error a read of that board alone would have thrown. */
function lineError(error: { code?: string; message?: string }): ApiError {
  const status = error.code === "not_found" ? 404 : 500;
  return new ApiError(status, error.code ?? "http_error", error.message ?? "The board could not be read.");
}

/**
 * Reads `ids` in one `GET /boards/full` and returns one promise per board, in the order of
 * `ids`; each settles as its line arrives, so the first boards are decoded while the later
 * ones are still on their way (the dictionaries they share come first). A reply refused or
 * lost before its first line (a server or a proxy that does not know the route, a dropped
 * connection) is not the boards' failure: each is then read on its own with `alone`. What a
 * reply cut short never brought fails as it did.
 */
export function fetchBoardsTogether(
  ids: readonly string[],
  signal: AbortSignal,
  alone: BoardFetcher = fetchBoardFull,
  fields?: readonly ReadField[],
): Promise<BoardRead>[] {
  const waiting = new Map<string, { resolve: (read: BoardRead) => void; reject: (error: unknown) => void }>();
  const reads = ids.map((id) => new Promise<BoardRead>((resolve, reject) => waiting.set(id, { resolve, reject })));
  let shared: SharedDicts | undefined;
  let boardSeen = false;
  const settle = (line: FullReadLine) => {
    if ("dicts" in line) {
      // The boards before it were decoded without it, and one list per key is what they share.
      if (boardSeen || shared)
        throw new ApiError(200, "invalid_reply", "The boards' read is malformed: its dictionaries came after a board.");
      shared = line.dicts;
      return;
    }
    boardSeen = true;
    const board = waiting.get(line.id);
    if (!board) return;
    waiting.delete(line.id);
    if ("error" in line) return board.reject(lineError(line.error));
    try {
      const data = boardRead(line.body, COLUMNS_MEDIA_TYPE, 200, shared);
      boardCache.set(cacheKey(line.id, fields), { etag: line.etag, data });
      board.resolve(data);
    } catch (error) {
      board.reject(error);
    }
  };
  let lineSeen = false;
  const read = async () => {
    const query = `ids=${ids.map(encodeURIComponent).join(",")}&${readQuery(fields)}&dicts=shared`;
    const reply = await apiStream(`/boards/full?${query}`, { signal, priority: "low" });
    if (!reply.body) throw new ApiError(reply.status, "invalid_reply", "The boards' read came without a body.");
    const lines = new LineSplitter();
    const text = reply.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await text.read();
      if (done) break;
      for (const line of lines.push(value)) {
        lineSeen = true;
        settle(parseLine(line));
      }
    }
    if (lines.rest()) throw new ApiError(reply.status, "invalid_reply", "The boards' read ended within a line.");
  };
  onTheWire(read)
    .then(() => {
      if (waiting.size > 0) throw new ApiError(200, "invalid_reply", "The boards' read ended before every board.");
    })
    .catch((error: unknown) => {
      const aborted = error instanceof DOMException && error.name === "AbortError";
      if (!lineSeen && !aborted) {
        for (const [id, board] of waiting) alone(id, signal, fields).then(board.resolve, board.reject);
        waiting.clear();
        return;
      }
      for (const board of waiting.values()) board.reject(error);
      waiting.clear();
    });
  return reads;
}

/**
 * A fetcher that reads the boards asked for in the same task (with the same signal and fields)
 * together, in one reply per hundred; a board already read so (which revalidates with its
 * ETag) or asked for alone is read on its own.
 */
export function readTogether(
  together: typeof fetchBoardsTogether = fetchBoardsTogether,
  alone: BoardFetcher = fetchBoardFull,
): BoardFetcher {
  interface Asked {
    id: string;
    signal: AbortSignal;
    fields: readonly ReadField[] | undefined;
    resolve: (read: BoardRead) => void;
    reject: (e: unknown) => void;
  }
  let asked: Asked[] = [];
  /** The boards `asked` holds, per signal: a board asked for twice in one task is read alone. */
  let askedKeys = new Map<AbortSignal, Set<string>>();
  const send = () => {
    const batch = asked;
    asked = [];
    askedKeys = new Map();
    const groups = new Map<AbortSignal, Map<string, Asked[]>>();
    for (const one of batch) {
      const bySignal = groups.get(one.signal) ?? new Map<string, Asked[]>();
      groups.set(one.signal, bySignal);
      const key = fieldList(one.fields);
      const group = bySignal.get(key);
      if (group) group.push(one);
      else bySignal.set(key, [one]);
    }
    for (const [signal, byFields] of groups) {
      for (const group of byFields.values()) {
        const [first] = group;
        if (!first) continue;
        if (group.length === 1) {
          alone(first.id, signal, first.fields).then(first.resolve, first.reject);
          continue;
        }
        for (let at = 0; at < group.length; at += MAX_BOARDS_READ_TOGETHER) {
          const part = group.slice(at, at + MAX_BOARDS_READ_TOGETHER);
          together(
            part.map((one) => one.id),
            signal,
            alone,
            first.fields,
          ).forEach((read, i) => {
            const one = part[i];
            if (one) read.then(one.resolve, one.reject);
          });
        }
      }
    }
  };
  return (id, signal, fields) => {
    const key = cacheKey(id, fields);
    const keys = askedKeys.get(signal) ?? new Set<string>();
    if (boardCache.has(key) || keys.has(key)) return alone(id, signal, fields);
    askedKeys.set(signal, keys.add(key));
    return new Promise<BoardRead>((resolve, reject) => {
      if (asked.length === 0) queueMicrotask(send);
      asked.push({ id, signal, fields, resolve, reject });
    });
  };
}

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
