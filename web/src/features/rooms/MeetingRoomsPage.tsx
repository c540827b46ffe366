/**
 * `/meeting-rooms` (setting `meetingRoomsEnabled`): the saved video rooms, each opened in a new
 * tab, a room saved from any link, and "Make a Jitsi room", which the server names unguessably.
 * The setting hides this page, its sidebar entry and its shortcut; the rooms stay saved.
 */
import { useCallback, useEffect, useState } from "react";
import { Button } from "../../shared/ui/Button";
import { EmptyState } from "../../shared/ui/EmptyState";
import { PageHeader } from "../../shared/ui/PageHeader";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { useToast } from "../../shared/ui/toasts";
import { addRoom, listRooms, removeRoom, type MeetingRoom } from "./api";
import "./rooms.css";

const PROVIDER: Record<MeetingRoom["provider"], string> = {
  jitsi: "Jitsi",
  meet: "Google Meet",
  zoom: "Zoom",
  other: "Link",
};

export function MeetingRoomsPage() {
  const toast = useToast();
  const [rooms, setRooms] = useState<MeetingRoom[]>();
  const [error, setError] = useState<unknown>();
  const [reads, setReads] = useState(0);
  const reload = useCallback(() => setReads((n) => n + 1), []);
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  useEffect(() => {
    listRooms().then(
      (list) => {
        setRooms(list);
        setError(undefined);
      },
      (e: unknown) => setError(e),
    );
  }, [reads]);
  const save = (jitsi: boolean) => {
    const roomName = name.trim() || (jitsi ? "Jitsi room" : "");
    addRoom(jitsi ? { name: roomName, jitsi: true } : { name: roomName, url }).then(
      () => {
        setName("");
        setUrl("");
        reload();
      },
      (e: unknown) => toast.error(e, "The room was not saved"),
    );
  };
  const remove = (room: MeetingRoom) =>
    removeRoom(room.id).then(reload, (e: unknown) => toast.error(e, `${room.name} was not deleted`));
  return (
    <section className="page rooms-page">
      <PageHeader title="Meeting rooms" note={<p className="muted">Ctrl+Shift+Z opens this page from anywhere.</p>} />
      <form
        className="rooms-form"
        aria-label="Save a room"
        onSubmit={(e) => {
          e.preventDefault();
          save(false);
        }}
      >
        <label>
          Name <input value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Link <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://…" />
        </label>
        <Button type="submit" variant="primary" disabled={!url.trim() || !name.trim()}>
          Save room
        </Button>
        <Button onClick={() => save(true)}>Make a Jitsi room</Button>
      </form>
      {error !== undefined && <ErrorNote error={error} onRetry={reload} />}
      {rooms === undefined && error === undefined && <Loading what="your rooms" />}
      {rooms?.length === 0 && <EmptyState>No rooms yet: save a link, or make a Jitsi room.</EmptyState>}
      {rooms && rooms.length > 0 && (
        <ul className="rooms-list" aria-label="Rooms">
          {rooms.map((room) => (
            <li key={room.id} className="room">
              <a href={room.url} target="_blank" rel="noopener noreferrer" className="room-link">
                {room.name}
              </a>
              <span className="muted">{PROVIDER[room.provider]}</span>
              <code className="room-url">{room.url}</code>
              <Button variant="danger" onClick={() => void remove(room)} label={`Delete ${room.name}`}>
                Delete
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
