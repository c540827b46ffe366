/** Proves the theme button names the action (the theme it switches to), not the theme shown. */
import { expect, test } from "vitest";
import { themeToggle } from "./themeToggle";

test("on light it offers dark, on dark light", () => {
  expect(themeToggle("light")).toEqual({ next: "dark", label: "Switch to dark theme" });
  expect(themeToggle("dark")).toEqual({ next: "light", label: "Switch to light theme" });
});
