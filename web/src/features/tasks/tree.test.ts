import { describe, expect, it } from "vitest";
import type { Task } from "../../shared/api/types.generated";
import { dropOn, indent, moveBy, outdent, rowsOf, visibleRows } from "./tree";

function task(id: string, parentId: string | null, position: number, state: Task["state"] = "open"): Task {
  return {
    id,
    workspaceId: null,
    parentId,
    position,
    text: id,
    notes: "",
    state,
    due: null,
    snoozedUntil: null,
    sourceSessionId: null,
    conflict: false,
    createdAt: "2026-11-24T09:00:00.000Z",
    updatedAt: "2026-11-24T09:00:00.000Z",
    doneAt: null,
  };
}

// a
//   a1
//     a1x
//   a2
// b
const list = [task("a", null, 0), task("a1", "a", 0), task("a1x", "a1", 0), task("a2", "a", 1), task("b", null, 1)];

describe("the task tree", () => {
  it("knows each row's depth", () => {
    expect(rowsOf(list).map((r) => [r.task.id, r.depth])).toEqual([
      ["a", 0],
      ["a1", 1],
      ["a1x", 2],
      ["a2", 1],
      ["b", 0],
    ]);
  });

  it("hides completed tasks with their subtasks and counts them", () => {
    const done = [task("a", null, 0), task("a1", "a", 0, "done"), task("a1x", "a1", 0), task("b", null, 1, "dropped")];
    const { rows, hidden } = visibleRows(done, true);
    expect(rows.map((r) => r.task.id)).toEqual(["a"]);
    expect(hidden).toBe(2);
    expect(visibleRows(done, false).rows).toHaveLength(4);
  });

  it("indents under the sibling above, last among its subtasks", () => {
    expect(indent(list, "a2")).toEqual({ id: "a2", parentId: "a1", index: 1 });
    expect(indent(list, "b")).toEqual({ id: "b", parentId: "a", index: 2 });
    expect(indent(list, "a")).toBeNull();
    expect(indent(list, "a1")).toBeNull();
  });

  it("outdents to right after its parent", () => {
    expect(outdent(list, "a1x")).toEqual({ id: "a1x", parentId: "a", index: 1 });
    expect(outdent(list, "a2")).toEqual({ id: "a2", parentId: null, index: 1 });
    expect(outdent(list, "b")).toBeNull();
  });

  it("moves one place among its siblings, never past either end", () => {
    expect(moveBy(list, "a2", -1)).toEqual({ id: "a2", parentId: "a", index: 0 });
    expect(moveBy(list, "a1", 1)).toEqual({ id: "a1", parentId: "a", index: 1 });
    expect(moveBy(list, "a1", -1)).toBeNull();
    expect(moveBy(list, "b", 1)).toBeNull();
    expect(moveBy(list, "missing", 1)).toBeNull();
  });

  it("drops in the target's place, never into its own subtree", () => {
    expect(dropOn(list, "b", "a2")).toEqual({ id: "b", parentId: "a", index: 1 });
    expect(dropOn(list, "a", "a1x")).toBeNull();
    expect(dropOn(list, "a", "a")).toBeNull();
  });
});
