import { expect, test } from "vitest";
import { fitIntoView } from "./fit";

const viewport = { width: 390, height: 800 };

test("a panel that fits stays where it is", () => {
  expect(fitIntoView({ top: 100, left: 20, width: 300, height: 200 }, viewport)).toEqual({
    dx: 0,
    dy: 0,
    maxHeight: null,
  });
});

test("a panel running off the bottom moves up, one running off the right moves left", () => {
  expect(fitIntoView({ top: 700, left: 200, width: 340, height: 300 }, viewport)).toEqual({
    dx: -158,
    dy: -208,
    maxHeight: null,
  });
});

test("a panel taller than the window starts at the top margin and scrolls", () => {
  expect(fitIntoView({ top: 300, left: 0, width: 100, height: 2000 }, viewport)).toEqual({
    dx: 8,
    dy: -292,
    maxHeight: 784,
  });
});
