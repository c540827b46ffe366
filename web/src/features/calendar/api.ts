/** Thin typed calls of the calendar: callers show the ApiError they throw. */
import { apiFetch } from "../../shared/api/client";
import type { Item, ItemPatch, Occurrence } from "../../shared/api/types.generated";
import { eventsPath, type Day } from "./days";

export const fetchEvents = (range: { from: Day; to: Day }, signal?: AbortSignal) =>
  apiFetch<Occurrence[]>(eventsPath(range), { signal });

/** An item's due date changed: the ordinary item write, so its events and the inbox rules apply. */
export const setDueDate = (itemId: string, columnId: string, day: Day) => {
  const patch: ItemPatch = { values: { [columnId]: day } };
  return apiFetch<Item>(`/items/${encodeURIComponent(itemId)}`, { method: "PATCH", body: patch });
};
