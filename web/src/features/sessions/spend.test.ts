import { expect, test } from "vitest";
import { costOf, dollars } from "./spend";

test("cost shows only where the engine reports a price", () => {
  expect(costOf({ costUsd: null })).toBeNull();
  expect(costOf({ costUsd: 0.4213 })).toBe("$0.42");
  expect(dollars(12.34)).toBe("$12.3");
});
