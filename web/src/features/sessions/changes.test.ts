import { expect, test } from "vitest";
import { diffLineKind } from "./changes";

test("each line of a unified diff is told apart", () => {
  const lines = ["diff --git a/x b/x", "index 1..2", "--- a/x", "+++ b/x", "@@ -1 +1 @@", "-old", "+new", " same"];
  expect(lines.map(diffLineKind)).toEqual([
    "header",
    "header",
    "header",
    "header",
    "hunk",
    "deleted",
    "added",
    "context",
  ]);
});
