/**
 * The reader, apart from drawing: the keys (j/k/m/s/o) and the command each is, the entry list's
 * paging and optimistic flags with the feeds' unread counts kept in step, a feed's status in
 * words, and an entry's HTML with its remote images let through once the person asks.
 */
import { relativeTime } from "../../shared/time";
import type { EntryFlag, Feed, FeedEntry } from "./api";

export type ReaderCommand = "next" | "previous" | "toggleRead" | "toggleStar" | "openOriginal";

const KEYS: Record<string, ReaderCommand> = {
  j: "next",
  k: "previous",
  m: "toggleRead",
  s: "toggleStar",
  o: "openOriginal",
};

/** The command of a key pressed outside a field; a key held with Ctrl, Alt or Meta is the browser's. */
export function readerCommand(
  event: Pick<KeyboardEvent, "key" | "ctrlKey" | "altKey" | "metaKey">,
): ReaderCommand | null {
  if (event.ctrlKey || event.altKey || event.metaKey) return null;
  return KEYS[event.key.length === 1 ? event.key.toLowerCase() : event.key] ?? null;
}

/** The entry after (+1) or before (-1) the open one, kept inside the list; none open starts at the top. */
export function neighbourEntry(entries: readonly FeedEntry[], open: number | null, step: 1 | -1): number | null {
  if (entries.length === 0) return null;
  const at = entries.findIndex((e) => e.id === open);
  if (at < 0) return entries[0]?.id ?? null;
  return entries[Math.min(entries.length - 1, Math.max(0, at + step))]?.id ?? null;
}

/** What M and S do to an entry: they toggle. */
export function toggleFlag(
  command: "toggleRead" | "toggleStar",
  entry: Pick<FeedEntry, "read" | "starred">,
): EntryFlag {
  if (command === "toggleStar") return entry.starred ? "unstar" : "star";
  return entry.read ? "unread" : "read";
}

/** The entry as it is once the flag is applied. */
export function flagged(entry: FeedEntry, flag: EntryFlag): FeedEntry {
  switch (flag) {
    case "read":
      return { ...entry, read: true };
    case "unread":
      return { ...entry, read: false };
    case "star":
      return { ...entry, starred: true };
    case "unstar":
      return { ...entry, starred: false };
  }
}

/** How the flag changes its feed's unread count: -1 when read, +1 when unread again, else nothing. */
export function unreadDelta(entry: Pick<FeedEntry, "read">, flag: EntryFlag): number {
  if (flag === "read" && !entry.read) return -1;
  if (flag === "unread" && entry.read) return 1;
  return 0;
}

/** The feeds with one feed's unread count moved by `delta` (never below zero). */
export function withUnread(feeds: readonly Feed[], feedId: string, delta: number): Feed[] {
  return feeds.map((f) => (f.id === feedId ? { ...f, unread: Math.max(0, f.unread + delta) } : f));
}

/** Every feed's unread entries, for "All feeds". */
export const totalUnread = (feeds: readonly Pick<Feed, "unread">[]) => feeds.reduce((sum, f) => sum + f.unread, 0);

/** A further page added to those read: an entry already listed (it moved while paging) is not listed twice. */
export function appendPage(entries: readonly FeedEntry[], page: readonly FeedEntry[]): FeedEntry[] {
  const seen = new Set(entries.map((e) => e.id));
  return [...entries, ...page.filter((e) => !seen.has(e.id))];
}

/** After "mark all read": the listed entries of that feed (or of every feed) read. */
export function allRead(entries: readonly FeedEntry[], feedId: string | null): FeedEntry[] {
  return entries.map((e) => (feedId === null || e.feedId === feedId ? { ...e, read: true } : e));
}

/** A feed's state in a few words: why it fails, that it waits for its first fetch, or when it last answered. */
export function feedStatusText(feed: Pick<Feed, "status" | "failure" | "lastFetchedAt">, now: number): string {
  switch (feed.status) {
    case "failing":
      return `Failing: ${feed.failure ?? "the last fetch failed"}`;
    case "pending":
      return "Not fetched yet";
    case "ok":
      return feed.lastFetchedAt ? `Fetched ${relativeTime(feed.lastFetchedAt, now)}` : "Fetched";
  }
}

const BLOCKED = /\sdata-blocked-(src|srcset)="/g;

/** The entry's HTML with its held-back images given back their `src`/`srcset`: only when the person asks. */
export const withImages = (html: string) => html.replace(BLOCKED, (_whole, attribute: string) => ` ${attribute}="`);

/**
 * A link the page may open: http(s) only, so a feed's `javascript:` link never becomes a click;
 * a relative one (a path of this app) is read against `base` when one is given.
 */
export function safeLink(link: string | null, base?: string): string | null {
  if (!link) return null;
  try {
    const url = new URL(link, base);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** The file name the OPML export downloads as, dated so that a second one does not overwrite the first. */
export const opmlFileName = (now: Date) => `switchboard-feeds-${now.toISOString().slice(0, 10)}.opml`;
