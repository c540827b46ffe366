import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { ApiError } from "../../shared/api/client";
import {
  type BoardFetcher,
  type BoardLoad,
  COLUMNS_MEDIA_TYPE,
  LineSplitter,
  MAX_BOARDS_READ_TOGETHER,
  MAX_READS_ON_THE_WIRE,
  clearBoardCache,
  fetchBoardFull,
  fetchBoardsTogether,
  loadBoards,
  loadedBoards,
  readTogether,
} from "./boardLoader";
import { columnsBody } from "./engine/fixtures/columnsBody";
import { makeBoard } from "./engine/fixtures/makeBoard";
import type { BoardFull, ReadField } from "./engine/types";

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
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/boards/a/full?codes=base64");
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

  test("a read of some fields asks for them, decodes what it carries, and is kept apart from the whole one", async () => {
    const board = makeBoard({ id: "a", items: [{ values: { s: "Done" }, name: "one" }] });
    const { count, groupId, createdAt, values } = columnsBody(board).items;
    const lean = { board: board.board, items: { count, groupId, createdAt, values } };
    const headers = (etag: string) => ({ "Content-Type": COLUMNS_MEDIA_TYPE, ETag: etag });
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(new Response(JSON.stringify(lean), { headers: headers('"a.1.columns.f"') }))
      .mockResolvedValueOnce(new Response(JSON.stringify(columnsBody(board)), { headers: headers('"a.1.columns"') }))
      .mockResolvedValueOnce(new Response(null, { status: 304, headers: headers('"a.1.columns.f"') }));
    vi.stubGlobal("fetch", fetchMock);
    const signal = new AbortController().signal;
    const fields = ["groupId", "createdAt", "values"] as const;
    const read = await fetchBoardFull("a", signal, fields);
    if (!("itemColumns" in read)) throw new Error("the compact reply was not read as columns");
    expect(read.itemColumns.cells("s")).toEqual(["Done"]);
    expect(read.itemColumns.field("name")).toEqual([undefined]);
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/boards/a/full?fields=groupId,createdAt,values&codes=base64");
    // The whole read does not revalidate with the other read's tag; each its own.
    const whole = await fetchBoardFull("a", signal);
    expect(fetchMock.mock.calls[1]?.[0]).toBe("/api/boards/a/full?codes=base64");
    expect(fetchMock.mock.calls[1]?.[1].headers).toEqual({ Accept: ACCEPT });
    expect(await fetchBoardFull("a", signal, fields)).toBe(read);
    expect(fetchMock.mock.calls[2]?.[1].headers).toEqual({ Accept: ACCEPT, "If-None-Match": '"a.1.columns.f"' });
    expect("itemColumns" in whole && whole.itemColumns.field("name")).toEqual(["one"]);
  });

  test("refuses a malformed compact reply as an invalid reply", async () => {
    const body = { board: { id: "a", name: "A", columns: [], groups: [] }, items: { count: 2, id: ["x"], values: {} } };
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

describe("LineSplitter", () => {
  test("gives each line once it ends, however the text is cut", () => {
    const lines = new LineSplitter();
    expect(lines.push('{"a":')).toEqual([]);
    expect(lines.push("1}\n{")).toEqual(['{"a":1}']);
    expect(lines.push('"b":2}\n{"c":3}\n')).toEqual(['{"b":2}', '{"c":3}']);
    expect(lines.push("\n")).toEqual([""]);
    expect(lines.push("tail")).toEqual([]);
    expect(lines.rest()).toBe("tail");
  });
});

/** A reply whose body arrives in `pieces`, as a streamed one does. */
function streamed(pieces: string[], init: ResponseInit = { status: 200 }): Response {
  const bytes = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(bytes.encode(piece));
      controller.close();
    },
  });
  return new Response(body, init);
}

