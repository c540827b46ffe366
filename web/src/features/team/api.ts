/** Team time's calls: the people the user works with (`/team/people`), typed by the server's wire types. */
import { apiFetch } from "../../shared/api/client";
import type { TeamPerson, TeamPersonFields } from "../../shared/api/types.generated";

export type { TeamPerson, TeamPersonFields };

export const listPeople = () => apiFetch<{ people: TeamPerson[] }>("/team/people").then((r) => r.people);

export const addPerson = (fields: TeamPersonFields) =>
  apiFetch<TeamPerson>("/team/people", { method: "POST", body: fields });

export const updatePerson = (id: string, fields: TeamPersonFields) =>
  apiFetch<TeamPerson>(`/team/people/${encodeURIComponent(id)}`, { method: "PATCH", body: fields });

export const removePerson = (id: string) =>
  apiFetch<void>(`/team/people/${encodeURIComponent(id)}`, { method: "DELETE" });
