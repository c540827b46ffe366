import { expect, test } from "vitest";
import { diffOf, fileEdits } from "./edits";

test("an Edit is one change of its file", () => {
  expect(fileEdits("Edit", { file_path: "/a.ts", old_string: "x", new_string: "y" })).toEqual([
    { path: "/a.ts", before: "x", after: "y" },
  ]);
});

test("a MultiEdit is each of its edits, the malformed ones left out", () => {
  const input = {
    file_path: "/a.ts",
    edits: [{ old_string: "a", new_string: "b" }, { old_string: 1 }, { old_string: "c", new_string: "" }],
  };
  expect(fileEdits("MultiEdit", input)).toEqual([
    { path: "/a.ts", before: "a", after: "b" },
    { path: "/a.ts", before: "c", after: "" },
  ]);
  expect(fileEdits("MultiEdit", { file_path: "/a.ts", edits: [] })).toBeNull();
});

test("a Write is its whole content, added", () => {
  expect(fileEdits("Write", { file_path: "/n.md", content: "hi\n" })).toEqual([
    { path: "/n.md", before: "", after: "hi\n" },
  ]);
});

test("other tools, and inputs without the fields, show no diff", () => {
  expect(fileEdits("Read", { file_path: "/a.ts" })).toBeNull();
  expect(fileEdits("Edit", { file_path: "/a.ts", old_string: "x" })).toBeNull();
  expect(fileEdits("Edit", "not an object")).toBeNull();
  expect(fileEdits("Write", { content: "no path" })).toBeNull();
});

test("a diff marks each line", () => {
  expect(diffOf({ path: "/a", before: "one\ntwo\nthree\n", after: "one\n2\nthree\n" })).toEqual([
    { kind: "same", text: "one" },
    { kind: "del", text: "two" },
    { kind: "add", text: "2" },
    { kind: "same", text: "three" },
  ]);
  expect(diffOf({ path: "/a", before: "", after: "new" })).toEqual([{ kind: "add", text: "new" }]);
});
