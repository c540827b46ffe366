/**
 * The follow-up box. `sessionAutoFocusInput` puts the cursor in it when the page opens; `R`
 * pressed outside a text field focuses it either way. Enter sends, Shift+Enter starts a line (on a
 * touch screen, Send sends); a `/` at the start opens the session's skills above the box. Images
 * may be attached (the button, paste, drop) and go with the message.
 */
import { useEffect, useRef } from "react";
import type { Session } from "../../shared/api/types.generated";
import { useFollowUp } from "../../shared/answers/useFollowUp";
import { readyIds, uploading } from "../../shared/composer/attachments";
import { ComposerField } from "../../shared/composer/ComposerField";
import { typingIn } from "../../shared/keys";

interface Props {
  sessionId: string;
  /** Why the session takes no more messages, when it does not. */
  closed: string | null;
  autoFocus: boolean;
  onSent: (text: string, session: Session) => void;
}

export function Composer({ sessionId, closed, autoFocus, onSent }: Props) {
  const input = useRef<HTMLTextAreaElement>(null);
  const { text, setText, chips, setChips, busy, error, send, onKeyDown, hint } = useFollowUp(sessionId, onSent);

  useEffect(() => {
    if (autoFocus) input.current?.focus();
  }, [autoFocus, sessionId]);

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== "r" && event.key !== "R") return;
      if (event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return;
      if (document.querySelector("dialog[open]")) return;
      event.preventDefault();
      input.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  return (
    <form className="composer" onSubmit={send}>
      <ComposerField
        inputRef={input}
        aria-label="Follow-up message"
        placeholder={closed ?? `Send a follow-up (${hint})`}
        value={text}
        disabled={closed !== null}
        onValue={setText}
        onKeyDown={onKeyDown}
        rows={3}
        skills={{ sessionId }}
        menuPlacement="above"
        attachments={chips}
        onAttachments={setChips}
      />
      <button
        type="submit"
        disabled={closed !== null || busy || uploading(chips) || (!text.trim() && readyIds(chips).length === 0)}
      >
        Send
      </button>
      {error && (
        <div className="inline-error" role="alert">
          {error}
        </div>
      )}
    </form>
  );
}
