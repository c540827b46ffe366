import { describe, expect, it } from "vitest";
import type { Approval, InboxRow } from "../../shared/api/types.generated";
import { inboxRow } from "../../shared/inbox/fixtures";
import { applyApproval, approvalsOfRow, describeInput, rowToMarkRead } from "./approvals";

const approval = (id: string, sessionId: string, over: Partial<Approval> = {}): Approval => ({
  id,
  sessionId,
  tool: "Bash",
  target: "cargo",
  input: { command: "cargo test" },
  reason: "asks",
  rule: "guarded_ask",
  state: "pending",
  remember: null,
  createdAt: `2026-01-01T00:00:0${id.length}Z`,
  decidedAt: null,
  ...over,
});

const row = (id: string, over: Partial<InboxRow> = {}): InboxRow =>
  inboxRow(id, {
    category: "cli_pending",
    title: "s asks to use Bash",
    reason: "permission",
    source: { sessionId: "s1" },
    ...over,
  });

describe("approvalsOfRow", () => {
  it("gives a cli_pending row its session's pending approvals, oldest first", () => {
    const list = [
      approval("bb", "s1"),
      approval("a", "s1"),
      approval("c", "s2"),
      approval("d", "s1", { state: "allowed" }),
    ];
    expect(approvalsOfRow(row("r"), list).map((a) => a.id)).toEqual(["a", "bb"]);
  });

  it("gives other rows, and rows without a session, none", () => {
    const list = [approval("a", "s1")];
    expect(approvalsOfRow(row("r", { category: "session" }), list)).toEqual([]);
    expect(approvalsOfRow(row("r", { source: {} }), list)).toEqual([]);
  });

  it("gives an input request's or key proposal's row none: it shows its own card", () => {
    const list = [approval("a", "s1")];
    const source = { sessionId: "s1", requestId: "q1" };
    expect(approvalsOfRow(row("r", { reason: "input_request", source }), list)).toEqual([]);
    expect(approvalsOfRow(row("r", { reason: "key_proposal", source }), list)).toEqual([]);
  });
});

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

describe("rowToMarkRead", () => {
  it("is the session's unread cli_pending row once its last approval is answered", () => {
    const a = approval("a", "s1");
    const rows = [row("other", { category: "session" }), row("r1"), row("r2", { source: { sessionId: "s2" } })];
    expect(rowToMarkRead(rows, [a], a)?.id).toBe("r1");
  });

  it("is none while another approval of the session waits, or when the row is already read", () => {
    const a = approval("a", "s1");
    expect(rowToMarkRead([row("r1")], [a, approval("b", "s1")], a)).toBeNull();
    expect(rowToMarkRead([row("r1")], [a, approval("b", "s2")], a)?.id).toBe("r1");
    expect(rowToMarkRead([row("r1", { readAt: "2026-01-01T00:00:00Z" })], [a], a)).toBeNull();
  });
});

describe("describeInput", () => {
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
