import { describe, expect, it } from "vitest";
import type { Check, SkipReason } from "../../shared/api/types.generated";
import { MIN_GAP_MS, refreshDelay, SETTLE_MS, skipCounts, summarizeCheck } from "./governor";

const skipped = (...reasons: SkipReason[]) => reasons.map((reason, i) => ({ id: `s${i}`, reason }));

const check = (overrides: Partial<Check> = {}): Check => ({
  at: "2026-01-01T10:00:00Z",
  running: 3,
  target: 5,
  candidates: 6,
  revived: ["a", "b"],
  skipped: skipped("cooldown", "too_old", "cooldown", "spend_cap"),
  spentTodayUsd: 0,
  ...overrides,
});

describe("skip reasons", () => {
  it("are counted in words, the most frequent first", () => {
    expect(skipCounts(skipped("too_old", "cooldown", "daily_limit", "cooldown"))).toEqual([
      "cooldown: 2",
      "revived enough today: 1",
      "too old: 1",
    ]);
    expect(skipCounts([])).toEqual([]);
  });

  it("says every reason the server gives", () => {
    const all: SkipReason[] = [
      "paused",
      "closed",
      "recovering",
      "too_old",
      "cooldown",
      "daily_limit",
      "spend_cap",
      "target_reached",
    ];
    expect(skipCounts(skipped(...all))).toEqual([
      "closed: 1",
      "cooldown: 1",
      "daily spend cap: 1",
      "paused: 1",
      "recovering by itself: 1",
      "revived enough today: 1",
      "target reached: 1",
      "too old: 1",
    ]);
  });
});

describe("a check in words", () => {
  it("gives the fleet against its target, the outcome and the skips", () => {
    expect(summarizeCheck(check())).toEqual({
      fleet: "3 running, target 5",
      outcome: "2 revived, 4 skipped of 6 candidates",
      skips: ["cooldown: 2", "daily spend cap: 1", "too old: 1"],
      spent: null,
    });
  });

  it("says what revives cost today when they cost something", () => {
    const summary = summarizeCheck(check({ candidates: 1, revived: [], skipped: [], spentTodayUsd: 0.4 }));
    expect(summary.outcome).toBe("0 revived, 0 skipped of 1 candidate");
    expect(summary.spent).toBe("$0.40 spent on revives today before this check");
  });
});

describe("reading the check again after events", () => {
  it("waits for a burst to settle, and leaves the gap since the last read", () => {
    expect(refreshDelay(0, 100_000)).toBe(SETTLE_MS);
    expect(refreshDelay(100_000, 100_000)).toBe(MIN_GAP_MS);
    expect(refreshDelay(100_000, 100_000 + MIN_GAP_MS - 2_000)).toBe(2_000);
    expect(refreshDelay(100_000, 100_000 + MIN_GAP_MS - 500)).toBe(SETTLE_MS);
  });
});
