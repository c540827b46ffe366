import { describe, expect, it } from "vitest";
import { isSnoozed, snoozeUntil } from "./snooze";

describe("snoozes", () => {
  // A Wednesday, 14:30 local time.
  const now = new Date(2026, 10, 25, 14, 30);

  it("names the moments of each choice", () => {
    expect(snoozeUntil("later", now)).toEqual(new Date(2026, 10, 25, 17, 30));
    expect(snoozeUntil("tomorrow", now)).toEqual(new Date(2026, 10, 26, 9, 0));
    expect(snoozeUntil("monday", now)).toEqual(new Date(2026, 10, 30, 9, 0));
    // From a Monday, the next one.
    expect(snoozeUntil("monday", new Date(2026, 10, 30, 8, 0))).toEqual(new Date(2026, 11, 7, 9, 0));
  });

  it("holds until its moment", () => {
    expect(isSnoozed(null, now)).toBe(false);
    expect(isSnoozed(new Date(2026, 10, 25, 15).toISOString(), now)).toBe(true);
    expect(isSnoozed(new Date(2026, 10, 25, 14).toISOString(), now)).toBe(false);
  });
});
