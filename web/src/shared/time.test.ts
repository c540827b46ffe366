import { describe, expect, it } from "vitest";
import { exactTime, relativeTime } from "./time";

describe("times in words", () => {
  it("writes relative times in words", () => {
    const now = Date.parse("2026-01-01T12:00:00Z");
    expect(relativeTime("2026-01-01T12:00:00Z", now)).toBe("just now");
    expect(relativeTime("2026-01-01T11:59:18Z", now)).toBe("42 s ago");
    expect(relativeTime("2026-01-01T11:55:00Z", now)).toBe("5 min ago");
    expect(relativeTime("2026-01-01T09:00:00Z", now)).toBe("3 h ago");
    expect(relativeTime("2025-12-30T12:00:00Z", now)).toBe("2 d ago");
    // A clock a little ahead of the server's is not "in the future".
    expect(relativeTime("2026-01-01T12:00:03Z", now)).toBe("just now");
  });

  it("gives the exact time for a tooltip, and an unreadable time as it came", () => {
    expect(exactTime("2026-01-01T12:00:00Z")).toBe(new Date(Date.parse("2026-01-01T12:00:00Z")).toLocaleString());
    expect(exactTime("not a time")).toBe("not a time");
  });
});
