/**
 * The "Where's my work" page's logic, apart from its rendering (docs/work.md): the order pieces of
 * work are grouped and listed in, the counts the header shows, the filters, and the words for a
 * piece's name, state, age and changes.
 */
import type { PullRequest, WorkAction, WorkEntry, WorkLanding, WorkState } from "../../shared/api/types.generated";
import { relativeTime } from "../../shared/time";

/** What needs the user first: work that would be lost, then work refused, then work waiting on others. */
export const STATE_ORDER: readonly WorkState[] = [
  "stranded",
  "turned_down",
  "waiting_on_review",
  "in_progress",
  "landed",
  "unknown",
];

export const STATE_LABEL: Record<WorkState, string> = {
  stranded: "Stranded",
  turned_down: "Turned down",
  waiting_on_review: "Waiting on review",
  in_progress: "In progress",
  landed: "Landed",
  unknown: "Unknown",
};

export const LANDING_LABEL: Record<WorkLanding, string> = {
  merge: "merged",
  rebase: "rebased",
  squash: "squashed",
};

/** "squashed into main": how landed work reached the default branch. */
export function landingText(entry: Pick<WorkEntry, "landedBy" | "defaultBranch">): string | null {
  if (entry.landedBy === null) return null;
  const how = LANDING_LABEL[entry.landedBy];
  return entry.defaultBranch === null ? how : `${how} into ${entry.defaultBranch}`;
}

/**
 * "Pull request #7 on github: Fix the parser", the name of the "#7" link. "#" whatever the host:
 * `codeHost` is the name the user gave it, which does not say whether it is a GitLab.
 */
export function pullRequestLabel(pullRequest: Pick<PullRequest, "number" | "title">, codeHost: string | null): string {
  const host = codeHost === null ? "" : ` on ${codeHost}`;
  return `Pull request #${pullRequest.number}${host}: ${pullRequest.title}`;
}

/** What a person calls the work: its session's title; the branch only when the server has none. */
export function workTitle(entry: Pick<WorkEntry, "title" | "branch">): string {
  return entry.title?.trim() || entry.branch;
}

/** The Pull request button's hint: where the pull request is opened. */
export function pullRequestHint(entry: Pick<WorkEntry, "pullRequestHost">): string | undefined {
  return entry.pullRequestHost === null ? undefined : `Open a pull request on ${entry.pullRequestHost}`;
}

export const ACTION_LABEL: Record<WorkAction, string> = {
  open: "Open session",
  diff: "Diff",
  continue: "Continue",
  push: "Push",
  "pull-request": "Pull request",
  prune: "Prune",
  discard: "Discard",
};

/** Discard throws the work away: it is sent only once the branch is typed exactly as it is named. */
export function discardConfirmed(typed: string, branch: string): boolean {
  return typed === branch;
}

function time(iso: string | undefined): number {
  if (iso === undefined) return Number.NEGATIVE_INFINITY;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
}

/**
 * Newest first: work a session is still on (`since` null) before ended work, ended work by when
 * its last session ended, and either by its last commit, work without one last. Ties keep the
 * server's order.
 */
export function newestFirst(a: WorkEntry, b: WorkEntry): number {
  const running = Number(b.since === null) - Number(a.since === null);
  if (running !== 0) return running;
  const ended = a.since !== null && b.since !== null ? compareDesc(time(a.since), time(b.since)) : 0;
  return ended || compareDesc(time(a.lastCommit?.at), time(b.lastCommit?.at));
}

function compareDesc(a: number, b: number): number {
  if (a === b) return 0;
  return a > b ? -1 : 1;
}

export interface WorkGroup {
  state: WorkState;
  entries: WorkEntry[];
}

/** The groups that have any work, in `STATE_ORDER`, each newest first. */
export function groupWork(entries: readonly WorkEntry[]): WorkGroup[] {
  return STATE_ORDER.map((state) => ({
    state,
    entries: entries.filter((entry) => entry.state === state).sort(newestFirst),
  })).filter((group) => group.entries.length > 0);
}

/** How many pieces are in each state, every state counted (0 included). */
export function countByState(entries: readonly WorkEntry[]): Record<WorkState, number> {
  const counts: Record<WorkState, number> = {
    stranded: 0,
    turned_down: 0,
    waiting_on_review: 0,
    in_progress: 0,
    landed: 0,
    unknown: 0,
  };
  for (const entry of entries) counts[entry.state] += 1;
  return counts;
}

export interface WorkFilter {
  /** Null: every state. */
  state: WorkState | null;
  /** A repository's full path; null: every repository. */
  repository: string | null;
  /** Every word must appear in the title, the branch, the repository or the last commit's subject. */
  text: string;
}

export const NO_FILTER: WorkFilter = { state: null, repository: null, text: "" };

