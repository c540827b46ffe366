/**
 * Schedules apart from their rendering: a cron pattern or an RRULE in words ("every weekday at
 * 09:00"), when one runs next, the form's fields and what they send, and the browser's zone as
 * the form's default.
 */
import type {
  RecipeSchedule,
  RecipeScheduleFields,
  ScheduleMissed,
  ScheduleState,
} from "../../shared/api/types.generated";
import { whenDraft, whenFields, type WhenDraft } from "../../shared/schedule/when";
import { checked, missingSentence, missingValues, valuesFor, type Checked } from "./recipes";

export const SCHEDULE_STATE_LABEL: Record<ScheduleState, string> = {
  active: "Active",
  pending: "Waiting for approval",
  paused: "Paused",
};

export type RuleSyntax = "cron" | "rrule";

/** A schedule's rule as stored: which syntax and the text. */
export function scheduleRule(schedule: RecipeSchedule): { syntax: RuleSyntax; text: string } {
  return "cron" in schedule ? { syntax: "cron", text: schedule.cron } : { syntax: "rrule", text: schedule.rrule };
}

const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const DAY_ABBR = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];
const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const MONTH_ABBR = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

const pad = (n: number) => String(n).padStart(2, "0");
const clock = (hour: number, minute: number) => `${pad(hour)}:${pad(minute)}`;

/** A whole number in `[min, max]`, else null. */
function whole(text: string, min: number, max: number): number | null {
  if (!/^\d+$/.test(text)) return null;
  const n = Number(text);
  return n >= min && n <= max ? n : null;
}

