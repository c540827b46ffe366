/**
 * The reply box of a mail card in the inbox (`mailclientEmailsInInbox`): typed in place, sent
 * through the account's SMTP as a reply to the thread's last message, threaded. A failed send
 * keeps the text and shows the server's words.
 */
import { useState, type FormEvent } from "react";
import { errorMessage } from "../../shared/api/errorMessage";
import type { InboxRow } from "../../shared/api/types.generated";
import { getThread, listAccounts, sendMail } from "./api";
import { mailCardTarget } from "./card";
import { draftFor, splitAddresses } from "./compose";

export function MailCardReply({ row, onSent }: { row: InboxRow; onSent: () => void }) {
  const target = mailCardTarget(row);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  if (!target) return null;

  const send = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const [thread, accounts] = await Promise.all([getThread(target.threadId), listAccounts()]);
      const last = thread.messages.at(-1);
      if (!last) throw new Error("The thread has no message to answer.");
      const self = accounts.filter((a) => a.id === target.accountId).map((a) => a.address);
      const draft = draftFor("reply", last, self);
      await sendMail({
        accountId: target.accountId,
        to: splitAddresses(draft.to),
        subject: draft.subject,
        markdown: `${text}${draft.markdown}`,
        inReplyTo: draft.inReplyTo,
      });
      setText("");
      setSent(true);
      onSent();
    } catch (cause) {
      setError(errorMessage(cause));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="reply-box" onSubmit={(event) => void send(event)} onClick={(event) => event.stopPropagation()}>
      <textarea
        className="reply-box-field"
        aria-label={`Reply to ${row.title}`}
        placeholder="Reply by email"
        rows={1}
        value={text}
        disabled={busy}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit" disabled={busy || text.trim() === ""} aria-busy={busy || undefined}>
        Send
      </button>
      {sent && !error && (
        <span className="muted" role="status">
          Sent.
        </span>
      )}
      {error && (
        <p className="approval-error" role="alert">
          Not sent: {error}
        </p>
      )}
    </form>
  );
}
