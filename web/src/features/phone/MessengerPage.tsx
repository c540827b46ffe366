/**
 * `/messenger` (setting `messengerEnabled`): the owner's own Matrix rooms, the latest first, the
 * open room's messages, and a reply box. Not the agents' messenger bot. An inbox row of category
 * `messenger` opens its room here (`?room=`).
 */
import { useCallback, useEffect, useState } from "react";
import { PageHeader } from "../../shared/ui/PageHeader";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { listRoomMessages, listRooms, sendRoomMessage, type MatrixMessage, type MatrixRoom } from "./api";
import { MAX_MESSAGE_CHARS, openedFrom } from "./conversation";
import { ReplyBox } from "./ReplyBox";
import "./phone.css";

export function MessengerPage() {
  const [rooms, setRooms] = useState<MatrixRoom[]>();
  const [error, setError] = useState<unknown>();
  const [open, setOpen] = useState<string | null>(() => openedFrom(window.location.search, "room"));
  const [reads, setReads] = useState(0);
  const reload = useCallback(() => setReads((n) => n + 1), []);
  useEffect(() => {
    listRooms().then(
      (list) => {
        setRooms(list);
        setError(undefined);
      },
      (e: unknown) => setError(e),
    );
  }, [reads]);
  const room = rooms?.find((r) => r.id === open);
  return (
    <section className="page phone-page">
      <PageHeader title="Messenger" />
      {error !== undefined && <ErrorNote error={error} onRetry={reload} />}
      {rooms === undefined && error === undefined && <Loading what="your rooms" />}
      <div className="phone-split">
        {rooms && (
          <ul className="phone-list" aria-label="Rooms">
            {rooms.length === 0 && <li className="muted">No rooms yet.</li>}
            {rooms.map((r) => (
              <li key={r.id}>
                <button type="button" className="phone-item" aria-current={r.id === open} onClick={() => setOpen(r.id)}>
                  <strong>{r.name}</strong>
                  <span className="muted phone-snippet">{r.lastText ?? ""}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="phone-thread">
          {open ? (
            <Room id={open} name={room?.name ?? open} onChanged={reload} />
          ) : (
            <p className="muted">Choose a room.</p>
          )}
        </div>
      </div>
    </section>
  );
}

function Room({ id, name, onChanged }: { id: string; name: string; onChanged: () => void }) {
  const [messages, setMessages] = useState<MatrixMessage[]>();
  const [error, setError] = useState<unknown>();
  const [reads, setReads] = useState(0);
  useEffect(() => {
    listRoomMessages(id).then(setMessages, (e: unknown) => setError(e));
  }, [id, reads]);
  const send = async (text: string) => {
    await sendRoomMessage(id, text);
    setReads((n) => n + 1);
    onChanged();
  };
  return (
    <>
      <h2>{name}</h2>
      {error !== undefined && <ErrorNote error={error} />}
      {messages === undefined && error === undefined && <Loading what="the room" />}
      <ol className="phone-messages">
        {messages?.map((m) => (
          <li key={m.eventId} className={m.own ? "phone-own" : undefined}>
            {!m.own && <strong>{m.sender}</strong>}
            <p>{m.body}</p>
            <small className="muted">{new Date(m.sentAt).toLocaleString()}</small>
          </li>
        ))}
      </ol>
      <ReplyBox label={`Reply in ${name}`} max={MAX_MESSAGE_CHARS} onSend={send} />
    </>
  );
}
