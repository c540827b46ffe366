/**
 * The calendar's days: month grids start on the chosen weekday and hold whole weeks of the
 * month, weeks and ranges are the days on screen, and stepping moves by a month, a week or the
 * agenda's length, across month ends and daylight-saving changes alike.
 */
import { describe, expect, it } from "vitest";
import {
  addDays,
  addMonths,
  daysWords,
  eventsPath,
  monthGrid,
  rangeTitle,
  startOfWeek,
  stepAnchor,
  visibleRange,
  weekdayOf,
  weekDays,
  weekStartOf,
} from "./days";

describe("days", () => {
  it("steps over month and year ends and the March daylight-saving change", () => {
    expect(addDays("2026-03-28", 3)).toBe("2026-03-31");
    expect(addDays("2026-03-31", 1)).toBe("2026-04-01");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addDays("2028-03-01", -1)).toBe("2028-02-29");
  });

  it("adds months, keeping the day where the month has it", () => {
    expect(addMonths("2026-01-31", 1)).toBe("2026-02-28");
    expect(addMonths("2026-12-15", 1)).toBe("2027-01-15");
    expect(addMonths("2026-01-15", -1)).toBe("2025-12-15");
  });

  it("reads the week-start setting, Monday unless it says Sunday", () => {
    expect(weekStartOf("sunday")).toBe(0);
    expect(weekStartOf("monday")).toBe(1);
    expect(weekStartOf(undefined)).toBe(1);
  });

  it("starts a week on Monday or Sunday", () => {
    // 2026-03-18 is a Wednesday.
    expect(weekdayOf("2026-03-18")).toBe(3);
    expect(startOfWeek("2026-03-18", 1)).toBe("2026-03-16");
    expect(startOfWeek("2026-03-18", 0)).toBe("2026-03-15");
    // A Sunday is the last day of a Monday week and the first of a Sunday week.
    expect(startOfWeek("2026-03-22", 1)).toBe("2026-03-16");
    expect(startOfWeek("2026-03-22", 0)).toBe("2026-03-22");
    expect(weekDays("2026-03-18", 1)).toEqual([
      "2026-03-16",
      "2026-03-17",
      "2026-03-18",
      "2026-03-19",
      "2026-03-20",
      "2026-03-21",
      "2026-03-22",
    ]);
    expect(weekDays("2026-03-18", 0)[0]).toBe("2026-03-15");
    expect(weekDays("2026-03-18", 0)[6]).toBe("2026-03-21");
  });

  it("lays a month out in whole weeks from the chosen weekday", () => {
    // March 2026 begins on a Sunday and ends on a Tuesday.
    const monday = monthGrid("2026-03-10", 1);
    expect(monday.map((week) => week[0])).toEqual([
      "2026-02-23",
      "2026-03-02",
      "2026-03-09",
      "2026-03-16",
      "2026-03-23",
      "2026-03-30",
    ]);
    expect(monday.every((week) => week.length === 7)).toBe(true);
    expect(monday[5]?.[6]).toBe("2026-04-05");

    const sunday = monthGrid("2026-03-10", 0);
    expect(sunday.map((week) => week[0])).toEqual([
      "2026-03-01",
      "2026-03-08",
      "2026-03-15",
      "2026-03-22",
      "2026-03-29",
    ]);
    expect(sunday[4]?.[6]).toBe("2026-04-04");

    // February 2026 begins on a Sunday too: exactly four Sunday weeks.
    expect(monthGrid("2026-02-01", 0)).toHaveLength(4);
  });

  it("asks the server for exactly the days on screen", () => {
    expect(visibleRange("month", "2026-03-10", 1)).toEqual({ from: "2026-02-23", to: "2026-04-05" });
    expect(visibleRange("month", "2026-03-10", 0)).toEqual({ from: "2026-03-01", to: "2026-04-04" });
    expect(visibleRange("week", "2026-03-18", 1)).toEqual({ from: "2026-03-16", to: "2026-03-22" });
    expect(visibleRange("week", "2026-03-18", 0)).toEqual({ from: "2026-03-15", to: "2026-03-21" });
    expect(visibleRange("agenda", "2026-03-18", 1)).toEqual({ from: "2026-03-18", to: "2026-03-31" });
    expect(eventsPath({ from: "2026-03-16", to: "2026-03-22" })).toBe("/calendar/events?from=2026-03-16&to=2026-03-22");
  });

  it("steps by a month, a week or the agenda's length", () => {
    expect(stepAnchor("month", "2026-03-31", 1)).toBe("2026-04-01");
    expect(stepAnchor("month", "2026-03-31", -1)).toBe("2026-02-01");
    expect(stepAnchor("week", "2026-03-31", 1)).toBe("2026-04-07");
    expect(stepAnchor("agenda", "2026-03-18", -1)).toBe("2026-03-04");
  });

  it("titles what is shown", () => {
    expect(rangeTitle("month", "2026-03-10", 1, "en-GB")).toBe("March 2026");
    expect(rangeTitle("week", "2026-03-18", 1, "en-GB")).toMatch(/^16\s*–\s*22 Mar 2026$/);
  });
});

it("says an entry's days in words: the one day, or the first and the last", () => {
  expect(daysWords("2026-03-10", "2026-03-10", "en-GB")).toBe("Tue 10 Mar");
  const span = daysWords("2026-03-10", "2026-03-14", "en-GB");
  expect(span).toContain("10");
  expect(span).toContain("14");
  expect(span).not.toBe(daysWords("2026-03-10", "2026-03-10", "en-GB"));
});
