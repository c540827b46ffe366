/**
 * The fleet governor's last check in words (`GET /governor`): how many sessions run against the
 * target, who was revived, why the others were skipped, and when the board reads it again.
 */
import type { Check, Skipped, SkipReason } from "../../shared/api/types.generated";
import { dollars } from "./spend";

const SKIP_REASON_WORDS: Record<SkipReason, string> = {
  paused: "paused",
  closed: "closed",
  recovering: "recovering by itself",
  too_old: "too old",
  cooldown: "cooldown",
  daily_limit: "revived enough today",
  spend_cap: "daily spend cap",
  target_reached: "target reached",
};

export function skipReasonWords(reason: SkipReason): string {
  // A reason a newer server adds is shown as its own name.
  return SKIP_REASON_WORDS[reason] ?? reason.replace(/_/g, " ");
}

/** "cooldown: 2", one per reason, the most frequent first (then by name, so the order is stable). */
export function skipCounts(skipped: readonly Skipped[]): string[] {
  const counts = new Map<string, number>();
  for (const { reason } of skipped) {
    const words = skipReasonWords(reason);
    counts.set(words, (counts.get(words) ?? 0) + 1);
  }
  return [...counts].sort(([a, m], [b, n]) => n - m || a.localeCompare(b)).map(([words, n]) => `${words}: ${n}`);
}

export interface CheckSummary {
  /** "3 running, target 5". */
  fleet: string;
  /** "2 revived, 4 skipped of 6 candidates". */
  outcome: string;
  /** The skip reasons counted; empty when none was skipped. */
  skips: string[];
  /** "$0.42 spent on revives today before this check"; null when nothing was. */
  spent: string | null;
}

export function summarizeCheck(check: Check): CheckSummary {
  const candidates = `${check.candidates} ${check.candidates === 1 ? "candidate" : "candidates"}`;
  return {
    fleet: `${check.running} running, target ${check.target}`,
    outcome: `${check.revived.length} revived, ${check.skipped.length} skipped of ${candidates}`,
    skips: skipCounts(check.skipped),
    spent: check.spentTodayUsd > 0 ? `${dollars(check.spentTodayUsd)} spent on revives today before this check` : null,
  };
}

/**
 * Skips that mean a budget held the governor back from a revive it wanted: news for the person.
 * The others (paused or closed by the user, recovering by itself, too old, target reached) are
 * the governor working as set, and would repeat at every check.
 */
const HELD_BACK: ReadonlySet<SkipReason> = new Set(["cooldown", "daily_limit", "spend_cap"]);

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The check as one line for the board's header ("revived 2 sessions · held back 1 (cooldown: 1)
 * · $0.42 on revives today"), or null when it has nothing to report: no revive, no budget
 * holding one back, nothing spent on revives today.
 */
export function governorLine(check: Check): string | null {
  const held = check.skipped.filter((s) => HELD_BACK.has(s.reason));
  const parts: string[] = [];
  if (check.revived.length > 0) parts.push(`revived ${plural(check.revived.length, "session", "sessions")}`);
  if (held.length > 0) parts.push(`held back ${held.length} (${skipCounts(held).join(", ")})`);
  if (check.spentTodayUsd > 0) parts.push(`${dollars(check.spentTodayUsd)} on revives today`);
  return parts.length > 0 ? parts.join(" · ") : null;
}

/** The shortest wait before reading `GET /governor` again, so a burst of events is one read. */
export const SETTLE_MS = 1_000;
/** At most one read per this long: every session change is an event, and most are not the governor's. */
export const MIN_GAP_MS = 5_000;

/** How long to wait, after an event at `now`, before reading again when the last read began at `lastRead`. */
export function refreshDelay(lastRead: number, now: number): number {
  return Math.max(SETTLE_MS, lastRead + MIN_GAP_MS - now);
}
