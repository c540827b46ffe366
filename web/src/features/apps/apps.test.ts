import { describe, expect, it } from "vitest";
import { runningApp } from "../../shared/apps/fixtures";
import { appsSummary, groupBySession, groupTitle, noOutputText, runnerShown, whereText } from "./apps";

describe("apps grouped by session", () => {
  it("puts a session with a live app first, then the most recent start, and each session's apps by name", () => {
    const groups = groupBySession([
      runningApp({ name: "web.old", sessionId: "old", sessionTitle: "Old", startedAt: "2026-01-01T08:00:00Z" }),
      runningApp({
        name: "web.gone",
        sessionId: "gone",
        sessionTitle: "Gone",
        state: "exited",
        exitStatus: 0,
        startedAt: "2026-01-01T11:00:00Z",
      }),
      runningApp({ name: "web.new", sessionId: "new", sessionTitle: "New", startedAt: "2026-01-01T09:00:00Z" }),
      runningApp({ name: "api.new", sessionId: "new", sessionTitle: "New", startedAt: "2026-01-01T07:00:00Z" }),
    ]);
    expect(groups.map((g) => [g.sessionId, g.apps.map((a) => a.name)])).toEqual([
      ["new", ["api.new", "web.new"]],
      ["old", ["web.old"]],
      ["gone", ["web.gone"]],
    ]);
  });

  it("takes the session's title, branch and worktree from whichever of its apps carries them", () => {
    const [group] = groupBySession([
      runningApp({ name: "a", sessionTitle: null, branch: null, worktree: null }),
      runningApp({ name: "b", sessionTitle: "Fix the login", branch: "fix-login", worktree: "/wt" }),
    ]);
    expect(group).toMatchObject({ sessionTitle: "Fix the login", branch: "fix-login", worktree: "/wt" });
  });

  it("is empty for no apps", () => {
    expect(groupBySession([])).toEqual([]);
  });
});

describe("a session's words", () => {
  it("name it by its title, or say it has none", () => {
    expect(groupTitle({ sessionTitle: "Fix the login" })).toBe("Fix the login");
    expect(groupTitle({ sessionTitle: null })).toBe("Untitled session");
    expect(groupTitle({ sessionTitle: "  " })).toBe("Untitled session");
  });

  it("say where it works: the branch and folder, either, or nothing when neither is known", () => {
    expect(whereText({ branch: "fix-login", worktree: "/wt/fix-login" })).toBe("on fix-login, /wt/fix-login");
    expect(whereText({ branch: "main", worktree: null })).toBe("on main");
    expect(whereText({ branch: null, worktree: "/wt/x" })).toBe("/wt/x");
    expect(whereText({ branch: null, worktree: null })).toBeNull();
  });
});

describe("the page's summary", () => {
  it("counts what runs and what fails, and says when nothing runs", () => {
    expect(appsSummary([{ state: "running" }, { state: "running" }, { state: "exited" }])).toBe("2 running");
    expect(appsSummary([{ state: "running" }, { state: "failing" }])).toBe("1 running, 1 failing");
    expect(appsSummary([{ state: "failing" }])).toBe("0 running, 1 failing");
    expect(appsSummary([{ state: "exited" }])).toBe("none running");
    expect(appsSummary([])).toBe("none running");
  });
});

describe("an app's details", () => {
  it("name its runner only when it is not this machine", () => {
    expect(runnerShown({ runner: "local" })).toBeNull();
    expect(runnerShown({ runner: "devbox" })).toBe("devbox");
  });

  it("say why there is no output: found rather than started, or nothing printed yet", () => {
    expect(noOutputText({ origin: "detected", port: 41_002 })).toContain("did not start this app");
    expect(noOutputText({ origin: "detected", port: 41_002 })).toContain("port 41002");
    expect(noOutputText({ origin: "started", port: 41_002 })).toBe("It has printed nothing yet.");
  });
});
