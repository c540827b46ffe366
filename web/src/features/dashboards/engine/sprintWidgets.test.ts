import { describe, expect, it } from "vitest";
import { BURNDOWN_MAX_DAYS, BURNDOWN_NOTE, computeBurndown } from "./computeBurndown";
import { PLANNED_VS_UNPLANNED_NOTE, computePlannedVsUnplanned } from "./computePlannedVsUnplanned";
import { computeVelocity } from "./computeVelocity";
import { CHECK, STATUS, numberColumn } from "./fixtures/columns";
import { filteredData } from "./fixtures/filteredData";
import { type ItemSpec, makeBoard } from "./fixtures/makeBoard";
import type { BoardFull, Column, SprintSettings } from "./types";

const SPRINT: Column = { id: "sprint", title: "Sprint", type: "text" };
const DONE_ON: Column = { id: "done_on", title: "Done on", type: "date" };
const SETTINGS: SprintSettings = {
  sprintColumn: "sprint",
  effortColumn: "effort",
  doneColumn: "status",
  dateColumn: "done_on",
};

function sprintBoard(id: string, items: ItemSpec[], extra: Column[] = []): BoardFull {
  return makeBoard({ id, columns: [SPRINT, numberColumn("effort"), STATUS, DONE_ON, ...extra], items });
}

function item(
  sprint: unknown,
  effort: unknown,
  status: string | null,
  doneOn?: string | null,
  createdAt?: string,
): ItemSpec {
  const spec: ItemSpec = { values: { sprint, effort, status, done_on: doneOn ?? null } };
  if (createdAt !== undefined) spec.createdAt = createdAt;
  return spec;
}

