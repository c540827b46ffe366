/**
 * `/texts` (setting `smsEnabled`): the owner's text conversations, one per number, the latest
 * first, with the ones held in Spam on their own tab; the open thread's texts with their delivery
 * state, a reply box under it, and a form for a new text. An inbox row of category `sms` opens
 * its thread here (`?number=`).
 */
import { useCallback, useEffect, useState } from "react";
import { Button } from "../../shared/ui/Button";
import { PageHeader } from "../../shared/ui/PageHeader";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { letOutOfSpam, listTexts, listThreads, saveContact, sendText, type SmsMessage, type SmsThread } from "./api";
import { MAX_TEXT_CHARS, failureNote, openedFrom } from "./conversation";
import { ReplyBox } from "./ReplyBox";
import "./phone.css";

export function TextsPage() {
  const [spam, setSpam] = useState(false);
  const [threads, setThreads] = useState<SmsThread[]>();
  const [error, setError] = useState<unknown>();
  const [open, setOpen] = useState<string | null>(() => openedFrom(window.location.search, "number"));
  const [reads, setReads] = useState(0);
  const reload = useCallback(() => setReads((n) => n + 1), []);
  useEffect(() => {
    listThreads(spam).then(
      (list) => {
        setThreads(list);
        setError(undefined);
      },
      (e: unknown) => setError(e),
    );
  }, [spam, reads]);
  return (
    <section className="page phone-page">
      <PageHeader title="Texts" />
      <div className="phone-tabs" role="tablist">
        <Button role="tab" aria-selected={!spam} onClick={() => setSpam(false)}>
          Conversations
        </Button>
        <Button role="tab" aria-selected={spam} onClick={() => setSpam(true)}>
          Spam
        </Button>
      </div>
      {error !== undefined && <ErrorNote error={error} onRetry={reload} />}
      {threads === undefined && error === undefined && <Loading what="your texts" />}
      <div className="phone-split">
        {threads && (
          <ul className="phone-list" aria-label={spam ? "Held in Spam" : "Conversations"}>
            {threads.length === 0 && <li className="muted">Nothing here.</li>}
            {threads.map((t) => (
              <li key={t.number}>
                <button
                  type="button"
                  className="phone-item"
                  aria-current={t.number === open}
                  onClick={() => setOpen(t.number)}
                >
                  <strong>{t.name ?? t.number}</strong>
                  {t.unread > 0 && <span className="phone-unread">{t.unread}</span>}
                  <span className="muted phone-snippet">{t.lastText}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="phone-thread">
          {open ? (
            <Thread
              key={open}
              number={open}
              thread={threads?.find((t) => t.number === open)}
              onChanged={reload}
              onReleased={() => setSpam(false)}
            />
          ) : (
            <NewText onSent={(n) => (setOpen(n), reload())} />
          )}
        </div>
      </div>
    </section>
  );
}

/** The open thread, as the list last read it, and what its changes tell the page. */
interface ThreadProps {
  number: string;
  thread: SmsThread | undefined;
  onChanged: () => void;
  /** Let out of Spam: the list shows the conversations, where the thread now is. */
  onReleased: () => void;
}

function Thread({ number, thread, onChanged, onReleased }: ThreadProps) {
  const [texts, setTexts] = useState<SmsMessage[]>();
  const [error, setError] = useState<unknown>();
  const [reads, setReads] = useState(0);
  useEffect(() => {
    listTexts(number).then(setTexts, (e: unknown) => setError(e));
  }, [number, reads]);
  const send = async (text: string) => {
    await sendText(number, text);
    setReads((n) => n + 1);
    onChanged();
  };
  return (
    <>
      <h2>{thread?.name ?? number}</h2>
      <ThreadActions number={number} thread={thread} onChanged={onChanged} onReleased={onReleased} />
      {error !== undefined && <ErrorNote error={error} />}
      {texts === undefined && error === undefined && <Loading what="the conversation" />}
      <ol className="phone-messages">
        {texts?.map((m) => (
          <li key={m.id} className={m.direction === "out" ? "phone-own" : undefined}>
            <p>{m.text}</p>
            <small className="muted">
              {new Date(m.createdAt).toLocaleString()}
              {m.direction === "out" && ` · ${m.state}`}
            </small>
            {failureNote(m.state, m.failure) && (
              <small className="phone-problem">{failureNote(m.state, m.failure)}</small>
            )}
          </li>
        ))}
      </ol>
      <ReplyBox label={`Reply to ${number}`} max={MAX_TEXT_CHARS} onSend={send} />
    </>
  );
}

/** "Not spam" on a thread held in Spam; "Save as contact" on one with no name, whose texts are then never held. */
function ThreadActions({ number, thread, onChanged, onReleased }: ThreadProps) {
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState("");
  const [error, setError] = useState<unknown>();
  const act = (call: Promise<void>): Promise<boolean> =>
    call.then(
      () => {
        setError(undefined);
        setNaming(false);
        onChanged();
        return true;
      },
      (e: unknown) => {
        setError(e);
        return false;
      },
    );
  return (
    <div className="phone-actions">
      {thread?.spam && (
        <Button onClick={() => void act(letOutOfSpam(number)).then((done) => done && onReleased())}>Not spam</Button>
      )}
      {thread && thread.name === null && !naming && <Button onClick={() => setNaming(true)}>Save as contact</Button>}
      {naming && (
        <form
          className="phone-contact"
          onSubmit={(e) => {
            e.preventDefault();
            void act(saveContact(number, name));
          }}
        >
          <label>
            Contact name <input value={name} onChange={(e) => setName(e.target.value)} autoFocus required />
          </label>
          <Button type="submit" variant="primary">
            Save
          </Button>
          <Button onClick={() => setNaming(false)}>Cancel</Button>
        </form>
      )}
      {error !== undefined && <ErrorNote error={error} />}
    </div>
  );
}

function NewText({ onSent }: { onSent: (number: string) => void }) {
  const [to, setTo] = useState("");
  const send = async (text: string) => {
    if (!to.trim()) throw new Error("Whom to text? Fill in a number.");
    const sent = await sendText(to, text);
    onSent(sent.number);
  };
  return (
    <div className="phone-new">
      <h2>New text</h2>
      <label>
        To <input value={to} onChange={(e) => setTo(e.target.value)} inputMode="tel" placeholder="+49 30 1234567" />
      </label>
      <ReplyBox label="Text" max={MAX_TEXT_CHARS} onSend={send} />
    </div>
  );
}
