/**
 * The snooze picker's choices, from the time now in the browser's zone: later today (three hours
 * on, on the hour), tomorrow morning (8:00), next week (Monday 8:00), or a date and time typed.
 */

export interface SnoozeChoice {
  key: "later" | "tomorrow" | "nextWeek";
  label: string;
  at: Date;
}

const MORNING_HOUR = 8;

/** Three hours on, rounded up to the hour; none after 19:00, when "later today" is tomorrow. */
function laterToday(now: Date): Date | null {
  const at = new Date(now);
  at.setHours(at.getHours() + 3, 0, 0, 0);
  if (at.getDate() !== now.getDate() || now.getHours() >= 19) return null;
  return at;
}

function morningAfter(now: Date, days: number): Date {
  const at = new Date(now);
  at.setDate(at.getDate() + days);
  at.setHours(MORNING_HOUR, 0, 0, 0);
  return at;
}

export function snoozeChoices(now: Date): SnoozeChoice[] {
  const choices: SnoozeChoice[] = [];
  const later = laterToday(now);
  if (later) choices.push({ key: "later", label: "Later today", at: later });
  choices.push({ key: "tomorrow", label: "Tomorrow morning", at: morningAfter(now, 1) });
  // Monday next: a Sunday's next week starts tomorrow, a Monday's in seven days.
  const toMonday = ((8 - now.getDay()) % 7 || 7) as number;
  choices.push({ key: "nextWeek", label: "Next week", at: morningAfter(now, toMonday) });
  return choices;
}

/** A `datetime-local` field's value as the instant it names, or null when it is empty, invalid or not ahead of now. */
export function pickedTime(value: string, now: Date): Date | null {
  if (value === "") return null;
  const at = new Date(value);
  if (Number.isNaN(at.getTime()) || at.getTime() <= now.getTime()) return null;
  return at;
}

/** "Mon 08:00": a choice's time, short, in the browser's zone. */
export function snoozeTimeText(at: Date): string {
  return at.toLocaleString(undefined, { weekday: "short", hour: "2-digit", minute: "2-digit" });
}
