/** Proves the one date format: counted when near, day and clock further, in the given locale; exact in the tooltip. */
import { describe, expect, it, test } from "vitest";
import { daysInWords, exactDay, exactTime, plainDay, relativeDay, relativeTime } from "./time";

/** A local time, so the words ("yesterday") hold wherever the test runs. */
const local = (day: number, hour: number, minute = 0, month = 10, year = 2026) =>
  new Date(year, month, day, hour, minute).getTime();
const iso = (ms: number) => new Date(ms).toISOString();

describe("relativeTime", () => {
  const now = local(27, 21, 41);

  it("counts what is near, behind and ahead", () => {
    expect(relativeTime(iso(now), now)).toBe("just now");
    expect(relativeTime(iso(now - 42_000), now)).toBe("42 s ago");
    expect(relativeTime(iso(now - 5 * 60_000), now)).toBe("5 min ago");
    expect(relativeTime(iso(now - 3 * 3_600_000), now)).toBe("3 h ago");
    expect(relativeTime(iso(now + 5 * 60_000), now)).toBe("in 5 min");
    expect(relativeTime(iso(now + 2 * 3_600_000), now)).toBe("in 2 h");
    // A clock a little ahead of the server's is not "in the future".
    expect(relativeTime(iso(now + 3_000), now)).toBe("just now");
    expect(relativeTime(iso(now + 30_000), now)).toBe("just now");
  });

  it("says further times by their day and clock, in the locale", () => {
    expect(relativeTime(iso(local(27, 9, 5)), now, "en-GB")).toBe("today 9:05");
    expect(relativeTime(iso(local(26, 14, 5)), now, "en-GB")).toBe("yesterday 14:05");
    expect(relativeTime(iso(local(28, 9, 0)), now, "en-GB")).toBe("tomorrow 9:00");
    expect(relativeTime(iso(local(23, 9, 0)), now, "en-GB")).toBe("Mon 9:00");
    expect(relativeTime(iso(local(4, 9, 0, 11)), now, "en-GB")).toBe("4 Dec 9:00");
    expect(relativeTime(iso(local(4, 9, 0, 11)), now, "en-US")).toBe("Dec 4 9:00 AM");
    expect(relativeTime(iso(local(4, 9, 0, 0, 2025)), now, "de-DE")).toBe("4. Jan. 2025 9:00");
  });

  it("gives a time it cannot read as it came", () => {
    expect(relativeTime("not a time", now)).toBe("not a time");
  });
});

describe("exactTime", () => {
  it("writes the whole time in the locale, and an unreadable time as it came", () => {
    expect(exactTime(iso(local(27, 21, 41)), "en-GB")).toBe("Friday, 27 November 2026 at 21:41");
    expect(exactTime("not a time")).toBe("not a time");
  });
});

describe("days", () => {
  const now = local(27, 21, 41);

  it("names near days and dates the rest, in the locale", () => {
    expect(relativeDay("2026-11-27", now, "en-GB")).toBe("today");
    expect(relativeDay("2026-11-28", now, "en-GB")).toBe("tomorrow");
    expect(relativeDay("2026-11-26", now, "en-GB")).toBe("yesterday");
    expect(relativeDay("2026-11-30", now, "en-GB")).toBe("Mon");
    expect(relativeDay("2026-12-24", now, "en-GB")).toBe("24 Dec");
    expect(relativeDay("2027-01-04", now, "en-US")).toBe("Jan 4, 2027");
  });

  it("writes a day without reference to now, and the whole day for a tooltip", () => {
    expect(plainDay("2024-05-01", "en-GB")).toBe("1 May 2024");
    expect(plainDay("2024-05-01", "en-US")).toBe("May 1, 2024");
    expect(exactDay("2026-11-26", "en-GB")).toBe("Thursday, 26 November 2026");
  });

  it("gives what is not a day as it came", () => {
    expect(relativeDay("2024-13-01", 0)).toBe("2024-13-01");
    expect(plainDay("soon")).toBe("soon");
    expect(exactDay("2024-02-30")).toBe("2024-02-30");
  });
});

test("days in a server's prose are said in words", () => {
  const now = local(27, 21, 41);
  expect(daysInWords("Fix login is overdue (due 2026-11-26)", now, "en-GB")).toBe(
    "Fix login is overdue (due yesterday)",
  );
  expect(daysInWords("From 2026-12-24 to 2026-13-40", now, "en-GB")).toBe("From 24 Dec to 2026-13-40");
});
