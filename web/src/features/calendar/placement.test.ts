/**
 * Where entries go: all-day entries keep their UTC date in a zone west of UTC (where reading
 * them as local times would move them a day back), sprints and multi-day entries become bars
 * packed into rows that never overlap, timed events sit at their local time and share the width
 * only while they overlap, and an item moved to another day keeps its length.
 */
import { describe, expect, it } from "vitest";
import type { CalendarSource, Occurrence } from "../../shared/api/types.generated";
import {
  agendaGroups,
  colorOf,
  columnAt,
  entriesOn,
  entryLabel,
  isBar,
  layoutBars,
  layoutTimed,
  legendOf,
  moveEntry,
  NEUTRAL_COLOR,
  toEntry,
} from "./placement";

// West of UTC, so midnight UTC is the evening before in local time.
process.env.TZ = "America/Los_Angeles";

const WEEK = ["2026-03-16", "2026-03-17", "2026-03-18", "2026-03-19", "2026-03-20", "2026-03-21", "2026-03-22"];

const account: CalendarSource = {
  kind: "caldav",
  accountId: "a1",
  account: "Work",
  calendar: "Team",
  color: null,
  organizer: null,
  invitation: false,
};
const board = (itemId: string): CalendarSource => ({
  kind: "item",
  boardId: "b1",
  board: "Platform",
  itemId,
  columnId: "due",
  color: "#0a7d5a",
});
const sprint: CalendarSource = {
  kind: "sprint",
  boardId: "b1",
  board: "Platform",
  sprint: "Sprint 7",
  color: "#0a7d5a",
};

function allDay(uid: string, first: string, endExclusive: string, source: CalendarSource = board(uid)): Occurrence {
  return {
    uid,
    title: uid,
    location: null,
    start: `${first}T00:00:00.000Z`,
    end: `${endExclusive}T00:00:00.000Z`,
    allDay: true,
    recurring: false,
    source,
  };
}

/** A timed event at local wall times of 2026-03-18 (`[h, m]`). */
function timed(uid: string, from: [number, number], to: [number, number], day = 18): Occurrence {
  return {
    uid,
    title: uid,
    location: "Room 1",
    start: new Date(2026, 2, day, from[0], from[1]).toISOString(),
    end: new Date(2026, 2, day, to[0], to[1]).toISOString(),
    allDay: false,
    recurring: false,
    source: account,
  };
}

