/**
 * Which inbox rows reach the user outside the page, and why not: system notifications
 * (`notificationBehavior`), the count in the tab title and icon (`desktopIconBadgeEnabled`), the
 * chime log (`notificationHistoryEnabled`) and the idle rule of `autoSwitchToInbox`. Pure
 * functions, so the rules are tested without a browser.
 */
import type { Category, InboxEvent, InboxRow } from "../api/types.generated";
import type { InboxCounts } from "./api";
import { heldByFocus, type FocusHold } from "../focus/focus";

/**
 * Categories whose rows need the user: a session asking or failing, a CLI request waiting, an
 * agent's alert, a webhook delivery, a missed alarm. Digests, project events and notes are
 * routine reading: they never notify and are not counted.
 */
export const NEEDS_USER: readonly Category[] = ["session", "cli_pending", "alert", "webhook", "alarm"];

export const needsUser = (category: Category): boolean => NEEDS_USER.includes(category);

/** Unread rows that need the user, from `GET /inbox/counts`: the sidebar's and the badge's number. */
export function needsUserCount(counts: InboxCounts | undefined): number {
  if (!counts) return 0;
  return NEEDS_USER.reduce((sum, category) => sum + (counts[category] ?? 0), 0);
}

export type NotificationBehavior = "always" | "backgrounded" | "never";
export type Permission = "granted" | "denied" | "default" | "unsupported";

export interface NotifyContext {
  behavior: NotificationBehavior;
  /** Whether the tab is in the foreground (`document.visibilityState === "visible"`). */
  foreground: boolean;
  permission: Permission;
  /** Categories the `inboxShow*` settings hide. */
  hidden: ReadonlySet<Category>;
  /** Focus mode, which holds what would notify until it ends. */
  focus?: FocusHold;
}

export interface NotifyDecision {
  show: boolean;
  /** Why, in the words the chime log shows. */
  reason: string;
}

/** The category an `inboxShow*` setting hides while it is off. */
export const HIDING_SETTINGS = {
  session: "inboxShowSessions",
  cli_pending: "inboxShowCliPending",
  digest: "inboxShowDigest",
  recipes: "inboxShowRecipes",
  cron: "inboxShowCron",
  automations: "inboxShowAutomations",
  calendar: "inboxShowCalendar",
} as const satisfies Partial<Record<Category, string>>;

export function hiddenCategories(values: Record<string, unknown> | undefined): Set<Category> {
  const hidden = new Set<Category>();
  for (const [category, key] of Object.entries(HIDING_SETTINGS)) {
    if (values?.[key] === false) hidden.add(category as Category);
  }
  return hidden;
}

/**
 * Whether an `inbox` event chimes at all: only a row that arrived (`created`) or came again
 * (`repeated`) while unread; reads, archives and read-all never do. `null`: not a chime.
 */
export function chimingRow(event: InboxEvent): InboxRow | null {
  if (event.change !== "created" && event.change !== "repeated") return null;
  const { change, ...row } = event;
  void change;
  if (row.readAt !== null || row.archivedAt !== null) return null;
  return row;
}

/** A session's turn that only reports (`reason: "routine"`, kept while `hideRoutineUpdatesFromInbox` is off). */
const isRoutine = (row: InboxRow) => row.category === "session" && row.reason === "routine";

/**
 * A calendar event about to start (`calendarNotificationDelivery` with the inbox): it exists to
 * interrupt, so it notifies though the calendar's other rows (the morning agenda) are reading.
 */
const isReminder = (row: InboxRow) => row.category === "calendar" && row.reason === "reminder";

/** Whether a chiming row becomes a system notification, checked in this order. */
export function notifyDecision(row: InboxRow, context: NotifyContext): NotifyDecision {
  if (!needsUser(row.category) && !isReminder(row)) return { show: false, reason: "suppressed: routine category" };
  if (isRoutine(row)) return { show: false, reason: "suppressed: routine update" };
  if (context.hidden.has(row.category)) return { show: false, reason: "suppressed: category hidden" };
  const held = context.focus ? heldByFocus(row, context.focus) : null;
  if (held) return { show: false, reason: held };
  if (context.behavior === "never") return { show: false, reason: "suppressed: notifications never" };
  if (context.behavior === "backgrounded" && context.foreground) {
    return { show: false, reason: "suppressed: tab in foreground (backgrounded)" };
  }
  if (context.permission === "unsupported") return { show: false, reason: "suppressed: no Notification API" };
  if (context.permission === "denied") return { show: false, reason: "permission denied" };
  if (context.permission === "default") return { show: false, reason: "suppressed: permission not granted yet" };
  return { show: true, reason: `shown (${context.behavior})` };
}

/** `title` with the count in front, "(3) Inbox · Switchboard"; a count of 0 shows none. */
export function badgedTitle(title: string, count: number): string {
  const bare = title.replace(/^\(\d+\+?\) /, "");
  if (count <= 0) return bare;
  return `(${count > 99 ? "99+" : count}) ${bare}`;
}

/** The user counts as idle after this long without pointer or key input. */
export const IDLE_MS = 5000;

export interface AutoSwitchContext {
  enabled: boolean;
  /** The page's path now. */
  pathname: string;
  /** When the user last moved the pointer or pressed a key (ms since the epoch). */
  lastInputAt: number;
  now: number;
}

/**
 * `autoSwitchToInbox`: a chiming `session` or `cli_pending` row of another session than the one
 * open moves the page to the inbox, once the user has been idle at least 5 s.
 */
export function shouldAutoSwitch(row: InboxRow, context: AutoSwitchContext): boolean {
  if (!context.enabled) return false;
  if ((row.category !== "session" && row.category !== "cli_pending") || isRoutine(row)) return false;
  if (context.pathname === "/inbox") return false;
  const open = /^\/sessions\/([^/]+)$/.exec(context.pathname)?.[1];
  if (open !== undefined && row.source.sessionId !== undefined && decodeURIComponent(open) === row.source.sessionId) {
    return false;
  }
  return context.now - context.lastInputAt >= IDLE_MS;
}
