/** Meeting rooms' calls (`/meeting-rooms`), typed by the server's wire types. */
import { apiFetch } from "../../shared/api/client";
import type { MeetingRoom, MeetingRoomFields } from "../../shared/api/types.generated";

export type { MeetingRoom, MeetingRoomFields };

export const listRooms = () => apiFetch<{ rooms: MeetingRoom[] }>("/meeting-rooms").then((r) => r.rooms);

export const addRoom = (fields: MeetingRoomFields) =>
  apiFetch<MeetingRoom>("/meeting-rooms", { method: "POST", body: fields });

export const removeRoom = (id: string) =>
  apiFetch<void>(`/meeting-rooms/${encodeURIComponent(id)}`, { method: "DELETE" });
