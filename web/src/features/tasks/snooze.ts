/** The snooze menu's choices and the moments they name, in the browser's local time. */

export type SnoozeChoice = "later" | "tomorrow" | "monday";

export const SNOOZE_CHOICES: readonly { value: SnoozeChoice; label: string }[] = [
  { value: "later", label: "Later today (+3 h)" },
  { value: "tomorrow", label: "Tomorrow 09:00" },
  { value: "monday", label: "Next Monday 09:00" },
];

/** When a choice made at `now` ends. */
export function snoozeUntil(choice: SnoozeChoice, now: Date): Date {
  const at = new Date(now);
  switch (choice) {
    case "later":
      return new Date(now.getTime() + 3 * 3_600_000);
    case "tomorrow":
      at.setDate(at.getDate() + 1);
      break;
    case "monday": {
      // Monday is 1; from Monday itself, the next one a week on.
      const days = (8 - at.getDay()) % 7 || 7;
      at.setDate(at.getDate() + days);
      break;
    }
  }
  at.setHours(9, 0, 0, 0);
  return at;
}

/** Whether a task's snooze still holds at `now`. */
export function isSnoozed(snoozedUntil: string | null, now: Date): boolean {
  return snoozedUntil !== null && new Date(snoozedUntil).getTime() > now.getTime();
}
