/** Proves each kind of button maps to its one class, with a page's own class kept beside it. */
import { expect, test } from "vitest";
import { buttonClass } from "./Button";

test("each variant has its class, the default none", () => {
  expect(buttonClass("default")).toBeUndefined();
  expect(buttonClass("primary")).toBe("primary");
  expect(buttonClass("danger")).toBe("danger");
  expect(buttonClass("link")).toBe("link-button");
  expect(buttonClass("icon", "row-delete")).toBe("icon-button row-delete");
  expect(buttonClass("default", "load-more")).toBe("load-more");
});
