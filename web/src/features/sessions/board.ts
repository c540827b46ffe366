/**
 * The agent board's logic, apart from its rendering so it can be tested without a browser:
 * keeping the list in step with `session` events, filtering, the parent–child tree, and the
 * words for what a session is doing and when it last did something.
 */
import type { ActivityKind, Session, Status } from "../../shared/api/types.generated";
import { sessionActions } from "./lifecycle";
import { needsYouReason } from "./needsYou";

function time(iso: string): number {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
}

/**
 * `list` with `incoming` in it: replacing the session of the same id unless that one is newer
 * (a `GET /sessions` answer read before an event that arrived first must not undo the event),
 * and inserting a new id in newest-first order. Returns `list` itself when nothing changed, so
 * React can skip the redraw.
 */
export function mergeSession(list: readonly Session[], incoming: Session): readonly Session[] {
  const at = list.findIndex((s) => s.id === incoming.id);
  if (at >= 0) {
    const current = list[at] as Session;
    const [was, is] = [time(current.updatedAt), time(incoming.updatedAt)];
    if (was > is) return list;
    // A read again after a reconnect mostly brings what is shown: keep those rows as they are.
    if (was === is && JSON.stringify(current) === JSON.stringify(incoming)) return list;
    const next = list.slice();
    next[at] = incoming;
    return next;
  }
  const created = time(incoming.createdAt);
  const before = list.findIndex((s) => time(s.createdAt) < created);
  const next = list.slice();
  next.splice(before < 0 ? list.length : before, 0, incoming);
  return next;
}

/** Every session of `fetched` merged into `list` by the same newer-wins rule. */
export function mergeSessions(list: readonly Session[], fetched: readonly Session[]): readonly Session[] {
  return fetched.reduce(mergeSession, list);
}

export interface BoardFilter {
  /** `"all"` or one status. */
  status: Status | "all";
  /** `"all"` or one engine name from `engines.toml`. */
  engine: string;
  showArchived: boolean;
}

export const STATUSES: readonly Status[] = [
  "queued",
  "starting",
  "running",
  "waiting_for_input",
  "finished",
  "failed",
  "stopped",
  "interrupted",
  "paused",
];

/** `?status=<status>` opens the board filtered (the waiting room of `postSendNavigation`). */
export function statusFromQuery(search: string): BoardFilter["status"] {
  const status = new URLSearchParams(search).get("status");
  return STATUSES.find((s) => s === status) ?? "all";
}

export const ALL_SESSIONS: BoardFilter = { status: "all", engine: "all", showArchived: false };

export function matchesFilter(session: Session, filter: BoardFilter): boolean {
  if (session.archived && !filter.showArchived) return false;
  if (filter.status !== "all" && session.status !== filter.status) return false;
  return filter.engine === "all" || session.engine === filter.engine;
}

/** The engine names present, sorted, for the engine filter's choices. */
export function enginesOf(sessions: readonly Session[]): string[] {
  return [...new Set(sessions.map((s) => s.engine))].sort();
}

export interface BoardRow {
  session: Session;
  /** 0 for a root; a child is one deeper than its parent. */
  depth: number;
  /** Children shown under this row when it is expanded (those the filter kept). */
  childCount: number;
}

/**
 * The rows to draw: the sessions the filter keeps, each under its parent (children oldest
 * first, as the spawner made them), roots newest first, and nothing under a collapsed row.
 * A session whose parent the filter hid (or the list lacks) stands as a root, so a filter never
 * hides a session it matches. The tree comes from `parentId`, which every session carries, not
 * from a parent's `children`, which a `session` event for the child does not refresh.
 */
