/**
 * Writing mail: a new message, a reply, a reply to all or a forward, in Markdown, with files
 * attached (each with its size; one over the server's limit is refused with the server's words).
 * A send that fails keeps everything typed and says why; Escape or Discard closes it.
 */
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { errorMessage } from "../../shared/api/errorMessage";
import { sendMail, type OutgoingAttachment } from "./api";
import { splitAddresses, type Draft } from "./compose";
import { sizeText } from "./folders";
import { Hint } from "../../shared/ui/Hint";

interface Props {
  accountId: string;
  draft: Draft;
  /** Puts the cursor in the body (a reply) or the To field (a new message or a forward) when it opens. */
  focus: boolean;
  onSent: () => void;
  onDiscard: () => void;
}

const TITLE: Record<Draft["kind"], string> = {
  new: "New message",
  reply: "Reply",
  replyAll: "Reply all",
  forward: "Forward",
};

/** The file's bytes as base64, for the JSON body. */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(",") + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error(`${file.name} could not be read.`));
    reader.readAsDataURL(file);
  });
}

export function Composer({ accountId, draft: start, focus, onSent, onDiscard }: Props) {
  const [draft, setDraft] = useState(start);
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const firstField = useRef<HTMLInputElement>(null);
  const body = useRef<HTMLTextAreaElement>(null);
  const isReply = start.kind === "reply" || start.kind === "replyAll";

  useEffect(() => {
    if (!focus) return;
    if (isReply && body.current) {
      body.current.focus();
      body.current.setSelectionRange(0, 0);
    } else {
      firstField.current?.focus();
    }
  }, [focus, isReply]);

  const field = (key: "to" | "cc" | "bcc" | "subject" | "markdown") => ({
    value: draft[key],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setDraft((d) => ({ ...d, [key]: event.target.value })),
  });

  const addFiles = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(event.target.files ?? []);
    setFiles((held) => [...held, ...chosen]);
    event.target.value = "";
  };

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const attachments: OutgoingAttachment[] = await Promise.all(
        files.map(async (file) => ({
          name: file.name,
          contentType: file.type || "application/octet-stream",
          data: await base64Of(file),
        })),
      );
      await sendMail({
        accountId,
        to: splitAddresses(draft.to),
        cc: splitAddresses(draft.cc),
        bcc: splitAddresses(draft.bcc),
        subject: draft.subject,
        markdown: draft.markdown,
        inReplyTo: draft.inReplyTo,
        attachments: attachments.length > 0 ? attachments : undefined,
      });
      onSent();
    } catch (cause) {
      // The draft stays as typed: the person fixes what the server named and sends again.
      setError(errorMessage(cause));
    } finally {
      setBusy(false);
    }
  };

  const total = files.reduce((sum, file) => sum + file.size, 0);
  return (
    <form
      className="mail-composer"
      aria-label={TITLE[start.kind]}
      onSubmit={(event) => void send(event)}
      onKeyDown={(event) => {
        if (event.key === "Escape") onDiscard();
        if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) void send(event);
      }}
    >
      <h2 className="mail-composer-title">{TITLE[start.kind]}</h2>
      <label htmlFor={`${id}-to`}>To</label>
      <input id={`${id}-to`} ref={firstField} type="text" autoComplete="email" {...field("to")} />
      <label htmlFor={`${id}-cc`}>Cc</label>
      <input id={`${id}-cc`} type="text" {...field("cc")} />
      <label htmlFor={`${id}-bcc`}>Bcc</label>
      <input id={`${id}-bcc`} type="text" {...field("bcc")} />
      <label htmlFor={`${id}-subject`}>Subject</label>
      <input id={`${id}-subject`} type="text" {...field("subject")} />
      <label htmlFor={`${id}-body`}>
        Message <span className="muted">(Markdown)</span>
      </label>
      <textarea id={`${id}-body`} ref={body} rows={10} {...field("markdown")} />
      <div className="mail-attach">
        <label className="mail-attach-pick">
          Attach files
          <input type="file" multiple onChange={addFiles} />
        </label>
        {files.length > 0 && (
          <ul className="mail-attach-list" aria-label="Attachments">
            {files.map((file, at) => (
              <li key={`${file.name}:${at}`}>
                <span className="mail-attach-name">{file.name}</span>{" "}
                <span className="muted">{sizeText(file.size)}</span>{" "}
                <button type="button" onClick={() => setFiles((held) => held.filter((_, i) => i !== at))}>
                  Remove<span className="visually-hidden"> {file.name}</span>
                </button>
              </li>
            ))}
            {files.length > 1 && <li className="muted">{sizeText(total)} in all</li>}
          </ul>
        )}
      </div>
      {error && (
        <p className="mail-error" role="alert">
          Not sent: {error}
        </p>
      )}
      <div className="mail-composer-actions">
        {/* Not disabled while sending: a disabled button drops the focus, and Escape or a retry needs it. */}
        <button type="submit" className="primary" aria-disabled={busy || undefined} aria-busy={busy || undefined}>
          {busy ? "Sending…" : "Send"}
        </button>
        <button type="button" onClick={onDiscard} disabled={busy}>
          Discard
        </button>
        <Hint className="muted shortcut-hint">
          <kbd>Ctrl</kbd>+<kbd>Enter</kbd> sends
        </Hint>
      </div>
    </form>
  );
}
