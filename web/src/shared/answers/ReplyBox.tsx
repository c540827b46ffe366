/**
 * A follow-up typed where an agent's question shows (an inbox row, a board row), so answering
 * does not mean leaving; a `/` at the start lists the session's skills, as on its page.
 */
import "./answers.css";
import type { Session } from "../api/types.generated";
import { ComposerField } from "../composer/ComposerField";
import { useFollowUp } from "./useFollowUp";

interface Props {
  sessionId: string;
  /** Whom the reply goes to, for the field's name ("Reply to Fix the login bug"). */
  to: string;
  onSent?: (session: Session) => void;
}

export function ReplyBox({ sessionId, to, onSent }: Props) {
  const reply = useFollowUp(sessionId, (_text, session) => onSent?.(session));
  return (
    <form className="reply-box" onSubmit={reply.send} onClick={(e) => e.stopPropagation()}>
      <ComposerField
        className="reply-box-field"
        aria-label={`Reply to ${to}`}
        placeholder={`Reply (${reply.hint})`}
        rows={1}
        value={reply.text}
        disabled={reply.busy}
        onValue={reply.setText}
        onKeyDown={reply.onKeyDown}
        skills={{ sessionId }}
      />
      <button type="submit" disabled={reply.busy || reply.text.trim() === ""}>
        Send
      </button>
      {reply.error && (
        <p className="approval-error" role="alert">
          {reply.error}
        </p>
      )}
    </form>
  );
}
