/**
 * The browser's copy of the server's checks of a "when" (crates/automations `rule.rs`, crates/drips
 * `when.rs`), in the same words, so a form says every problem before it is sent: a cron pattern
 * part by part, a time zone by name, and a time that has passed as a person says it. The server
 * checks everything again and is the one that decides.
 */

interface CronPart {
  noun: string;
  min: number;
  max: number;
  /** Names for its values, the first standing for `namesFrom`. */
  names: readonly string[];
  namesFrom: number;
  range: string;
}

const CRON_PARTS: readonly CronPart[] = [
  { noun: "The minute", min: 0, max: 59, names: [], namesFrom: 0, range: "0–59" },
  { noun: "The hour", min: 0, max: 23, names: [], namesFrom: 0, range: "0–23" },
  { noun: "The day of the month", min: 1, max: 31, names: [], namesFrom: 0, range: "1–31" },
  {
    noun: "The month",
    min: 1,
    max: 12,
    names: ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"],
    namesFrom: 1,
    range: "1–12 or JAN–DEC",
  },
  {
    noun: "The day of the week",
    min: 0,
    max: 7,
    names: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"],
    namesFrom: 0,
    range: "0–7 or SUN–SAT",
  },
];

function partValue(part: CronPart, text: string): number | null {
  let n: number;
  if (/^\d+$/.test(text)) {
    n = Number(text);
  } else {
    const named = part.names.findIndex((name) => name === text.toUpperCase());
    if (named < 0) return null;
    n = named + part.namesFrom;
  }
  return n >= part.min && n <= part.max ? n : null;
}

function partProblem(part: CronPart, text: string): string | null {
  for (const item of text.split(",")) {
    if (item === "") return `${part.noun} has an empty place in its list ${text}.`;
    // The rarer forms (L, W, #, ?) are left to the server.
    if (/[LlWw#?]/.test(item)) continue;
    const slash = item.indexOf("/");
    const base = slash < 0 ? item : item.slice(0, slash);
    if (slash >= 0) {
      const step = item.slice(slash + 1);
      if (!/^\d+$/.test(step) || Number(step) < 1) {
        return `The step after / in ${item} must be a whole number above 0.`;
      }
    }
    if (base === "*") continue;
    const dash = base.indexOf("-");
    const from = dash < 0 ? base : base.slice(0, dash);
    const start = partValue(part, from);
    if (start === null) return `${part.noun} must be ${part.range}, not ${from}.`;
    if (dash >= 0) {
      const to = base.slice(dash + 1);
      const end = partValue(part, to);
      if (end === null) return `${part.noun} must be ${part.range}, not ${to}.`;
      if (start > end) return `${part.noun} range ${base} runs backwards: write the smaller end first.`;
    }
  }
  return null;
}

/** What is wrong with a five-field cron pattern, part by part, in the server's words; empty when it reads. */
export function cronProblems(pattern: string): string[] {
  const trimmed = pattern.trim();
  if (!trimmed) return ["Write a cron pattern, such as 30 2 * * * for 02:30 every day."];
  if (trimmed.startsWith("@")) return [];
  const parts = trimmed.split(/\s+/);
  if (parts.length !== 5) {
    return [
      `A cron pattern has five parts (minute, hour, day of the month, month, day of the week); this one has ${parts.length}.`,
    ];
  }
  return parts.flatMap((text, i) => {
    const part = CRON_PARTS[i];
    const problem = part ? partProblem(part, text) : null;
    return problem === null ? [] : [problem];
  });
}

/** Whether the browser knows a zone of that name. */
export function zoneKnown(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** What is wrong with a time zone as typed, in the server's words; null when the browser knows it. */
export function zoneProblem(zone: string): string | null {
  const name = zone.trim();
  if (!name) return "Choose a time zone, such as Europe/Berlin.";
  return zoneKnown(name) ? null : `No time zone is called ${name}: use a name such as Europe/Berlin.`;
}

/** The calendar date and wall clock of `at` in `zone`. */
function wall(at: Date, zone: string): { date: string; hour: number; clock: string; long: string } {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return {
    date: `${get("year")}-${get("month")}-${get("day")}`,
    hour: Number(get("hour")),
    clock: `${get("hour")}:${get("minute")}`,
    long: `${get("day")} ${get("month")} ${get("year")}`,
  };
}

/** A moment before now as a person says it, on the wall of `zone`: "10:00 this morning", "21:30 yesterday". */
export function passedWords(at: Date, now: Date, zone: string): string {
  const then = wall(at, zone);
  const today = wall(now, zone);
  if (then.date === today.date) {
    const part = then.hour < 12 ? "this morning" : then.hour < 18 ? "this afternoon" : "this evening";
    return `${then.clock} ${part}`;
  }
  if (wall(new Date(now.getTime() - 86_400_000), zone).date === then.date) return `${then.clock} yesterday`;
  return `${then.clock} on ${then.long}`;
}

/** The offset of `zone` from UTC at `at`, in milliseconds. */
function offsetAt(at: number, zone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
    hourCycle: "h23",
  }).formatToParts(at);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return asUtc - Math.floor(at / 1000) * 1000;
}

/** A local `YYYY-MM-DDTHH:MM` read on the wall of `zone`; null when it is not one (or the zone is unknown). */
export function zonedInstant(local: string, zone: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local.trim());
  if (!match || !zoneKnown(zone)) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [number, number, number, number, number, number, number];
  const wallAsUtc = Date.UTC(y, mo - 1, d, h, mi, Number.isNaN(s) ? 0 : s);
  // Twice: the offset at the first guess may differ from the one at the answer near a change.
  const first = wallAsUtc - offsetAt(wallAsUtc, zone);
  return new Date(wallAsUtc - offsetAt(first, zone));
}

/** How far in the past a time may be and still be taken, as the server allows: typed to the minute. */
const AT_GRACE_MS = 60_000;

/** What is wrong with a one-off time typed in `zone`, in the server's words; null when it is still to come. */
export function atProblem(local: string, zone: string, now: Date): string | null {
  if (!local.trim()) return "Choose the date and time.";
  const at = zonedInstant(local, zone);
  if (at === null)
    return zoneKnown(zone) ? `${local} is not a date and time: choose one, such as 2026-01-05 09:00.` : null;
  return at.getTime() < now.getTime() - AT_GRACE_MS ? `That time has passed: ${passedWords(at, now, zone)}.` : null;
}
