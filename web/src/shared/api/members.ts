/** The account's member directory, which board cells and dashboard filters both draw from. */
import { apiFetch } from "./client";
import type { Member } from "./types.generated";

export function listMembers(): Promise<Member[]> {
  return apiFetch<Member[]>("/members");
}
