/**
 * The mail client's calls to `/mail/*` (issue 67) and the shapes they carry. The shapes are the
 * app layer's (crates/app/src/mail_*.rs), declared here until the generated types carry them; every
 * failure reaches the page as the server's ApiError, whose words the page shows.
 */
import { apiFetch, apiStream } from "../../shared/api/client";

export type TlsMode = "tls" | "starttls" | "none";

export interface Endpoint {
  host: string;
  port: number;
  tls: TlsMode;
}

export type AccountStatus = "pending" | "ok" | "failing";

export interface MailAccount {
  id: string;
  name: string;
  address: string;
  username: string;
  imap: Endpoint;
  smtp: Endpoint;
  status: AccountStatus;
  /** The server's words when the account is failing. */
  failure: string | null;
  /** Where the account is kept: `email.toml` (read-only here) or added in the page. */
  source: "toml" | "added";
}

export interface NewAccount {
  name: string;
  address: string;
  username: string;
  password: string;
  imap: Endpoint;
  smtp: Endpoint;
}

export interface MailFolder {
  name: string;
  /** The SPECIAL-USE role: inbox, sent, drafts, archive, spam, trash, snoozed, all, flagged; null for the rest. */
  role: string | null;
  unread: number;
  total: number;
}

export interface ThreadSummary {
  id: string;
  subject: string;
  /** Senders, first appearance first. */
  participants: string[];
  snippet: string;
  count: number;
  /** How many of its messages are unread. */
  unread: number;
  starred: boolean;
  /** Its latest message's date (RFC 3339), when that has one. */
  date: string | null;
}

export interface ThreadPage {
  threads: ThreadSummary[];
  next: string | null;
}

export interface MailAttachment {
  /** The part's id for `GET /mail/messages/{id}/parts/{part}`. */
  part: string;
  name: string | null;
  contentType: string;
  size: number;
  /** Shown in the body (a `cid:` image) rather than listed. */
  inline: boolean;
}

export interface MailMessage {
  id: string;
  folder: string;
  uid: number;
  messageId: string | null;
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  date: string | null;
  unread: boolean;
  starred: boolean;
  text: string;
  /** Sanitized on the server; remote images marked, not loaded, while they are blocked. */
  html: string;
  /** The same HTML as a page with its own policy; `?images=1` lets this message's remote images through. */
  frameUrl: string;
  attachments: MailAttachment[];
  /** How many remote images the sanitizer held back. */
  remoteImages: number;
  /** Why the message could not be read as MIME, when it could not: shown as text then. */
  malformed: string | null;
}

export interface MailThread {
  id: string;
  accountId: string;
  subject: string;
  messages: MailMessage[];
}

export type ThreadAction = "archive" | "star" | "unstar" | "read" | "unread" | "spam" | "not_spam" | "snooze" | "move";

export interface ActionRequest {
  action: ThreadAction;
  until?: string;
  folder?: string;
}

export interface OutgoingAttachment {
  name: string;
  contentType: string;
  /** The file's bytes in base64. */
  data: string;
}

export interface SendRequest {
  accountId: string;
  to: string[];
  cc?: string[];
  bcc?: string[];
  subject: string;
  markdown: string;
  inReplyTo?: string;
  attachments?: OutgoingAttachment[];
}

export interface ThreadSummaryReply {
  summary: string;
}

/** How to stop a sender, best first (crates/mailclient's cleanup). */
export type Unsubscribe =
  | { method: "oneClick"; url: string }
  | { method: "mailto"; to: string; subject: string; body: string }
  | { method: "link"; url: string };

export interface CleanupSender {
  /** Lower-case. */
  address: string;
  name: string | null;
  domain: string;
  count: number;
  unread: number;
  /** Unix seconds of the latest message, when it had a date. */
  lastDate: number | null;
  listId: string | null;
  unsubscribe: Unsubscribe | null;
}

export interface CleanupReport {
  /** Most mail first. */
  senders: CleanupSender[];
}

export type CleanupAction = "archive_all" | "unsubscribe" | "keep";

const q = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : "";
};

export const ACCOUNTS_PATH = "/mail/accounts";
export const foldersPath = (accountId: string) => `/mail/folders${q({ accountId })}`;
export const cleanupPath = (accountId: string) => `/mail/cleanup${q({ accountId })}`;
const threadPath = (id: string) => `/mail/threads/${encodeURIComponent(id)}`;

export const listAccounts = () => apiFetch<MailAccount[]>(ACCOUNTS_PATH);

export const addAccount = (account: NewAccount) =>
  apiFetch<MailAccount>(ACCOUNTS_PATH, { method: "POST", body: account });

export const listFolders = (accountId: string) => apiFetch<MailFolder[]>(foldersPath(accountId));

/** One page of a folder's threads; `q` absent lets the server open with `webmailDefaultQuery`. */
export function listThreads(query: { accountId: string; folder: string; q?: string; cursor?: string }) {
  return apiFetch<ThreadPage>(`/mail/threads${q(query)}`, { priority: "low" });
}

export const getThread = (id: string) => apiFetch<MailThread>(threadPath(id));

/** A message's HTML again, its remote images let through: asked for only when the person says so. */
export async function htmlWithImages(message: Pick<MailMessage, "frameUrl">): Promise<string> {
  const separator = message.frameUrl.includes("?") ? "&" : "?";
  return (await apiStream(`${message.frameUrl}${separator}images=1`)).text();
}

/** A part of a message (a `cid:` image), read with the page's own credentials, as a `data:` URL. */
export async function partAsDataUrl(path: string): Promise<string> {
  const blob = await (await apiStream(path)).blob();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error(`${path} could not be read.`));
    reader.readAsDataURL(blob);
  });
}

/** Where a part downloads from, under the page's `/api`. */
export const partPath = (messageId: string, part: string) =>
  `/mail/messages/${encodeURIComponent(messageId)}/parts/${encodeURIComponent(part)}`;

export const threadAction = (id: string, request: ActionRequest) =>
  apiFetch<unknown>(`${threadPath(id)}/actions`, { method: "POST", body: request });

export const sendMail = (request: SendRequest) => apiFetch<unknown>("/mail/send", { method: "POST", body: request });

export const summarizeThread = (id: string) =>
  apiFetch<ThreadSummaryReply>(`${threadPath(id)}/summary`, { method: "POST" });

export const getCleanup = (accountId: string) => apiFetch<CleanupReport>(cleanupPath(accountId));

export const cleanupAction = (accountId: string, sender: string, action: CleanupAction) =>
  apiFetch<unknown>("/mail/cleanup/actions", { method: "POST", body: { accountId, sender, action } });
