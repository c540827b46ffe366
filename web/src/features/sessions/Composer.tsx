/**
 * The follow-up box. `sessionAutoFocusInput` puts the cursor in it when the page opens; `R`
 * pressed outside a text field focuses it either way. Enter sends, Shift+Enter starts a line.
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { errorMessage } from "../../shared/api/errorMessage";
import type { Session } from "../../shared/api/types.generated";
import { sendMessage } from "./api";

function typingIn(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))
  );
}

interface Props {
  sessionId: string;
  /** Why the session takes no more messages, when it does not. */
  closed: string | null;
  autoFocus: boolean;
  onSent: (text: string, session: Session) => void;
}

export function Composer({ sessionId, closed, autoFocus, onSent }: Props) {
  const input = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

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

  const send = (event?: FormEvent) => {
    event?.preventDefault();
    const message = text.trim();
    if (!message || busy) return;
    setBusy(true);
    setError(undefined);
    sendMessage(sessionId, message).then(
      (session) => {
        setBusy(false);
        setText("");
        onSent(message, session);
      },
      (e: unknown) => {
        setBusy(false);
        setError(errorMessage(e));
      },
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) send(event);
  };

  return (
    <form className="composer" onSubmit={send}>
      <textarea
        ref={input}
        aria-label="Follow-up message"
        placeholder={closed ?? "Send a follow-up (Enter sends, Shift+Enter for a new line)"}
        value={text}
        disabled={closed !== null}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        rows={3}
      />
      <button type="submit" disabled={closed !== null || busy || !text.trim()}>
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
