import { describe, expect, it } from "vitest";
import type { InboxRow } from "../../shared/api/types.generated";
import { inboxRow } from "../../shared/inbox/fixtures";
import { approval } from "../../shared/answers/fixtures";
import { approvalSessionOf, rowToMarkRead } from "./approvals";

const row = (id: string, over: Partial<InboxRow> = {}): InboxRow =>
  inboxRow(id, {
    category: "cli_pending",
    title: "s asks to use Bash",
    reason: "permission",
    source: { sessionId: "s1" },
    ...over,
  });

describe("approvalSessionOf", () => {
  it("is a cli_pending row's session", () => {
    expect(approvalSessionOf(row("r"))).toBe("s1");
  });

  it("is none for other rows, and rows without a session", () => {
    expect(approvalSessionOf(row("r", { category: "session" }))).toBeNull();
    expect(approvalSessionOf(row("r", { source: {} }))).toBeNull();
  });

  it("is none for an input request's or key proposal's row: it shows its own card", () => {
    const source = { sessionId: "s1", requestId: "q1" };
    expect(approvalSessionOf(row("r", { reason: "input_request", source }))).toBeNull();
    expect(approvalSessionOf(row("r", { reason: "key_proposal", source }))).toBeNull();
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
