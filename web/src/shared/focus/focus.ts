/**
 * Focus mode and pomodoro in words and rules, as pure functions: which notification focus mode
 * holds (failed sessions, and alarms while `alarmsPierceFocusMode` is on, come through), the one
 * summary of what it held when it ends, and the pomodoro timer's label.
 */
import type { InboxRow, Phase, Released, RunState } from "../api/types.generated";

export interface FocusHold {
  /** Focus mode is on (and `focusModeFeatureEnabled`). */
  on: boolean;
  /** `alarmsPierceFocusMode`. */
  alarmsPierce: boolean;
}

/** Why focus mode holds this row's notification, or `null` when it comes through. */
export function heldByFocus(row: InboxRow, hold: FocusHold): string | null {
  if (!hold.on) return null;
  if (row.category === "session" && row.reason === "failed") return null;
  if (row.category === "alarm" && hold.alarmsPierce) return null;
  return "held: focus mode";
}

/** Category names in the summary's words, singular and plural. */
const WORDS: Record<string, [string, string]> = {
  session: ["session needs you", "sessions need you"],
  cli_pending: ["request waits", "requests wait"],
  alert: ["alert", "alerts"],
  webhook: ["webhook", "webhooks"],
  alarm: ["alarm", "alarms"],
  calendar: ["calendar reminder", "calendar reminders"],
};

/** The one summary focus mode releases when it ends: "While you focused: 2 sessions need you, 1 webhook." */
export function releaseText(released: Released): string {
  if (released.count === 0) return "Focus mode is off. Nothing needed you meanwhile.";
  const parts = Object.entries(released.categories)
    .filter(([, count]) => count > 0)
    .map(([category, count]) => {
      const [one, many] = WORDS[category] ?? [category, category];
      return `${count} ${count === 1 ? one : many}`;
    });
  return `While you focused: ${parts.join(", ")}.`;
}

const PHASE_WORDS: Record<Phase, string> = {
  focus: "Focus",
  short_break: "Break",
  long_break: "Long break",
};

/** "Focus 2/4" or "Break": what the run is doing. */
export function phaseLabel(run: RunState): string {
  return run.phase === "focus" ? `${PHASE_WORDS.focus} ${run.block}/${run.plan.blocks}` : PHASE_WORDS[run.phase];
}

/** The time left in the phase as `m:ss` (`0:00` once it is due). */
export function timeLeft(run: RunState, nowMs: number): string {
  const left = Math.max(0, Math.ceil((Date.parse(run.phaseEndsAt) - nowMs) / 1000));
  const minutes = Math.floor(left / 60);
  const seconds = left % 60;
  return `${minutes}:${String(seconds).padStart(2, "0")}`;
}
