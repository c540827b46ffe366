/**
 * What fits: a month's weeks share the window but keep three lines, a busy day shows what fits
 * and "+N more" for the rest (bars never cut on one day only), a phone's day has a count and
 * dots, the page opens in Agenda on a phone unless the user chose, and the week's hours open
 * where now is.
 */
import { describe, expect, it } from "vitest";
import type { CalendarSource, Occurrence } from "../../shared/api/types.generated";
import {
  daySummary,
  firstHourShown,
  initialView,
  layoutWeekLines,
  linesThatFit,
  LINE_PX,
  MIN_ROW_PX,
  monthRowPx,
  NUMBER_PX,
  pickedDay,
} from "./fit";
import { NEUTRAL_COLOR, toEntry } from "./placement";

process.env.TZ = "America/Los_Angeles";

const WEEK = ["2026-03-16", "2026-03-17", "2026-03-18", "2026-03-19", "2026-03-20", "2026-03-21", "2026-03-22"];

const item = (color = "#0a7d5a"): CalendarSource => ({
  kind: "item",
  boardId: `b-${color}`,
  board: "Platform",
  itemId: "i",
  columnId: "due",
  color,
});
const sprint: CalendarSource = {
  kind: "sprint",
  boardId: "b1",
  board: "Platform",
  sprint: "Sprint 7",
  color: "#0a7d5a",
};
const account: CalendarSource = {
  kind: "ics",
  accountId: "a1",
  account: "Team",
  calendar: "Team",
  color: null,
  organizer: null,
  invitation: false,
};

