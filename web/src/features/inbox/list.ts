/**
 * The inbox page's list logic, apart from its rendering: merging `inbox` events into the rows
 * shown (for one tab), keyset paging, the selection that `j`/`k` move, what opening a row does,
 * and the folder an alert's "Start session" starts in.
 */
import type { Category, InboxEvent, InboxRow } from "../../shared/api/types.generated";
import { boardPath, itemPath, sessionPath } from "../../shared/router";

/** A tab: one category, or every shown one. */
export type Tab = Category | "all";

export const TABS: readonly Tab[] = [
  "all",
  "session",
  "alert",
  "webhook",
  "alarm",
  "cli_pending",
  "pm_event",
  "digest",
  "note",
  "recipes",
  "cron",
  "automations",
  "calendar",
];

export const TAB_LABEL: Record<Tab, string> = {
  all: "All",
  session: "Sessions",
  alert: "Alerts",
  webhook: "Webhooks",
  alarm: "Alarms",
  cli_pending: "CLI pending",
  pm_event: "Projects",
  digest: "Digests",
  note: "Notes",
  recipes: "Recipes",
  cron: "Schedules",
  automations: "Automations",
  calendar: "Calendar",
  email_summary: "Email summaries",
  mail: "Mail",
  sms: "Texts",
  messenger: "Messenger",
};

/** What one row is, in words: its category's name for a person, not its slug. */
export const CATEGORY_LABEL: Record<Category, string> = {
  session: "Session",
  alert: "Alert",
  webhook: "Webhook",
  alarm: "Alarm",
  cli_pending: "Waiting on you",
  pm_event: "Project",
  digest: "Digest",
  note: "Note",
  recipes: "Recipe",
  cron: "Schedule",
  automations: "Automation",
  calendar: "Calendar",
  email_summary: "Email summary",
  mail: "Mail",
  sms: "Text",
  messenger: "Messenger",
};

/**
 * How a row's body reads: a JSON object or array (a webhook's payload, often minified) is shown
 * indented behind a one-line summary; anything else as the text it is.
 */
export type BodyView = { kind: "text"; text: string } | { kind: "json"; summary: string; pretty: string };

export function bodyView(body: string): BodyView {
  const trimmed = body.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      const value: unknown = JSON.parse(trimmed);
      if (typeof value === "object" && value !== null) {
        const size = Array.isArray(value) ? value.length : Object.keys(value).length;
        const summary = Array.isArray(value)
          ? `JSON list of ${size} item${size === 1 ? "" : "s"}`
          : `JSON with ${size} field${size === 1 ? "" : "s"}`;
        return { kind: "json", summary, pretty: JSON.stringify(value, null, 2) };
      }
    } catch {
      // Not JSON after all: shown as text.
    }
  }
  return { kind: "text", text: body };
}

const inTab = (row: InboxRow, tab: Tab) => tab === "all" || row.category === tab;

function withoutChange(event: Exclude<InboxEvent, { change: "read_all" }>): InboxRow {
  const { change, ...row } = event;
  void change;
  return row;
}

/**
 * `rows` (open rows, newest first) after one `inbox` event, for the tab shown: a new row goes
 * on top; a repeated one moves to the top; an updated one is replaced where it is, or leaves
 * once archived; read-all marks the unread rows of its category (or every one) read at `now`.
 */
export function applyEvent(rows: readonly InboxRow[], event: InboxEvent, tab: Tab, now: string): readonly InboxRow[] {
  if (event.change === "read_all") {
    if (event.count === 0) return rows;
    return rows.map((r) =>
      r.readAt === null && (event.category === null || r.category === event.category) ? { ...r, readAt: now } : r,
    );
  }
  const row = withoutChange(event);
  const rest = rows.filter((r) => r.id !== row.id);
  if (!inTab(row, tab) || row.archivedAt !== null) return rest.length === rows.length ? rows : rest;
  if (event.change === "updated") {
    const at = rows.findIndex((r) => r.id === row.id);
    if (at < 0) return rows;
    const next = rows.slice();
    next[at] = row;
    return next;
  }
  return [row, ...rest];
}

/** A further page appended: rows already shown (moved up by a repeat) are not shown twice. */
/**
 * What `/inbox?row=<id>` (a push's click, a link) asks of the list once it has loaded: select that
 * row where it is shown; in a category tab without it, go to All, where it may be; shown nowhere
 * (archived since, or past the loaded page), nothing.
 */
export function rowWanted(
  rows: readonly InboxRow[],
  wanted: string,
  tab: Tab,
): { select: string } | { tab: "all" } | null {
  if (rows.some((r) => r.id === wanted)) return { select: wanted };
  return tab === "all" ? null : { tab: "all" };
}

export function appendPage(rows: readonly InboxRow[], page: readonly InboxRow[]): readonly InboxRow[] {
  const held = new Set(rows.map((r) => r.id));
  return [...rows, ...page.filter((r) => !held.has(r.id))];
}

/** Where opening a row goes, from its first action; `null` when it has none. */
export function openTarget(row: InboxRow): string | null {
  const action = row.actions[0];
  if (!action) return row.source.sessionId ? sessionPath(row.source.sessionId) : null;
  switch (action.kind) {
    case "open_session":
      return sessionPath(action.sessionId);
    case "open_item":
      return itemPath(action.boardId, action.itemId);
    case "open_board":
      return boardPath(action.boardId);
    case "open_path":
      return action.path;
    case "approve_pairing":
      return null;
    // What an agent scheduled, or a rule it made, is seen, paused or deleted on the automations page.
    case "approve_schedule":
      return "/automations#schedules";
    case "approve_rule":
      return "/automations#rules";
    case "approve_session_start":
      return sessionPath(action.sessionId);
    case "open_setting":
      return settingPath(action.key);
  }
}

/** The settings page opened at one setting's row. */
const settingPath = (key: string) => `/settings#${encodeURIComponent(key)}`;

/** The setting a row offers as its fix (a run a setting refused): its label and where it opens. */
export function settingFix(row: InboxRow): { label: string; path: string; key: string } | null {
  const action = row.actions.find((a) => a.kind === "open_setting");
  return action ? { key: action.key, label: action.label, path: settingPath(action.key) } : null;
}

/**
 * The folder "Start session" on an alert fills in: the folder of the session the alert came
 * from, else `alertSessionDefaultProjectId` read as a folder path (trimmed; empty: none).
 */
export function alertFolder(sessionCwd: string | undefined, setting: unknown): string | undefined {
  if (sessionCwd) return sessionCwd;
  const folder = typeof setting === "string" ? setting.trim() : "";
  return folder || undefined;
}
