import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { ApiError } from "../../../shared/api/client";
import type { Dashboard, Versioned } from "../api";
import { computeApps } from "../engine/computeApps";
import { makeBoard } from "../engine/fixtures/makeBoard";
import type { BoardFull, DashboardFilters, WidgetConfig } from "../engine/types";
import { type WorkerReply, createDashboardCore, withoutSuperseded } from "./dashboardCore";
import { NO_RESULTS, applyResults } from "../resultsStore";

const status = { id: "status", title: "Status", type: "status" as const };
const effort = { id: "effort", title: "Effort", type: "number" as const };

function board(id: string, efforts: number[]): BoardFull {
  return makeBoard({
    id,
    columns: [status, effort],
    items: efforts.map((e) => ({ values: { effort: e, status: e > 2 ? "big" : "small" } })),
  });
}

const sum: WidgetConfig = {
  id: "n1",
  type: "numbers",
  title: "Effort",
  layout: { x: 0, y: 0, w: 3, h: 3 },
  settings: { function: "sum", column: "effort" },
};
const count: WidgetConfig = { ...sum, id: "n2", settings: { function: "count" } };

function setup(reads: Record<string, BoardFull | ApiError>) {
  const replies: WorkerReply[] = [];
  const fetchBoard = vi.fn(async (id: string) => {
    const read = reads[id];
    if (read === undefined || read instanceof ApiError) throw read ?? new Error("unexpected read");
    return read;
  });
  const handle = createDashboardCore({ post: (r) => replies.push(r), fetchBoard, flushMs: 50 });
  return { replies, handle, fetchBoard };
}

/**
 * A core whose board reads each resolve when the test hands their board over (`reads`), and the
 * replies it posted with results so far.
 */
function boardsByHand() {
  const replies: WorkerReply[] = [];
  const reads = new Map<string, (b: BoardFull) => void>();
  const handle = createDashboardCore({
    post: (r) => replies.push(r),
    fetchBoard: (id) => new Promise((resolve) => reads.set(id, resolve)),
    flushMs: 50,
    partialEveryMs: 1000,
  });
  return { replies, reads, handle, results: () => replies.filter((r) => r.results) };
}

/** A dashboard read: "Saved", its boards a and b (d1) or none, one sum widget and `filters`. */
function saved(filters: DashboardFilters) {
  return async (id: string): Promise<Versioned<Dashboard>> => ({
    data: {
      id,
      workspaceId: "w1",
      name: "Saved",
      config: { boardIds: id === "d1" ? ["a", "b"] : [], widgets: [sum], filters },
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
    },
    etag: '"v1"',
  });
}

function figure(reply: WorkerReply | undefined, id: string): unknown {
  const result = reply?.results?.results[id];
  return result?.kind === "numbers" ? result.full : undefined;
}

