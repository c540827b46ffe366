import { describe, expect, it } from "vitest";
import type { StatsDay, StatsWeek } from "../../shared/api/types.generated";
import { inboxRow as row } from "../../shared/inbox/fixtures";
import { closeTally, emptyTally, formatDuration, rowHidden, rowShown, weekFigures, weekTotals } from "./stats";

const DAYS = ["2026-03-04", "2026-03-05", "2026-03-06", "2026-03-07", "2026-03-08", "2026-03-09", "2026-03-10"];

const day = (d: number, category: StatsDay["category"], fields: Partial<StatsDay>): StatsDay => ({
  day: DAYS[d] ?? "",
  category,
  actions: 0,
  waitMs: 0,
  looks: 0,
  idleLooks: 0,
  visibleMs: 0,
  unread: null,
  ...fields,
});

describe("weekFigures", () => {
  const week: StatsWeek = {
    days: DAYS,
    rows: [
      day(1, "alert", { actions: 2, waitMs: 60_000, unread: 3, visibleMs: 1_000 }),
      day(4, "alert", { actions: 1, waitMs: 30_000, unread: 5, looks: 4, idleLooks: 1 }),
      day(6, "session", { unread: 1, visibleMs: 9_000 }),
      day(2, "alert", { unread: 0 }),
      { ...day(0, "alert", { actions: 9 }), day: "2026-02-01" },
    ],
  };

  it("averages the wait over the week's actions and carries the pile-up forward", () => {
    const [session, alert] = weekFigures(week);
    expect(session?.category).toBe("session");
    expect(session?.averageWaitMs).toBeNull();
    expect(session?.pileUp).toEqual([null, null, null, null, null, null, 1]);
    expect(alert).toMatchObject({ category: "alert", actions: 3, averageWaitMs: 30_000, looks: 4, idleLooks: 1 });
    expect(alert?.pileUp).toEqual([null, 3, 0, 0, 5, 5, 5]);
  });

  it("sums the categories for the headline", () => {
    expect(weekTotals(weekFigures(week))).toEqual({
      actions: 3,
      averageWaitMs: 30_000,
      looks: 4,
      idleLooks: 1,
      visibleMs: 10_000,
    });
    expect(weekTotals([]).averageWaitMs).toBeNull();
  });
});

describe("formatDuration", () => {
  it("says durations the way people do", () => {
    expect(formatDuration(null)).toBe("–");
    expect(formatDuration(44_600)).toBe("45 s");
    expect(formatDuration(12 * 60_000)).toBe("12 min");
    expect(formatDuration(185 * 60_000)).toBe("3 h 5 min");
    expect(formatDuration(52 * 3_600_000)).toBe("2 d 4 h");
  });
});

describe("the view tally", () => {
  it("counts looks of a second or more, idle ones, and the time on screen per category", () => {
    const tally = emptyTally();
    const a = row("a");
    const b = row("b", { category: "webhook" });
    const c = row("c", { readAt: "2026-01-01T00:00:00Z" });
    rowShown(tally, a, 0);
    rowShown(tally, b, 0);
    rowShown(tally, c, 0);
    rowHidden(tally, "b", 500);
    rowHidden(tally, "c", 2_000);
    const { reports, next } = closeTally(tally, [a, b, c], 3_000);
    expect(reports).toEqual([
      { category: "alert", looks: 2, idleLooks: 1, visibleMs: 5_000 },
      { category: "webhook", looks: 0, idleLooks: 0, visibleMs: 500 },
    ]);
    expect([...next.onScreen.keys()]).toEqual(["a"]);
    expect(closeTally(next, [a], 3_000).reports).toEqual([]);
  });

  it("does not call a look idle once the row was acted on", () => {
    const tally = emptyTally();
    rowShown(tally, row("a"), 0);
    rowHidden(tally, "a", 1_500);
    const acted = row("a", { archivedAt: "2026-01-01T00:00:00Z" });
    expect(closeTally(tally, [acted], 2_000).reports[0]?.idleLooks).toBe(0);
    expect(closeTally(tally, [], 2_000).reports[0]?.idleLooks).toBe(0);
  });
});
