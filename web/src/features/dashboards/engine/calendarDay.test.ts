import { describe, expect, it } from "vitest";
import { NO_DAY, calendarDay, formatCalendarDay, mondayOf } from "./calendarDay";

describe("calendarDay", () => {
  it("counts days from 1970-01-01", () => {
    expect(calendarDay("1970-01-01")).toBe(0);
    expect(calendarDay("1970-01-02")).toBe(1);
    expect(calendarDay("1969-12-31")).toBe(-1);
    expect(calendarDay("2024-03-01") - calendarDay("2024-02-28")).toBe(2);
    expect(calendarDay("2023-03-01") - calendarDay("2023-02-28")).toBe(1);
  });

  it("reads the date part of an RFC 3339 timestamp", () => {
    expect(calendarDay("2024-05-06T23:59:59Z")).toBe(calendarDay("2024-05-06"));
  });

  it.each([null, undefined, 5, "", "2024-5-6", "2024-13-01", "2024-02-30", "2023-02-29", "2024-05-06x", "abcd-ef-gh"])(
    "rejects %s",
    (value) => {
      expect(calendarDay(value)).toBe(NO_DAY);
    },
  );

  it("round-trips through its text", () => {
    for (const text of ["2024-02-29", "2000-01-01", "1999-12-31", "2100-03-01"]) {
      expect(formatCalendarDay(calendarDay(text))).toBe(text);
    }
  });

  it("finds the Monday of a week", () => {
    expect(formatCalendarDay(mondayOf(calendarDay("2024-05-12")))).toBe("2024-05-06");
    expect(formatCalendarDay(mondayOf(calendarDay("2024-05-06")))).toBe("2024-05-06");
    expect(formatCalendarDay(mondayOf(calendarDay("1970-01-01")))).toBe("1969-12-29");
  });
});
