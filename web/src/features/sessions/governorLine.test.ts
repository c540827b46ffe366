/** The governor's line in the board's header: what it says, and that it says nothing when idle. */
import { describe, expect, it } from "vitest";
import type { Check, SkipReason } from "../../shared/api/types.generated";
import { governorLine } from "./governor";

const skipped = (...reasons: SkipReason[]) => reasons.map((reason, i) => ({ id: `s${i}`, reason }));

const idle: Check = {
  at: "2026-01-01T10:00:00Z",
  running: 0,
  target: 5,
  candidates: 0,
  revived: [],
  skipped: [],
  spentTodayUsd: 0,
};

describe("the governor's line", () => {
  it("is nothing when the check found nothing to do", () => {
    expect(governorLine(idle)).toBeNull();
    expect(governorLine({ ...idle, running: 7 })).toBeNull();
  });

  it("is nothing when it only skipped what the settings or the user keep out", () => {
    const check = {
      ...idle,
      candidates: 5,
      skipped: skipped("paused", "closed", "recovering", "too_old", "target_reached"),
    };
    expect(governorLine(check)).toBeNull();
  });

  it("says what it revived, what a budget held back, and what revives cost today", () => {
    expect(governorLine({ ...idle, candidates: 1, revived: ["a"] })).toBe("revived 1 session");
    expect(
      governorLine({
        ...idle,
        candidates: 6,
        revived: ["a", "b"],
        skipped: skipped("cooldown", "paused", "cooldown", "spend_cap"),
        spentTodayUsd: 0.42,
      }),
    ).toBe("revived 2 sessions · held back 3 (cooldown: 2, daily spend cap: 1) · $0.42 on revives today");
    expect(governorLine({ ...idle, spentTodayUsd: 1.5 })).toBe("$1.50 on revives today");
  });
});
