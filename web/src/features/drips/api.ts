/** Thin typed calls for scheduled messages and drips (docs/automations.md). A bad field rejects with its `field`. */
import { apiFetch } from "../../shared/api/client";
import type {
  Drip,
  DripFields,
  DripItem,
  DripItemFields,
  ScheduledMessage,
  ScheduledMessageFields,
} from "../../shared/api/types.generated";

export const MESSAGES_PATH = "/scheduled-messages";
export const DRIPS_PATH = "/drips";

/** Pausing stops deliveries (none caught up); resuming waits for the next tick. */
export type Change = "pause" | "resume";

const one = (path: string, id: string) => `${path}/${encodeURIComponent(id)}`;

export const dripPath = (id: string) => one(DRIPS_PATH, id);
export const itemsPath = (dripId: string) => `${dripPath(dripId)}/items`;
export const itemPath = (dripId: string, itemId: string) => one(itemsPath(dripId), itemId);

export const createMessage = (fields: ScheduledMessageFields) =>
  apiFetch<ScheduledMessage>(MESSAGES_PATH, { method: "POST", body: fields });

export const changeMessage = (id: string, change: Change) =>
  apiFetch<ScheduledMessage>(`${one(MESSAGES_PATH, id)}/${change}`, { method: "POST" });

export const deleteMessage = (id: string) => apiFetch<undefined>(one(MESSAGES_PATH, id), { method: "DELETE" });

export const createDrip = (fields: DripFields) => apiFetch<Drip>(DRIPS_PATH, { method: "POST", body: fields });

export const changeDrip = (id: string, change: Change) =>
  apiFetch<Drip>(`${dripPath(id)}/${change}`, { method: "POST" });

/** Releases the drip's next item now; its ticks go on as they were. */
export const releaseNext = (id: string) => apiFetch<Drip>(`${dripPath(id)}/release`, { method: "POST" });

export const deleteDrip = (id: string) => apiFetch<undefined>(dripPath(id), { method: "DELETE" });

export const addItem = (dripId: string, fields: DripItemFields) =>
  apiFetch<DripItem>(itemsPath(dripId), { method: "POST", body: fields });

export const removeItem = (dripId: string, itemId: string) =>
  apiFetch<undefined>(itemPath(dripId, itemId), { method: "DELETE" });