export function boardRows(
  sessions: readonly Session[],
  filter: BoardFilter,
  collapsed: ReadonlySet<string>,
): BoardRow[] {
  const kept = sessions.filter((s) => matchesFilter(s, filter));
  const ids = new Set(kept.map((s) => s.id));
  const childrenOf = new Map<string, Session[]>();
  const roots: Session[] = [];
  for (const s of kept) {
    if (s.parentId !== null && ids.has(s.parentId)) {
      const siblings = childrenOf.get(s.parentId);
      if (siblings) siblings.push(s);
      else childrenOf.set(s.parentId, [s]);
    } else {
      roots.push(s);
    }
  }
  const newestFirst = (a: Session, b: Session) => time(b.createdAt) - time(a.createdAt);
  roots.sort(newestFirst);
  for (const siblings of childrenOf.values()) siblings.sort((a, b) => -newestFirst(a, b));

  const rows: BoardRow[] = [];
  // Depth-first with an explicit stack: the order a reader expects, and no recursion limit.
  const stack: { session: Session; depth: number }[] = roots.map((session) => ({ session, depth: 0 })).reverse();
  const seen = new Set<string>();
  for (let top = stack.pop(); top; top = stack.pop()) {
    // A parent loop cannot come from the server, but a bad row must not hang the page.
    if (seen.has(top.session.id)) continue;
    seen.add(top.session.id);
    const children = childrenOf.get(top.session.id) ?? [];
    rows.push({ session: top.session, depth: top.depth, childCount: children.length });
    if (collapsed.has(top.session.id)) continue;
    for (let i = children.length - 1; i >= 0; i--) {
      stack.push({ session: children[i] as Session, depth: top.depth + 1 });
    }
  }
  return rows;
}

const ACTIVITY_VERB: Record<Exclude<ActivityKind, "todo">, string> = {
  thinking: "thinking",
  writing: "writing",
  reading: "reading",
  editing: "editing",
  running: "running",
  searching: "searching",
  tool: "using",
};

const PROSE_KINDS: ReadonlySet<ActivityKind> = new Set(["thinking", "writing"]);

/**
 * What the session is doing now, in a few words, while a turn is under way: its to-do list's
 * current item or its latest activity when the engine reports one. `null` otherwise: the status
 * already says it, and an activity from a turn that ended is stale.
 */
export function describeActivity(session: Pick<Session, "status" | "activity">): string | null {
  if (session.status !== "running" && session.status !== "starting") return null;
  const activity = session.activity;
  if (!activity) return null;
  if (activity.kind === "todo") return activity.text;
  // A kind a newer server adds is shown as its own name.
  const verb: string = ACTIVITY_VERB[activity.kind] ?? activity.kind;
  if (!activity.text) return verb;
  // Thinking and writing carry prose (or a program's latest line), not an object of the verb.
  return PROSE_KINDS.has(activity.kind) ? `${verb}: ${activity.text}` : `${verb} ${activity.text}`;
}

/** The later of the session's last change and its last reported activity. */
export function lastActivityAt(session: Pick<Session, "updatedAt" | "activity">): string {
  const activity = session.activity?.at;
  return activity !== undefined && time(activity) > time(session.updatedAt) ? activity : session.updatedAt;
}

/** The last part of a folder path, for a narrow column (the whole path goes in its title). */
export function folderName(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1) || path;
}

/**
 * The folder a session works on, as a person names it: the repository's folder for a session in
 * a worktree (whose own folder is an id under the data directory), else its working folder.
 */
export function workFolder(session: Pick<Session, "cwd" | "worktree">): string {
  return folderName(session.worktree?.repository ?? session.cwd);
}

/**
 * Whether the board's Folder column tells rows apart: not when every session works in the same
 * folder on the same branch (a column saying "root" on every line), where it only takes the
 * titles' width. Read over every session, not the drawn rows, so searching does not make the
 * column come and go.
 */
export function folderColumnShown(sessions: readonly Pick<Session, "cwd" | "worktree">[]): boolean {
  const places = new Set(sessions.map((s) => `${workFolder(s)}\n${s.worktree?.branch ?? ""}`));
  return places.size > 1;
}

/** What a row offers, in the order its buttons and its "⋯" menu list them. */
export type RowAction = "open" | "stop" | "retry" | "archive";

export const ACTION_LABELS: Record<RowAction, string> = {
  open: "Open",
  stop: "Stop",
  retry: "Retry",
  archive: "Archive",
};