/** A text cut every `size` characters, mid-line and mid-character alike. */
function cut(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

describe("fetchBoardsTogether", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    clearBoardCache();
  });

  const boardA = makeBoard({ id: "a", items: [{ values: { s: "Done" }, name: "one ✓" }] });
  const boardB = makeBoard({ id: "b", items: [{ values: {}, name: "two" }] });
  const lines = [
    { id: "a", etag: '"a.1.columns"', body: columnsBody(boardA) },
    { id: "gone", error: { code: "not_found", message: "The board does not exist." } },
    { id: "b", etag: '"b.4.columns"', body: columnsBody(boardB) },
  ]
    .map((line) => `${JSON.stringify(line)}\n`)
    .join("");

  test("reads every board in one request, each from its line, and a missing one as a 404", async () => {
    const fetchMock = vi.fn().mockResolvedValueOnce(streamed(cut(lines, 7)));
    vi.stubGlobal("fetch", fetchMock);
    const [a, gone, b] = fetchBoardsTogether(["a", "gone", "b"], new AbortController().signal);
    const readA = await a;
    if (!readA || !("itemColumns" in readA)) throw new Error("the line was not read as columns");
    expect(readA.board).toEqual(boardA.board);
    expect(readA.itemColumns.field("name")).toEqual(["one ✓"]);
    expect((await b)?.board).toEqual(boardB.board);
    await expect(gone).rejects.toMatchObject({ status: 404, code: "not_found" });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/boards/full?ids=a,gone,b&codes=base64&dicts=shared");
    expect(fetchMock.mock.calls[0]?.[1].priority).toBe("low");
  });

  test("boards read with shared dictionaries hold their own values and share each key's entries", async () => {
    const shared = [
      { dicts: { s: ["Done", "Stuck"], n: [3, 5] } },
      { id: "a", etag: '"a.1"', body: { board: boardA.board, items: { count: 2, values: { s: { codes: [1, -1] } } } } },
      {
        id: "b",
        etag: '"b.1"',
        body: { board: boardB.board, items: { count: 1, values: { s: { codes: "AQ==" }, n: { codes: [1] } } } },
      },
      { id: "c", etag: '"c.1"', body: { board: boardB.board, items: { count: 1, values: { t: { codes: [0] } } } } },
    ]
      .map((line) => `${JSON.stringify(line)}\n`)
      .join("");
    vi.stubGlobal("fetch", vi.fn().mockResolvedValueOnce(streamed(cut(shared, 5))));
    const [a, b, c] = fetchBoardsTogether(["a", "b", "c"], new AbortController().signal);
    const [readA, readB] = [await a, await b];
    if (!readA || !("itemColumns" in readA) || !readB || !("itemColumns" in readB)) throw new Error("not columns");
    expect(readA.itemColumns.cells("s")).toEqual(["Stuck", undefined]);
    expect(readB.itemColumns.cells("s")).toEqual(["Done"]);
    expect(readB.itemColumns.cells("n")).toEqual([5]);
    expect(readA.itemColumns.coded("s").entries).toBe(readB.itemColumns.coded("s").entries);
    // A column of codes alone with no shared dictionary of its key is no column.
    await expect(c).rejects.toMatchObject({
      code: "invalid_reply",
      message: expect.stringContaining("items.values.t"),
    });

    const [dictsLine, boardLine] = shared.split("\n");
    const malformed = [
      [JSON.stringify({ dicts: { s: "Done" } }), "are not lists"],
      [JSON.stringify({ dicts: [["Done"]] }), "are not lists"],
      [JSON.stringify({ id: "a", dicts: {} }), "names a board"],
      [`${boardLine}\n${dictsLine}`, "came after a board"],
      [`${dictsLine}\n${dictsLine}`, "came after a board"],
    ];
    for (const [reply, why] of malformed) {
      vi.stubGlobal("fetch", vi.fn().mockResolvedValueOnce(streamed([`${reply}\n`])));
      const settled = await Promise.allSettled(fetchBoardsTogether(["a", "b"], new AbortController().signal));
      const refusals = settled.map((read) => (read.status === "rejected" ? String(read.reason?.message) : ""));
      expect(
        refusals.some((message) => message.includes(why as string)),
        `${why}: ${refusals.join(" | ")}`,
      ).toBe(true);
    }
  });

  test("asks every board for the same fields, and a board read alone after a lost reply too", async () => {
    const fields = ["groupId", "values"] as const;
    const fetchMock = vi.fn().mockResolvedValueOnce(streamed([lines]));
    vi.stubGlobal("fetch", fetchMock);
    await Promise.allSettled(fetchBoardsTogether(["a", "gone", "b"], new AbortController().signal, undefined, fields));
    expect(fetchMock.mock.calls[0]?.[0]).toBe(
      "/api/boards/full?ids=a,gone,b&fields=groupId,values&codes=base64&dicts=shared",
    );

    vi.stubGlobal("fetch", vi.fn().mockRejectedValueOnce(new TypeError("Failed to fetch")));
    const alone = vi.fn((id: string) => Promise.resolve(makeBoard({ id })));
    const signal = new AbortController().signal;
    await Promise.all(fetchBoardsTogether(["a"], signal, alone, fields));
    expect(alone.mock.calls).toEqual([["a", signal, fields]]);
  });

  test("a board read together revalidates alone with its ETag next time", async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(streamed([lines]))
      .mockResolvedValueOnce(new Response(null, { status: 304 }));
    vi.stubGlobal("fetch", fetchMock);
    const [first, gone, b] = fetchBoardsTogether(["a", "gone", "b"], new AbortController().signal);
    const read = await first;
    await Promise.allSettled([gone, b]);
    const again = await fetchBoardFull("a", new AbortController().signal);
    expect(again).toBe(read);
    expect(fetchMock.mock.calls[1]?.[1].headers).toEqual({ Accept: ACCEPT, "If-None-Match": '"a.1.columns"' });
  });

  test("boards a reply cut short never brought fail as it did", async () => {
    const firstLine = lines.slice(0, lines.indexOf("\n") + 1);
    vi.stubGlobal("fetch", vi.fn().mockResolvedValueOnce(streamed([firstLine, '{"id":"b","et'])));
    const alone = vi.fn((id: string) => Promise.resolve(makeBoard({ id })));
    const [a, b] = fetchBoardsTogether(["a", "b"], new AbortController().signal, alone);
    expect((await a)?.board).toEqual(boardA.board);
    await expect(b).rejects.toMatchObject({ code: "invalid_reply" });
    expect(alone).not.toHaveBeenCalled();
  });

  test.each([
    ["refused", () => Promise.resolve(new Response(JSON.stringify({ error: { code: "not_found" } }), { status: 404 }))],
    ["lost", () => Promise.reject(new TypeError("Failed to fetch"))],
  ])("a reply %s before its first line reads each board on its own", async (_, reply) => {
    vi.stubGlobal("fetch", vi.fn(reply));
    const alone = vi.fn((id: string) => Promise.resolve(makeBoard({ id })));
    const signal = new AbortController().signal;
    const reads = fetchBoardsTogether(["a", "b"], signal, alone);
    expect((await Promise.all(reads)).map((r) => r.board.id)).toEqual(["a", "b"]);
    expect(alone.mock.calls).toEqual([
      ["a", signal, undefined],
      ["b", signal, undefined],
    ]);
  });

  test("a cancelled load reads nothing more", async () => {
    const controller = new AbortController();
    vi.stubGlobal(
      "fetch",
      vi.fn((_url: string, init: RequestInit) => {
        controller.abort();
        return Promise.reject(init.signal?.reason ?? new DOMException("aborted", "AbortError"));
      }),
    );
    const alone = vi.fn((id: string) => Promise.resolve(makeBoard({ id })));
    const reads = fetchBoardsTogether(["a", "b"], controller.signal, alone);
    for (const read of reads) await expect(read).rejects.toMatchObject({ name: "AbortError" });
    expect(alone).not.toHaveBeenCalled();
  });

  test.each([
    ["not JSON", "{oops"],
    ["not a line", "null"],
    ["a line without an ETag", '{"id":"b","body":{}}'],
  ])("a line that is %s fails the boards still to come as an invalid reply", async (_, bad) => {
    const firstLine = lines.slice(0, lines.indexOf("\n") + 1);
    vi.stubGlobal("fetch", vi.fn().mockResolvedValueOnce(streamed([firstLine, `${bad}\n`])));
    const [a, b] = fetchBoardsTogether(["a", "b"], new AbortController().signal);
    expect((await a)?.board).toEqual(boardA.board);
    await expect(b).rejects.toMatchObject({ code: "invalid_reply", status: 200 });
  });
});