describe("computeVelocity", () => {
  const board = sprintBoard("b1", [
    item("Sprint 2", 5, "Done", "2024-01-20"),
    item("Sprint 2", 3, "Stuck", "2024-01-16"),
    item("Sprint 1", 8, "Done", "2024-01-05"),
    item("Sprint 1", null, "Done", "2024-01-10"),
    item("Sprint 10", 2, "Done", "2024-02-03"),
    item("Sprint 3", 4, "Done", "2024-01-28"),
    item(null, 100, "Done", "2024-01-05"),
    item("  ", 100, "Done", "2024-01-05"),
  ]);

  it("puts completed beside committed per sprint, in time order", () => {
    const r = computeVelocity(filteredData([board]), SETTINGS);
    expect(r.sprints.map((s) => [s.name, s.committed, s.completed, s.itemCount, s.doneCount])).toEqual([
      ["Sprint 1", 8, 8, 2, 2],
      ["Sprint 2", 8, 5, 2, 1],
      ["Sprint 3", 4, 4, 1, 1],
      ["Sprint 10", 2, 2, 1, 1],
    ]);
    expect(r.sprints[0]).toMatchObject({ start: "2024-01-05", end: "2024-01-10" });
  });

  it("averages completed effort over the last three sprints", () => {
    const r = computeVelocity(filteredData([board]), SETTINGS);
    expect(r.averageOver).toEqual(["Sprint 2", "Sprint 3", "Sprint 10"]);
    expect(r.averageCompleted).toBeCloseTo(11 / 3, 9);
    expect(r.averageDisplay).toBe("3.7");
  });

  it("counts unestimated items as 0 and leaves out items without a sprint", () => {
    const r = computeVelocity(filteredData([board]), SETTINGS);
    expect(r.unestimatedCount).toBe(1);
    expect(r.sprints.reduce((n, s) => n + s.itemCount, 0)).toBe(6);
  });

  it("averages over fewer sprints when there are fewer, and has none on empty boards", () => {
    const one = computeVelocity(filteredData([sprintBoard("b", [item("S", 3, "Done")])]), SETTINGS);
    expect(one.averageCompleted).toBe(3);
    const none = computeVelocity(filteredData([sprintBoard("b", [])]), SETTINGS);
    expect(none.sprints).toEqual([]);
    expect(none.averageCompleted).toBeNull();
    expect(none.averageDisplay).toBe("–");
  });

  it("orders sprints without dates after dated ones, by name; ties in dates by name", () => {
    const b = sprintBoard("b", [
      item("B", 1, null, "2024-03-01"),
      item("A", 1, null, "2024-03-01"),
      item("Undated 2", 1, null),
      item("Undated 10", 1, null),
    ]);
    expect(computeVelocity(filteredData([b]), SETTINGS).sprints.map((s) => s.name)).toEqual([
      "A",
      "B",
      "Undated 2",
      "Undated 10",
    ]);
  });

  it("takes spans from the settings when listed, even for sprints without items", () => {
    const r = computeVelocity(filteredData([board]), {
      ...SETTINGS,
      sprints: [
        { name: "Sprint 10", start: "2023-12-01", end: "2023-12-14" },
        { name: "Sprint 0", start: "2023-11-01", end: "2023-11-14" },
      ],
    });
    expect(r.sprints.slice(0, 2).map((s) => [s.name, s.start, s.committed])).toEqual([
      ["Sprint 0", "2023-11-01", 0],
      ["Sprint 10", "2023-12-01", 2],
    ]);
  });

  it("reads a dropdown or status sprint column and a checkbox done column", () => {
    const columns: Column[] = [
      { id: "iteration", title: "Iteration", type: "dropdown" },
      { id: "phase", title: "Phase", type: "status", settings: { labels: [{ name: "S1" }, { name: "S2" }] } },
      numberColumn("pts"),
      CHECK,
    ];
    const b = makeBoard({
      id: "b",
      columns,
      items: [
        { values: { iteration: ["S1"], phase: "S2", pts: 3, ok: true } },
        { values: { iteration: ["S1"], phase: "S2", pts: 2, ok: false } },
      ],
    });
    const dropdown = computeVelocity(filteredData([b]), {
      sprintColumn: "iteration",
      effortColumn: "pts",
      doneColumn: "ok",
    });
    expect(dropdown.sprints.map((s) => [s.name, s.committed, s.completed])).toEqual([["S1", 5, 3]]);
    const status = computeVelocity(filteredData([b]), { sprintColumn: "phase", effortColumn: "pts", doneColumn: "ok" });
    expect(status.sprints.map((s) => s.name)).toEqual(["S2"]);
  });

  it("merges same-named sprints across boards and reports boards without the sprint column", () => {
    const r = computeVelocity(
      filteredData([
        sprintBoard("a", [item("S", 2, "Done")]),
        sprintBoard("b", [item("S", 3, "Stuck")]),
        makeBoard({ id: "c", columns: [STATUS] }),
      ]),
      SETTINGS,
    );
    expect(r.sprints.map((s) => [s.name, s.committed, s.completed])).toEqual([["S", 5, 2]]);
    expect(r.boardsWithoutSprintColumn).toEqual(["c"]);
  });

  it("shares records between widgets of one filter result without mixing settings", () => {
    const b = sprintBoard("b", [item("S", 3, "Done", "2024-01-02")], [numberColumn("points")]);
    b.items[0]!.values.points = 7;
    const data = filteredData([b]);
    expect(computeVelocity(data, SETTINGS).sprints[0]?.committed).toBe(3);
    expect(computeVelocity(data, { ...SETTINGS, effortColumn: "points" }).sprints[0]?.committed).toBe(7);
    expect(computeBurndown(data, SETTINGS).total).toBe(3);
  });

  it("follows per-board column references", () => {
    const renamed = makeBoard({
      id: "r",
      columns: [{ id: "iter", title: "Iteration", type: "text" }, numberColumn("pts"), CHECK],
      items: [{ values: { iter: "S", pts: 4, ok: true } }],
    });
    const r = computeVelocity(filteredData([sprintBoard("b", [item("S", 1, "Stuck")]), renamed]), {
      sprintColumn: { b: "sprint", r: "iter" },
      effortColumn: { b: "effort", r: "pts" },
      doneColumn: { b: "status", r: "ok" },
    });
    expect(r.sprints.map((s) => [s.name, s.committed, s.completed])).toEqual([["S", 5, 4]]);
  });

  it("asks for a sprint column", () => {
    expect(computeVelocity(filteredData([board]), {}).problem).toBe("Choose the sprint column");
  });
});

describe("computePlannedVsUnplanned", () => {
  it("calls items created on or before the sprint's start planned", () => {
    const b = sprintBoard("b", [
      item("S", 3, "Done", "2024-03-01", "2024-02-20T10:00:00Z"),
      item("S", 2, "Stuck", null, "2024-03-01T23:00:00Z"),
      item("S", 5, "Done", "2024-03-05", "2024-03-02T08:00:00Z"),
      item("S", 1, "Stuck", null, "not a date"),
    ]);
    const r = computePlannedVsUnplanned(filteredData([b]), SETTINGS);
    expect(r.note).toBe(PLANNED_VS_UNPLANNED_NOTE);
    expect(r.sprints).toHaveLength(1);
    const s = r.sprints[0];
    expect(s?.start).toBe("2024-03-01");
    expect(s?.planned).toEqual({ effort: 5, count: 2, doneEffort: 3, doneCount: 1 });
    expect(s?.unplanned).toEqual({ effort: 5, count: 1, doneEffort: 5, doneCount: 1 });
    expect(s?.unknown).toEqual({ effort: 1, count: 1, doneEffort: 0, doneCount: 0 });
  });

  it("cannot place items of a sprint without a start", () => {
    const r = computePlannedVsUnplanned(filteredData([sprintBoard("b", [item("S", 4, "Done")])]), SETTINGS);
    expect(r.sprints[0]?.start).toBeNull();
    expect(r.sprints[0]?.unknown.effort).toBe(4);
    expect(r.sprints[0]?.planned.count).toBe(0);
  });

  it("uses a listed sprint start over the items' dates", () => {
    const b = sprintBoard("b", [item("S", 4, "Done", "2024-03-10", "2024-03-05T00:00:00Z")]);
    const r = computePlannedVsUnplanned(filteredData([b]), {
      ...SETTINGS,
      sprints: [{ name: "S", start: "2024-03-04", end: "2024-03-15" }],
    });
    expect(r.sprints[0]?.unplanned.effort).toBe(4);
  });
});

