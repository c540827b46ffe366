/** Proves a tab is titled by the page's thing, with the app after it, and never by an empty name. */
import { expect, test } from "vitest";
import { pageTitle } from "./pageTitle";

test("the thing's name comes first", () => {
  expect(pageTitle("Q3 launch")).toBe("Q3 launch · Switchboard");
  expect(pageTitle("  Inbox ")).toBe("Inbox · Switchboard");
});

test("no name (still loading, or blank) leaves the app's name alone", () => {
  expect(pageTitle(undefined)).toBe("Switchboard");
  expect(pageTitle("   ")).toBe("Switchboard");
});
