import { describe, expect, it } from "vitest";
import type { SessionResources } from "../../shared/api/types.generated";
import { ALL_SESSIONS, boardSections, orderFromQuery } from "./board";
import { session } from "./fixtures";

const NONE = new Set<string>();

function used(cpuSeconds: number): SessionResources {
  return { cpuSeconds, peakMemoryMb: 100, processes: 1, readBytes: 0, writtenBytes: 0 };
}

const order = (sections: ReturnType<typeof boardSections>) =>
  sections.map((s) => [s.group, s.rows.map((r) => r.session.id)]);

describe("ordering the board by CPU", () => {
  const sessions = [
    session("light", { resources: used(2), updatedAt: "2026-01-01T11:00:00Z" }),
    session("remote-new", { resources: null, updatedAt: "2026-01-01T10:30:00Z" }),
    session("heavy", { resources: used(300.5), updatedAt: "2026-01-01T09:00:00Z" }),
    session("remote-old", { resources: null, updatedAt: "2026-01-01T08:00:00Z" }),
    session("idle", { resources: used(0), updatedAt: "2026-01-01T07:00:00Z" }),
    session("tie-new", { resources: used(2), updatedAt: "2026-01-01T12:00:00Z" }),
  ];

  it("puts the most CPU first, those without figures last in their most-recent-first order", () => {
    expect(order(boardSections(sessions, ALL_SESSIONS, NONE, "", NONE, "cpu"))).toEqual([
      ["running", ["heavy", "tie-new", "light", "idle", "remote-new", "remote-old"]],
    ]);
  });

  it("keeps the most recently active first by default", () => {
    const byActivity = ["tie-new", "light", "remote-new", "heavy", "remote-old", "idle"];
    expect(order(boardSections(sessions, ALL_SESSIONS, NONE, ""))).toEqual([["running", byActivity]]);
    expect(order(boardSections(sessions, ALL_SESSIONS, NONE, "", NONE, "activity"))).toEqual([["running", byActivity]]);
  });

  it("orders within each group, and by the top-level session with its children kept under it", () => {
    const tree = [
      session("parent", { resources: used(1), createdAt: "2026-01-01T09:00:00Z" }),
      // A child's CPU is its own: it neither lifts its parent nor leaves it.
      session("busy-child", { resources: used(900), parentId: "parent", createdAt: "2026-01-01T09:01:00Z" }),
      session("quiet-child", { resources: used(0.1), parentId: "parent", createdAt: "2026-01-01T09:02:00Z" }),
      session("solo", { resources: used(10), createdAt: "2026-01-01T08:00:00Z" }),
      session("broke", { status: "failed", resources: used(5) }),
      session("broke-more", { status: "failed", resources: used(50) }),
    ];
    expect(order(boardSections(tree, ALL_SESSIONS, NONE, "", NONE, "cpu"))).toEqual([
      ["needs_you", ["broke-more", "broke"]],
      ["running", ["solo", "parent", "busy-child", "quiet-child"]],
    ]);
  });

  it("reads the order from the address", () => {
    expect(orderFromQuery("?sort=cpu")).toBe("cpu");
    expect(orderFromQuery("?status=failed&sort=cpu")).toBe("cpu");
    expect(orderFromQuery("?sort=memory")).toBe("activity");
    expect(orderFromQuery("")).toBe("activity");
  });
});
