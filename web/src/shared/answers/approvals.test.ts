import { describe, expect, it } from "vitest";
import { applyApproval, describeInput } from "./approvals";
import { approval } from "./fixtures";

describe("applyApproval", () => {
  it("adds a new pending approval and replaces a known one", () => {
    const first = approval("a", "s1");
    const added = applyApproval([], first);
    expect(added).toEqual([first]);
    const changed = { ...first, reason: "again" };
    expect(applyApproval(added, changed)).toEqual([changed]);
  });

  it("drops one answered or expired, and keeps the list when it was not held", () => {
    const held = [approval("a", "s1"), approval("b", "s1")];
    expect(applyApproval(held, { ...held[0]!, state: "allowed" }).map((a) => a.id)).toEqual(["b"]);
    expect(applyApproval(held, { ...held[1]!, state: "expired" }).map((a) => a.id)).toEqual(["a"]);
    expect(applyApproval(held, approval("z", "s1", { state: "denied" }))).toBe(held);
  });
});

describe("describeInput", () => {
  it("shows an agent's pause or archive as the session it asks about", () => {
    expect(describeInput("switchboard_archive_session", { sessionId: "s2", title: "Fix the build" }, "s2")).toEqual({
      kind: "session",
      verb: "archive",
      sessionId: "s2",
      title: "Fix the build",
    });
    expect(describeInput("switchboard_pause_session", { sessionId: "s3", title: null }, "s3")).toEqual({
      kind: "session",
      verb: "pause",
      sessionId: "s3",
      title: null,
    });
  });

  it("shows a Bash call as its command", () => {
    expect(describeInput("Bash", { command: "rm -rf build", description: "Clean" }, "rm")).toEqual({
      kind: "command",
      command: "rm -rf build",
      description: "Clean",
    });
  });

  it("shows an Edit as a diff and a Write as one of new content", () => {
    expect(describeInput("Edit", { file_path: "/a.ts", old_string: "x", new_string: "y" }, "/a.ts")).toEqual({
      kind: "diff",
      edits: [{ path: "/a.ts", before: "x", after: "y" }],
    });
    expect(describeInput("Write", { file_path: "/b", content: "hi" }, "/b")).toEqual({
      kind: "diff",
      edits: [{ path: "/b", before: "", after: "hi" }],
    });
  });

  it("shows another file tool's path, a plan's text and a web tool's address", () => {
    expect(describeInput("Read", { file_path: "/home/me/.ssh/id_rsa" }, null)).toEqual({
      kind: "path",
      path: "/home/me/.ssh/id_rsa",
    });
    expect(describeInput("NotebookEdit", { notebook_path: "/n.ipynb", new_source: "x" }, null)).toEqual({
      kind: "path",
      path: "/n.ipynb",
    });
    expect(describeInput("ExitPlanMode", { plan: "1. Fix it" }, null)).toEqual({ kind: "plan", plan: "1. Fix it" });
    expect(describeInput("WebFetch", { url: "https://x.dev", prompt: "read" }, null)).toEqual({
      kind: "url",
      url: "https://x.dev",
    });
  });

  it("shows anything else as JSON, or the target when there is no input", () => {
    expect(describeInput("mcp__db__query", { sql: "select 1" }, null)).toEqual({
      kind: "json",
      text: '{\n  "sql": "select 1"\n}',
    });
    expect(describeInput("Other", null, "/somewhere")).toEqual({ kind: "path", path: "/somewhere" });
    expect(describeInput("Other", {}, null)).toEqual({ kind: "json", text: "{}" });
  });
});
