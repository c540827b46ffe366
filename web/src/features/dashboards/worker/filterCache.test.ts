import { describe, expect, test } from "vitest";
import { type FilterEntry, FilterCache, MAX_FILTERS } from "./filterCache";

function entry(kept: number): FilterEntry {
  return {
    filtered: {
      boards: [],
      report: { rules: [], people: { active: false, skippedBoardIds: [] }, totalItems: 10, keptItems: kept },
    },
    computed: new Map(),
    key: kept,
  };
}

describe("filter results kept per filter", () => {
  test("gives back the entry of a filter over the same boards only", () => {
    const boards = [{}];
    const cache = new FilterCache<object[]>();
    const a = entry(1);
    cache.set(boards, "a", a);
    expect(cache.get(boards, "a")).toBe(a);
    expect(cache.get(boards, "b")).toBeUndefined();
    expect(cache.get([{}], "a")).toBeUndefined();
  });

  test("holds at most its bound, dropping the least recently used first", () => {
    const boards = [{}];
    const cache = new FilterCache<object[]>(3);
    for (const key of ["a", "b", "c"]) cache.set(boards, key, entry(1));
    cache.get(boards, "a");
    cache.set(boards, "d", entry(1));
    expect(cache.size).toBe(3);
    expect(cache.get(boards, "b")).toBeUndefined();
    expect(cache.get(boards, "a")).toBeDefined();
    expect(cache.get(boards, "c")).toBeDefined();
    expect(cache.get(boards, "d")).toBeDefined();
  });

  test("keeps MAX_FILTERS filters by default", () => {
    const boards = [{}];
    const cache = new FilterCache<object[]>();
    for (let n = 0; n <= MAX_FILTERS; n++) cache.set(boards, `f${n}`, entry(n));
    expect(cache.size).toBe(MAX_FILTERS);
    expect(cache.get(boards, "f0")).toBeUndefined();
  });

  test("drops every entry when the boards change", () => {
    const cache = new FilterCache<object[]>();
    const before = [{}];
    cache.set(before, "a", entry(1));
    cache.set(before, "b", entry(2));
    const after = [{}];
    cache.set(after, "a", entry(3));
    expect(cache.size).toBe(1);
    expect(cache.get(after, "a")?.filtered.report.keptItems).toBe(3);
    expect(cache.get(before, "b")).toBeUndefined();
  });
});
