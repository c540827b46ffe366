/**
 * Everything a session waits on the user for, answered in place: its pending approvals (Approve,
 * Deny, Always for this session), its input requests (the password field), and, when it waits for
 * input, a reply box that sends the follow-up. The board and the session page draw it; the inbox
 * draws the same cards under its rows.
 */
import type { Approval, InputRequest } from "../api/types.generated";
import { ApprovalCard } from "./ApprovalCard";
import { InputRequestCard } from "./InputRequestCard";
import { ReplyBox } from "./ReplyBox";
import type { Approvals } from "./useApprovals";
import "./answers.css";

interface Props {
  sessionId: string;
  /** The session's title, for the reply box's name. */
  title: string;
  approvals: Approvals;
  /** The pending input requests of this session. */
  requests: readonly InputRequest[];
  /** Offer a reply box: the session waits for input. */
  reply: boolean;
}

/** The pending approvals of `sessionId`, oldest first, as they are answered. */
export function approvalsOf(approvals: readonly Approval[], sessionId: string): Approval[] {
  return approvals
    .filter((a) => a.sessionId === sessionId && a.state === "pending")
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

export function SessionAnswers({ sessionId, title, approvals, requests, reply }: Props) {
  const mine = approvalsOf(approvals.approvals, sessionId);
  if (mine.length === 0 && requests.length === 0 && !reply) return null;
  return (
    <div className="approvals" aria-label={`What ${title} needs from you`} role="group">
      {mine.map((a) => (
        <ApprovalCard
          key={a.id}
          approval={a}
          busy={approvals.busy.has(a.id)}
          error={approvals.errors.get(a.id)}
          onDecide={(decision, remember) => approvals.decide(a, decision, remember)}
        />
      ))}
      {requests.map((r) => (
        <InputRequestCard key={r.id} requestId={r.id} />
      ))}
      {reply && <ReplyBox sessionId={sessionId} to={title} />}
    </div>
  );
}
