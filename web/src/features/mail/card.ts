/**
 * Which inbox row is a mail card and which thread it answers: a row of category `mail` whose
 * action opens `/mail?account=…&thread=…` (the page opens that thread from the same address).
 */
import type { InboxRow } from "../../shared/api/types.generated";

export interface MailCardTarget {
  accountId: string;
  threadId: string;
}

export function mailCardTarget(row: Pick<InboxRow, "category" | "actions">): MailCardTarget | null {
  if (row.category !== "mail") return null;
  for (const action of row.actions) {
    if (action.kind !== "open_path") continue;
    const url = new URL(action.path, "http://switchboard.invalid");
    if (url.pathname !== "/mail") continue;
    const accountId = url.searchParams.get("account");
    const threadId = url.searchParams.get("thread");
    if (accountId && threadId) return { accountId, threadId };
  }
  return null;
}