function allDay(uid: string, first: string, endExclusive: string, source: CalendarSource = item()): Occurrence {
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

function timed(uid: string, hour: number, day = 18): Occurrence {
  return {
    uid,
    title: uid,
    location: null,
    start: new Date(2026, 2, day, hour).toISOString(),
    end: new Date(2026, 2, day, hour, 30).toISOString(),
    allDay: false,
    recurring: false,
    source: account,
  };
}

/** `n` one-day items on 2026-03-18. */
const busy = (n: number) =>
  Array.from({ length: n }, (_, i) => allDay(`t${String(i).padStart(2, "0")}`, "2026-03-18", "2026-03-19"));

describe("fit", () => {
  it("shares the window among the weeks, never below three lines", () => {
    expect(monthRowPx(700, 5)).toBe(140);
    expect(monthRowPx(300, 6)).toBe(MIN_ROW_PX);
    expect(linesThatFit(MIN_ROW_PX)).toBe(3);
    expect(linesThatFit(140)).toBe(Math.floor((140 - NUMBER_PX - 8) / LINE_PX));
    expect(linesThatFit(140)).toBe(5);
  });

  it("shows a quiet week whole, without a '+N more'", () => {
    const entries = [allDay("a", "2026-03-17", "2026-03-18"), timed("standup", 9)].map(toEntry);
    const week = layoutWeekLines(entries, WEEK, 5, true);
    expect(week.more).toEqual([]);
    expect(week.bars.map((b) => b.entry.occ.uid)).toEqual(["a"]);
    expect(week.timed.map((t) => [t.entry.occ.uid, t.col, t.lane])).toEqual([["standup", 2, 0]]);
    expect(week.lanes).toBe(1);
  });

  it("shows a busy day's first lines and counts the rest in '+N more' on the last", () => {
    const entries = [allDay("s7", "2026-03-16", "2026-03-21", sprint), ...busy(36), timed("standup", 9)].map(toEntry);
    const week = layoutWeekLines(entries, WEEK, 5, true);
    expect(week.lanes).toBe(5);
    // Four lines shown: the sprint and three items; 33 items and the stand-up are behind "+34 more".
    expect(week.bars.map((b) => [b.entry.occ.uid, b.lane])).toEqual([
      ["s7", 0],
      ["t00", 1],
      ["t01", 2],
      ["t02", 3],
    ]);
    expect(week.timed).toEqual([]);
    expect(week.more).toEqual([{ day: "2026-03-18", col: 2, lane: 4, count: 34 }]);
    // Every entry of the day is either shown or counted.
    const shownOnDay = week.bars.filter((b) => b.startCol <= 2 && 2 <= b.endCol).length;
    expect(shownOnDay + (week.more[0]?.count ?? 0)).toBe(38);
  });

  it("counts a bar under the last line on every day it covers, so it is never cut on one day only", () => {
    const entries = [
      allDay("p", "2026-03-16", "2026-03-19"),
      allDay("q", "2026-03-16", "2026-03-18"),
      allDay("long", "2026-03-17", "2026-03-20"),
    ].map(toEntry);
    const week = layoutWeekLines(entries, WEEK, 2, false);
    expect(week.bars.map((b) => [b.entry.occ.uid, b.lane])).toEqual([["p", 0]]);
    // "long" sits on the third line: hidden on each of its days, the last one where it is alone included.
    expect(week.more.map((m) => [m.day, m.lane, m.count])).toEqual([
      ["2026-03-16", 1, 1],
      ["2026-03-17", 1, 2],
      ["2026-03-18", 1, 1],
      ["2026-03-19", 1, 1],
    ]);
  });

  it("leaves timed entries out where only bars are laid out (the week's all-day row)", () => {
    const week = layoutWeekLines([timed("standup", 9)].map(toEntry), WEEK, 3, false);
    expect(week).toEqual({ bars: [], timed: [], more: [], lanes: 0 });
  });

  it("sums a phone's day as a count and its first distinct colors", () => {
    const entries = [
      allDay("a", "2026-03-18", "2026-03-19", item("#111111")),
      allDay("b", "2026-03-18", "2026-03-19", item("#111111")),
      allDay("c", "2026-03-18", "2026-03-19", item("#222222")),
      allDay("d", "2026-03-18", "2026-03-19", item("#333333")),
      allDay("e", "2026-03-18", "2026-03-19", item("#444444")),
      timed("standup", 9),
    ].map(toEntry);
    expect(daySummary(entries, "2026-03-18")).toEqual({
      count: 6,
      colors: ["#111111", "#222222", "#333333"],
    });
    expect(daySummary([toEntry(timed("standup", 9))], "2026-03-18").colors).toEqual([NEUTRAL_COLOR]);
    expect(daySummary(entries, "2026-03-19")).toEqual({ count: 0, colors: [] });
  });

  it("opens a phone's list on today, else the month's first day", () => {
    expect(pickedDay(WEEK, "2026-03-18")).toBe("2026-03-18");
    expect(pickedDay(WEEK, "2026-04-02")).toBe("2026-03-16");
    expect(pickedDay(WEEK, "2026-03-18", "2026-03")).toBe("2026-03-18");
    // Today among the neighbouring month's days of the grid: the month's own first day.
    expect(pickedDay(["2026-02-28", "2026-03-01"], "2026-02-28", "2026-03")).toBe("2026-03-01");
  });

  it("opens in the view the user chose, else Agenda on a phone and Month elsewhere", () => {
    expect(initialView(null, true)).toBe("agenda");
    expect(initialView(null, false)).toBe("month");
    expect(initialView("week", true)).toBe("week");
    expect(initialView("month", true)).toBe("month");
    expect(initialView("year", false)).toBe("month");
  });

  it("opens the week's hours at the working day, or where now is when that is out of view today", () => {
    expect(firstHourShown(10, true, 7, 14)).toBe(7);
    expect(firstHourShown(22, false, 7, 14)).toBe(7);
    expect(firstHourShown(22, true, 7, 14)).toBe(10);
    expect(firstHourShown(3, true, 7, 14)).toBe(2);
    expect(firstHourShown(0, true, 7, 14)).toBe(0);
  });
});
