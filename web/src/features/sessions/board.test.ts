import { describe, expect, it } from "vitest";
import type { Session } from "../../shared/api/types.generated";
import {
  ALL_SESSIONS,
  boardRows,
  describeActivity,
  enginesOf,
  folderName,
  lastActivityAt,
  matchesFilter,
  mergeSession,
  mergeSessions,
  statusFromQuery,
} from "./board";
import { session } from "./fixtures";

const ids = (rows: { session: Session }[]) => rows.map((r) => r.session.id);

describe("merging session events", () => {
  it("inserts a new id in newest-first order and replaces a known one", () => {
    const old = session("old", { createdAt: "2026-01-01T09:00:00Z" });
    const newer = session("newer", { createdAt: "2026-01-01T11:00:00Z" });
    let list = mergeSession([], old);
    list = mergeSession(list, newer);
    list = mergeSession(list, session("middle", { createdAt: "2026-01-01T10:00:00Z" }));
    expect(list.map((s) => s.id)).toEqual(["newer", "middle", "old"]);
    const moved = mergeSession(list, { ...old, status: "finished", updatedAt: "2026-01-01T12:00:00Z" });
    expect(moved.map((s) => s.id)).toEqual(["newer", "middle", "old"]);
    expect(moved[2]?.status).toBe("finished");
  });

  it("keeps what is newer, so a read answered late does not undo an event", () => {
    const live = session("s", { status: "finished", updatedAt: "2026-01-01T10:00:05Z" });
    const stale = session("s", { status: "running", updatedAt: "2026-01-01T10:00:01Z" });
    const list = [live];
    expect(mergeSession(list, stale)).toBe(list);
    expect(mergeSession(list, { ...live })).toBe(list);
    expect(mergeSessions(list, [stale, session("t")]).map((s) => [s.id, s.status])).toEqual([
      ["s", "finished"],
      ["t", "running"],
    ]);
  });
});

describe("filters", () => {
  it("hides archived sessions unless asked, and filters by status and engine", () => {
    const archived = session("a", { archived: true });
    expect(matchesFilter(archived, ALL_SESSIONS)).toBe(false);
    expect(matchesFilter(archived, { ...ALL_SESSIONS, showArchived: true })).toBe(true);
    const waiting = session("w", { status: "waiting_for_input", engine: "primary" });
    expect(matchesFilter(waiting, { ...ALL_SESSIONS, status: "running" })).toBe(false);
    expect(matchesFilter(waiting, { ...ALL_SESSIONS, status: "waiting_for_input" })).toBe(true);
    expect(matchesFilter(waiting, { ...ALL_SESSIONS, engine: "echo" })).toBe(false);
    expect(matchesFilter(waiting, { ...ALL_SESSIONS, engine: "primary" })).toBe(true);
  });

  it("lists each engine once, sorted", () => {
    expect(
      enginesOf([session("1", { engine: "b" }), session("2", { engine: "a" }), session("3", { engine: "b" })]),
    ).toEqual(["a", "b"]);
  });
});

describe("the parent–child tree", () => {
  const parent = session("p", { createdAt: "2026-01-01T10:00:00Z" });
  const first = session("c1", { parentId: "p", createdAt: "2026-01-01T10:01:00Z" });
  const second = session("c2", { parentId: "p", createdAt: "2026-01-01T10:02:00Z", status: "failed" });
  const grandchild = session("g", { parentId: "c1", createdAt: "2026-01-01T10:03:00Z" });
  const other = session("o", { createdAt: "2026-01-01T09:00:00Z" });
  const all = [grandchild, second, first, parent, other];

  it("puts children under their parent, oldest first, roots newest first", () => {
    const rows = boardRows(all, ALL_SESSIONS, new Set());
    expect(rows.map((r) => [r.session.id, r.depth, r.childCount])).toEqual([
      ["p", 0, 2],
      ["c1", 1, 1],
      ["g", 2, 0],
      ["c2", 1, 0],
      ["o", 0, 0],
    ]);
  });

  it("hides the descendants of a collapsed row", () => {
    expect(ids(boardRows(all, ALL_SESSIONS, new Set(["p"])))).toEqual(["p", "o"]);
    expect(ids(boardRows(all, ALL_SESSIONS, new Set(["c1"])))).toEqual(["p", "c1", "c2", "o"]);
  });

  it("shows a matching child as a root when the filter hides its parent", () => {
    const rows = boardRows(all, { ...ALL_SESSIONS, status: "failed" }, new Set());
    expect(rows.map((r) => [r.session.id, r.depth])).toEqual([["c2", 0]]);
  });

  it("survives a parent loop", () => {
    const a = session("a", { parentId: "b" });
    const b = session("b", { parentId: "a" });
    expect(boardRows([a, b, other], ALL_SESSIONS, new Set())).toHaveLength(1);
  });
});

describe("what a session is doing", () => {
  it("says nothing while it waits (its status says it), whatever it did last", () => {
    const activity = { kind: "editing" as const, text: "src/main.rs", at: "2026-01-01T10:00:00Z" };
    expect(describeActivity({ status: "waiting_for_input", activity })).toBeNull();
    expect(describeActivity({ status: "running", activity })).toBe("editing src/main.rs");
  });

  it("shows the to-do item as it is, and nothing when the engine reports nothing or the turn ended", () => {
    const todo = { kind: "todo" as const, text: "Write the tests", at: "2026-01-01T10:00:00Z" };
    expect(describeActivity({ status: "running", activity: todo })).toBe("Write the tests");
    expect(describeActivity({ status: "running", activity: { ...todo, kind: "running", text: "cargo test" } })).toBe(
      "running cargo test",
    );
    expect(describeActivity({ status: "running", activity: { ...todo, kind: "writing", text: "step 2 of 3" } })).toBe(
      "writing: step 2 of 3",
    );
    expect(describeActivity({ status: "running", activity: null })).toBeNull();
    expect(describeActivity({ status: "queued", activity: null })).toBeNull();
    // A turn that ended leaves its last activity behind: it is no longer what the session does.
    expect(describeActivity({ status: "finished", activity: todo })).toBeNull();
  });

  it("takes the later of the last change and the last activity", () => {
    const at = "2026-01-01T10:05:00Z";
    expect(lastActivityAt({ updatedAt: "2026-01-01T10:00:00Z", activity: { kind: "reading", text: "x", at } })).toBe(
      at,
    );
    expect(lastActivityAt({ updatedAt: at, activity: null })).toBe(at);
  });

  it("names a folder by its last part", () => {
    expect(folderName("/home/me/project/")).toBe("project");
    expect(folderName("/")).toBe("/");
  });
});

describe("statusFromQuery", () => {
  it("reads a known status from the address, else all", () => {
    expect(statusFromQuery("?status=waiting_for_input")).toBe("waiting_for_input");
    expect(statusFromQuery("?status=nonsense")).toBe("all");
    expect(statusFromQuery("")).toBe("all");
  });
});
