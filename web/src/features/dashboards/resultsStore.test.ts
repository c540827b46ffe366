import { describe, expect, test, vi } from "vitest";
import { computeApps } from "./engine/computeApps";
import { ResultsStore } from "./resultsStore";
import type { ResultsUpdate } from "./worker/dashboardCore";

const report = { rules: [], people: { active: false, skippedBoardIds: [] }, totalItems: 0, keptItems: 0 };

function update(fields: Partial<ResultsUpdate> & Pick<ResultsUpdate, "dataKey">): ResultsUpdate {
  return { boardsVersion: 1, report, results: {}, unchanged: [], ...fields };
}

describe("the page's results", () => {
  test("a view received before is shown again at once, with what the worker needs to know it", () => {
    const store = new ResultsStore();
    const listener = vi.fn();
    store.subscribe(listener);
    const a = computeApps();
    store.apply(update({ dataKey: 1, viewKey: "one", results: { w: a } }));
    store.apply(update({ dataKey: 2, viewKey: "two", results: { w: computeApps() } }));
    expect(store.show("three")).toBeNull();
    expect(store.show("one")).toEqual({ dataKey: 1, seen: 2 });
    expect(store.getSnapshot().dataKey).toBe(1);
    expect(store.getSnapshot().results.get("w")).toBe(a);
    expect(listener).toHaveBeenCalledTimes(3);
  });

  test("updates build on what the worker last sent until it says the page holds a kept view", () => {
    const store = new ResultsStore();
    const a = computeApps();
    const b = computeApps();
    store.apply(update({ dataKey: 1, viewKey: "one", results: { w: a } }));
    store.apply(update({ dataKey: 2, viewKey: "two", results: { w: b } }));
    store.show("one");
    // Sent before the worker heard of the view shown: it builds on view two's results.
    store.apply(update({ dataKey: 3, viewKey: "three", unchanged: ["w"] }));
    expect(store.getSnapshot().results.get("w")).toBe(b);
    store.show("one");
    store.show("two");
    // The note of view one changes nothing shown: view two was chosen since.
    store.apply(update({ dataKey: 1, viewKey: "one", kept: true }));
    expect(store.getSnapshot().dataKey).toBe(2);
    store.apply(update({ dataKey: 4, viewKey: "four", unchanged: ["w"] }));
    expect(store.getSnapshot().results.get("w")).toBe(a);
  });

  test("results of other boards drop every kept view", () => {
    const store = new ResultsStore();
    store.apply(update({ dataKey: 1, viewKey: "one", results: { w: computeApps() } }));
    store.apply(update({ dataKey: 2, viewKey: "two", boardsVersion: 2, results: { w: computeApps() } }));
    expect(store.show("one")).toBeNull();
    expect(store.show("two")).not.toBeNull();
  });
});
