import { expect, test } from "vitest";
import { approval } from "./fixtures";
import { approvalsOf } from "./SessionAnswers";

test("a session's pending approvals, oldest first, and none of another's or an answered one", () => {
  const list = [
    approval("bb", "s1"),
    approval("a", "s1"),
    approval("c", "s2"),
    approval("d", "s1", { state: "allowed" }),
  ];
  expect(approvalsOf(list, "s1").map((a) => a.id)).toEqual(["a", "bb"]);
});
