/**
 * What the Scheduled messages and Drips pages compute, as pure functions: the request a form's
 * draft makes (or the field it is missing), a timing in words, a drip's state, how an item is
 * shown, and where a refusal belongs.
 */
import { ApiError } from "../../shared/api/client";
import type {
  CadenceState,
  Drip,
  DripFields,
  DripItemKind,
  ScheduledMessage,
  ScheduledMessageFields,
} from "../../shared/api/types.generated";

/** How often a draft repeats: the common cadences, or a rule written out. */
export type Repeat = "once" | "daily" | "weekdays" | "weekly" | "rrule" | "cron";

export const WEEKDAYS = [
  ["MO", "Monday"],
  ["TU", "Tuesday"],
  ["WE", "Wednesday"],
  ["TH", "Thursday"],
  ["FR", "Friday"],
  ["SA", "Saturday"],
  ["SU", "Sunday"],
] as const;

export type Weekday = (typeof WEEKDAYS)[number][0];

/** The timing part of both forms. */
export interface TimingDraft {
  repeat: Repeat;
  /** A one-off's local date and time, as `<input type="datetime-local">` gives it. */
  at: string;
  /** `HH:MM`, for the daily, weekday and weekly cadences. */
  time: string;
  weekday: Weekday;
  /** The RRULE or cron pattern, written out. */
  rule: string;
  timeZone: string;
}

export interface MessageDraft extends TimingDraft {
  markdown: string;
}

export interface DripDraft extends TimingDraft {
  name: string;
  /** Items from a folder on disk, or added here. */
  source: "folder" | "app";
  folder: string;
}

/** A draft's request, or the field it is missing and why. */
export type Checked<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

const refuse = (field: string, message: string): Checked<never> => ({ ok: false, field, message });

/** The zone the browser is in; `UTC` when it will not say. */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** A timing draft to start from: daily at 09:00 in `timeZone`. */
export function timingDraft(repeat: Repeat, timeZone: string): TimingDraft {
  return { repeat, at: "", time: "09:00", weekday: "MO", rule: "", timeZone };
}

const TIME = /^([01]?\d|2[0-3]):([0-5]\d)$/;

/** The RRULE of a common cadence at `time` (`HH:MM`); null for a time that is not one. */
export function cadenceRule(repeat: "daily" | "weekdays" | "weekly", time: string, weekday: Weekday): string | null {
  const match = TIME.exec(time.trim());
  if (!match) return null;
  const at = `BYHOUR=${Number(match[1])};BYMINUTE=${Number(match[2])}`;
  if (repeat === "daily") return `FREQ=DAILY;${at}`;
  const days = repeat === "weekdays" ? "MO,TU,WE,TH,FR" : weekday;
  return `FREQ=WEEKLY;BYDAY=${days};${at}`;
}

/** The timing fields a draft makes: `at`, `rrule` or `cron`, and the zone. */
function timingFields(draft: TimingDraft): Checked<{ at?: string; rrule?: string; cron?: string; timeZone: string }> {
  const timeZone = draft.timeZone.trim();
  if (!timeZone) return refuse("timeZone", "Choose a time zone.");
  switch (draft.repeat) {
    case "once":
      return draft.at.trim()
        ? { ok: true, value: { at: draft.at.trim(), timeZone } }
        : refuse("at", "Choose the date and time.");
    case "rrule":
    case "cron":
      return draft.rule.trim()
        ? { ok: true, value: { [draft.repeat]: draft.rule.trim(), timeZone } }
        : refuse(draft.repeat, draft.repeat === "cron" ? "Write a cron pattern." : "Write an RRULE.");
    default: {
      const rrule = cadenceRule(draft.repeat, draft.time, draft.weekday);
      return rrule ? { ok: true, value: { rrule, timeZone } } : refuse("time", "Give the time as HH:MM.");
    }
  }
}

/** `POST /scheduled-messages` for a draft. */
export function messageFields(draft: MessageDraft): Checked<ScheduledMessageFields> {
  if (!draft.markdown.trim()) return refuse("markdown", "Write the note.");
  const timing = timingFields(draft);
  return timing.ok ? { ok: true, value: { markdown: draft.markdown, ...timing.value } } : timing;
}

/** `POST /drips` for a draft: a drip repeats, so a one-off is refused. */
export function dripFields(draft: DripDraft): Checked<DripFields> {
  const name = draft.name.trim();
  if (!name) return refuse("name", "Name the drip.");
  if (draft.source === "folder" && !draft.folder.trim()) {
    return refuse("folder", "Give the folder's absolute path.");
  }
  if (draft.repeat === "once") return refuse("repeat", "A drip repeats: choose how often.");
  const timing = timingFields(draft);
  if (!timing.ok) return timing;
  // Not "once" (refused above), so the timing has no `at`.
  const folder = draft.source === "folder" ? { folder: draft.folder.trim() } : {};
  return { ok: true, value: { name, ...folder, ...timing.value } };
}

/** An RRULE as stored, without its DTSTART line. */
export function ruleOnly(rrule: string): string {
  const line = rrule.split("\n").find((l) => l.toUpperCase().startsWith("RRULE:"));
  return (line ?? rrule).replace(/^RRULE:/i, "");
}