/** The actions a session's row offers: always Open, then those its state allows. */
export function rowActions(session: Pick<Session, "status" | "archived">): RowAction[] {
  const allowed = sessionActions(session);
  const actions: RowAction[] = ["open"];
  if (allowed.stop) actions.push("stop");
  if (allowed.retry) actions.push("retry");
  if (allowed.archive) actions.push("archive");
  return actions;
}

/** Where a session stands for the person at the board. */
export type BoardGroup = "needs_you" | "running" | "done";

export const GROUP_TITLES: Record<BoardGroup, string> = {
  needs_you: "Needs you",
  running: "Running",
  done: "Done",
};

const GROUP_OF: Record<Status, BoardGroup> = {
  // A waiting session whose turn did its work is done; one that asked is under "Needs you" (`groupOf`).
  waiting_for_input: "done",
  // Failed and not archived is under "Needs you" (`groupOf`); archived, it is done with.
  failed: "done",
  queued: "running",
  starting: "running",
  running: "running",
  paused: "running",
  finished: "done",
  stopped: "done",
  interrupted: "done",
};

const NO_ONE: ReadonlySet<string> = new Set();

/**
 * The group of a session: "Needs you" when `needsYouReason` says it waits on the user (it asked,
 * failed, or holds an approval or an input request: `asking`, the ids of sessions with one
 * pending), whatever its status; a waiting session whose turn did its work is "Done".
 */
export function groupOf(
  session: Pick<Session, "id" | "status" | "archived" | "awaitingApproval" | "turnEnd" | "activity">,
  asking: ReadonlySet<string> = NO_ONE,
): BoardGroup {
  if (needsYouReason(session, asking) !== null) return "needs_you";
  return GROUP_OF[session.status] ?? "running";
}

type Searched = Pick<Session, "title" | "prompt" | "cwd" | "worktree">;

// Built once per session object (an event replaces the object, so a change is seen): a keystroke
// over 1,000 sessions then only searches strings.
const haystacks = new WeakMap<Searched, string>();

function haystackOf(session: Searched): string {
  let haystack = haystacks.get(session);
  if (haystack === undefined) {
    haystack = [session.title ?? "", session.prompt, session.cwd, session.worktree?.branch ?? ""]
      .join("\n")
      .toLowerCase();
    haystacks.set(session, haystack);
  }
  return haystack;
}

/** Whether every word of `query` is in the session's title, first prompt, folder or branch. */
export function matchesSearch(session: Searched, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = haystackOf(session);
  return words.every((word) => haystack.includes(word));
}

/**
 * How many archived sessions the search would find that the board does not show (archived ones
 * hidden, the status and engine filters kept): the count behind "1 archived match — show". Zero
 * without a search (the "Show archived" toggle counts them) or while archived ones are shown.
 */
export function archivedMatches(sessions: readonly Session[], filter: BoardFilter, query: string): number {
  if (filter.showArchived || query.trim() === "") return 0;
  const shown = { ...filter, showArchived: true };
  return sessions.filter((s) => s.archived && matchesFilter(s, shown) && matchesSearch(s, query)).length;
}

/**
 * How the board orders the sessions within each group: `activity`, the most recently active
 * first (the default), or `cpu`, the most CPU time first.
 */
export type BoardOrder = "activity" | "cpu";

export const ORDER_TITLES: Record<BoardOrder, string> = {
  activity: "Latest first",
  cpu: "Most CPU",
};

/** `?sort=cpu` opens the board ordered by CPU; anything else is the default. */
export function orderFromQuery(search: string): BoardOrder {
  return new URLSearchParams(search).get("sort") === "cpu" ? "cpu" : "activity";
}

/**
 * Sorts `blocks` (a top-level session, then the children drawn under it) in place, by the
 * top-level session: most recently active first, or, by `cpu`, the most CPU time first (its own
 * process tree's, as its row shows: its child sessions' are not added), those with equal time
 * most recently active first, and those that report no figures (on a runner, or without cgroups)
 * last, most recently active first. Children stay under their parent in their own order.
 */
