/**
 * A follow-up being typed and sent to a session (`POST /sessions/<id>/messages`), shared by the
 * session page's composer and the reply boxes on inbox and board rows: the text clears once the
 * server accepts it, and a refusal is kept to show beside the box. Enter sends, Shift+Enter (or
 * an input method composing) starts a line; on a touch screen Enter starts a line and the Send
 * button sends, as the box's `hint` says. Images attached in the box go with the text (their ids);
 * a send waits for their uploads, and a refusal (a model that cannot see them) is shown the same way.
 */
import { useState, type FormEvent, type KeyboardEvent } from "react";
import { apiFetch } from "../api/client";
import { errorMessage } from "../api/errorMessage";
import type { Session } from "../api/types.generated";
import { readyIds, uploading, type Chip } from "../composer/attachments";
import { COARSE_QUERY, sendHint } from "../ui/touch";
import { useMediaQuery } from "../useMediaQuery";

export interface FollowUp {
  text: string;
  setText(text: string): void;
  /** The images attached in the box. */
  chips: Chip[];
  setChips(update: (chips: Chip[]) => Chip[]): void;
  busy: boolean;
  error: string | undefined;
  send(event?: FormEvent): void;
  onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): void;
  /** How to send, for the box's placeholder: "Enter sends, …", or "tap Send to send" on a touch screen. */
  hint: string;
}

/** The reply is the session right after the message was accepted (its `pendingMessages` count it). */
const sendMessage = (id: string, text: string, attachments: string[]) =>
  apiFetch<Session>(`/sessions/${encodeURIComponent(id)}/messages`, {
    method: "POST",
    body: attachments.length > 0 ? { text, attachments } : { text },
  });

export function useFollowUp(sessionId: string, onSent: (text: string, session: Session) => void): FollowUp {
  const [text, setText] = useState("");
  const [chips, setChips] = useState<Chip[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const touch = useMediaQuery(COARSE_QUERY);
  const send = (event?: FormEvent) => {
    event?.preventDefault();
    const message = text.trim();
    const attachments = readyIds(chips);
    if ((!message && attachments.length === 0) || busy || uploading(chips)) return;
    setBusy(true);
    setError(undefined);
    sendMessage(sessionId, message, attachments).then(
      (session) => {
        setBusy(false);
        setText("");
        setChips([]);
        onSent(message, session);
      },
      (e: unknown) => {
        setBusy(false);
        setError(errorMessage(e));
      },
    );
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (touch) return;
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) send(event);
  };
  return { text, setText, chips, setChips, busy, error, send, onKeyDown, hint: sendHint(touch) };
}
