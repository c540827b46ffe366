/** Proves rows grow to hold a 44 px target on a phone, and keep the density's height elsewhere. */
import { expect, test } from "vitest";
import { touchRowHeight } from "./touch";

test("a phone's row holds a 44 px control with room; a desktop's keeps its density", () => {
  expect(touchRowHeight(28, true)).toBe(52);
  expect(touchRowHeight(40, true)).toBe(52);
  expect(touchRowHeight(60, true)).toBe(60);
  expect(touchRowHeight(28, false)).toBe(28);
});
