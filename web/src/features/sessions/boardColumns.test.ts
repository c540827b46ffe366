/**
 * What the board draws around its rows: the Folder column only when it tells rows apart, the
 * actions a row offers, and the count of archived sessions a search finds but the board hides.
 */
import { describe, expect, it } from "vitest";
import type { Worktree } from "../../shared/api/types.generated";
import { ALL_SESSIONS, archivedMatches, folderColumnShown, rowActions } from "./board";
import { session } from "./fixtures";

const worktree = (repository: string, branch: string): Worktree => ({
  path: `/data/worktrees/${branch}`,
  branch,
  base: "abc",
  repository,
  removed: false,
  keptReason: null,
});

describe("the Folder column", () => {
  it("is left out when every session works in the same folder", () => {
    expect(folderColumnShown([session("a", { cwd: "/root" }), session("b", { cwd: "/root/" })])).toBe(false);
    expect(folderColumnShown([session("a", { cwd: "/root" })])).toBe(false);
    expect(folderColumnShown([])).toBe(false);
  });

  it("is drawn when two sessions work in different folders, or on different branches", () => {
    expect(folderColumnShown([session("a", { cwd: "/root" }), session("b", { cwd: "/home/me/api" })])).toBe(true);
    const onBranch = (id: string, branch: string) =>
      session(id, { cwd: `/data/worktrees/${branch}`, worktree: worktree("/src/app", branch) });
    expect(folderColumnShown([onBranch("a", "fix-1"), onBranch("b", "fix-2")])).toBe(true);
    expect(folderColumnShown([onBranch("a", "fix-1"), onBranch("b", "fix-1")])).toBe(false);
  });
});

describe("a row's actions", () => {
  it("are Open, then what the session's state allows", () => {
    expect(rowActions({ status: "running", archived: false })).toEqual(["open", "stop", "archive"]);
    expect(rowActions({ status: "failed", archived: false })).toEqual(["open", "retry", "archive"]);
    expect(rowActions({ status: "finished", archived: true })).toEqual(["open", "retry"]);
  });
});

describe("archived matches of a search", () => {
  const sessions = [
    session("live", { title: "Deploy the api", status: "running" }),
    session("old", { title: "Deploy the web", status: "finished", archived: true }),
    session("older", { title: "Deploy docs", status: "failed", archived: true, engine: "claude" }),
    session("other", { title: "Write tests", status: "finished", archived: true }),
  ];

  it("counts the archived sessions the search finds while archived ones are hidden", () => {
    expect(archivedMatches(sessions, ALL_SESSIONS, "deploy")).toBe(2);
    expect(archivedMatches(sessions, ALL_SESSIONS, "tests")).toBe(1);
    expect(archivedMatches(sessions, ALL_SESSIONS, "api")).toBe(0);
  });

  it("keeps the status and engine filters", () => {
    expect(archivedMatches(sessions, { ...ALL_SESSIONS, status: "failed" }, "deploy")).toBe(1);
    expect(archivedMatches(sessions, { ...ALL_SESSIONS, engine: "echo" }, "deploy")).toBe(1);
  });

  it("is zero without a search, and while archived sessions are shown", () => {
    expect(archivedMatches(sessions, ALL_SESSIONS, "  ")).toBe(0);
    expect(archivedMatches(sessions, { ...ALL_SESSIONS, showArchived: true }, "deploy")).toBe(0);
  });
});
