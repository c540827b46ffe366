import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { ApiError } from "../../shared/api/client";
import {
  type BoardLoad,
  COLUMNS_MEDIA_TYPE,
  MAX_READS_ON_THE_WIRE,
  clearBoardCache,
  fetchBoardFull,
  loadBoards,
  loadedBoards,
} from "./boardLoader";
import { columnsBody } from "./engine/fixtures/columnsBody";
import { makeBoard } from "./engine/fixtures/makeBoard";
import type { BoardFull } from "./engine/types";

function deferred<T>() {
  let resolve: (v: T) => void = () => {};
  let reject: (e: unknown) => void = () => {};
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("loadBoards", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  test("starts every read at once, reports progress, and a missing or failing board never holds back the others", async () => {
    const reads = new Map(["a", "b", "c", "d"].map((id) => [id, deferred<BoardFull>()]));
    const started: string[] = [];
    const updates: BoardLoad[][] = [];
    loadBoards(["a", "b", "c", "d"], {
      fetchBoard: (id) => {
        started.push(id);
        return (reads.get(id) as ReturnType<typeof deferred<BoardFull>>).promise;
      },
      onChange: (l) => updates.push(l),
      flushMs: 100,
      slowAfterMs: 4000,
    });
    expect(started).toEqual(["a", "b", "c", "d"]);
    expect(updates.at(-1)?.map((l) => l.state)).toEqual(["loading", "loading", "loading", "loading"]);
    reads.get("a")?.resolve(makeBoard({ id: "a" }));
    reads.get("b")?.reject(new ApiError(404, "not_found", "No such board."));
    reads.get("c")?.reject(new ApiError(500, "http_error", "boom"));
    await vi.advanceTimersByTimeAsync(100);
    expect(updates.at(-1)?.map((l) => l.state)).toEqual(["loaded", "missing", "error", "loading"]);
    await vi.advanceTimersByTimeAsync(4000);
    expect(updates.at(-1)?.[3]).toEqual({ id: "d", state: "loading", slow: true });
    reads.get("d")?.resolve(makeBoard({ id: "d" }));
    await vi.advanceTimersByTimeAsync(0);
    const last = updates.at(-1) as BoardLoad[];
    expect(last.map((l) => l.state)).toEqual(["loaded", "missing", "error", "loaded"]);
    expect(loadedBoards(last).map((b) => b.board.id)).toEqual(["a", "d"]);
  });

  test("batches updates instead of one per board", async () => {
    const updates: BoardLoad[][] = [];
    const ids = Array.from({ length: 50 }, (_, i) => `b${i}`);
    loadBoards(ids, {
      fetchBoard: async (id) => makeBoard({ id }),
      onChange: (l) => updates.push(l),
      flushMs: 100,
    });
    await vi.advanceTimersByTimeAsync(200);
    expect(updates.length).toBeLessThanOrEqual(3);
    expect(updates.at(-1)?.every((l) => l.state === "loaded")).toBe(true);
  });

  test("boards already loaded stay shown while they revalidate; cancelling stops updates", async () => {
    const updates: BoardLoad[][] = [];
    const board = makeBoard({ id: "a" });
    const cancel = loadBoards(["a"], {
      fetchBoard: () => new Promise(() => {}),
      onChange: (l) => updates.push(l),
      previous: [{ id: "a", state: "loaded", data: board }],
    });
    expect(updates[0]).toEqual([{ id: "a", state: "loaded", data: board }]);
    cancel();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(updates).toHaveLength(1);
  });

  test("without revalidation, only boards not loaded yet are read", async () => {
    const updates: BoardLoad[][] = [];
    const board = makeBoard({ id: "a" });
    const started: string[] = [];
    loadBoards(["a", "b"], {
      fetchBoard: async (id) => {
        started.push(id);
        return makeBoard({ id });
      },
      onChange: (l) => updates.push(l),
      previous: [
        { id: "a", state: "loaded", data: board },
        { id: "gone", state: "missing" },
      ],
      revalidate: false,
    });
    expect(started).toEqual(["b"]);
    await vi.advanceTimersByTimeAsync(0);
    const last = updates.at(-1) as BoardLoad[];
    expect(last.map((l) => l.state)).toEqual(["loaded", "loaded"]);
    expect(last[0]).toEqual({ id: "a", state: "loaded", data: board });
  });
});

