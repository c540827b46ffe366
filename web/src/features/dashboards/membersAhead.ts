/**
 * The account's members, read as the app opens on a dashboard. A chart grouped by people names
 * them; read only once the editor had rendered, the list came after the first results, and such
 * a chart drew with stand-in names first and again with the real ones.
 */
import { listMembers } from "../../shared/api/members";
import type { Member } from "../../shared/api/types.generated";

let ahead: Promise<Member[]> | null = null;

export function readMembersAhead(): void {
  const read = listMembers();
  // A failure is the page's to show, once it takes the read.
  read.catch(() => undefined);
  ahead = read;
}

/** The read started ahead, once; otherwise a new one. */
export function takeMembers(): Promise<Member[]> {
  const read = ahead ?? listMembers();
  ahead = null;
  return read;
}
