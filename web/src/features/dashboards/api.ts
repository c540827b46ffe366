/**
 * The dashboards feature's calls to the server, in the contract's shapes ("Dashboards",
 * "Boards", members), with the ETags the page needs for If-Match saves and board revalidation.
 */
import { apiFetch, apiRequest } from "../../shared/api/client";
import type {
  Dashboard as WireDashboard,
  Member,
  PublicationState,
  PublicDashboardBody,
  PublishedLink,
} from "../../shared/api/types.generated";
import type { DashboardFilters, WidgetConfig } from "./engine/types";

export interface DashboardConfig {
  boardIds: string[];
  widgets: WidgetConfig[];
  filters: DashboardFilters;
}

/** A dashboard with its config read as the page uses it (see `normalizeConfig`). */
export type Dashboard = Omit<WireDashboard, "config"> & { config: DashboardConfig };

/** A published dashboard's payload, its config read as the page uses it. */
export type PublicDashboard = Omit<PublicDashboardBody, "dashboard"> & {
  dashboard: Omit<PublicDashboardBody["dashboard"], "config"> & { config: DashboardConfig };
};

export const EMPTY_CONFIG: DashboardConfig = { boardIds: [], widgets: [], filters: {} };

/** A config as stored, with every part the page relies on present (scripts may write less). */
export function normalizeConfig(config: Partial<DashboardConfig> | null | undefined): DashboardConfig {
  const c = config ?? {};
  return {
    ...c,
    boardIds: Array.isArray(c.boardIds) ? c.boardIds.map(String) : [],
    widgets: Array.isArray(c.widgets) ? c.widgets.filter((w) => w && typeof w === "object" && w.layout) : [],
    filters: c.filters && typeof c.filters === "object" ? c.filters : {},
  };
}

export function listDashboards(workspaceId: string): Promise<Dashboard[]> {
  return apiFetch<Dashboard[]>(`/dashboards?workspaceId=${encodeURIComponent(workspaceId)}`);
}

export function createDashboard(workspaceId: string, name: string): Promise<Dashboard> {
  return apiFetch<Dashboard>("/dashboards", { method: "POST", body: { workspaceId, name, config: EMPTY_CONFIG } });
}

export interface Versioned<T> {
  data: T;
  etag: string | null;
}

export async function getDashboard(id: string): Promise<Versioned<Dashboard>> {
  const reply = await apiRequest<Dashboard>(`/dashboards/${encodeURIComponent(id)}`);
  return { data: { ...reply.data, config: normalizeConfig(reply.data.config) }, etag: reply.headers.get("ETag") };
}

/**
 * Saves name and config. With `etag` the server refuses (412) when the dashboard changed since;
 * the new ETag comes from the reply, or from a fresh read when the reply carries none.
 */
export async function saveDashboard(
  id: string,
  change: { name: string; config: DashboardConfig },
  etag: string | null,
): Promise<Versioned<Dashboard>> {
  const reply = await apiRequest<Dashboard>(`/dashboards/${encodeURIComponent(id)}`, {
    method: "PATCH",
    body: change,
    headers: etag ? { "If-Match": etag } : {},
  });
  const next = reply.headers.get("ETag");
  if (next) return { data: reply.data, etag: next };
  return getDashboard(id);
}

export function publishDashboard(id: string): Promise<PublishedLink> {
  return apiFetch<PublishedLink>(`/dashboards/${encodeURIComponent(id)}/publish`, { method: "POST" });
}

/** Whether a live link exists; the link itself is shown only when made (the server keeps a hash). */
export function publicationStatus(id: string): Promise<PublicationState> {
  return apiFetch<PublicationState>(`/dashboards/${encodeURIComponent(id)}/publish`);
}

export function withdrawDashboard(id: string): Promise<void> {
  return apiFetch<void>(`/dashboards/${encodeURIComponent(id)}/publish`, { method: "DELETE" });
}

export function getPublicDashboard(token: string): Promise<PublicDashboard> {
  return apiFetch<PublicDashboard>(`/public/dashboards/${encodeURIComponent(token)}`);
}

export function inviteMember(name: string, email: string): Promise<Member> {
  return apiFetch<Member>("/members", { method: "POST", body: email ? { name, email } : { name } });
}

/** The public link as a full address (the server may answer with a path). */
export function absoluteUrl(url: string, origin: string): string {
  return /^https?:\/\//.test(url) ? url : new URL(url, origin).toString();
}
