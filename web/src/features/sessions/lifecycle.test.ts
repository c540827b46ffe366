import { describe, expect, it } from "vitest";
import type { Status } from "../../shared/api/types.generated";
import { composerClosed, describeStop, retryRequest, revivesToday, sessionActions, sessionTitle } from "./lifecycle";
import { session } from "./fixtures";

const clock = (iso: string) => `<${iso}>`;

describe("why a session is not working", () => {
  it("is nothing while it works", () => {
    expect(describeStop(session("s"), clock)).toBeNull();
  });

  it("says each reason in words where the status does not say it", () => {
    const words = (["finished", "waiting_for_user", "stopped", "closed", "failed", "interrupted"] as const).map(
      (stopReason) => describeStop(session("s", { status: "finished", stopReason }), clock),
    );
    expect(words).toEqual([
      null,
      "waiting for you",
      "stopped with Stop",
      "closed by you",
      "failed with an error",
      "interrupted from outside",
    ]);
  });

  it("says nothing the status already says", () => {
    expect(describeStop(session("s", { status: "paused", stopReason: "stopped" }), clock)).toBeNull();
    expect(
      describeStop(session("s", { status: "waiting_for_input", stopReason: "waiting_for_user" }), clock),
    ).toBeNull();
    expect(describeStop(session("s", { status: "failed", stopReason: "failed" }), clock)).toBeNull();
  });

  it("says when an interrupted session resumes by itself", () => {
    const limited = session("s", {
      status: "interrupted",
      stopReason: "interrupted",
      resumeAt: "2026-01-01T15:00:00Z",
    });
    expect(describeStop(limited, clock)).toBe("resumes <2026-01-01T15:00:00Z>");
  });

  it("shows a reason a newer server adds by its name", () => {
    const unknown = JSON.parse('{"stopReason": "out_of_disk", "resumeAt": null}') as Parameters<typeof describeStop>[0];
    expect(describeStop(unknown, clock)).toBe("out of disk");
  });
});

describe("what a status allows", () => {
  const allowed = (status: Status, archived = false) => {
    const actions = sessionActions({ status, archived });
    return (Object.keys(actions) as (keyof typeof actions)[]).filter((k) => actions[k]);
  };

  it("stops and pauses active sessions, resumes paused and interrupted ones", () => {
    for (const status of ["queued", "starting", "running", "waiting_for_input"] as const) {
      expect(allowed(status)).toEqual(["stop", "pause", "archive"]);
    }
    expect(allowed("paused")).toEqual(["resume", "archive"]);
    expect(allowed("interrupted")).toEqual(["resume", "archive", "retry"]);
    for (const status of ["finished", "failed", "stopped"] as const) {
      expect(allowed(status)).toEqual(["archive", "retry"]);
    }
  });

  it("resumes an archived session (the server reopens it) and neither stops nor pauses one", () => {
    expect(allowed("interrupted", true)).toEqual(["resume", "retry"]);
    expect(allowed("running", true)).toEqual([]);
  });

  it("tells the composer why it takes no message", () => {
    expect(composerClosed({ status: "running", archived: false })).toBeNull();
    expect(composerClosed({ status: "paused", archived: false })).toBe("The session is paused; Resume continues it.");
    expect(composerClosed({ status: "finished", archived: false })).toBe(
      "The session has ended; it takes no more messages.",
    );
  });
});

describe("revives today", () => {
  it("says nothing until the governor revived the session", () => {
    expect(revivesToday(undefined)).toBeNull();
    expect(revivesToday(0)).toBeNull();
    expect(revivesToday(1)).toBe("revived once today");
    expect(revivesToday(3)).toBe("revived 3 times today");
  });
});

describe("a session's one title", () => {
  it("is the title, else the prompt's first line, never the id", () => {
    expect(sessionTitle(session("s1", { title: "Fix the parser" }))).toBe("Fix the parser");
    expect(sessionTitle(session("s1", { title: null, prompt: "\n  Add a test\nand more" }))).toBe("Add a test");
    expect(sessionTitle(session("s1", { title: "  ", prompt: "" }))).toBe("Untitled session");
  });
});

describe("retrying a session", () => {
  it("starts the same prompt with the same engine in the folder it came from", () => {
    expect(retryRequest(session("s1", { engine: "claude", prompt: "go", title: null, cwd: "/src/app" }))).toEqual({
      engine: "claude",
      prompt: "go",
      cwd: "/src/app",
    });
  });

  it("isolates again from the repository a worktree session came from", () => {
    const worktree = {
      path: "/data/worktrees/abc",
      branch: "switchboard/abc",
      base: "abc123",
      repository: "/src/app",
      removed: false,
      keptReason: null,
    };
    const retried = retryRequest(session("s1", { title: "T", cwd: "/data/worktrees/abc", worktree }));
    expect(retried).toMatchObject({ cwd: "/src/app", isolation: "worktree", title: "T" });
  });
});
