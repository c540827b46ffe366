/**
 * The open thread: its subject and triage buttons (the same as the keys), "Catch me up" (on the
 * button, or by itself on open as `mailclientAiSummaryTrigger` says), its messages, and the reply
 * being written. With `webmailAutoFocusReply` off the pane takes the focus, so triage keys act on
 * it at once; on, a reply box opens with the cursor in it.
 */
import { forwardRef, useEffect, useEffectEvent, useState, type ReactNode } from "react";
import { errorMessage } from "../../shared/api/errorMessage";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { getThread, summarizeThread, type MailThread, type ThreadSummary } from "./api";
import { Composer } from "./Composer";
import type { ComposeKind, Draft } from "./compose";
import { MessageView } from "./MessageView";
import { summarizesOnOpen } from "./summary";

interface Props {
  summary: ThreadSummary | undefined;
  threadId: string;
  accountId: string;
  /** The reply being written in this thread, if one is. */
  draft: Draft | null;
  autoFocusReply: boolean;
  summaryTrigger: unknown;
  summarySenders: unknown;
  /** Buttons and pickers of the page's triage, drawn in the pane's bar. */
  toolbar: ReactNode;
  onLoaded: (thread: MailThread) => void;
  onCompose: (kind: Exclude<ComposeKind, "new">) => void;
  onDraftDone: () => void;
  onBack?: () => void;
}

/** The thread, read when opened; `onArrive` runs once it is here (not on a later draw). */
function useThread(id: string, onArrive: (thread: MailThread) => void) {
  const [state, setState] = useState<{ id: string; thread?: MailThread; error?: unknown }>({ id });
  const [generation, setGeneration] = useState(0);
  const arrived = useEffectEvent(onArrive);
  useEffect(() => {
    let live = true;
    getThread(id).then(
      (thread) => {
        if (!live) return;
        setState({ id, thread });
        arrived(thread);
      },
      (error: unknown) => live && setState({ id, error }),
    );
    return () => {
      live = false;
    };
  }, [id, generation]);
  const current = state.id === id ? state : { id };
  return { ...current, reload: () => setGeneration((g) => g + 1) };
}

export const ThreadPane = forwardRef<HTMLDivElement, Props>(function ThreadPane(props, ref) {
  const { threadId, summary, draft, autoFocusReply, onLoaded, onCompose } = props;
  const [catchUp, setCatchUp] = useState<{ id: string; busy: boolean; text?: string; error?: string }>({
    id: threadId,
    busy: false,
  });
  const caught = catchUp.id === threadId ? catchUp : { id: threadId, busy: false };

  const summarize = async () => {
    setCatchUp({ id: threadId, busy: true });
    try {
      const reply = await summarizeThread(threadId);
      setCatchUp({ id: threadId, busy: false, text: reply.summary });
    } catch (cause) {
      setCatchUp({ id: threadId, busy: false, error: errorMessage(cause) });
    }
  };

  const loaded = useThread(threadId, (thread) => {
    onLoaded(thread);
    // The settings as they are when the thread opens.
    if (
      summarizesOnOpen(
        props.summaryTrigger,
        props.summarySenders,
        thread.messages.map((m) => m.from),
      )
    ) {
      void summarize();
    }
    if (autoFocusReply) onCompose("reply");
  });
  const thread = loaded.thread;

  const title = thread?.subject ?? summary?.subject ?? "Thread";
  return (
    <div className="mail-thread" ref={ref} tabIndex={-1} aria-labelledby="mail-thread-subject" role="region">
      <div className="mail-thread-bar">
        {props.onBack && (
          <button type="button" className="mail-back" onClick={props.onBack}>
            Back to the list
          </button>
        )}
        {props.toolbar}
      </div>
      <h2 id="mail-thread-subject" className="mail-thread-subject">
        {title || "(no subject)"}
      </h2>
      <div className="mail-catchup">
        <button
          type="button"
          onClick={() => void summarize()}
          disabled={caught.busy}
          aria-busy={caught.busy || undefined}
        >
          {caught.busy ? "Catching up…" : "Catch me up"}
        </button>
        {caught.text && (
          <p className="mail-catchup-text" aria-live="polite">
            {caught.text}
          </p>
        )}
        {caught.error && (
          <p className="mail-error" role="alert">
            {caught.error}
          </p>
        )}
      </div>
      {loaded.error !== undefined && <ErrorNote error={loaded.error} onRetry={loaded.reload} />}
      {!thread && loaded.error === undefined && <Loading what="the thread" />}
      {thread?.messages.map((message, at) => (
        <MessageView key={message.id} message={message} folded={at < thread.messages.length - 1} />
      ))}
      {draft && (
        <Composer
          key={`${draft.kind}:${draft.inReplyTo ?? ""}`}
          accountId={props.accountId}
          draft={draft}
          focus
          onSent={props.onDraftDone}
          onDiscard={props.onDraftDone}
        />
      )}
    </div>
  );
});
