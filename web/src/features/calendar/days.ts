/**
 * Days of the calendar as `YYYY-MM-DD` keys, computed on UTC dates so that no daylight-saving
 * change or browser zone moves them: the month grid for a month and a week start, the week's
 * days, the agenda's days, what the previous and next buttons step to, and the days on screen
 * as the `from`/`to` of `GET /calendar/events`.
 */

/** A calendar day, `YYYY-MM-DD`. */
export type Day = string;

export type CalendarView = "month" | "week" | "agenda";

/** 0 for Sunday, 1 for Monday: the weekday a week starts on. */
export type WeekStart = 0 | 1;

/** How many days the agenda lists from its first. */
export const AGENDA_DAYS = 14;

const DAY_MS = 86_400_000;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** The day of a UTC date. */
export function dayOfUtc(date: Date): Day {
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** The day a moment falls on in the browser's zone (today, a timed event's day). */
export function dayOfLocal(date: Date): Day {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Midnight UTC of `day`, as milliseconds: the arithmetic below steps in whole days on it. */
export function utcMs(day: Day): number {
  const [y, m, d] = day.split("-").map(Number);
  return Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1);
}

export function addDays(day: Day, n: number): Day {
  return dayOfUtc(new Date(utcMs(day) + n * DAY_MS));
}

/** Whole days from `a` to `b` (negative when `b` is earlier). */
export function daysBetween(a: Day, b: Day): number {
  return Math.round((utcMs(b) - utcMs(a)) / DAY_MS);
}

/** 0 Sunday … 6 Saturday. */
export function weekdayOf(day: Day): number {
  return new Date(utcMs(day)).getUTCDay();
}

/** `calendarWeekStartDay` as a weekday number; anything but `sunday` is Monday, its default. */
export function weekStartOf(setting: unknown): WeekStart {
  return setting === "sunday" ? 0 : 1;
}

/** The first day of the week holding `day`. */
export function startOfWeek(day: Day, weekStart: WeekStart): Day {
  return addDays(day, -((weekdayOf(day) - weekStart + 7) % 7));
}

/** The seven days of the week holding `day`, from the week's start. */
export function weekDays(day: Day, weekStart: WeekStart): Day[] {
  const first = startOfWeek(day, weekStart);
  return Array.from({ length: 7 }, (_, i) => addDays(first, i));
}

/** The first of the month holding `day`. */
export function startOfMonth(day: Day): Day {
  return `${day.slice(0, 7)}-01`;
}

/**
 * The month holding `day` as whole weeks: from the week of its first to the week of its last,
 * four to six rows of seven days, the neighbouring months' days filling the edges.
 */
export function monthGrid(day: Day, weekStart: WeekStart): Day[][] {
  const first = startOfMonth(day);
  const nextMonth = addMonths(first, 1);
  const weeks: Day[][] = [];
  for (let start = startOfWeek(first, weekStart); start < nextMonth; start = addDays(start, 7)) {
    weeks.push(Array.from({ length: 7 }, (_, i) => addDays(start, i)));
  }
  return weeks;
}

/** The same day of the month `n` months on, the month's last day where it has fewer. */
export function addMonths(day: Day, n: number): Day {
  const [y = 1970, m = 1, d = 1] = day.split("-").map(Number);
  const index = y * 12 + (m - 1) + n;
  const year = Math.floor(index / 12);
  const month = index - year * 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return `${pad(year, 4)}-${pad(month + 1)}-${pad(Math.min(d, last))}`;
}

/** The days a view shows around `anchor`, in order. */
export function visibleDays(view: CalendarView, anchor: Day, weekStart: WeekStart): Day[] {
  switch (view) {
    case "month":
      return monthGrid(anchor, weekStart).flat();
    case "week":
      return weekDays(anchor, weekStart);
    case "agenda":
      return Array.from({ length: AGENDA_DAYS }, (_, i) => addDays(anchor, i));
  }
}

/** The first and last day on screen: the days `GET /calendar/events` reads (both included). */
export function visibleRange(view: CalendarView, anchor: Day, weekStart: WeekStart): { from: Day; to: Day } {
  const days = visibleDays(view, anchor, weekStart);
  return { from: days[0] ?? anchor, to: days[days.length - 1] ?? anchor };
}

/** The request for a range. */
export function eventsPath({ from, to }: { from: Day; to: Day }): string {
  return `/calendar/events?from=${from}&to=${to}`;
}

/** Where "previous" (−1) and "next" (+1) move the anchor: a month, a week, or the agenda's length. */
export function stepAnchor(view: CalendarView, anchor: Day, direction: -1 | 1): Day {
  switch (view) {
    case "month":
      return addMonths(startOfMonth(anchor), direction);
    case "week":
      return addDays(anchor, 7 * direction);
    case "agenda":
      return addDays(anchor, AGENDA_DAYS * direction);
  }
}

/** The heading of what is shown: "March 2026", "16 – 22 Mar 2026", "16 – 29 Mar 2026". */
export function rangeTitle(view: CalendarView, anchor: Day, weekStart: WeekStart, locale?: string): string {
  const at = (day: Day) => new Date(utcMs(day));
  if (view === "month") {
    return new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(at(anchor));
  }
  const { from, to } = visibleRange(view, anchor, weekStart);
  const format = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
  return format.formatRange(at(from), at(to));
}

/** A day as a list's heading: "Friday, 27 November". */
export function dayTitle(day: Day, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" }).format(
    new Date(utcMs(day)),
  );
}

/** The days an entry covers in words, for screen readers: "Tue, 10 Mar" or "10 – 14 Mar". */
export function daysWords(first: Day, last: Day, locale?: string): string {
  const format = new Intl.DateTimeFormat(locale, { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });
  const at = (day: Day) => new Date(utcMs(day));
  return first === last ? format.format(at(first)) : format.formatRange(at(first), at(last));
}
