import { describe, expect, it } from "vitest";
import type { InboxRow } from "../../shared/api/types.generated";
import { inboxRow } from "../../shared/inbox/fixtures";
import { approval } from "../../shared/answers/fixtures";
import { approvalSessionOf, automationApprovalOf, rowToMarkRead } from "./approvals";

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

describe("automationApprovalOf", () => {
  const scheduleRow = (over: Partial<InboxRow> = {}) =>
    inboxRow("c", {
      category: "cron",
      title: "An agent scheduled Nightly triage",
      reason: "schedule_approval",
      actions: [{ kind: "approve_schedule", scheduleId: "s 1" }],
      ...over,
    });

  it("is the schedule an unread row's approve_schedule action names", () => {
    expect(automationApprovalOf(scheduleRow())).toEqual({
      kind: "schedule",
      id: "s 1",
      path: "/schedules/s%201/approve",
    });
  });

  it("is the rule of an approve_rule action", () => {
    const actions: InboxRow["actions"] = [{ kind: "approve_rule", ruleId: "r1" }];
    expect(automationApprovalOf(scheduleRow({ category: "automations", actions }))).toEqual({
      kind: "rule",
      id: "r1",
      path: "/rules/r1/approve",
    });
  });

  it("is none once the row is read or archived, and for rows without such an action", () => {
    expect(automationApprovalOf(scheduleRow({ readAt: "2026-01-01T00:00:00Z" }))).toBeNull();
    expect(automationApprovalOf(scheduleRow({ archivedAt: "2026-01-01T00:00:00Z" }))).toBeNull();
    expect(automationApprovalOf(scheduleRow({ actions: [{ kind: "open_session", sessionId: "s" }] }))).toBeNull();
    expect(automationApprovalOf(row("r"))).toBeNull();
  });
});
