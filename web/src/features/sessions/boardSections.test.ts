import { describe, expect, it } from "vitest";
import { ALL_SESSIONS, boardItems, boardSections, groupOf, matchesSearch, nextNeedingYou, workFolder } from "./board";
import { session } from "./fixtures";

const NONE = new Set<string>();

describe("the board's groups", () => {
  it("puts what waits for the user first, then what runs, then what is done, most recent first in each", () => {
    const sessions = [
      session("done-old", { status: "finished", updatedAt: "2026-01-01T09:00:00Z" }),
      session("running", { status: "running", updatedAt: "2026-01-01T09:30:00Z" }),
      session("asks", { status: "waiting_for_input", turnEnd: "asked", updatedAt: "2026-01-01T08:00:00Z" }),
      session("broke", { status: "failed", updatedAt: "2026-01-01T10:00:00Z" }),
      session("done-new", { status: "stopped", updatedAt: "2026-01-01T11:00:00Z" }),
      session("did-its-work", { status: "waiting_for_input", turnEnd: "done", updatedAt: "2026-01-01T10:30:00Z" }),
    ];
    const sections = boardSections(sessions, ALL_SESSIONS, NONE, "");
    expect(sections.map((s) => [s.group, s.rows.map((r) => r.session.id)])).toEqual([
      ["needs_you", ["broke", "asks"]],
      ["running", ["running"]],
      ["done", ["done-new", "did-its-work", "done-old"]],
    ]);
  });

  it("sends n to a session that asked or failed, never to one whose turn is done", () => {
    const sessions = [
      session("done", { status: "waiting_for_input", turnEnd: "done", updatedAt: "2026-01-01T12:00:00Z" }),
      session("asks", { status: "waiting_for_input", turnEnd: "asked", updatedAt: "2026-01-01T11:00:00Z" }),
      session("broke", { status: "failed", updatedAt: "2026-01-01T10:00:00Z" }),
      session("gone", { status: "failed", archived: true, updatedAt: "2026-01-01T13:00:00Z" }),
    ];
    expect(nextNeedingYou(sessions, NONE, null)).toBe("asks");
    expect(nextNeedingYou(sessions, NONE, "asks")).toBe("broke");
    expect(nextNeedingYou(sessions, NONE, "broke")).toBe("asks");
    expect(groupOf(session("gone", { status: "failed", archived: true }))).toBe("done");
  });

  it("keeps children under their parent, in the parent's group", () => {
    const sessions = [
      session("parent", { status: "running", createdAt: "2026-01-01T09:00:00Z" }),
      session("child", { status: "waiting_for_input", parentId: "parent", createdAt: "2026-01-01T09:01:00Z" }),
    ];
    const sections = boardSections(sessions, ALL_SESSIONS, NONE, "");
    expect(sections.map((s) => [s.group, s.rows.map((r) => [r.session.id, r.depth])])).toEqual([
      [
        "running",
        [
          ["parent", 0],
          ["child", 1],
        ],
      ],
    ]);
  });

  it("leaves empty groups out and says every status's group", () => {
    expect(boardSections([], ALL_SESSIONS, NONE, "")).toEqual([]);
    expect(groupOf(session("p", { status: "paused" }))).toBe("running");
    expect(groupOf(session("i", { status: "interrupted" }))).toBe("done");
  });

  it("puts a session holding an approval or an input request under Needs you, whatever its status", () => {
    const sessions = [
      session("asks", { status: "running", updatedAt: "2026-01-01T09:00:00Z" }),
      session("works", { status: "running", updatedAt: "2026-01-01T10:00:00Z" }),
    ];
    const sections = boardSections(sessions, ALL_SESSIONS, NONE, "", new Set(["asks"]));
    expect(sections.map((s) => [s.group, s.rows.map((r) => r.session.id)])).toEqual([
      ["needs_you", ["asks"]],
      ["running", ["works"]],
    ]);
  });
});

describe("searching the board", () => {
  const found = session("x", {
    title: "Fix the parser",
    prompt: "The migration fails on Postgres",
    cwd: "/home/me/acme-api",
    worktree: {
      path: "/data/worktrees/x",
      branch: "switchboard/ab12cd34",
      base: "main",
      repository: "/home/me/acme-api",
      removed: false,
      keptReason: null,
    },
  });

  it("matches every word, in any case, across title, prompt, folder and branch", () => {
    expect(matchesSearch(found, "")).toBe(true);
    expect(matchesSearch(found, "parser")).toBe(true);
    expect(matchesSearch(found, "POSTGRES acme")).toBe(true);
    expect(matchesSearch(found, "ab12cd34")).toBe(true);
    expect(matchesSearch(found, "parser mysql")).toBe(false);
  });

  it("keeps only the matching sessions in the groups", () => {
    const other = session("y", { title: "Write docs", prompt: "docs", cwd: "/home/me/site" });
    const sections = boardSections([found, other], ALL_SESSIONS, NONE, "parser");
    expect(sections.flatMap((s) => s.rows.map((r) => r.session.id))).toEqual(["x"]);
  });
});

describe("the folder column", () => {
  it("names a worktree session by its repository's folder, not its id under the data directory", () => {
    const isolated = session("w", {
      cwd: "/data/worktrees/01a209fbb7e576bdbc4073d0caca672c",
      worktree: {
        path: "/data/worktrees/01a209fbb7e576bdbc4073d0caca672c",
        branch: "switchboard/01a209fb",
        base: "main",
        repository: "/home/me/acme-api",
        removed: false,
        keptReason: null,
      },
    });
    expect(workFolder(isolated)).toBe("acme-api");
    expect(workFolder(session("p", { cwd: "/home/me/site/" }))).toBe("site");
  });
});

describe("the next session that needs you", () => {
  const sessions = [
    session("asks", { status: "waiting_for_input", updatedAt: "2026-01-01T10:00:00Z" }),
    session("broke", { status: "failed", updatedAt: "2026-01-01T09:00:00Z" }),
    session("approval", { status: "running", updatedAt: "2026-01-01T08:00:00Z" }),
    session("works", { status: "running", updatedAt: "2026-01-01T11:00:00Z" }),
    session("old", { status: "failed", archived: true }),
  ];
  const asking = new Set(["approval"]);

  it("goes through them most recent first, wrapping round, from wherever you are", () => {
    expect(nextNeedingYou(sessions, asking, null)).toBe("asks");
    expect(nextNeedingYou(sessions, asking, "asks")).toBe("broke");
    expect(nextNeedingYou(sessions, asking, "broke")).toBe("approval");
    expect(nextNeedingYou(sessions, asking, "approval")).toBe("asks");
    expect(nextNeedingYou(sessions, asking, "works")).toBe("asks");
  });

  it("is none when nothing needs you", () => {
    expect(nextNeedingYou([session("w", { status: "running" })], NONE, null)).toBeNull();
  });
});

describe("the board as lines", () => {
  it("puts each group's heading before its rows, and what a session asks under it in Needs you only", () => {
    const sessions = [
      session("asks", { status: "waiting_for_input", updatedAt: "2026-01-01T10:00:00Z" }),
      session("runs", { status: "running", updatedAt: "2026-01-01T09:00:00Z" }),
    ];
    const sections = boardSections(sessions, ALL_SESSIONS, NONE, "");
    const items = boardItems(sections, () => true);
    expect(items.map((i) => i.key)).toEqual(["group-needs_you", "asks", "asks-answers", "group-running", "runs"]);
    expect(items[0]).toMatchObject({ kind: "group", count: 1 });
    expect(boardItems(sections, () => false).map((i) => i.kind)).toEqual(["group", "row", "group", "row"]);
  });
});
