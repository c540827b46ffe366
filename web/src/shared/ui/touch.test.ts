/**
 * Proves rows grow to hold a 44 px target on a phone and keep the density's height elsewhere, and
 * a box that sends says how on each device.
 */
import { expect, test } from "vitest";
import { touchRowHeight, sendHint } from "./touch";

test("a phone's row holds a 44 px control with room; a desktop's keeps its density", () => {
  expect(touchRowHeight(28, true)).toBe(52);
  expect(touchRowHeight(40, true)).toBe(52);
  expect(touchRowHeight(60, true)).toBe(60);
  expect(touchRowHeight(28, false)).toBe(28);
});

test("a box that sends says how, in the words of the device", () => {
  expect(sendHint(false)).toBe("Enter sends, Shift+Enter for a new line");
  expect(sendHint(true)).toBe("tap Send to send");
});
