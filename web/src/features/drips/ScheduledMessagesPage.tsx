/**
 * Scheduled messages (`/scheduled-messages`, docs/automations.md): Markdown notes dropped into the
 * inbox once or on a schedule, the user's and their agents'. Each card says when it goes next (on
 * the wall of its zone), how often it went, and offers Pause or Resume and Delete; New message
 * writes one with a preview of its Markdown. Shown while `scheduledMessagesEnabled` is on.
 */
import { EmptyState } from "../../shared/ui/EmptyState";
import { PageHeader } from "../../shared/ui/PageHeader";
import { useState, type FormEvent } from "react";
import type { ScheduledMessage } from "../../shared/api/types.generated";
import { useApi } from "../../shared/hooks/useApi";
import { exactTime, relativeTime } from "../../shared/time";
import { ConfirmDialog } from "../../shared/ui/Dialog";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { useNow } from "../../shared/useNow";
import { changeMessage, createMessage, deleteMessage, MESSAGES_PATH } from "./api";
import {
  browserZone,
  messageFields,
  orderMessages,
  refusal,
  STATE_LABEL,
  timingDraft,
  timingText,
  untilText,
  wallTime,
  type MessageDraft,
} from "./drips";
import { MarkdownNote } from "./ItemPreview";
import { FieldError, FormError, invalidFor, type Refusal } from "./FieldError";
import { TimingFields } from "./TimingFields";
import { CadenceActions, useCall } from "./actions";
import "./drips.css";

const FORM = "message-form";
const FIELDS = ["markdown", "at", "time", "rrule", "cron", "timeZone"];

export function ScheduledMessagesPage() {
  const listed = useApi<{ messages: ScheduledMessage[] }>(MESSAGES_PATH);
  const [writing, setWriting] = useState(false);
  const now = useNow();
  const messages = listed.data ? orderMessages(listed.data.messages) : undefined;
  return (
    <section className="page drip-page touch" aria-labelledby="messages-title">
      <PageHeader
        title="Scheduled messages"
        headingId="messages-title"
        actions={
          <button type="button" className="primary" onClick={() => setWriting((w) => !w)} aria-expanded={writing}>
            New message
          </button>
        }
      />
      <p className="muted drip-intro">
        A Markdown note dropped into your inbox at a time, once or on a schedule. Agents can schedule them too; their
        notes say which session sent them.
      </p>
      {writing && (
        <MessageForm
          onDone={(saved) => {
            setWriting(false);
            if (saved) listed.reload();
          }}
        />
      )}
      {listed.error !== undefined && <ErrorNote error={listed.error} onRetry={listed.reload} />}
      {listed.loading && !messages && <Loading what="scheduled messages" />}
      {messages?.length === 0 && !writing && (
        <EmptyState>No scheduled messages yet: New message writes the first.</EmptyState>
      )}
      {messages && messages.length > 0 && (
        <ul className="drip-list" aria-label="Scheduled messages">
          {messages.map((message) => (
            <MessageCard key={message.id} message={message} now={now} onChanged={listed.reload} />
          ))}
        </ul>
      )}
    </section>
  );
}

function MessageCard({ message, now, onChanged }: { message: ScheduledMessage; now: number; onChanged: () => void }) {
  const call = useCall();
  const [confirming, setConfirming] = useState(false);
  return (
    <li className={`drip-card drip-card-${message.state}`} data-message-id={message.id}>
      <div className="drip-card-head">
        <h3>{message.title}</h3>
        <span className={`tag drip-state drip-state-${message.state}`}>{STATE_LABEL[message.state]}</span>
        {message.createdBySession && <span className="tag">from an agent</span>}
      </div>
      <p className="drip-when">
        {timingText(message)} · {message.timeZone}
      </p>
      <dl className="drip-facts">
        <div>
          <dt>Next</dt>
          <dd>
            {message.state === "active" && message.nextAt ? (
              <time dateTime={message.nextAt} title={exactTime(message.nextAt)}>
                {wallTime(message.nextAt, message.timeZone)} ({untilText(message.nextAt, now)})
              </time>
            ) : (
              "—"
            )}
          </dd>
        </div>
        <div>
          <dt>Delivered</dt>
          <dd>
            {message.deliveries === 0 ? "Not yet" : `${message.deliveries}×`}
            {message.lastDeliveredAt && (
              <>
                , last{" "}
                <time dateTime={message.lastDeliveredAt} title={exactTime(message.lastDeliveredAt)}>
                  {relativeTime(message.lastDeliveredAt, now)}
                </time>
              </>
            )}
          </dd>
        </div>
      </dl>
      <details className="drip-note">
        <summary>The note</summary>
        <MarkdownNote markdown={message.markdown} />
      </details>
      <CadenceActions
        state={message.state}
        call={call}
        onMove={(change) => call.act(() => changeMessage(message.id, change), onChanged)}
        onDelete={() => setConfirming(true)}
      />
      {confirming && (
        <ConfirmDialog
          title="Delete this scheduled message"
          confirmLabel="Delete"
          onClose={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            call.act(() => deleteMessage(message.id), onChanged);
          }}
        >
          <p>
            Delete <strong>{message.title}</strong>? Notes it already delivered stay in the inbox.
          </p>
        </ConfirmDialog>
      )}
    </li>
  );
}

function MessageForm({ onDone }: { onDone: (saved: boolean) => void }) {
  const [draft, setDraft] = useState<MessageDraft>(() => ({ ...timingDraft("once", browserZone()), markdown: "" }));
  const [previewing, setPreviewing] = useState(false);
  const [error, setError] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = messageFields(draft);
    if (!checked.ok) {
      setError({ field: checked.field, message: checked.message });
      return;
    }
    setBusy(true);
    setError(null);
    createMessage(checked.value).then(
      () => onDone(true),
      (e: unknown) => {
        setBusy(false);
        setError(refusal(e, FIELDS));
      },
    );
  };
  return (
    <form className="drip-form" aria-label="New scheduled message" onSubmit={submit} noValidate>
      <label>
        Note (Markdown; its first line is the title)
        <textarea
          rows={6}
          value={draft.markdown}
          autoFocus
          placeholder={"# Weekly review\n\n- What shipped?\n- What is stuck?"}
          onChange={(e) => setDraft((d) => ({ ...d, markdown: e.target.value }))}
          {...invalidFor(FORM, "markdown", error)}
        />
      </label>
      <FieldError form={FORM} field="markdown" error={error} />
      <label className="drip-check">
        <input type="checkbox" checked={previewing} onChange={(e) => setPreviewing(e.target.checked)} />
        Preview the Markdown
      </label>
      {previewing && draft.markdown.trim() && <MarkdownNote markdown={draft.markdown} />}
      <TimingFields
        form={FORM}
        draft={draft}
        once
        error={error}
        onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))}
      />
      <FormError error={error} />
      <div className="drip-actions">
        <button type="submit" className="primary" disabled={busy}>
          Schedule
        </button>
        <button type="button" onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
