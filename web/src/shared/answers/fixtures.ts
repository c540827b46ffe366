/** Approvals for tests: a pending `Bash` call unless told otherwise. */
import type { Approval } from "../api/types.generated";

export const approval = (id: string, sessionId: string, over: Partial<Approval> = {}): Approval => ({
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