describe("readTogether", () => {
  afterEach(() => clearBoardCache());

  const read = (id: string) => makeBoard({ id });

  test("the boards asked for in one task go together, a hundred at most a reply", async () => {
    const together = vi.fn((ids: readonly string[]) => ids.map((id) => Promise.resolve(read(id))));
    const alone = vi.fn((id: string) => Promise.resolve(read(id)));
    const fetchBoard = readTogether(together, alone);
    const signal = new AbortController().signal;
    const ids = Array.from({ length: MAX_BOARDS_READ_TOGETHER + 20 }, (_, i) => `b${i}`);
    const reads = await Promise.all(ids.map((id) => fetchBoard(id, signal)));
    expect(reads.map((r) => r.board.id)).toEqual(ids);
    expect(together.mock.calls.map(([asked]) => asked.length)).toEqual([MAX_BOARDS_READ_TOGETHER, 20]);
    expect(alone).not.toHaveBeenCalled();
  });

  test("a board asked for alone, or read before, is read on its own", async () => {
    const together = vi.fn((ids: readonly string[]) => ids.map((id) => Promise.resolve(read(id))));
    const alone = vi.fn((id: string) => Promise.resolve(read(id)));
    const fetchBoard = readTogether(together, alone);
    const signal = new AbortController().signal;
    await fetchBoard("solo", signal);
    expect(alone).toHaveBeenCalledWith("solo", signal, undefined);
    expect(together).not.toHaveBeenCalled();

    vi.stubGlobal(
      "fetch",
      vi.fn().mockResolvedValueOnce(new Response(JSON.stringify(read("seen")), { headers: { ETag: '"v1"' } })),
    );
    await fetchBoardFull("seen", signal);
    vi.unstubAllGlobals();
    await Promise.all(["seen", "new1", "new2"].map((id) => fetchBoard(id, signal)));
    expect(alone).toHaveBeenLastCalledWith("seen", signal, undefined);
    expect(together.mock.calls.map(([asked]) => asked)).toEqual([["new1", "new2"]]);
  });

  test("boards asked for with other fields go in a reply of their own", async () => {
    const together = vi.fn(
      (ids: readonly string[], _signal: AbortSignal, _alone?: BoardFetcher, _fields?: readonly ReadField[]) =>
        ids.map((id) => Promise.resolve(read(id))),
    );
    const alone = vi.fn((id: string) => Promise.resolve(read(id)));
    const fetchBoard = readTogether(together, alone);
    const signal = new AbortController().signal;
    const lean = ["values"] as const;
    await Promise.all([fetchBoard("a", signal, lean), fetchBoard("b", signal), fetchBoard("c", signal, lean)]);
    expect(together.mock.calls.map(([ids, , , fields]) => [ids, fields])).toEqual([[["a", "c"], lean]]);
    expect(alone.mock.calls).toEqual([["b", signal, undefined]]);
  });

  test("a failed board fails alone", async () => {
    const together = vi.fn((ids: readonly string[]) =>
      ids.map((id) =>
        id === "x" ? Promise.reject(new ApiError(404, "not_found", "gone")) : Promise.resolve(read(id)),
      ),
    );
    const fetchBoard = readTogether(together);
    const signal = new AbortController().signal;
    const [x, y] = [fetchBoard("x", signal), fetchBoard("y", signal)];
    await expect(x).rejects.toMatchObject({ status: 404 });
    expect((await y).board.id).toBe("y");
  });
});
