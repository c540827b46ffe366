/**
 * The one way the app writes a time or a day for people: in the reader's locale (Intl, no
 * locale of ours), in words for what is recent or near ("5 min ago", "yesterday 14:05", "in 3 h"),
 * and exactly in a tooltip (`exactTime`). Pages show them through `shared/ui/When`.
 */

/** The time in milliseconds; 0 for a time that cannot be read. */
export function epochMs(iso: string): number {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Up to this far away a time is said as a count ("3 h ago"); further, by its day and clock. */
const COUNTED_HOURS = 6;
/** Within this many days a day is named by its weekday; further, by its date. */
const WEEKDAY_DAYS = 6;

/** Formatters by locale and options: building one is slow, and a board draws hundreds of times. */
const formats = new Map<string, Intl.DateTimeFormat>();
function format(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale ?? ""}|${JSON.stringify(options)}`;
  let made = formats.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(locale, options);
    formats.set(key, made);
  }
  return made;
}

const CLOCK: Intl.DateTimeFormatOptions = { hour: "numeric", minute: "2-digit" };

/** Whole local days from `now`'s day to `at`'s: -1 yesterday, 0 today, 1 tomorrow. */
function daysApart(at: Date, now: Date): number {
  const midnight = (d: Date) => Date.UTC(d.getFullYear(), d.getMonth(), d.getDate());
  return Math.round((midnight(at) - midnight(now)) / (24 * HOUR));
}

/** A day in words: "today", "yesterday", "tomorrow", a weekday this week, else its date. */
function dayWords(at: Date, now: Date, locale: string | undefined): string {
  const apart = daysApart(at, now);
  if (apart === 0) return "today";
  if (apart === -1) return "yesterday";
  if (apart === 1) return "tomorrow";
  if (Math.abs(apart) <= WEEKDAY_DAYS) return format(locale, { weekday: "short" }).format(at);
  const year = at.getFullYear() === now.getFullYear() ? undefined : "numeric";
  return format(locale, { day: "numeric", month: "short", year }).format(at);
}

/**
 * `iso` as people say it, from `now`: "just now", "42 s ago", "5 min ago", "3 h ago" (or "in 5
 * min", "in 3 h" ahead); further, its day and clock ("yesterday 14:05", "Mon 9:00", "4 Dec
 * 9:00"), in `locale` (the reader's when absent). A time that cannot be read is given as it came.
 */
export function relativeTime(iso: string, now: number, locale?: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const ahead = t - now;
  const distance = Math.abs(ahead);
  // A clock a little ahead of the server's is not "in the future".
  if (ahead >= 0 ? ahead < MINUTE : distance < 5_000) return "just now";
  if (ahead < 0 && distance < MINUTE) return `${Math.floor(distance / 1000)} s ago`;
  const say = (count: string) => (ahead > 0 ? `in ${count}` : `${count} ago`);
  if (distance < HOUR) return say(`${Math.max(1, Math.floor(distance / MINUTE))} min`);
  if (distance < COUNTED_HOURS * HOUR) return say(`${Math.floor(distance / HOUR)} h`);
  const at = new Date(t);
  return `${dayWords(at, new Date(now), locale)} ${format(locale, CLOCK).format(at)}`;
}

/** The exact time, for the tooltip beside `relativeTime`: "Friday, 27 November 2026 at 21:41". */
export function exactTime(iso: string, locale?: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : format(locale, { dateStyle: "full", timeStyle: "short" }).format(new Date(t));
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar day ("2026-11-26", a due date) as a moment at its midnight in UTC, or null. */
function utcDay(day: string): Date | null {
  const match = DAY.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = new Date(Date.UTC(year, month - 1, date));
  // Date.UTC rolls "2024-13-01" into the next year: such a day is not one.
  return at.getUTCMonth() === month - 1 && at.getUTCDate() === date ? at : null;
}

/**
 * A calendar day ("2026-11-26": a due date, a sprint's end) as people say it, from `now`:
 * "today", "tomorrow", "yesterday", a weekday within a week, else "26 Nov" (with the year when it
 * is not this one), in `locale`. Anything that is not such a day is given as it came.
 */
export function relativeDay(day: string, now: number, locale?: string): string {
  const at = utcDay(day);
  if (!at) return day;
  const here = new Date(now);
  // The day is a date, not a moment: compare it with today's date where the reader is.
  const today = new Date(Date.UTC(here.getFullYear(), here.getMonth(), here.getDate()));
  const apart = Math.round((at.getTime() - today.getTime()) / (24 * HOUR));
  if (apart === 0) return "today";
  if (apart === -1) return "yesterday";
  if (apart === 1) return "tomorrow";
  if (Math.abs(apart) <= WEEKDAY_DAYS) return format(locale, { weekday: "short", timeZone: "UTC" }).format(at);
  const year = at.getUTCFullYear() === here.getFullYear() ? undefined : "numeric";
  return format(locale, { day: "numeric", month: "short", year, timeZone: "UTC" }).format(at);
}

/** The exact day, for the tooltip beside `relativeDay`: "Thursday, 26 November 2026". */
export function exactDay(day: string, locale?: string): string {
  const at = utcDay(day);
  return at ? format(locale, { dateStyle: "full", timeZone: "UTC" }).format(at) : day;
}

/** A day without reference to now ("26 Nov 2026"): a span's ends, where "tomorrow" would mislead. */
export function plainDay(day: string, locale?: string): string {
  const at = utcDay(day);
  return at ? format(locale, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(at) : day;
}

/**
 * Prose a server wrote with days in it ("Fix login is overdue (due 2026-11-26)"), its days said
 * as `relativeDay` says them ("… (due yesterday)").
 */
export function daysInWords(text: string, now: number, locale?: string): string {
  return text.replace(/\b\d{4}-\d{2}-\d{2}\b/g, (day) => relativeDay(day, now, locale));
}
