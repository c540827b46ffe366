/**
 * The reply box under a conversation: a text area that sends on Ctrl/⌘+Enter or the button, says
 * why it cannot send, and clears once the server took the message.
 */
import { useState, type FormEvent, type KeyboardEvent } from "react";
import { Button } from "../../shared/ui/Button";
import { charCount, replyProblem } from "./conversation";

interface Props {
  label: string;
  max: number;
  onSend: (text: string) => Promise<void>;
}

export function ReplyBox({ label, max, onSend }: Props) {
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const send = async () => {
    const why = replyProblem(text, max);
    setProblem(why);
    if (why) return;
    setSending(true);
    try {
      await onSend(text);
      setText("");
    } catch (e: unknown) {
      setProblem(e instanceof Error ? e.message : "Not sent.");
    } finally {
      setSending(false);
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send();
    }
  };
  return (
    <form className="phone-reply" onSubmit={onSubmit}>
      <textarea
        aria-label={label}
        value={text}
        rows={3}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        disabled={sending}
      />
      <div className="phone-reply-bar">
        <span className="muted">
          {charCount(text)} / {max}
        </span>
        {problem && (
          <span className="phone-problem" role="alert">
            {problem}
          </span>
        )}
        <Button type="submit" variant="primary" disabled={sending}>
          Send
        </Button>
      </div>
    </form>
  );
}