describe("fetchBoardFull", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    clearBoardCache();
  });

  test("revalidates with the ETag and reuses the copy on 304", async () => {
    const board = makeBoard({ id: "a", items: [{ values: {} }] });
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(new Response(JSON.stringify(board), { status: 200, headers: { ETag: '"v1"' } }))
      .mockResolvedValueOnce(new Response(null, { status: 304, headers: { ETag: '"v1"' } }));
    vi.stubGlobal("fetch", fetchMock);
    const signal = new AbortController().signal;
    const first = await fetchBoardFull("a", signal);
    const second = await fetchBoardFull("a", signal);
    expect(second).toBe(first);
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/boards/a/full");
    expect(fetchMock.mock.calls[0]?.[1].headers).toEqual({ Accept: ACCEPT });
    expect(fetchMock.mock.calls[1]?.[1].headers).toEqual({ Accept: ACCEPT, "If-None-Match": '"v1"' });
    // Behind the page's own requests when both wait for one of the browser's connections.
    expect(fetchMock.mock.calls[0]?.[1].priority).toBe("low");
  });

  test("keeps at most MAX_READS_ON_THE_WIRE reads on the wire, the next starting as one's body is in", async () => {
    const replies: ((r: Response) => void)[] = [];
    const fetchMock = vi.fn(() => new Promise<Response>((resolve) => replies.push(resolve)));
    vi.stubGlobal("fetch", fetchMock);
    const signal = new AbortController().signal;
    const ids = Array.from({ length: MAX_READS_ON_THE_WIRE + 2 }, (_, i) => `b${i}`);
    const reads = ids.map((id) => fetchBoardFull(id, signal));
    await Promise.resolve();
    expect(fetchMock).toHaveBeenCalledTimes(MAX_READS_ON_THE_WIRE);
    replies[0]?.(new Response(JSON.stringify(makeBoard({ id: "b0" })), { status: 200 }));
    await reads[0];
    expect(fetchMock).toHaveBeenCalledTimes(MAX_READS_ON_THE_WIRE + 1);
    // A failed read gives its place up as well.
    replies[1]?.(new Response(JSON.stringify({ error: { code: "boom", message: "boom" } }), { status: 500 }));
    await expect(reads[1]).rejects.toThrow();
    expect(fetchMock).toHaveBeenCalledTimes(MAX_READS_ON_THE_WIRE + 2);
    for (const [i, reply] of replies.slice(2).entries())
      reply(new Response(JSON.stringify(makeBoard({ id: `b${i + 2}` })), { status: 200 }));
    expect((await Promise.all(reads.slice(2))).map((r) => r.board.id)).toEqual(ids.slice(2));
  });

  test("reads the compact form as columns, by the reply's type", async () => {
    const board = makeBoard({
      id: "a",
      items: [
        { values: { s: "Done" }, name: "one" },
        { values: {}, name: "two" },
      ],
    });
    const reply = new Response(JSON.stringify(columnsBody(board)), {
      status: 200,
      headers: { "Content-Type": COLUMNS_MEDIA_TYPE },
    });
    vi.stubGlobal("fetch", vi.fn().mockResolvedValueOnce(reply));
    const read = await fetchBoardFull("a", new AbortController().signal);
    if (!("itemColumns" in read)) throw new Error("the compact reply was not read as columns");
    expect(read.board).toEqual(board.board);
    expect(read.itemColumns.field("name")).toEqual(["one", "two"]);
    expect(read.itemColumns.cells("s")).toEqual(["Done", undefined]);
  });

  test("refuses a malformed compact reply as an invalid reply", async () => {
    const body = { board: { id: "a", name: "A", columns: [], groups: [] }, items: { count: 2, values: {} } };
    const reply = new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": COLUMNS_MEDIA_TYPE } });
    vi.stubGlobal("fetch", vi.fn().mockResolvedValueOnce(reply));
    await expect(fetchBoardFull("a", new AbortController().signal)).rejects.toMatchObject({
      code: "invalid_reply",
      status: 200,
    });
  });

  test.each([
    ["a compact reply without a board", COLUMNS_MEDIA_TYPE, { items: {} }],
    ["a JSON reply without a board", "application/json", { items: [] }],
    [
      "a JSON reply with an item that is not one",
      "application/json",
      { board: makeBoard({ id: "a" }).board, items: [null] },
    ],
  ])("refuses %s as an invalid reply", async (_, type, body) => {
    const reply = new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": type } });
    vi.stubGlobal("fetch", vi.fn().mockResolvedValueOnce(reply));
    await expect(fetchBoardFull("a", new AbortController().signal)).rejects.toMatchObject({
      code: "invalid_reply",
      status: 200,
    });
  });
});

const ACCEPT = `${COLUMNS_MEDIA_TYPE}, application/json;q=0.5`;
