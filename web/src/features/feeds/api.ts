/**
 * Thin typed calls for the feeds reader and the briefing page. The feeds' wire types are the
 * server's (types.generated.ts); the briefing's runs and the email summaries are coded against
 * the issue's contract (`POST /digests/run?kind=`, `GET /summaries/email`) until their wire types
 * are generated, read leniently so that a field the server names otherwise shows as absent
 * rather than breaking the page.
 */
import { apiFetch, apiStream } from "../../shared/api/client";
import type { Feed, FeedEntry, FeedEntryPage, InboxRow, OpmlImported } from "../../shared/api/types.generated";
import { listInbox } from "../../shared/inbox/api";

export type { Feed, FeedEntry, FeedEntryPage, OpmlImported };

export interface EntryQuery {
  feedId?: string | undefined;
  unread?: boolean | undefined;
  starred?: boolean | undefined;
  cursor?: string | undefined;
}

const q = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : "";
};

export const FEEDS_PATH = "/feeds";

/** The entries' address: a filter left off is left out, so the server's defaults hold. */
export const entriesPath = (query: EntryQuery) =>
  `/feeds/entries${q({
    feedId: query.feedId,
    unread: query.unread ? "true" : undefined,
    starred: query.starred ? "true" : undefined,
    cursor: query.cursor,
  })}`;

export const listFeeds = () => apiFetch<Feed[]>(FEEDS_PATH);

/** Subscribes by a feed's or a site's URL; a URL with no feed is a 400 whose message says what was found. */
export const addFeed = (url: string) => apiFetch<Feed>(FEEDS_PATH, { method: "POST", body: { url } });

export const removeFeed = (id: string) =>
  apiFetch<unknown>(`${FEEDS_PATH}/${encodeURIComponent(id)}`, { method: "DELETE" });

export const refreshFeed = (id: string) =>
  apiFetch<Feed>(`${FEEDS_PATH}/${encodeURIComponent(id)}/refresh`, { method: "POST" });

export const listEntries = (query: EntryQuery) => apiFetch<FeedEntryPage>(entriesPath(query), { priority: "low" });

export type EntryFlag = "read" | "unread" | "star" | "unstar";

export const flagEntry = (id: number, flag: EntryFlag) =>
  apiFetch<unknown>(`/feeds/entries/${id}/${flag}`, { method: "POST" });

export const readAll = (feedId?: string) =>
  apiFetch<{ count: number }>(`/feeds/read-all${q({ feedId })}`, { method: "POST" });

export const importOpml = (opml: string) => apiFetch<OpmlImported>("/feeds/opml", { method: "POST", body: { opml } });

/** The subscriptions as an OPML file's text, read with the page's credentials for a download. */
export const exportOpml = async () => (await apiStream("/feeds/opml")).blob();

export type DigestKind = "daily" | "rss";

export const runDigest = (kind: DigestKind) => apiFetch<unknown>(`/digests/run${q({ kind })}`, { method: "POST" });

/** The newest briefing rows (the inbox's `digest` category), read or not. */
export const listBriefingRows = (): Promise<InboxRow[]> => listInbox({ category: "digest", state: "all", limit: 50 });

export interface EmailSummary {
  id: string;
  from: string;
  subject: string;
  /** The summary's text, absent while it waits or when it failed. */
  summary: string | null;
  /** `pending`, `waiting` (the day's cap was reached), `done`, `no_text` or `failed`, when the server says. */
  state: string | null;
  /** Why it could not be summarized, when it could not. */
  failure: string | null;
  createdAt: string | null;
  /** The original mail, when the server links it. */
  link: string | null;
}

export const EMAIL_SUMMARIES_PATH = "/summaries/email";

export const listEmailSummaries = async (): Promise<EmailSummary[]> =>
  emailSummaries(await apiFetch<unknown>(EMAIL_SUMMARIES_PATH));

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

/** The summaries of either a bare list or `{summaries: [...]}`, each field read by the names it may carry. */
export function emailSummaries(reply: unknown): EmailSummary[] {
  const list = Array.isArray(reply)
    ? reply
    : reply && typeof reply === "object" && Array.isArray((reply as { summaries?: unknown }).summaries)
      ? (reply as { summaries: unknown[] }).summaries
      : [];
  return list.flatMap((raw, index): EmailSummary[] => {
    if (!raw || typeof raw !== "object") return [];
    const row = raw as Record<string, unknown>;
    return [
      {
        id: text(row.id) ?? String(row.id ?? index),
        from: text(row.from) ?? text(row.sender) ?? "",
        subject: text(row.subject) ?? text(row.title) ?? "(no subject)",
        summary: text(row.summary) ?? text(row.text) ?? text(row.body),
        state: text(row.state),
        failure: text(row.failure) ?? text(row.error),
        createdAt: text(row.createdAt) ?? text(row.summarizedAt) ?? text(row.receivedAt),
        link: text(row.link) ?? text(row.url),
      },
    ];
  });
}
