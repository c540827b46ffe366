/** Thin typed calls for the inbox, shared by the shell (counts, badge) and the inbox page. */
import { apiFetch } from "../api/client";
import type { Category, InboxRow, ReadAllDone, RowChange, StateFilter } from "../api/types.generated";

export type InboxCounts = Partial<Record<Category, number>>;

export interface InboxQuery {
  category?: Category;
  state?: StateFilter;
  before?: string;
  limit?: number;
}

export function listInbox(query: InboxQuery = {}): Promise<InboxRow[]> {
  const params = new URLSearchParams();
  if (query.category) params.set("category", query.category);
  if (query.state) params.set("state", query.state);
  if (query.before) params.set("before", query.before);
  if (query.limit) params.set("limit", String(query.limit));
  const search = params.toString();
  return apiFetch<InboxRow[]>(`/inbox${search ? `?${search}` : ""}`);
}

export const inboxCounts = () => apiFetch<InboxCounts>("/inbox/counts");

export const changeRow = (id: string, change: RowChange) =>
  apiFetch<InboxRow>(`/inbox/${encodeURIComponent(id)}`, { method: "PATCH", body: change });

export const readAll = (category?: Category) =>
  apiFetch<ReadAllDone>("/inbox/read-all", { method: "POST", body: category ? { category } : {} });