const DAY_NAMES: Record<string, string> = Object.fromEntries(WEEKDAYS);

/** A simple RRULE in words ("every weekday at 09:00"); null for one words would misstate. */
export function rruleWords(rrule: string): string | null {
  const parts = new Map(
    ruleOnly(rrule)
      .split(";")
      .map((p) => p.split("=") as [string, string | undefined]),
  );
  const known = new Set(["FREQ", "BYDAY", "BYHOUR", "BYMINUTE"]);
  if ([...parts.keys()].some((k) => !known.has(k))) return null;
  const hour = parts.get("BYHOUR");
  const minute = parts.get("BYMINUTE") ?? "0";
  if (!hour || !/^\d+$/.test(hour) || !/^\d+$/.test(minute)) return null;
  const at = `at ${hour.padStart(2, "0")}:${minute.padStart(2, "0")}`;
  const days = parts.get("BYDAY");
  switch (parts.get("FREQ")) {
    case "DAILY":
      return days ? null : `every day ${at}`;
    case "WEEKLY": {
      if (days === "MO,TU,WE,TH,FR") return `every weekday ${at}`;
      const names = days?.split(",").map((d) => DAY_NAMES[d]);
      if (!names || names.some((n) => n === undefined)) return null;
      return `every ${names.join(", ")} ${at}`;
    }
    default:
      return null;
  }
}

/** A message's or drip's timing, said for a card. */
export function timingText(timed: { at?: string | null; cron: string | null; rrule: string | null }): string {
  if (timed.at) return "Once";
  if (timed.cron) return `Cron ${timed.cron}`;
  if (timed.rrule) {
    const words = rruleWords(timed.rrule);
    return words ? words[0]!.toUpperCase() + words.slice(1) : `RRULE ${ruleOnly(timed.rrule)}`;
  }
  return "";
}

/** A moment still to come, in words: "in 5 min", "in 3 h", "in 2 d"; "now" once it has come. */
export function untilText(iso: string, now: number): string {
  const minutes = Math.round((Date.parse(iso) - now) / 60_000);
  if (Number.isNaN(minutes) || minutes <= 0) return "now";
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `in ${hours} h` : `in ${Math.round(hours / 24)} d`;
}

/** The time of `iso` on the wall of `timeZone`: "5 Jan 2026, 09:30"; `iso` itself for a zone the browser lacks. */
export function wallTime(iso: string, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat("en-GB", { timeZone, dateStyle: "medium", timeStyle: "short" }).format(
      new Date(iso),
    );
  } catch {
    return iso;
  }
}

export const STATE_LABEL: Record<CadenceState, string> = { active: "Active", paused: "Paused", done: "Done" };

/** Active first, soonest first; then paused; then done, latest first. */
export function orderMessages(messages: readonly ScheduledMessage[]): ScheduledMessage[] {
  const rank: Record<CadenceState, number> = { active: 0, paused: 1, done: 2 };
  return [...messages].sort(
    (a, b) =>
      rank[a.state] - rank[b.state] ||
      (a.state === "done"
        ? (b.lastDeliveredAt ?? "").localeCompare(a.lastDeliveredAt ?? "")
        : (a.nextAt ?? "").localeCompare(b.nextAt ?? "")),
  );
}

/** What a drip's card says of its queue, and the tag that goes with it. */
export function dripStatus(drip: Drip): { tag: string; tone: "ok" | "quiet" | "warn"; queue: string } {
  const queue = `${drip.remaining} waiting · ${drip.released} released`;
  if (drip.problem) return { tag: "Folder unreadable", tone: "warn", queue };
  if (drip.state === "paused") return { tag: "Paused", tone: "quiet", queue };
  if (drip.state === "done") return { tag: "Ended", tone: "quiet", queue };
  if (drip.exhausted) {
    const more = drip.folder ? "add files to its folder" : "add items";
    return { tag: "Exhausted", tone: "warn", queue: `Nothing left to release: ${more}` };
  }
  return { tag: "Active", tone: "ok", queue };
}

/** How an item is shown: HTML in a sandboxed frame (a plain chip with previews off), the rest as text. */
export type ItemView = "frame" | "chip" | "markdown" | "text";

export function itemView(kind: DripItemKind, previewsOn: boolean): ItemView {
  if (kind === "html") return previewsOn ? "frame" : "chip";
  return kind;
}

/** The sandboxed preview of an HTML item, on the UI server's API. */
export function previewPath(dripId: string, itemId: string): string {
  return `/api/drips/${encodeURIComponent(dripId)}/items/${encodeURIComponent(itemId)}/preview`;
}

/** The item a link opened the page on (`?item=…`), if any. */
export function itemParam(search: string): string | null {
  return new URLSearchParams(search).get("item");
}

/** A refusal as the form shows it: beside its field when the form has one, else above the buttons. */
export function refusal(error: unknown, fields: readonly string[]): { field: string | null; message: string } {
  const message = error instanceof Error ? error.message : "Something went wrong.";
  const field = error instanceof ApiError && error.field && fields.includes(error.field) ? error.field : null;
  return { field, message };
}
