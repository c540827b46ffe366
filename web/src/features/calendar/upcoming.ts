/**
 * The sidebar's Upcoming list and the reminders in words, as pure functions: which account
 * events are next (from now over the next seven days, at most five), how each one's time reads,
 * what a reminder toast says, and the one line that tells the reminders focus mode held.
 */
import type { Occurrence } from "../../shared/api/types.generated";
import { addDays, dayOfLocal, type Day } from "./days";
import { isAccountEvent, toEntry } from "./placement";

export const UPCOMING_LIMIT = 5;
export const UPCOMING_DAYS = 7;

/** The days to read for the Upcoming list: today and the seven after it. */
export function upcomingRange(now: Date): { from: Day; to: Day } {
  const from = dayOfLocal(now);
  return { from, to: addDays(from, UPCOMING_DAYS) };
}

/**
 * The next account events: those not over yet (one under way counts) that start within
 * seven days of `now`, earliest first, at most `limit`. An all-day event counts from today
 * until its last day has passed. Board items and sprints are not events of a calendar.
 */
export function upcoming(occs: readonly Occurrence[], now: Date, limit = UPCOMING_LIMIT): Occurrence[] {
  const nowMs = now.getTime();
  const today = dayOfLocal(now);
  const horizon = nowMs + UPCOMING_DAYS * 86_400_000;
  return occs
    .filter(isAccountEvent)
    .filter((occ) => {
      if (occ.allDay) {
        const { first, last } = toEntry(occ);
        return last >= today && first <= dayOfLocal(new Date(horizon));
      }
      return Date.parse(occ.end) > nowMs && Date.parse(occ.start) < horizon;
    })
    .sort((a, b) => startKey(a).localeCompare(startKey(b)) || a.title.localeCompare(b.title))
    .slice(0, limit);
}

/** All-day events sort at the start of their (UTC) day, as their date reads, not their instant. */
function startKey(occ: Occurrence): string {
  return occ.allDay ? `${toEntry(occ).first}T00:00` : localStamp(new Date(occ.start));
}

function localStamp(date: Date): string {
  const hh = String(date.getHours()).padStart(2, "0");
  const mm = String(date.getMinutes()).padStart(2, "0");
  return `${dayOfLocal(date)}T${hh}:${mm}`;
}

/** A local time of day, "09:30". */
export function clock(date: Date, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit" }).format(date);
}

/**
 * When an upcoming event happens, in few words: "Now", "Today 14:30", "Tomorrow 09:00",
 * "Thu 10:00", or the day with "all day".
 */
export function whenLabel(occ: Occurrence, now: Date, locale?: string): string {
  const today = dayOfLocal(now);
  const dayWord = (day: Day) => {
    if (day === today) return "Today";
    if (day === addDays(today, 1)) return "Tomorrow";
    const [y = 1970, m = 1, d = 1] = day.split("-").map(Number);
    return new Intl.DateTimeFormat(locale, { weekday: "short" }).format(new Date(y, m - 1, d));
  };
  if (occ.allDay) {
    const { first } = toEntry(occ);
    return `${first < today ? "Today" : dayWord(first)}, all day`;
  }
  const start = new Date(occ.start);
  if (start.getTime() <= now.getTime()) return "Now";
  return `${dayWord(dayOfLocal(start))} ${clock(start, locale)}`;
}

/** The SSE `calendar` event. */
export interface CalendarReminder {
  kind: "reminder";
  minutesBefore: number;
  event: Occurrence;
}

export function isReminder(data: unknown): data is CalendarReminder {
  if (typeof data !== "object" || data === null) return false;
  const value = data as Partial<CalendarReminder>;
  return value.kind === "reminder" && typeof value.minutesBefore === "number" && typeof value.event === "object";
}

const titleOf = (occ: Occurrence) => occ.title.trim() || "An event";

/** "Standup in 10 min", "Standup in 1 min", "Standup starts now". */
export function reminderText(reminder: CalendarReminder): string {
  const minutes = Math.round(reminder.minutesBefore);
  if (minutes <= 0) return `${titleOf(reminder.event)} starts now`;
  return `${titleOf(reminder.event)} in ${minutes} min`;
}

/**
 * The one toast for the reminders focus mode held, when it ends: the events still ahead or
 * under way at `now`, by name and start ("While you focused: Standup at 10:00, Review at 11:30.");
 * `null` when all of them are over.
 */
export function heldRemindersText(held: readonly CalendarReminder[], now: Date, locale?: string): string | null {
  const seen = new Set<string>();
  const still = held.filter((r) => {
    if (Date.parse(r.event.end) <= now.getTime() || seen.has(r.event.uid + r.event.start)) return false;
    seen.add(r.event.uid + r.event.start);
    return true;
  });
  if (still.length === 0) return null;
  const parts = still.map((r) =>
    r.event.allDay ? titleOf(r.event) : `${titleOf(r.event)} at ${clock(new Date(r.event.start), locale)}`,
  );
  return `While you focused: ${parts.join(", ")}.`;
}
