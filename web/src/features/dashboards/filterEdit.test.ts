import { describe, expect, test } from "vitest";
import { applyFilters } from "./engine/applyFilters";
import { prepareBoards } from "./engine/prepareBoards";
import { makeBoard } from "./engine/fixtures/makeBoard";
import { addRule, effectiveFilters, removeRule, reportNotes, togglePerson, updateRule } from "./filterEdit";

describe("filter editing", () => {
  test("add, change, remove a rule without touching the original", () => {
    const empty = {};
    const one = addRule(empty, "status");
    expect(empty).toEqual({});
    expect(one.rules).toEqual([{ column: "status", op: "is", value: "" }]);
    const two = updateRule(one, 0, { value: "Done" });
    expect(two.rules?.[0]).toEqual({ column: "status", op: "is", value: "Done" });
    expect(one.rules?.[0]?.value).toBe("");
    expect(removeRule(two, 0).rules).toEqual([]);
  });

  test("a value-less op drops the value; going back brings an empty one", () => {
    const f = updateRule({ rules: [{ column: "budget", op: "gt", value: "5" }] }, 0, { op: "is_empty" });
    expect(f.rules?.[0]).toEqual({ column: "budget", op: "is_empty" });
    expect(updateRule(f, 0, { op: "lt" }).rules?.[0]).toEqual({ column: "budget", op: "lt", value: "" });
  });

  test("people toggle in and out", () => {
    const once = togglePerson({ people: ["m1"] }, "m2");
    expect(once.people).toEqual(["m1", "m2"]);
    expect(togglePerson(once, "m1").people).toEqual(["m2"]);
  });

  test("rules still being typed do not reach the widgets", () => {
    const filters = {
      rules: [
        { column: "status", op: "is", value: "" },
        { column: "budget", op: "is_not_empty" },
      ],
    };
    expect(effectiveFilters(filters).rules).toEqual([{ column: "budget", op: "is_not_empty" }]);
    const complete = { rules: [{ column: "status", op: "is", value: "Done" }] };
    expect(effectiveFilters(complete)).toBe(complete);
  });
});

describe("reportNotes", () => {
  const boards = prepareBoards([
    makeBoard({
      id: "a",
      name: "Alpha",
      columns: [
        { id: "status", title: "Status", type: "status", settings: { labels: [{ name: "Done", done: true }] } },
        { id: "owner", title: "Owner", type: "people" },
      ],
      items: [{ values: { status: "Done", owner: ["m1"] } }, { values: { status: null } }],
    }),
    makeBoard({ id: "b", name: "Beta", columns: [{ id: "budget", title: "Budget", type: "number" }], items: [{}] }),
  ]);
  const name = (id: string) => (id === "a" ? "Alpha" : "Beta");

  test("names the boards a rule skipped and the boards the People filter skipped", () => {
    const { report } = applyFilters(boards, { people: ["m1"], rules: [{ column: "status", op: "is", value: "Done" }] });
    expect(reportNotes(report, name)).toEqual([
      "Rule on “status” not applied to Beta (no such column).",
      "People filter not applied to Beta (no people column).",
    ]);
  });

  test("says why a rule could not apply", () => {
    const { report } = applyFilters(boards, { rules: [{ column: "status", op: "gt", value: "3" }] });
    const notes = reportNotes(report, name);
    expect(notes[1]).toMatch(/^Rule on “status” not applied to Alpha: /);
  });

  test("nothing to say with no filters", () => {
    expect(reportNotes(applyFilters(boards, {}).report, name)).toEqual([]);
  });
});
