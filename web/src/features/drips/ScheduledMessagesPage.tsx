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
  STATE_LABEL,
  timingText,
  untilText,
  wallTime,
  type MessageDraft,
} from "./drips";
import { MarkdownNote } from "./ItemPreview";
import { formErrors, NO_ERRORS, withoutFields, type FormErrors } from "../../shared/api/formErrors";
import { FieldError, FormError, invalidFor } from "./FieldError";
import { SchedulePicker } from "../../shared/schedule/SchedulePicker";
import { changedFields, whenDraft } from "../../shared/schedule/when";
import { CadenceActions, useCall } from "./actions";
import "./drips.css";
import { Pill } from "../../shared/ui/Pill";
import { FormActions } from "../../shared/ui/FormActions";

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
        <Pill status={message.state} className="drip-state">
          {STATE_LABEL[message.state]}
        </Pill>
        {message.createdBySession && <Pill>from an agent</Pill>}
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
  const [draft, setDraft] = useState<MessageDraft>(() => ({ ...whenDraft("once", browserZone()), markdown: "" }));
  const [previewing, setPreviewing] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const formNow = useNow();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = messageFields(draft, new Date());
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setBusy(true);
    setErrors(NO_ERRORS);
    createMessage(checked.value).then(
      () => onDone(true),
      (e: unknown) => {
        setBusy(false);
        setErrors(formErrors(e));
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
          {...invalidFor(FORM, "markdown", errors)}
        />
      </label>
      <FieldError form={FORM} field="markdown" errors={errors} />
      <label className="drip-check">
        <input type="checkbox" checked={previewing} onChange={(e) => setPreviewing(e.target.checked)} />
        Preview the Markdown
      </label>
      {previewing && draft.markdown.trim() && <MarkdownNote markdown={draft.markdown} />}
      <SchedulePicker
        form={FORM}
        draft={draft}
        once
        errors={errors}
        now={new Date(formNow)}
        onChange={(patch) => {
          setDraft((d) => ({ ...d, ...patch }));
          setErrors((e) => withoutFields(e, changedFields(patch)));
        }}
      />
      <FormError errors={errors} shown={FIELDS} />
      <FormActions submitLabel="Schedule" onCancel={() => onDone(false)} busy={busy} />
    </form>
  );
}
