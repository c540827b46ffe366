/** Email Cleanup's order and words, apart from drawing: the loudest senders first, and what Unsubscribe will do. */
import type { CleanupSender, Unsubscribe } from "./api";

/** By messages sent, most first; ties by unread, then by address. */
export function byVolume(senders: readonly CleanupSender[]): CleanupSender[] {
  return [...senders].sort((a, b) => b.count - a.count || b.unread - a.unread || a.address.localeCompare(b.address));
}

/** What Unsubscribe does for this sender, said before it is pressed; null when the sender offers no way. */
export function unsubscribeText(way: Unsubscribe | null): string | null {
  if (way === null) return null;
  switch (way.method) {
    case "oneClick":
      return "Unsubscribes at once (one-click, as the sender offers)";
    case "mailto":
      return `Sends an unsubscribe mail to ${way.to}`;
    case "link":
      return "Opens the sender's unsubscribe page";
  }
}
