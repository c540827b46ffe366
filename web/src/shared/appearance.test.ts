import { expect, test } from "vitest";
import { colorModeOf, densityOf, resolveTheme } from "./appearance";

test("system follows the browser, light and dark override it", () => {
  expect(resolveTheme("system", true)).toBe("dark");
  expect(resolveTheme("system", false)).toBe("light");
  expect(resolveTheme("light", true)).toBe("light");
  expect(resolveTheme("dark", false)).toBe("dark");
});

test("unknown stored values fall back to the defaults", () => {
  expect(colorModeOf("dark")).toBe("dark");
  expect(colorModeOf("sepia")).toBe("system");
  expect(colorModeOf(undefined)).toBe("system");
  expect(densityOf("dense")).toBe("dense");
  expect(densityOf(3)).toBe("comfortable");
});
