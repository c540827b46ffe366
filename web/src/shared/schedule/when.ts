/**
 * The one "when" of every form that schedules something (a recipe's schedule, a scheduled
 * message, a drip), apart from its rendering: the presets (every day, every weekday, every week
 * on a day, at a time) and their cron patterns both ways, a custom cron pattern or RRULE, what the
 * form sends or every problem with it, and the next three times it comes, in words.
 */
import { atProblem, cronProblems, zonedInstant, zoneKnown, zoneProblem } from "./checks";

/** How often: once (where a form allows it), a preset, or a custom cron pattern or RRULE. */
export type Repeat = "once" | "daily" | "weekdays" | "weekly" | "custom";

export type Syntax = "cron" | "rrule";

/** Cron's days of the week, Sunday 0. */
export const WEEKDAYS = [
  [1, "Monday"],
  [2, "Tuesday"],
  [3, "Wednesday"],
  [4, "Thursday"],
  [5, "Friday"],
  [6, "Saturday"],
  [0, "Sunday"],
] as const;

/** The picker as typed. */
export interface WhenDraft {
  repeat: Repeat;
  /** A one-off's local date and time, as `<input type="datetime-local">` gives it. */
  at: string;
  /** `HH:MM`, for the presets. */
  time: string;
  /** The day of a weekly preset, Sunday 0. */
  weekday: number;
  syntax: Syntax;
  /** The custom cron pattern or RRULE as written. */
  rule: string;
  timeZone: string;
}

export function whenDraft(repeat: Repeat, timeZone: string): WhenDraft {
  return { repeat, at: "", time: "09:00", weekday: 1, syntax: "cron", rule: "", timeZone };
}

const TIME = /^([01]?\d|2[0-3]):([0-5]\d)$/;

/** The cron pattern of a preset at `time` (`HH:MM`); null for a time that is not one. */
export function presetCron(repeat: "daily" | "weekdays" | "weekly", time: string, weekday: number): string | null {
  const match = TIME.exec(time.trim());
  if (!match) return null;
  const at = `${Number(match[2])} ${Number(match[1])}`;
  const days = repeat === "daily" ? "*" : repeat === "weekdays" ? "1-5" : String(weekday);
  return `${at} * * ${days}`;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** The preset a cron pattern is, if it is one: so a saved schedule reads as the picker wrote it. */
export function cronPreset(
  pattern: string,
): { repeat: "daily" | "weekdays" | "weekly"; time: string; weekday: number } | null {
  const match = /^(\d{1,2}) (\d{1,2}) \* \* (\*|1-5|[0-7])$/.exec(pattern.trim().split(/\s+/).join(" "));
  if (!match) return null;
  const minute = Number(match[1]);
  const hour = Number(match[2]);
  if (minute > 59 || hour > 23) return null;
  const time = `${pad(hour)}:${pad(minute)}`;
  const days = match[3] ?? "*";
  if (days === "*") return { repeat: "daily", time, weekday: 1 };
  if (days === "1-5") return { repeat: "weekdays", time, weekday: 1 };
  return { repeat: "weekly", time, weekday: Number(days) % 7 };
}

/** A preset in words: "every weekday at 09:00", "every week on Friday at 17:30". */
export function presetWords(preset: {
  repeat: "daily" | "weekdays" | "weekly";
  time: string;
  weekday: number;
}): string {
  if (preset.repeat === "daily") return `every day at ${preset.time}`;
  if (preset.repeat === "weekdays") return `every weekday at ${preset.time}`;
  const day = WEEKDAYS.find(([n]) => n === preset.weekday)?.[1] ?? "Monday";
  return `every week on ${day} at ${preset.time}`;
}

/** The fields whose refusals a change of the picker answers. */
export function changedFields(patch: Partial<WhenDraft>): string[] {
  const fields: string[] = [];
  if ("repeat" in patch) fields.push("repeat", "at", "time", "cron", "rrule");
  if ("at" in patch) fields.push("at");
  if ("time" in patch || "weekday" in patch) fields.push("time");
  if ("rule" in patch || "syntax" in patch) fields.push("cron", "rrule");
  if ("timeZone" in patch) fields.push("timeZone", "at");
  return fields;
}

/** What the picker sends: exactly one of `at`, `cron` or `rrule`, and the zone. */
export interface WhenFields {
  at?: string;
  cron?: string;
  rrule?: string;
  timeZone: string;
}

/** The fields the picker makes, and every problem with them as `[field, sentence]` pairs, in the server's words. */
export function whenFields(draft: WhenDraft, now: Date): { fields: WhenFields; problems: [string, string][] } {
  const problems: [string, string][] = [];
  const timeZone = draft.timeZone.trim();
  const zone = zoneProblem(timeZone);
  if (zone !== null) problems.push(["timeZone", zone]);
  switch (draft.repeat) {
    case "once": {
      const at = atProblem(draft.at, timeZone, now);
      if (at !== null) problems.push(["at", at]);
      return { fields: { at: draft.at.trim(), timeZone }, problems };
    }
    case "custom": {
      const rule = draft.rule.trim();
      if (draft.syntax === "cron") {
        for (const problem of cronProblems(rule)) problems.push(["cron", problem]);
        return { fields: { cron: rule, timeZone }, problems };
      }
      if (!rule) problems.push(["rrule", "Write an RRULE, such as FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0."]);
      return { fields: { rrule: rule, timeZone }, problems };
    }
    default: {
      const cron = presetCron(draft.repeat, draft.time, draft.weekday);
      if (cron === null) problems.push(["time", "Give the time as HH:MM, such as 09:00."]);
      return { fields: { cron: cron ?? "", timeZone }, problems };
    }
  }
}

/** The values a cron part allows, or null when it uses what this reader does not (L, W, #). */
function cronSet(text: string, min: number, max: number, names: readonly string[] = []): Set<number> | null {
  const value = (v: string): number | null => {
    if (/^\d+$/.test(v)) return Number(v);
    const i = names.indexOf(v.toUpperCase());
    return i < 0 ? null : i + (names.length === 12 ? 1 : 0);
  };
  const set = new Set<number>();
  for (const item of text.split(",")) {
    const [base = "", stepText] = item.split("/");
    const step = stepText === undefined ? 1 : Number(stepText);
    let from: number | null;
    let to: number | null;
    if (base === "*") {
      from = min;
      to = max;
    } else {
      const [a = "", b] = base.split("-");
      from = value(a);
      to = b === undefined ? (stepText === undefined ? from : max) : value(b);
    }
    if (from === null || to === null || !(step >= 1)) return null;
    for (let n = from; n <= to; n += step) set.add(n);
  }
  return set;
}

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const DAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];
const NICKNAMES: Record<string, string> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};

