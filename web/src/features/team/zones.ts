/**
 * Team time's arithmetic, pure so it is tested without a clock: a person's local wall time at an
 * instant (Intl.DateTimeFormat with `timeZone` reads the IANA database, so daylight-saving changes
 * fall where each zone has them), whether they are working then, and the meeting planner's
 * windows over a week, found by stepping through real instants rather than adding hours to local
 * dates, which is what goes wrong across a change.
 */

/** A person as the planner needs them: the server's TeamPerson has these fields. */
export interface Worker {
  name: string;
  zone: string;
  /** Minutes after local midnight. */
  startMinute: number;
  endMinute: number;
  /** ISO weekdays, 1 (Monday) to 7 (Sunday). */
  workdays: readonly number[];
}

export interface LocalTime {
  /** ISO weekday, 1 (Monday) to 7 (Sunday). */
  weekday: number;
  /** Minutes after local midnight. */
  minute: number;
  /** The local date, YYYY-MM-DD. */
  date: string;
}

export interface Window {
  start: Date;
  end: Date;
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      weekday: "short",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    });
    formats.set(zone, format);
  }
  return format;
}

/** The wall clock in `zone` at `instant`. */
export function localTime(instant: Date, zone: string): LocalTime {
  const parts: Record<string, string> = {};
  for (const part of formatFor(zone).formatToParts(instant)) parts[part.type] = part.value;
  const hour = Number(parts.hour) % 24;
  return {
    weekday: WEEKDAYS[parts.weekday ?? ""] ?? 0,
    minute: hour * 60 + Number(parts.minute),
    date: `${parts.year}-${parts.month}-${parts.day}`,
  };
}

/** Whether `person` is within their working hours at `instant`, in their own zone. */
export function isWorking(person: Worker, instant: Date): boolean {
  const local = localTime(instant, person.zone);
  return (
    person.workdays.includes(local.weekday) && local.minute >= person.startMinute && local.minute < person.endMinute
  );
}

/** Whether a zone name is one this browser knows (the server checks against the IANA database too). */
export function knownZone(zone: string): boolean {
  try {
    formatFor(zone);
    return true;
  } catch {
    return false;
  }
}

const STEP_MINUTES = 15;
const MINUTE = 60_000;

/**
 * The windows in the `days` from `from` when every person is working, each at least
 * `minMinutes` long, on a 15-minute grid from `from`. Each quarter hour is tested whole (its
 * start and its last minute), so a window never crosses anyone's end of day.
 */
export function meetingWindows(people: readonly Worker[], from: Date, days = 7, minMinutes = 30): Window[] {
  if (people.length === 0) return [];
  const windows: Window[] = [];
  const steps = (days * 24 * 60) / STEP_MINUTES;
  let open: Date | null = null;
  const close = (at: Date) => {
    if (open && at.getTime() - open.getTime() >= minMinutes * MINUTE) windows.push({ start: open, end: at });
    open = null;
  };
  for (let i = 0; i < steps; i++) {
    const start = new Date(from.getTime() + i * STEP_MINUTES * MINUTE);
    const last = new Date(start.getTime() + (STEP_MINUTES - 1) * MINUTE);
    const all = people.every((p) => isWorking(p, start) && isWorking(p, last));
    if (all && !open) open = start;
    if (!all) close(start);
  }
  close(new Date(from.getTime() + steps * STEP_MINUTES * MINUTE));
  return windows;
}

/** "09:30" from minutes after midnight. */
export function clockText(minute: number): string {
  const h = Math.floor(minute / 60) % 24;
  const m = minute % 60;
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
}

/** Minutes after midnight from "09:30" (null when it is not a time of day; "24:00" is the day's end). */
export function parseClock(text: string): number | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const minute = Number(match[1]) * 60 + Number(match[2]);
  return Number(match[2]) < 60 && minute <= 24 * 60 ? minute : null;
}

/** The time at `instant` in `zone`, as the person there reads it ("Thu 14:30"). */
export function wallText(instant: Date, zone: string): string {
  const local = localTime(instant, zone);
  const day = Object.keys(WEEKDAYS)[local.weekday - 1] ?? "";
  return `${day} ${clockText(local.minute)}`;
}