export function sortBlocks(blocks: BoardRow[][], order: BoardOrder): BoardRow[][] {
  const latest = (block: BoardRow[]) => time(lastActivityAt((block[0] as BoardRow).session));
  const byActivity = (a: BoardRow[], b: BoardRow[]) => latest(b) - latest(a);
  if (order === "activity") return blocks.sort(byActivity);
  const cpu = (block: BoardRow[]) => (block[0] as BoardRow).session.resources?.cpuSeconds ?? null;
  return blocks.sort((a, b) => {
    const [x, y] = [cpu(a), cpu(b)];
    if (x === null || y === null) return x === y ? byActivity(a, b) : x === null ? 1 : -1;
    return y - x || byActivity(a, b);
  });
}

export interface BoardSection {
  group: BoardGroup;
  rows: BoardRow[];
}

/**
 * The board in its groups ("Needs you", "Running", "Done", empty ones left out): each top-level
 * session with the children drawn under it goes where its own status (or a pending question) puts it, and within a
 * group the most recently active come first (or, by `order`, see `sortBlocks`). The search keeps the sessions it matches (and,
 * like the filter, a child whose parent it hid stands on its own).
 */
export function boardSections(
  sessions: readonly Session[],
  filter: BoardFilter,
  collapsed: ReadonlySet<string>,
  query: string,
  asking: ReadonlySet<string> = NO_ONE,
  order: BoardOrder = "activity",
): BoardSection[] {
  const found = query.trim() === "" ? sessions : sessions.filter((s) => matchesSearch(s, query));
  const blocks: BoardRow[][] = [];
  for (const row of boardRows(found, filter, collapsed)) {
    if (row.depth === 0) blocks.push([row]);
    else blocks[blocks.length - 1]?.push(row);
  }
  return (Object.keys(GROUP_TITLES) as BoardGroup[])
    .map((group) => ({
      group,
      rows: sortBlocks(
        blocks.filter((block) => groupOf((block[0] as BoardRow).session, asking) === group),
        order,
      ).flat(),
    }))
    .filter((section) => section.rows.length > 0);
}

/**
 * The session `n` goes to: the next of those that need the user (a failed or waiting session, or
 * one holding an approval or input request, archived ones aside), in the board's order (most
 * recently active first), after `current`, wrapping round; `null` when none does.
 */
export function nextNeedingYou(
  sessions: readonly Session[],
  asking: ReadonlySet<string>,
  current: string | null,
): string | null {
  const waiting = sessions
    .filter((s) => !s.archived && groupOf(s, asking) === "needs_you")
    .sort((a, b) => time(lastActivityAt(b)) - time(lastActivityAt(a)));
  if (waiting.length === 0) return null;
  const at = waiting.findIndex((s) => s.id === current);
  return (waiting[(at + 1) % waiting.length] as Session).id;
}

/** One line of the drawn board: a group's heading, a session's row, or what a session asks under it. */
export type BoardItem =
  | { kind: "group"; key: string; group: BoardGroup; count: number }
  | { kind: "row"; key: string; group: BoardGroup; row: BoardRow }
  | { kind: "answers"; key: string; group: BoardGroup; session: Session };

/**
 * The board as one list of lines, for a list that draws only those in view: each group's heading,
 * then its rows, each followed by its answers line when `asks(session)` (it waits for input or
 * holds an approval or input request) and it is under "Needs you".
 */
export function boardItems(sections: readonly BoardSection[], asks: (session: Session) => boolean): BoardItem[] {
  const items: BoardItem[] = [];
  for (const { group, rows } of sections) {
    items.push({ kind: "group", key: `group-${group}`, group, count: rows.length });
    for (const row of rows) {
      items.push({ kind: "row", key: row.session.id, group, row });
      if (group === "needs_you" && asks(row.session)) {
        items.push({ kind: "answers", key: `${row.session.id}-answers`, group, session: row.session });
      }
    }
  }
  return items;
}