/** How far ahead the preview looks for a day a pattern matches: past leap years. */
const DAYS_AHEAD = 4 * 366 + 1;

/**
 * The next `count` times a cron pattern comes in `zone` after `from`, as Vixie cron reads it (a
 * restricted day of the month and day of the week: either one); empty when it cannot tell (a
 * pattern with problems, a form it does not read, an unknown zone).
 */
export function nextCronTimes(pattern: string, zone: string, from: Date, count = 3): Date[] {
  const trimmed = pattern.trim();
  const expanded = NICKNAMES[trimmed.toLowerCase()] ?? trimmed;
  if (cronProblems(expanded).length > 0 || !zoneKnown(zone)) return [];
  const [m = "", h = "", dom = "", mon = "", dow = ""] = expanded.split(/\s+/);
  const minutes = cronSet(m, 0, 59);
  const hours = cronSet(h, 0, 23);
  const days = cronSet(dom, 1, 31);
  const months = cronSet(mon, 1, 12, MONTHS);
  const weekdays = cronSet(dow, 0, 7, DAYS);
  if (!minutes || !hours || !days || !months || !weekdays) return [];
  if (weekdays.has(7)) weekdays.add(0);
  const anyDom = dom === "*";
  const anyDow = dow === "*";
  const sortedHours = [...hours].sort((a, b) => a - b);
  const sortedMinutes = [...minutes].sort((a, b) => a - b);
  const start = wallDate(from, zone);
  const found: Date[] = [];
  for (let i = 0; i < DAYS_AHEAD && found.length < count; i++) {
    const day = new Date(Date.UTC(start.year, start.month - 1, start.day + i));
    const [y, mo, d, wd] = [day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), day.getUTCDay()];
    if (!months.has(mo)) continue;
    const domOk = days.has(d);
    const dowOk = weekdays.has(wd);
    const dayOk = anyDom && anyDow ? true : anyDom ? dowOk : anyDow ? domOk : domOk || dowOk;
    if (!dayOk) continue;
    for (const hour of sortedHours) {
      for (const minute of sortedMinutes) {
        const local = `${y}-${pad(mo)}-${pad(d)}T${pad(hour)}:${pad(minute)}`;
        const at = zonedInstant(local, zone);
        if (at && at.getTime() > from.getTime() && !found.some((t) => t.getTime() === at.getTime())) {
          found.push(at);
          if (found.length === count) return found;
        }
      }
    }
  }
  return found;
}

/** The wall date of `at` in `zone`. */
function wallDate(at: Date, zone: string): { year: number; month: number; day: number } {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    year: "numeric",
    month: "numeric",
    day: "numeric",
  }).formatToParts(at);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { year: get("year"), month: get("month"), day: get("day") };
}

/** A time to come as a person says it, on the wall of `zone`: "today at 09:00", "Friday at 09:00", "Friday 11 December at 09:00". */
export function comingWords(at: Date, now: Date, zone: string): string {
  const clock = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(at);
  const then = wallDate(at, zone);
  const today = wallDate(now, zone);
  const days = Math.round(
    (Date.UTC(then.year, then.month - 1, then.day) - Date.UTC(today.year, today.month - 1, today.day)) / 86_400_000,
  );
  if (days === 0) return `today at ${clock}`;
  if (days === 1) return `tomorrow at ${clock}`;
  const weekday = new Intl.DateTimeFormat("en-GB", { timeZone: zone, weekday: "long" }).format(at);
  if (days < 7) return `${weekday} at ${clock}`;
  const date = new Intl.DateTimeFormat("en-GB", { timeZone: zone, day: "numeric", month: "long" }).format(at);
  return `${weekday} ${date} at ${clock}`;
}

/**
 * The picker's preview in words: "Next: today at 09:00, tomorrow at 09:00 and Monday at 09:00";
 * null when it cannot be told before saving (an RRULE, a pattern with problems).
 */
export function previewText(draft: WhenDraft, now: Date): string | null {
  const zone = draft.timeZone.trim();
  if (draft.repeat === "once") {
    const at = zonedInstant(draft.at, zone);
    return at && at.getTime() > now.getTime() ? `Once, ${comingWords(at, now, zone)}.` : null;
  }
  const { fields } = whenFields(draft, now);
  if (fields.cron === undefined) return null;
  const times = nextCronTimes(fields.cron, zone, now).map((t) => comingWords(t, now, zone));
  if (times.length === 0) return null;
  const last = times.pop();
  return `Next: ${times.length > 0 ? `${times.join(", ")} and ${last}` : last}.`;
}
