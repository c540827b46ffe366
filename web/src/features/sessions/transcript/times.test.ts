import { expect, test } from "vitest";
import { durationBetween, formatDuration } from "./times";

test("a duration reads in the largest units that fit", () => {
  expect(formatDuration(420)).toBe("0.4 s");
  expect(formatDuration(9_960)).toBe("10.0 s");
  expect(formatDuration(12_400)).toBe("12 s");
  expect(formatDuration(185_000)).toBe("3 min 05 s");
  expect(formatDuration(3_720_000)).toBe("1 h 02 min");
});

test("a tool's duration needs both its call's and its result's time", () => {
  const call = { at: "2026-01-01T10:00:00.000Z" };
  expect(durationBetween(call, { at: "2026-01-01T10:00:02.500Z" })).toBe("2.5 s");
  expect(durationBetween(call, null)).toBeNull();
  expect(durationBetween({ at: null }, call)).toBeNull();
});