describe("placement", () => {
  it("runs in a zone west of UTC", () => {
    expect(new Date("2026-03-18T00:00:00.000Z").getDate()).toBe(17);
  });

  it("places all-day entries by their UTC date, timed ones by the local clock", () => {
    const item = toEntry(allDay("ship", "2026-03-18", "2026-03-19"));
    expect([item.first, item.last]).toEqual(["2026-03-18", "2026-03-18"]);
    expect(isBar(item)).toBe(true);
    const span = toEntry(allDay("s7", "2026-03-16", "2026-03-28", sprint));
    expect([span.first, span.last]).toEqual(["2026-03-16", "2026-03-27"]);
    const standup = toEntry(timed("standup", [9, 0], [9, 15]));
    expect([standup.first, standup.last]).toEqual(["2026-03-18", "2026-03-18"]);
    expect(isBar(standup)).toBe(false);
    // Late evening local time is the next day in UTC: still the local day.
    const late = toEntry(timed("late", [22, 0], [23, 0]));
    expect(late.first).toBe("2026-03-18");
    // An event until midnight ends on its day; one past midnight is a bar over both days.
    expect(toEntry(timed("eve", [20, 0], [24, 0])).last).toBe("2026-03-18");
    const overnight = toEntry(timed("night", [22, 0], [26, 0]));
    expect(overnight.last).toBe("2026-03-19");
    expect(isBar(overnight)).toBe(true);
  });

  it("packs bars into the fewest rows, clipped to the week", () => {
    const entries = [
      allDay("a", "2026-03-17", "2026-03-18"),
      allDay("s7", "2026-03-09", "2026-03-20", sprint),
      allDay("b", "2026-03-17", "2026-03-18"),
      allDay("c", "2026-03-20", "2026-03-21"),
      allDay("s8", "2026-03-20", "2026-04-03", sprint),
      allDay("gone", "2026-03-01", "2026-03-02"),
      timed("standup", [9, 0], [9, 15]),
    ].map(toEntry);
    const { bars, lanes } = layoutBars(entries, WEEK);
    const byUid = Object.fromEntries(bars.map((b) => [b.entry.occ.uid, b]));
    expect(Object.keys(byUid).sort()).toEqual(["a", "b", "c", "s7", "s8"]);
    expect(byUid.s7).toMatchObject({ startCol: 0, endCol: 3, lane: 0, continuesBefore: true, continuesAfter: false });
    expect(byUid.s8).toMatchObject({ startCol: 4, endCol: 6, lane: 0, continuesBefore: false, continuesAfter: true });
    expect(byUid.a).toMatchObject({ startCol: 1, endCol: 1, lane: 1 });
    expect(byUid.b).toMatchObject({ startCol: 1, endCol: 1, lane: 2 });
    expect(byUid.c).toMatchObject({ startCol: 4, endCol: 4, lane: 1 });
    expect(lanes).toBe(3);
    // No two bars share a row over a day.
    for (const x of bars) {
      for (const y of bars) {
        if (x === y || x.lane !== y.lane) continue;
        expect(x.endCol < y.startCol || y.endCol < x.startCol).toBe(true);
      }
    }
  });

  it("places timed events at their local time, side by side only while they overlap", () => {
    const entries = [
      timed("standup", [9, 0], [9, 15]),
      timed("review", [9, 0], [10, 0]),
      timed("lunch", [12, 0], [13, 0]),
      timed("other-day", [9, 0], [10, 0], 19),
    ].map(toEntry);
    const slots = layoutTimed(entries, "2026-03-18");
    const byUid = Object.fromEntries(slots.map((s) => [s.entry.occ.uid, s]));
    expect(Object.keys(byUid).sort()).toEqual(["lunch", "review", "standup"]);
    expect(byUid.review).toMatchObject({ top: 540, height: 60, columns: 2 });
    // Fifteen minutes is drawn as thirty, so it can be read and clicked.
    expect(byUid.standup).toMatchObject({ top: 540, height: 30, columns: 2 });
    expect(new Set([byUid.review?.column, byUid.standup?.column])).toEqual(new Set([0, 1]));
    expect(byUid.lunch).toMatchObject({ top: 720, height: 60, column: 0, columns: 1 });
  });

  it("lists the agenda's days with all-day entries first and empty days left out", () => {
    const entries = [
      timed("standup", [9, 0], [9, 15]),
      allDay("ship", "2026-03-18", "2026-03-19"),
      allDay("docs", "2026-03-19", "2026-03-20"),
    ].map(toEntry);
    const groups = agendaGroups(entries, WEEK);
    expect(groups.map((g) => [g.day, g.entries.map((e) => e.occ.uid)])).toEqual([
      ["2026-03-18", ["ship", "standup"]],
      ["2026-03-19", ["docs"]],
    ]);
  });

  it("lists a span once in the agenda: on its first day, or the first day shown when it began before", () => {
    const entries = [
      allDay("s7", "2026-03-17", "2026-03-21", sprint),
      allDay("s6", "2026-03-02", "2026-03-19", { ...sprint, sprint: "Sprint 6" }),
      allDay("ship", "2026-03-18", "2026-03-19"),
    ].map(toEntry);
    const groups = agendaGroups(entries, WEEK);
    expect(groups.map((g) => [g.day, g.entries.map((e) => e.occ.uid)])).toEqual([
      ["2026-03-16", ["s6"]],
      ["2026-03-17", ["s7"]],
      ["2026-03-18", ["ship"]],
    ]);
    // The day's own list (the month's "+N more") still holds every entry on it.
    expect(entriesOn(entries, "2026-03-18").map((e) => e.occ.uid)).toEqual(["s6", "s7", "ship"]);
  });

  it("labels a sprint with its board, since boards reuse sprint names", () => {
    expect(entryLabel(allDay("s7", "2026-03-17", "2026-03-21", sprint))).toBe("Sprint 7 · Platform");
    expect(entryLabel(allDay("ship", "2026-03-18", "2026-03-19"))).toBe("ship");
    expect(entryLabel({ ...allDay("x", "2026-03-18", "2026-03-19"), title: "  " })).toBe("(untitled)");
  });

  it("names each color once in the legend: a board for its items and sprints, a calendar with its account", () => {
    const other: CalendarSource = { ...sprint, boardId: "b2", board: "Growth", color: "#aa3355" };
    const legend = legendOf([
      allDay("ship", "2026-03-18", "2026-03-19"),
      allDay("s7", "2026-03-17", "2026-03-21", sprint),
      allDay("g", "2026-03-17", "2026-03-21", other),
      timed("standup", [9, 0], [9, 15]),
    ]);
    expect(legend.map((row) => [row.name, row.color])).toEqual([
      ["Growth", "#aa3355"],
      ["Platform", "#0a7d5a"],
      ["Team (Work)", NEUTRAL_COLOR],
    ]);
    // A subscription is often named as its one calendar: the name once.
    expect(
      legendOf([timed("standup", [9, 0], [9, 15])].map((occ) => ({ ...occ, source: { ...account, account: "Team" } }))),
    ).toEqual([{ key: "calendar:a1:Team", name: "Team", color: NEUTRAL_COLOR }]);
  });

  it("moves an item to another day, keeping its length and touching nothing else", () => {
    const occs = [allDay("ship", "2026-03-18", "2026-03-19"), timed("standup", [9, 0], [9, 15])];
    const moved = moveEntry(occs, "ship", "2026-03-20");
    expect(moved[0]).toMatchObject({ start: "2026-03-20T00:00:00.000Z", end: "2026-03-21T00:00:00.000Z" });
    expect(moved[1]).toBe(occs[1]);
    expect(toEntry(moved[0]!).first).toBe("2026-03-20");
  });

  it("colors by the source, an account's calendar without one in a neutral color", () => {
    expect(colorOf(board("x"))).toBe("#0a7d5a");
    expect(colorOf(account)).toBe(NEUTRAL_COLOR);
    expect(colorOf({ ...account, color: "#ff0000" })).toBe("#ff0000");
  });

  it("finds the day under the pointer", () => {
    expect(columnAt(100, 100, 700, 7)).toBe(0);
    expect(columnAt(399, 100, 700, 7)).toBe(2);
    expect(columnAt(799, 100, 700, 7)).toBe(6);
    expect(columnAt(5000, 100, 700, 7)).toBe(6);
    expect(columnAt(0, 100, 700, 7)).toBe(0);
  });
});