describe("computeBurndown", () => {
  const settings = { ...SETTINGS, sprints: [{ name: "S", start: "2024-03-01", end: "2024-03-05" }] };

  it("draws the ideal line from the total to zero and the remaining effort by done date", () => {
    const b = sprintBoard("b", [
      item("S", 4, "Done", "2024-03-02"),
      item("S", 2, "Done", "2024-03-04"),
      item("S", 2, "Stuck"),
    ]);
    const r = computeBurndown(filteredData([b]), settings);
    expect(r.note).toBe(BURNDOWN_NOTE);
    expect(r.sprint).toBe("S");
    expect(r.total).toBe(8);
    expect(r.points).toEqual([
      { date: "2024-03-01", ideal: 8, remaining: 8 },
      { date: "2024-03-02", ideal: 6, remaining: 4 },
      { date: "2024-03-03", ideal: 4, remaining: 4 },
      { date: "2024-03-04", ideal: 2, remaining: 2 },
      { date: "2024-03-05", ideal: 0, remaining: 2 },
    ]);
  });

  it("burns items done before the start on the first day, never those done after the end", () => {
    const b = sprintBoard("b", [item("S", 3, "Done", "2024-02-20"), item("S", 1, "Done", "2024-03-09")]);
    const r = computeBurndown(filteredData([b]), settings);
    expect(r.points.map((p) => p.remaining)).toEqual([1, 1, 1, 1, 1]);
  });

  it("burns done items without a date on the last day and says how much", () => {
    const b = sprintBoard("b", [item("S", 3, "Done"), item("S", 1, "Stuck")]);
    const r = computeBurndown(filteredData([b]), settings);
    expect(r.points.map((p) => p.remaining)).toEqual([4, 4, 4, 4, 1]);
    expect(r.doneWithoutDate).toBe(3);
  });

  it("draws a one-day sprint as one point whose ideal is already zero", () => {
    const b = sprintBoard("b", [item("D", 2, "Done", "2024-04-01"), item("D", 3, "Stuck", "2024-04-01")]);
    const r = computeBurndown(filteredData([b]), SETTINGS);
    expect(r.start).toBe("2024-04-01");
    expect(r.end).toBe("2024-04-01");
    expect(r.points).toEqual([{ date: "2024-04-01", ideal: 0, remaining: 3 }]);
  });

  it("picks the latest dated sprint unless one is named", () => {
    const b = sprintBoard("b", [
      item("Old", 1, "Done", "2024-01-01"),
      item("New", 1, "Done", "2024-02-01"),
      item("Undated", 1, "Stuck"),
    ]);
    expect(computeBurndown(filteredData([b]), SETTINGS).sprint).toBe("New");
    expect(computeBurndown(filteredData([b]), { ...SETTINGS, sprint: "Old" }).sprint).toBe("Old");
    expect(computeBurndown(filteredData([b]), { ...SETTINGS, sprint: "Undated" }).problem).toBe(
      "This sprint has no dates",
    );
    expect(computeBurndown(filteredData([b]), { ...SETTINGS, sprint: "Gone" }).problem).toMatch(/No sprint named/);
    expect(computeBurndown(filteredData([b]), SETTINGS).sprintNames).toEqual(["Old", "New", "Undated"]);
  });

  it("says so when there is nothing to draw", () => {
    expect(computeBurndown(filteredData([sprintBoard("b", [])]), SETTINGS).problem).toBe("No items are in a sprint");
    expect(computeBurndown(filteredData([sprintBoard("b", [item("S", 1, null)])]), SETTINGS).problem).toBe(
      "No sprint has dates",
    );
  });

  it("reads spans from a timeline date column and cuts absurd spans", () => {
    const timeline: Column = { id: "when", title: "When", type: "timeline" };
    const b = makeBoard({
      id: "b",
      columns: [SPRINT, numberColumn("effort"), STATUS, timeline],
      items: [
        { values: { sprint: "S", effort: 1, status: "Done", when: { from: "2020-01-01", to: "2020-01-03" } } },
        { values: { sprint: "S", effort: 1, status: "Stuck", when: { from: "2020-01-02", to: "2030-01-01" } } },
      ],
    });
    const r = computeBurndown(filteredData([b]), { ...SETTINGS, dateColumn: "when" });
    expect(r.start).toBe("2020-01-01");
    expect(r.points).toHaveLength(BURNDOWN_MAX_DAYS);
    expect(r.truncated).toBe(true);
    expect(r.points[2]?.remaining).toBe(1);
  });
});