describe("the dashboard worker's core", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  test("loads boards, reports a missing one, sends column lists and computes widgets once boards arrive", async () => {
    const { replies, handle } = setup({
      a: board("a", [1, 2]),
      b: board("b", [5]),
      gone: new ApiError(404, "x", "gone"),
    });
    handle({ type: "load", ids: ["a", "b", "gone"], revalidate: false });
    handle({ type: "view", filters: null, widgets: [sum] });
    await vi.advanceTimersByTimeAsync(100);
    const last = replies.at(-1);
    expect(last?.boards?.loads.map((l) => l.state)).toEqual(["loaded", "loaded", "missing"]);
    expect(last?.boards?.metas.map((m) => m.board.id)).toEqual(["a", "b"]);
    expect(last?.boards?.metas[0]?.board.columns).toEqual([status, effort]);
    // Only states and column lists travel: no items.
    expect(JSON.stringify(last)).not.toContain("a-i0");
    expect(figure(last, "n1")).toBe("8");
    expect(last?.results?.report.totalItems).toBe(3);
  });

  test("a filter change recomputes every widget under a new key; a widget change only that widget", async () => {
    const { replies, handle } = setup({ a: board("a", [1, 2, 3, 4]) });
    handle({ type: "load", ids: ["a"], revalidate: false });
    handle({ type: "view", filters: null, widgets: [sum, count] });
    await vi.advanceTimersByTimeAsync(100);
    const loaded = replies.at(-1)?.results;
    expect(loaded && Object.keys(loaded.results)).toEqual(["n1", "n2"]);

    handle({
      type: "view",
      filters: { rules: [{ column: "status", op: "is", value: "big" }] },
      widgets: [sum, count],
    });
    const filtered = replies.at(-1)?.results;
    expect(filtered?.dataKey).toBe((loaded?.dataKey ?? 0) + 1);
    expect(figure(replies.at(-1), "n1")).toBe("7");
    expect(figure(replies.at(-1), "n2")).toBe("2");

    const before = replies.length;
    handle({
      type: "view",
      filters: { rules: [{ column: "status", op: "is", value: "big" }] },
      widgets: [sum, { ...count, layout: { x: 3, y: 0, w: 3, h: 3 } }],
    });
    expect(replies).toHaveLength(before);
    handle({
      type: "view",
      filters: { rules: [{ column: "status", op: "is", value: "big" }] },
      widgets: [sum, { ...count, settings: { function: "max", column: "effort" } }],
    });
    const changed = replies.at(-1)?.results;
    expect(changed?.dataKey).toBe(filtered?.dataKey);
    expect(Object.keys(changed?.results ?? {})).toEqual(["n2"]);
  });

  test("a new filter that leaves a widget's figures as they were sends it as unchanged, not again", async () => {
    const { replies, handle } = setup({ a: board("a", [1, 2, 3, 4]) });
    const big = { rules: [{ column: "status", op: "is" as const, value: "big" }] };
    const small = { rules: [{ column: "status", op: "is" as const, value: "small" }] };
    handle({ type: "load", ids: ["a"], revalidate: false });
    handle({ type: "view", filters: big, widgets: [sum, count] });
    await vi.advanceTimersByTimeAsync(100);
    const first = replies.at(-1)?.results;
    expect(Object.keys(first?.results ?? {})).toEqual(["n1", "n2"]);
    handle({ type: "view", filters: small, widgets: [sum, count] });
    const second = replies.at(-1)?.results;
    expect(second?.dataKey).toBeGreaterThan(first?.dataKey ?? Infinity);
    // The sum goes from 7 to 3; the count is 2 under both filters.
    expect(figure(replies.at(-1), "n1")).toBe("3");
    expect(Object.keys(second?.results ?? {})).toEqual(["n1"]);
    expect(second?.unchanged).toEqual(["n2"]);
  });

  test("going back to an earlier filter reuses its results under a new key; new boards drop them", async () => {
    const reads: Record<string, BoardFull> = { a: board("a", [1, 2, 3, 4]) };
    const { replies, handle } = setup(reads);
    const big = { rules: [{ column: "status", op: "is" as const, value: "big" }] };
    const small = { rules: [{ column: "status", op: "is" as const, value: "small" }] };
    handle({ type: "load", ids: ["a"], revalidate: false });
    handle({ type: "view", filters: big, widgets: [sum, count] });
    await vi.advanceTimersByTimeAsync(100);
    const first = replies.at(-1)?.results;
    expect(figure(replies.at(-1), "n1")).toBe("7");
    handle({ type: "view", filters: small, widgets: [sum, count] });
    expect(figure(replies.at(-1), "n1")).toBe("3");

    handle({ type: "view", filters: big, widgets: [sum, count] });
    const back = replies.at(-1)?.results;
    // Every widget is sent again under a new key: the sum, whose figure differs from the small
    // filter's, as a result; the count (2 either way) as unchanged, which the page keeps as drawn...
    expect(back?.dataKey).toBeGreaterThan(first?.dataKey ?? Infinity);
    expect(Object.keys(back?.results ?? {})).toEqual(["n1"]);
    expect(back?.unchanged).toEqual(["n2"]);
    expect(back?.report).toEqual(first?.report);
    // ...and it is the very result computed the first time, not a recomputation.
    expect(back?.results.n1).toBe(first?.results.n1);

    // A widget changed meanwhile is computed afresh over the kept rows.
    handle({
      type: "view",
      filters: small,
      widgets: [sum, { ...count, settings: { function: "max", column: "effort" } }],
    });
    expect(replies.at(-1)?.results?.results.n1).toBeDefined();
    expect(figure(replies.at(-1), "n2")).toBe("2");

    // A new read of the board makes every kept result wrong: the same filter computes again.
    reads.a = board("a", [10, 20, 30, 40]);
    handle({ type: "load", ids: ["a"], revalidate: true });
    await vi.advanceTimersByTimeAsync(100);
    handle({ type: "view", filters: big, widgets: [sum, count] });
    expect(figure(replies.at(-1), "n1")).toBe("100");
  });

  test("a view the page shows from its own copy gets only a note that it holds it, unless results are on their way", async () => {
    const reads: Record<string, BoardFull> = { a: board("a", [1, 2, 3, 4]) };
    const { replies, handle } = setup(reads);
    const big = { rules: [{ column: "status", op: "is" as const, value: "big" }] };
    const small = { rules: [{ column: "status", op: "is" as const, value: "small" }] };
    handle({ type: "load", ids: ["a"], revalidate: false });
    handle({ type: "view", filters: big, widgets: [sum, count], key: "big" });
    await vi.advanceTimersByTimeAsync(100);
    const first = replies.at(-1)?.results;
    expect(first?.viewKey).toBe("big");
    handle({ type: "view", filters: small, widgets: [sum, count], key: "small" });
    const sent = () => replies.filter((r) => r.results).length;

    // The page had every results message when it showed its copy of the big filter's.
    handle({
      type: "view",
      filters: big,
      widgets: [sum, count],
      key: "big",
      shown: { dataKey: first?.dataKey ?? 0, seen: sent() },
    });
    const note = replies.at(-1)?.results;
    expect(note).toMatchObject({ dataKey: first?.dataKey, viewKey: "big", kept: true, results: {}, unchanged: [] });
    // What follows builds on the big filter's results: the count (2 either way) is unchanged.
    handle({ type: "view", filters: small, widgets: [sum, count], key: "small" });
    expect(Object.keys(replies.at(-1)?.results?.results ?? {})).toEqual(["n1"]);
    expect(replies.at(-1)?.results?.unchanged).toEqual(["n2"]);

    // Shown while a message was still on its way (one fewer seen): the results go out again.
    handle({
      type: "view",
      filters: big,
      widgets: [sum, count],
      key: "big",
      shown: { dataKey: first?.dataKey ?? 0, seen: sent() - 1 },
    });
    const again = replies.at(-1)?.results;
    expect(again?.kept).toBeUndefined();
    expect(again?.dataKey).toBeGreaterThan(first?.dataKey ?? Infinity);
    expect(figure(replies.at(-1), "n1")).toBe("7");

    // New boards: the data key the page kept no longer holds, so the results are computed again.
    reads.a = board("a", [10, 20, 30, 40]);
    handle({ type: "load", ids: ["a"], revalidate: true });
    await vi.advanceTimersByTimeAsync(100);
    const small2 = replies.at(-1)?.results;
    expect(small2?.boardsVersion).toBeGreaterThan(first?.boardsVersion ?? Infinity);
    handle({
      type: "view",
      filters: big,
      widgets: [sum, count],
      key: "big",
      shown: { dataKey: again?.dataKey ?? 0, seen: sent() },
    });
    expect(replies.at(-1)?.results?.kept).toBeUndefined();
    expect(figure(replies.at(-1), "n1")).toBe("100");
  });

  test("while boards arrive, partial results come once the load has run partialEveryMs, then at most that often; the last batch always has them", async () => {
    const { replies, reads, handle } = boardsByHand();
    handle({ type: "view", filters: null, widgets: [count] });
    handle({ type: "load", ids: ["a", "b", "c", "d"], revalidate: false });
    const beforeLoad = replies.length;
    reads.get("a")?.(board("a", [1]));
    await vi.advanceTimersByTimeAsync(100);
    // A load that ends within the second computes once: until then a board that arrived is a
    // count, and the page renders its progress bar and nothing else.
    expect(replies.slice(beforeLoad).some((r) => r.results)).toBe(false);
    expect(replies.at(-1)).toEqual({ progress: { settled: 1, total: 4 } });
    await vi.advanceTimersByTimeAsync(1000);
    reads.get("b")?.(board("b", [1]));
    await vi.advanceTimersByTimeAsync(100);
    expect(figure(replies.at(-1), "n2")).toBe("2");
    reads.get("c")?.(board("c", [1]));
    await vi.advanceTimersByTimeAsync(100);
    expect(replies.at(-1)).toEqual({ progress: { settled: 3, total: 4 } });
    reads.get("d")?.(board("d", [1]));
    await vi.advanceTimersByTimeAsync(0);
    expect(replies.at(-1)?.boards?.loads.every((l) => l.state === "loaded")).toBe(true);
    expect(figure(replies.at(-1), "n2")).toBe("4");
  });

  test("a view asked while its boards come in gets its results with them, or at the load's first partial results", async () => {
    const { replies, reads, handle, results } = boardsByHand();
    handle({ type: "load", ids: ["a", "b"], revalidate: false });
    handle({ type: "view", filters: null, widgets: [count], key: "all" });
    // None over no boards, for the page to draw and draw again when they come.
    expect(results()).toHaveLength(0);
    reads.get("a")?.(board("a", [1, 2]));
    await vi.advanceTimersByTimeAsync(100);
    expect(results()).toHaveLength(0);
    reads.get("b")?.(board("b", [3]));
    await vi.advanceTimersByTimeAsync(100);
    expect(results()).toHaveLength(1);
    expect(figure(results()[0], "n2")).toBe("3");
    expect(results()[0]?.results?.viewKey).toBe("all");

    // A board that does not come: the view gets the others' results once the load has run a
    // second, though nothing else happened by then.
    handle({ type: "load", ids: ["a", "b", "c"], revalidate: false });
    handle({ type: "view", filters: null, widgets: [sum, count], key: "more" });
    expect(results()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(results()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(results()).toHaveLength(2);
    expect(figure(results()[1], "n1")).toBe("6");
    // The count is the one the page holds, over the same data: it is not sent again.
    expect(Object.keys(results()[1]?.results?.results ?? {})).toEqual(["n1"]);
    expect(results()[1]?.results?.viewKey).toBe("more");
    expect(replies.at(-1)?.boards?.loads.map((l) => l.state)).toEqual(["loaded", "loaded", "loading"]);
  });

  test("a view waiting on a load that another replaces gets its partial results on the new load's clock", async () => {
    const { reads, handle, results } = boardsByHand();
    handle({ type: "load", ids: ["a", "b"], revalidate: false });
    handle({ type: "view", filters: null, widgets: [count], key: "all" });
    reads.get("a")?.(board("a", [1, 2]));
    await vi.advanceTimersByTimeAsync(500);
    handle({ type: "load", ids: ["a", "c"], revalidate: false });
    await vi.advanceTimersByTimeAsync(999);
    expect(results()).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(results()).toHaveLength(1);
    expect(figure(results()[0], "n2")).toBe("2");
  });

  test("a view's wait ends with the results it waited for: a later load's partial results come only as its boards do", async () => {
    const { reads, handle, results } = boardsByHand();
    handle({ type: "load", ids: ["a", "b"], revalidate: false });
    handle({ type: "view", filters: null, widgets: [count], key: "all" });
    reads.get("a")?.(board("a", [1, 2]));
    reads.get("b")?.(board("b", [3]));
    await vi.advanceTimersByTimeAsync(100);
    expect(results()).toHaveLength(1);
    // A new load, one of whose boards comes at once and the other never: nothing waits on it.
    handle({ type: "load", ids: ["a", "c"], revalidate: true });
    reads.get("a")?.(board("a", [1]));
    await vi.advanceTimersByTimeAsync(2000);
    expect(results()).toHaveLength(1);
  });

  test("board states go to the page when a load starts, when a board turns slow or fails, and when all settle", async () => {
    const replies: WorkerReply[] = [];
    const reads = new Map<string, { resolve: (b: BoardFull) => void; reject: (e: unknown) => void }>();
    const handle = createDashboardCore({
      post: (r) => replies.push(r),
      fetchBoard: (id) => new Promise((resolve, reject) => reads.set(id, { resolve, reject })),
      flushMs: 50,
      slowAfterMs: 1000,
      partialEveryMs: 60_000,
    });
    handle({ type: "view", filters: null, widgets: [count] });
    handle({ type: "load", ids: ["a", "b", "c", "d"], revalidate: false });
    const states = () => replies.at(-1)?.boards?.loads.map((l) => (l.state === "loading" && l.slow ? "slow" : l.state));
    expect(states()).toEqual(["loading", "loading", "loading", "loading"]);
    reads.get("a")?.resolve(board("a", [1]));
    await vi.advanceTimersByTimeAsync(100);
    expect(replies.at(-1)).toEqual({ progress: { settled: 1, total: 4 } });
    reads.get("b")?.resolve(board("b", [1]));
    await vi.advanceTimersByTimeAsync(100);
    expect(replies.at(-1)).toEqual({ progress: { settled: 2, total: 4 } });
    reads.get("c")?.reject(new ApiError(404, "x", "gone"));
    await vi.advanceTimersByTimeAsync(100);
    expect(states()).toEqual(["loaded", "loaded", "missing", "loading"]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(states()).toEqual(["loaded", "loaded", "missing", "slow"]);
    reads.get("d")?.resolve(board("d", [1]));
    await vi.advanceTimersByTimeAsync(100);
    expect(states()).toEqual(["loaded", "loaded", "missing", "loaded"]);
    expect(figure(replies.at(-1), "n2")).toBe("3");
    expect(replies.filter((r) => r.boards)).toHaveLength(4);
  });

  test("open reads the dashboard's boards at once with its saved view, posts only its dashboard read until the page asks, and reads nothing twice", async () => {
    const replies: WorkerReply[] = [];
    const fetchBoard = vi.fn(async (id: string) => board(id, [1, 2]));
    const handle = createDashboardCore({
      post: (r) => replies.push(r),
      fetchBoard,
      fetchDashboard: saved({ rules: [{ column: "status", op: "is", value: "" }] }),
      flushMs: 50,
    });
    handle({ type: "open", dashboardId: "d1" });
    await vi.advanceTimersByTimeAsync(100);
    expect(fetchBoard.mock.calls.map((c) => c[0])).toEqual(["a", "b"]);
    // Only the dashboard read goes out unasked, for the starter, which keeps it for the page;
    // the page itself may not listen yet, so everything else waits for its first request.
    expect(replies).toHaveLength(1);
    const read = replies.pop()?.dashboard;
    expect(read?.ok && [read.dashboard.name, read.etag]).toEqual(["Saved", '"v1"']);

    handle({ type: "load", ids: ["a", "b"], revalidate: false });
    // The held replies: the settled board states and the saved view's results (a rule with no
    // value is not applied), in one reply, one render of the page; the states before them
    // (every board loading, then the counts) were replaced by them.
    expect(replies).toHaveLength(1);
    expect(replies[0]?.boards?.loads.map((l) => l.state)).toEqual(["loaded", "loaded"]);
    expect(figure(replies[0], "n1")).toBe("6");
    const sent = replies.length;
    // The page's view is the saved one: nothing to recompute or send.
    handle({ type: "view", filters: { rules: [] }, widgets: [sum] });
    expect(replies).toHaveLength(sent);
    handle({ type: "view", filters: { rules: [{ column: "status", op: "is", value: "big" }] }, widgets: [sum] });
    expect(figure(replies.at(-1), "n1")).toBe("–");
    expect(fetchBoard).toHaveBeenCalledTimes(2);
  });

  test("boards are read with only the fields the widgets read; a table added later has them read again whole", async () => {
    const replies: WorkerReply[] = [];
    // A read of some fields has no names: the stand-in says so in each item's name.
    const fetchBoard = vi.fn(async (id: string, _signal: AbortSignal, fields?: readonly string[]) => {
      const read = board(id, [1, 2]);
      if (fields?.includes("name")) return read;
      return fields ? { ...read, items: read.items.map((item) => ({ ...item, name: "(not read)" })) } : read;
    });
    const handle = createDashboardCore({
      post: (r) => replies.push(r),
      fetchBoard,
      fetchDashboard: saved({ rules: [] }),
      flushMs: 50,
    });
    handle({ type: "open", dashboardId: "d1" });
    await vi.advanceTimersByTimeAsync(100);
    expect(fetchBoard.mock.calls.map((c) => [c[0], c[2]])).toEqual([
      ["a", ["groupId", "createdAt", "values"]],
      ["b", ["groupId", "createdAt", "values"]],
    ]);
    handle({ type: "load", ids: ["a", "b"], revalidate: false });
    handle({ type: "view", filters: null, widgets: [sum] });
    expect(
      figure(
        replies.find((r) => r.results?.results.n1),
        "n1",
      ),
    ).toBe("6");

    const table: WidgetConfig = { ...sum, id: "t1", type: "table", settings: { columns: ["effort"], limit: 10 } };
    const sent = replies.length;
    handle({ type: "view", filters: null, widgets: [sum, table] });
    // Nothing computed over boards without names: the results come with the boards read again.
    expect(replies.slice(sent).some((r) => r.results)).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(fetchBoard.mock.calls.slice(2).map((c) => [c[0], c[2]])).toEqual([
      ["a", undefined],
      ["b", undefined],
    ]);
    const rows = replies.flatMap((r) => {
      const result = r.results?.results.t1;
      return result?.kind === "table" ? result.rows : [];
    });
    expect(rows.map((row) => row.name)).toEqual(["Item 0", "Item 1", "Item 0", "Item 1"]);

    // Back to widgets that need less: what was read serves, nothing is read again.
    handle({ type: "view", filters: null, widgets: [sum] });
    await vi.advanceTimersByTimeAsync(100);
    expect(fetchBoard).toHaveBeenCalledTimes(4);
  });

  test("held replies lose only the board states and counts a later board state replaces", () => {
    const loads = (state: "loading" | "loaded") =>
      ({ loads: [{ id: "a", state }], metas: [] }) as WorkerReply["boards"];
    const results = { dataKey: 1, boardsVersion: 1, report: NO_RESULTS.report, results: {}, unchanged: [] };
    const loading: WorkerReply = { boards: loads("loading") };
    const counted: WorkerReply = { progress: { settled: 1, total: 2 } };
    const partial: WorkerReply = { boards: loads("loading"), results };
    const settled: WorkerReply = { boards: loads("loaded"), results: { ...results, dataKey: 2 } };
    expect(withoutSuperseded([loading, counted, counted, settled])).toEqual([settled]);
    // Results stay, in order: the next may say a widget's result is unchanged from them.
    expect(withoutSuperseded([loading, partial, counted, settled])).toEqual([partial, settled]);
    // A count after the last board state is news.
    expect(withoutSuperseded([loading, counted])).toEqual([loading, counted]);
    expect(withoutSuperseded([counted])).toEqual([counted]);
  });

  test("a failed open tells the page why and leaves the loading to it", async () => {
    const replies: WorkerReply[] = [];
    const fetchBoard = vi.fn(async (id: string) => board(id, [4]));
    const handle = createDashboardCore({
      post: (r) => replies.push(r),
      fetchBoard,
      fetchDashboard: async () => {
        throw new ApiError(404, "not_found", "The dashboard does not exist.");
      },
      flushMs: 50,
    });
    handle({ type: "open", dashboardId: "d1" });
    await vi.advanceTimersByTimeAsync(100);
    expect(fetchBoard).not.toHaveBeenCalled();
    expect(replies).toHaveLength(1);
    expect(replies.pop()?.dashboard).toEqual({
      ok: false,
      status: 404,
      code: "not_found",
      message: "The dashboard does not exist.",
    });
    handle({ type: "load", ids: ["a"], revalidate: false });
    handle({ type: "view", filters: null, widgets: [sum] });
    await vi.advanceTimersByTimeAsync(100);
    expect(figure(replies.at(-1), "n1")).toBe("4");
  });

  test("connecting a board reads only the new one unless asked to revalidate", async () => {
    const { handle, fetchBoard } = setup({ a: board("a", [1]), b: board("b", [2]) });
    handle({ type: "load", ids: ["a"], revalidate: false });
    await vi.advanceTimersByTimeAsync(100);
    handle({ type: "load", ids: ["a", "b"], revalidate: false });
    await vi.advanceTimersByTimeAsync(100);
    expect(fetchBoard.mock.calls.map((c) => c[0])).toEqual(["a", "b"]);
    handle({ type: "load", ids: ["a", "b"], revalidate: true });
    await vi.advanceTimersByTimeAsync(100);
    expect(fetchBoard.mock.calls.map((c) => c[0])).toEqual(["a", "b", "a", "b"]);
  });
});

describe("applyResults", () => {
  test("results of the same data merge by widget id; new data replaces them", () => {
    const report = { rules: [], people: { active: false, skippedBoardIds: [] }, totalItems: 0, keptItems: 0 };
    const apps = computeApps();
    const one = applyResults(NO_RESULTS, {
      dataKey: 1,
      boardsVersion: 1,
      report,
      results: { a: apps, b: apps },
      unchanged: [],
    });
    const two = applyResults(one, {
      dataKey: 1,
      boardsVersion: 1,
      report,
      results: { b: { kind: "unknown", type: "x" } },
      unchanged: [],
    });
    expect([...two.results.keys()]).toEqual(["a", "b"]);
    expect(two.results.get("b")?.kind).toBe("unknown");
    const three = applyResults(two, { dataKey: 2, boardsVersion: 1, report, results: { b: apps }, unchanged: [] });
    expect([...three.results.keys()]).toEqual(["b"]);
  });

  test("a result said to be unchanged stays the object the page holds, under the new key", () => {
    const report = { rules: [], people: { active: false, skippedBoardIds: [] }, totalItems: 0, keptItems: 0 };
    const held = computeApps();
    const one = applyResults(NO_RESULTS, {
      dataKey: 1,
      boardsVersion: 1,
      report,
      results: { a: held, b: held },
      unchanged: [],
    });
    const two = applyResults(one, {
      dataKey: 2,
      boardsVersion: 1,
      report,
      results: { b: computeApps() },
      unchanged: ["a"],
    });
    expect(two.dataKey).toBe(2);
    expect(two.results.get("a")).toBe(held);
    expect(two.results.get("b")).not.toBe(held);
  });
});
