/** Thin typed calls of the calendar: callers show the ApiError they throw. */
import { apiFetch } from "../../shared/api/client";
import type {
  CalendarOrganization,
  CalendarSpamMarked,
  CalendarSpamRequest,
  CalendarSpamSender,
  CalendarTrashedInvite,
  Item,
  ItemPatch,
  Occurrence,
} from "../../shared/api/types.generated";
import { eventsPath, type Day } from "./days";

export const fetchEvents = (range: { from: Day; to: Day }, signal?: AbortSignal) =>
  apiFetch<Occurrence[]>(eventsPath(range), { signal });

/** An item's due date changed: the ordinary item write, so its events and the inbox rules apply. */
export const setDueDate = (itemId: string, columnId: string, day: Day) => {
  const patch: ItemPatch = { values: { [columnId]: day } };
  return apiFetch<Item>(`/items/${encodeURIComponent(itemId)}`, { method: "PATCH", body: patch });
};

/** The invitation's organizer joins the spam senders (and, with deletion on, leaves the server). */
export const markSpam = (request: CalendarSpamRequest) =>
  apiFetch<CalendarSpamMarked>("/calendar/spam", { method: "POST", body: request });

export const fetchSpamSenders = () => apiFetch<CalendarSpamSender[]>("/calendar/spam");

export const unmarkSpam = (address: string) =>
  apiFetch<void>(`/calendar/spam/${encodeURIComponent(address)}`, { method: "DELETE" });

export const fetchTrash = () => apiFetch<CalendarTrashedInvite[]>("/calendar/trash");

export const restoreInvite = (id: string) =>
  apiFetch<void>(`/calendar/trash/${encodeURIComponent(id)}/restore`, { method: "POST" });

export const fetchOrganization = () => apiFetch<CalendarOrganization>("/calendar/organization");

export const saveOrganization = (added: string[]) =>
  apiFetch<CalendarOrganization>("/calendar/organization", { method: "PUT", body: { added } });
