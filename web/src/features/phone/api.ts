/**
 * Thin typed calls for the texts and messenger pages; the wire types are the server's
 * (types.generated.ts). Both are the owner's own conversations (docs/phone.md).
 */
import { apiFetch } from "../../shared/api/client";
import type { MatrixMessage, MatrixRoom, SmsMessage, SmsThread } from "../../shared/api/types.generated";

export type { MatrixMessage, MatrixRoom, SmsMessage, SmsThread };

export const listThreads = (spam: boolean) => apiFetch<SmsThread[]>(`/sms/threads${spam ? "?spam=true" : ""}`);

export const listTexts = (number: string) =>
  apiFetch<SmsMessage[]>(`/sms/threads/${encodeURIComponent(number)}/messages`);

export const sendText = (to: string, text: string) =>
  apiFetch<SmsMessage>("/sms/send", { method: "POST", body: { to, text } });

export const saveContact = (number: string, name: string) =>
  apiFetch<void>(`/sms/contacts/${encodeURIComponent(number)}`, { method: "PUT", body: { name } });

export const letOutOfSpam = (number: string) =>
  apiFetch<void>(`/sms/threads/${encodeURIComponent(number)}/not-spam`, { method: "POST" });

export const listRooms = () => apiFetch<MatrixRoom[]>("/messenger/rooms");

export const listRoomMessages = (room: string) =>
  apiFetch<MatrixMessage[]>(`/messenger/rooms/${encodeURIComponent(room)}/messages`);

export const sendRoomMessage = (room: string, text: string) =>
  apiFetch<MatrixMessage>(`/messenger/rooms/${encodeURIComponent(room)}/messages`, {
    method: "POST",
    body: { text },
  });