/** "first", "2nd", "23rd": a day of the month. */
function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${["th", "st", "nd", "rd"][n % 10] ?? "th"}`;
}

/** A list of words: "Monday", "Monday and Friday", "Monday, Wednesday and Friday". */
function list(words: readonly string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** A cron day of week (0-7, 7 is Sunday again, or `MON`) as 0-6; null when it is not one. */
function cronDay(text: string): number | null {
  const named = DAY_ABBR.indexOf(text.toUpperCase());
  if (named >= 0) return named;
  const n = whole(text, 0, 7);
  return n === null ? null : n % 7;
}

/** The days a cron day-of-week field names, Monday first: "weekdays", "Monday and Friday"; null when unsure. */
function cronDays(field: string): string | null {
  const days = new Set<number>();
  for (const part of field.split(",")) {
    const range = part.split("-");
    if (range.length === 1) {
      const day = cronDay(part);
      if (day === null) return null;
      days.add(day);
    } else if (range.length === 2) {
      const from = cronDay(range[0] ?? "");
      const to = cronDay(range[1] ?? "");
      if (from === null || to === null || from > to) return null;
      for (let d = from; d <= to; d++) days.add(d);
    } else {
      return null;
    }
  }
  const mondayFirst = [1, 2, 3, 4, 5, 6, 0].filter((d) => days.has(d));
  if (mondayFirst.length === 7) return "every day";
  if (mondayFirst.length === 5 && !days.has(0) && !days.has(6)) return "weekdays";
  if (mondayFirst.length === 2 && days.has(0) && days.has(6)) return "weekends";
  return list(mondayFirst.map((d) => DAY_NAMES[d] ?? ""));
}

function cronMonth(text: string): number | null {
  const named = MONTH_ABBR.indexOf(text.toUpperCase());
  if (named >= 0) return named + 1;
  return whole(text, 1, 12);
}

const NICKNAMES: Record<string, string> = {
  "@yearly": "every year on 1 January at 00:00",
  "@annually": "every year on 1 January at 00:00",
  "@monthly": "on the 1st of every month at 00:00",
  "@weekly": "every Sunday at 00:00",
  "@daily": "every day at 00:00",
  "@midnight": "every day at 00:00",
  "@hourly": "every hour, on the hour",
};

/**
 * A five-field cron pattern in words, for the common shapes (a time each day, on some weekdays or
 * one day of the month; every N minutes; every hour at a minute); null for anything else, which
 * is then shown as written.
 */
export function describeCron(pattern: string): string | null {
  const trimmed = pattern.trim();
  if (trimmed.startsWith("@")) return NICKNAMES[trimmed.toLowerCase()] ?? null;
  const fields = trimmed.split(/\s+/);
  if (fields.length !== 5) return null;
  const [minuteField = "", hourField = "", domField = "", monthField = "", dowField = ""] = fields;
  const everyDay = domField === "*" && monthField === "*" && dowField === "*";

  if (minuteField === "*" && hourField === "*" && everyDay) return "every minute";
  const minuteStep = /^\*\/(\d+)$/.exec(minuteField);
  if (minuteStep && hourField === "*" && everyDay) {
    const n = Number(minuteStep[1]);
    return n === 1 ? "every minute" : `every ${n} minutes`;
  }
  const minute = whole(minuteField, 0, 59);
  if (minute === null) return null;
  if (hourField === "*" && everyDay) return minute === 0 ? "every hour, on the hour" : `every hour at :${pad(minute)}`;
  const hourStep = /^\*\/(\d+)$/.exec(hourField);
  if (hourStep && everyDay) return `every ${Number(hourStep[1])} hours at :${pad(minute)}`;

  const hours = hourField.split(",").map((h) => whole(h, 0, 23));
  if (hours.some((h) => h === null)) return null;
  const at = `at ${list(hours.map((h) => clock(h ?? 0, minute)))}`;

  if (domField === "*" && monthField === "*") {
    if (dowField === "*") return `every day ${at}`;
    const days = cronDays(dowField);
    if (days === null) return null;
    if (days === "every day") return `every day ${at}`;
    if (days === "weekdays") return `every weekday ${at}`;
    if (days === "weekends") return `on weekends ${at}`;
    return `every ${days} ${at}`;
  }
  const day = whole(domField, 1, 31);
  if (day === null || dowField !== "*") return null;
  if (monthField === "*") return `on the ${ordinal(day)} of every month ${at}`;
  const month = cronMonth(monthField);
  if (month === null) return null;
  return `every year on ${day} ${MONTH_NAMES[month - 1]} ${at}`;
}

const RRULE_DAYS: Record<string, number> = { SU: 0, MO: 1, TU: 2, WE: 3, TH: 4, FR: 5, SA: 6 };
const FREQ_UNIT: Record<string, [string, string]> = {
  MINUTELY: ["minute", "minutes"],
  HOURLY: ["hour", "hours"],
  DAILY: ["day", "days"],
  WEEKLY: ["week", "weeks"],
  MONTHLY: ["month", "months"],
  YEARLY: ["year", "years"],
};

/** The lines of an RRULE as stored: its `RRULE` line, and the `DTSTART` line the server adds when none was given. */
export function rruleLines(rule: string): { rrule: string; start: string | null } {
  const lines = rule
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
  const start = lines.find((l) => /^DTSTART[:;]/i.test(l)) ?? null;
  const rrule = lines.find((l) => !/^DTSTART[:;]/i.test(l)) ?? "";
  return { rrule, start };
}

/** The local hour and minute a `DTSTART` line starts at (`DTSTART;TZID=Europe/Berlin:20260301T090000`). */
function startTime(start: string | null): { hour: number; minute: number } | null {
  // A UTC start (`…Z`) is not the local time the rule is read in: left unknown.
  const time = start === null ? null : /:\d{8}T(\d{2})(\d{2})\d{2}$/.exec(start);
  return time ? { hour: Number(time[1]), minute: Number(time[2]) } : null;
}

/** The `RRULE` part of a rule that may start with a `DTSTART` line, as `NAME=value` pairs. */
function rruleParts(line: string): Map<string, string> | null {
  if (!line) return null;
  const body = line.replace(/^RRULE:/i, "");
  const parts = new Map<string, string>();
  for (const pair of body.split(";")) {
    const [name, value] = pair.split("=");
    if (!name || value === undefined) return null;
    parts.set(name.trim().toUpperCase(), value.trim().toUpperCase());
  }
  return parts;
}

/**
 * An RRULE in words ("every week on Monday at 09:00", "every 2 days at 06:30, 10 times"); null for
 * what it cannot say plainly (set positions, week numbers and other rarer parts).
 */
export function describeRrule(rule: string): string | null {
  const lines = rruleLines(rule);
  const parts = rruleParts(lines.rrule);
  const start = startTime(lines.start);
  const freq = parts?.get("FREQ");
  const unit = freq === undefined ? undefined : FREQ_UNIT[freq];
  if (!parts || !unit) return null;
  const known = new Set([
    "FREQ",
    "INTERVAL",
    "BYDAY",
    "BYHOUR",
    "BYMINUTE",
    "BYMONTHDAY",
    "BYMONTH",
    "COUNT",
    "UNTIL",
    "WKST",
    "BYSECOND",
  ]);
  if ([...parts.keys()].some((k) => !known.has(k))) return null;
  const interval = whole(parts.get("INTERVAL") ?? "1", 1, 10_000);
  if (interval === null) return null;
  const words: string[] = [interval === 1 ? `every ${unit[0]}` : `every ${interval} ${unit[1]}`];

  const byMonth = parts.get("BYMONTH");
  if (byMonth !== undefined) {
    const months = byMonth.split(",").map((m) => whole(m, 1, 12));
    if (months.some((m) => m === null)) return null;
    words.push(`in ${list(months.map((m) => MONTH_NAMES[(m ?? 1) - 1] ?? ""))}`);
  }
  const byMonthDay = parts.get("BYMONTHDAY");
  if (byMonthDay !== undefined) {
    const days = byMonthDay.split(",").map((d) => whole(d, 1, 31));
    if (days.some((d) => d === null)) return null;
    words.push(`on the ${list(days.map((d) => ordinal(d ?? 1)))}`);
  }
  const byDay = parts.get("BYDAY");
  if (byDay !== undefined) {
    const days = byDay.split(",").map((d) => RRULE_DAYS[d]);
    if (days.some((d) => d === undefined)) return null;
    const set = new Set(days as number[]);
    const mondayFirst = [1, 2, 3, 4, 5, 6, 0].filter((d) => set.has(d));
    const weekdays = mondayFirst.length === 5 && !set.has(0) && !set.has(6);
    words.push(weekdays ? "on weekdays" : `on ${list(mondayFirst.map((d) => DAY_NAMES[d] ?? ""))}`);
  }
  // A time the rule leaves out is the start's (RFC 5545): without a DTSTART line it is not known.
  const daily = freq !== "HOURLY" && freq !== "MINUTELY";
  const startHour = start === null ? undefined : String(start.hour);
  const startMinute = start === null ? undefined : String(start.minute);
  const byHour = parts.get("BYHOUR") ?? (daily ? startHour : undefined);
  const byMinute = parts.get("BYMINUTE") ?? (freq !== "MINUTELY" ? startMinute : undefined);
  if (byHour !== undefined && daily) {
    if (byMinute === undefined || byMinute.includes(",")) return null;
    const hours = byHour.split(",").map((h) => whole(h, 0, 23));
    const minute = whole(byMinute, 0, 59);
    if (hours.some((h) => h === null) || minute === null) return null;
    words.push(`at ${list(hours.map((h) => clock(h ?? 0, minute)))}`);
  } else if (parts.has("BYHOUR")) {
    return null;
  } else if (byMinute !== undefined && freq === "HOURLY") {
    const minutes = byMinute.split(",").map((m) => whole(m, 0, 59));
    if (minutes.some((m) => m === null)) return null;
    words.push(`at ${list(minutes.map((m) => `:${pad(m ?? 0)}`))}`);
  } else if (parts.has("BYMINUTE")) {
    return null;
  }
  const count = parts.get("COUNT");
  if (count !== undefined) {
    const n = whole(count, 1, 1_000_000);
    if (n === null) return null;
    words[words.length - 1] += n === 1 ? ", once" : `, ${n} times`;
  }
  const until = parts.get("UNTIL");
  if (until !== undefined) {
    const date = /^(\d{4})(\d{2})(\d{2})/.exec(until);
    if (!date) return null;
    words[words.length - 1] += `, until ${date[1]}-${date[2]}-${date[3]}`;
  }
  return words.join(" ");
}

/** A schedule's rule in words where it can be said plainly, else null (the rule is shown as written). */
export function describeSchedule(schedule: RecipeSchedule): string | null {
  const { syntax, text } = scheduleRule(schedule);
  return describePattern(syntax, text);
}

/** A rule as typed, in words where it can be said plainly. */
export function describePattern(syntax: RuleSyntax, text: string): string | null {
  if (!text.trim()) return null;
  return syntax === "cron" ? describeCron(text) : describeRrule(text);
}

/** "Every day at 02:30": a description starting a sentence. */
export function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "in 5 min", "in 3 h", "in 2 d": how far off a time is (a past one is "due now"). */
export function untilText(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const seconds = Math.floor((at - now) / 1000);
  if (seconds < 60) return seconds <= 0 ? "due now" : "in under a minute";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `in ${hours} h`;
  return `in ${Math.floor(hours / 24)} d`;
}

/** A time as it reads in the schedule's zone: "Mon 9 Mar, 09:00". */
export function zonedTime(iso: string, timeZone: string, locale?: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  try {
    return new Intl.DateTimeFormat(locale, {
      timeZone,
      weekday: "short",
      day: "numeric",
      month: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(at);
  } catch {
    return new Date(at).toISOString();
  }
}

/** When a schedule runs next, in words: only an active one with ticks left runs. */
export function nextRunText(schedule: Pick<RecipeSchedule, "state" | "nextAt">, now: number): string {
  if (schedule.state === "pending") return "Not until approved";
  if (schedule.state === "paused") return "Not while paused";
  if (schedule.nextAt === null) return "No more runs";
  return untilText(schedule.nextAt, now);
}

/** The zone the browser is in, the form's default; UTC when the browser does not say. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** The schedule form as typed: the recipe, the shared "when" picker, the missed-run policy and the values. */
export interface ScheduleDraft {
  recipeId: string;
  when: WhenDraft;
  missed: ScheduleMissed;
  values: Record<string, string>;
}

/** A new schedule of `recipeId`: every day at 09:00 in `timeZone` to start from. */
export function scheduleDraft(recipeId: string, timeZone: string): ScheduleDraft {
  return { recipeId, when: whenDraft("daily", timeZone), missed: "run_once", values: {} };
}

/**
 * The fields to send for a recipe whose prompt names `names`: the "when" (a preset as its cron
 * pattern, a custom cron pattern or RRULE as written), the zone, and a value for every
 * placeholder; or every problem with them, in the server's words.
 */
export function scheduleFields(
  draft: ScheduleDraft,
  names: readonly string[],
  now: Date,
): Checked<RecipeScheduleFields> {
  const problems: [string, string][] = [];
  if (!draft.recipeId) problems.push(["recipeId", "Choose the recipe to run."]);
  const when = whenFields(draft.when, now);
  problems.push(...when.problems);
  const missing = missingValues(names, draft.values);
  if (missing.length > 0) problems.push(["values", missingSentence(missing)]);
  return checked(problems, () => {
    const { cron, rrule, timeZone } = when.fields;
    const fields: RecipeScheduleFields = {
      recipeId: draft.recipeId,
      missed: draft.missed,
      timeZone,
      ...(cron === undefined ? { rrule } : { cron }),
    };
    if (names.length > 0) fields.values = valuesFor(names, draft.values);
    return fields;
  });
}
