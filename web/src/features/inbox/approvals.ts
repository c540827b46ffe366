/**
 * Pending approvals on the inbox page: which approvals a `cli_pending` row stands for (its
 * session's pending ones), and which row to mark read once an approval is answered.
 */
import type { Approval, InboxRow } from "../../shared/api/types.generated";
import { secretCardOf } from "../../shared/answers/secrets";

/**
 * The session whose pending approvals a row shows: a `cli_pending` row's; none for other rows,
 * nor for an input request's or key proposal's row, which shows its own card (the session's
 * approvals show on its permission row, not again under each request).
 */
export function approvalSessionOf(row: InboxRow): string | null {
  const session = row.source.sessionId;
  if (row.category !== "cli_pending" || !session || secretCardOf(row)) return null;
  return session;
}

/**
 * The `cli_pending` row to mark read once `answered` is decided: its session's unread row, when
 * no other approval of that session is still pending; otherwise `null`.
 */
export function rowToMarkRead(
  rows: readonly InboxRow[],
  approvals: readonly Approval[],
  answered: Approval,
): InboxRow | null {
  const others = approvals.some(
    (a) => a.id !== answered.id && a.sessionId === answered.sessionId && a.state === "pending",
  );
  if (others) return null;
  return (
    rows.find((r) => r.category === "cli_pending" && r.source.sessionId === answered.sessionId && r.readAt === null) ??
    null
  );
}

/** A schedule or an automation rule an agent made, which the row's Approve button approves. */
export interface AutomationApproval {
  kind: "schedule" | "rule";
  id: string;
  /** Where approving it is posted. */
  path: string;
}

/**
 * What a row's Approve button approves: its `approve_schedule` or `approve_rule` action's schedule
 * or rule, while the row is unread (approving it marks it read); `null` for any other row.
 */
export function automationApprovalOf(row: InboxRow): AutomationApproval | null {
  if (row.readAt !== null || row.archivedAt !== null) return null;
  for (const action of row.actions) {
    if (action.kind === "approve_schedule") {
      return {
        kind: "schedule",
        id: action.scheduleId,
        path: `/schedules/${encodeURIComponent(action.scheduleId)}/approve`,
      };
    }
    if (action.kind === "approve_rule") {
      return { kind: "rule", id: action.ruleId, path: `/rules/${encodeURIComponent(action.ruleId)}/approve` };
    }
  }
  return null;
}
