/**
 * How the mail client orders and names folders, what the sidebar's number counts, and how far
 * apart the list's rows sit: the page's choices that follow from the settings, apart from drawing.
 */
import type { MailFolder } from "./api";

/** The SPECIAL-USE roles in the order a person looks for them; the other roles after, then the rest by name. */
const ROLE_ORDER = [
  "inbox",
  "sent",
  "drafts",
  "archive",
  "spam",
  "junk",
  "trash",
  "snoozed",
  "all",
  "flagged",
] as const;

const ROLE_LABEL: Record<string, string> = {
  inbox: "Inbox",
  sent: "Sent",
  drafts: "Drafts",
  archive: "Archive",
  spam: "Spam",
  junk: "Spam",
  trash: "Trash",
  snoozed: "Snoozed",
  all: "All mail",
  flagged: "Starred",
};

const rank = (folder: Pick<MailFolder, "role">) => {
  const at = folder.role === null ? -1 : ROLE_ORDER.indexOf(folder.role as (typeof ROLE_ORDER)[number]);
  return at < 0 ? ROLE_ORDER.length : at;
};

/** Inbox, Sent, Drafts, Archive, Spam, Trash, then the rest by name. */
export function orderFolders<F extends Pick<MailFolder, "name" | "role">>(folders: readonly F[]): F[] {
  return [...folders].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

/** A role's folder by its everyday name ("Spam" for the server's Junk); the rest by their own, the last path step. */
export function folderLabel(folder: Pick<MailFolder, "name" | "role">): string {
  if (folder.role !== null && ROLE_LABEL[folder.role]) return ROLE_LABEL[folder.role] ?? folder.name;
  return folder.name.split(/[/.]/).pop() || folder.name;
}

/** The folder the page opens on: the inbox, else the first listed. */
export function openingFolder(folders: readonly MailFolder[]): MailFolder | undefined {
  return folders.find((folder) => folder.role === "inbox") ?? folders[0];
}

export type BadgeMode = "unread" | "total";

/** The sidebar's number (`mailclientInboxBadgeMode`): the inboxes' unread or total, summed over accounts. */
export function badgeCount(mode: unknown, inboxes: readonly Pick<MailFolder, "unread" | "total">[]): number {
  return inboxes.reduce((sum, inbox) => sum + (mode === "total" ? inbox.total : inbox.unread), 0);
}

export type MailDensity = "tight" | "compact" | "comfortable" | "spacious" | "roomy";

const DENSITY_PADDING: Record<MailDensity, number> = {
  tight: 2,
  compact: 5,
  comfortable: 9,
  spacious: 13,
  roomy: 18,
};

/** The list row's vertical padding in px for `mailclientDensity`; an unknown value is comfortable. */
export function densityPadding(density: unknown): number {
  return DENSITY_PADDING[density as MailDensity] ?? DENSITY_PADDING.comfortable;
}

export type HeaderLayout = "current" | "unified" | "rail";

/** `mailclientHeaderLayout`, an unknown value read as the current one. */
export function headerLayout(value: unknown): HeaderLayout {
  return value === "unified" || value === "rail" ? value : "current";
}

/** Whether the settings show the mail client in the sidebar: the client, or web mail over the same accounts. */
export function mailShown(values: Readonly<Record<string, unknown>> | undefined): boolean {
  return values?.mailclientEnabled === true || values?.webmailEnabled === true;
}

/** "1.2 MB", "340 KB", "12 bytes": an attachment's size as a person reads it. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
