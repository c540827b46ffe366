/**
 * The sidebar's number beside Mail: the inboxes' unread or total over every account, as
 * `mailclientInboxBadgeMode` says; read while Mail is shown, again every minute the tab is visible.
 */
import { useCallback, useEffect, useState } from "react";
import { usePolling } from "../../shared/hooks/usePolling";
import { listAccounts, listFolders } from "./api";
import { badgeCount, mailShown } from "./folders";

const EVERY_MS = 60_000;

export interface MailBadge {
  count: number;
  /** What the number is, for a screen reader: "3 unread in the inbox". */
  title: string;
}

export function useMailBadge(values: Readonly<Record<string, unknown>> | undefined): MailBadge | null {
  const shown = mailShown(values);
  const mode = values?.mailclientInboxBadgeMode === "total" ? "total" : "unread";
  const [inboxes, setInboxes] = useState<{ unread: number; total: number }[] | null>(null);

  const read = useCallback(() => {
    listAccounts()
      .then((accounts) => Promise.all(accounts.map((account) => listFolders(account.id).catch(() => []))))
      .then(
        (folders) => setInboxes(folders.flat().filter((folder) => folder.role === "inbox")),
        // A badge is a hint: the page says what failed when opened.
        () => setInboxes(null),
      );
  }, []);
  useEffect(() => {
    if (shown) read();
  }, [shown, read]);
  usePolling(read, EVERY_MS, shown);

  if (!shown || inboxes === null) return null;
  const count = badgeCount(mode, inboxes);
  return { count, title: mode === "total" ? `${count} in the inbox` : `${count} unread in the inbox` };
}