/** The work that matches the repository and the text, whatever its state: what the counts count. */
export function matchingWork(entries: readonly WorkEntry[], filter: Omit<WorkFilter, "state">): WorkEntry[] {
  const words = filter.text.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return entries.filter((entry) => {
    if (filter.repository !== null && entry.repository !== filter.repository) return false;
    const haystack = [entry.title ?? "", entry.branch, entry.repository, entry.lastCommit?.subject ?? ""]
      .join("\n")
      .toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

export function filterWork(entries: readonly WorkEntry[], filter: WorkFilter): WorkEntry[] {
  return matchingWork(entries, filter).filter((entry) => filter.state === null || entry.state === filter.state);
}

/** "src/switchboard" for "/home/ana/src/switchboard": the last two segments; a shorter path as it is. */
export function shortRepository(path: string): string {
  const segments = path.split(/[\\/]+/).filter(Boolean);
  return segments.length > 2 ? segments.slice(-2).join("/") : path;
}

export interface RepositoryOption {
  /** The full path, as entries carry it. */
  value: string;
  label: string;
}

/**
 * The repositories of the list, for its filter, by short name. Two repositories with the same
 * short name would read as one choice: those are labelled with their full path.
 */
export function repositoryOptions(entries: readonly WorkEntry[]): RepositoryOption[] {
  const paths = [...new Set(entries.map((entry) => entry.repository))];
  const shortNames = paths.map(shortRepository);
  return paths
    .map((path, i) => {
      const short = shortNames[i] ?? path;
      const shared = shortNames.filter((name) => name === short).length > 1;
      return { value: path, label: shared ? path : short };
    })
    .sort((a, b) => a.label.localeCompare(b.label) || a.value.localeCompare(b.value));
}

/** "session running" while a session is on it, else "ended 2 h ago" from when its last one ended. */
export function sinceText(since: string | null, now: number): string {
  if (since === null) return "session running";
  if (Number.isNaN(Date.parse(since))) return "ended at an unreadable time";
  return `ended ${relativeTime(since, now)}`;
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * "2 commits ahead, 1 behind", "1 commit behind", "up to date": where the work stands against the
 * default branch. Null without a default branch to count against (unknown work), and for landed
 * work, whose squashed or rebased commits still count as ahead by ancestry: how it landed says more.
 */
export function aheadBehindText(entry: Pick<WorkEntry, "ahead" | "behind" | "defaultBranch" | "state">): string | null {
  if (entry.defaultBranch === null || entry.state === "landed") return null;
  const { ahead, behind } = entry;
  if (ahead === 0 && behind === 0) return "up to date";
  if (behind === 0) return `${count(ahead, "commit", "commits")} ahead`;
  if (ahead === 0) return `${count(behind, "commit", "commits")} behind`;
  return `${count(ahead, "commit", "commits")} ahead, ${behind} behind`;
}

/** "Compared with origin/main": the hint on the ahead/behind words. */
export function comparedWith(entry: Pick<WorkEntry, "defaultBranch">): string | undefined {
  return entry.defaultBranch === null ? undefined : `Compared with ${entry.defaultBranch}`;
}

/**
 * The server's reason for the state, where the card has nothing that says it already. A stranded
 * piece's reason ("uncommitted changes", "1 commit on no remote") is what the summary counts.
 */
export function reasonText(entry: Pick<WorkEntry, "reason" | "state">): string | null {
  return entry.state === "stranded" ? null : entry.reason;
}

/** "2 files, 40 lines uncommitted"; null for a clean checkout or one that is gone. */
export function uncommittedText(uncommitted: WorkEntry["uncommitted"]): string | null {
  if (uncommitted === null || uncommitted.files === 0) return null;
  const files = count(uncommitted.files, "file", "files");
  // Only a binary or a mode change: no line to count.
  if (uncommitted.lines === 0) return `${files} uncommitted`;
  return `${files}, ${count(uncommitted.lines, "line", "lines")} uncommitted`;
}

/**
 * One line for the changes: "3 commits ahead, 1 behind · 2 files, 40 lines uncommitted · 1 commit
 * on no remote", each fact once; null when there is nothing to say.
 */
export function workSummary(entry: WorkEntry): string | null {
  const parts: string[] = [];
  const aheadBehind = aheadBehindText(entry);
  if (aheadBehind !== null) parts.push(aheadBehind);
  const uncommitted = uncommittedText(entry.uncommitted);
  if (uncommitted !== null) parts.push(uncommitted);
  if (entry.unpushed > 0) parts.push(`${count(entry.unpushed, "commit", "commits")} on no remote`);
  return parts.length > 0 ? parts.join(" · ") : null;
}

/**
 * The pieces of `repository` a merge session would merge (the server's rule: waiting on review, and
 * here: a merge runs on this machine, so work on a runner is merged there).
 */
export function readyToMerge(entries: readonly WorkEntry[], repository: string | null): WorkEntry[] {
  if (repository === null) return [];
  return entries.filter((e) => e.repository === repository && e.state === "waiting_on_review" && e.runner === null);
}

/**
 * Where work on a runner is ("on devbox"), and, when the runner could not be asked now, how old what
 * the card shows is; null for work on this machine.
 */
export function runnerText(entry: Pick<WorkEntry, "runner" | "lastRead">, now: number): string | null {
  if (entry.runner === null) return null;
  if (entry.lastRead === null) return `on ${entry.runner}`;
  return `on ${entry.runner}, away: as it was ${relativeTime(entry.lastRead, now)}`;
}
